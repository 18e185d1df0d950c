//===- tile-tune-run.cpp - The GPU side of the autotuner ------------------===//
//
//   tile-tune-run DIR --shape=4096x4096x4096 [--cache=FILE] [--force]
//                 [--runs=N] [--quiet]
//
// Times and validates the GEMM candidates that `tile-tune --out-dir=DIR`
// compiled (it needs only the runtime, so it runs on machines without
// LLVM): each candidate is launched once and checked against a float64
// reference on sampled outputs (a wrong one is rejected, never chosen),
// then timed (3 warm-ups; 10 runs, each after an L2 flush; median). A
// candidate the device cannot run (shared memory, occupancy) is pruned
// first, with the reason. The winner is cached under (GPU, compute
// capability, generator, shape, types, toolchain); a later run with the
// same key reuses it without a search. While it searches, one progress line
// per candidate goes to standard error (candidate k of n, elapsed time, its
// status and time, the best so far; --quiet: none); the table and the
// winner go to standard output at the end.
//
//===----------------------------------------------------------------------===//

#include "common/Flags.h"
#include "common/GemmArgs.h"

#include "tile/runtime/Half.h"
#include "tile/runtime/KernelIndex.h"
#include "tile/runtime/Progress.h"
#include "tile/runtime/RelativeError.h"
#include "tile/runtime/Runtime.h"
#include "tile/runtime/TuneCache.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <optional>
#include <random>

using namespace tile;
/// The configuration keys of the gemm generator's variants.
namespace key = config::gemm;

namespace {

struct Options {
  std::string dir, cache = "tile-tune-cache.json";
  int64_t m = 0, n = 0, k = 0;
  bool force = false, quiet = false;
  int runs = 10;
};

/// The integer `text` is, all of it, from 1 to `max`.
std::optional<int64_t> positive(const std::string &text, int64_t max) {
  if (text.empty() || text.size() > 18 ||
      text.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  int64_t value = std::stoll(text);
  if (value < 1 || value > max)
    return std::nullopt;
  return value;
}

// Limits of the search problem: each of A (M x K), B (K x N) and C (M x N)
// is allocated on the host and the device.
constexpr int64_t kMaxDim = int64_t(1) << 20;
constexpr int64_t kMaxElements = int64_t(1) << 32;
constexpr int kMaxRuns = 10000;

/// The options, or nullopt after saying on stderr what is wrong.
std::optional<Options> parse(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const char *flag) { return bench::flagValue(arg, flag); };
    if (auto v = value("--shape")) {
      // MxNxK, each from 1 to kMaxDim.
      size_t x1 = v->find('x'), x2 = x1 == std::string::npos
                                         ? std::string::npos
                                         : v->find('x', x1 + 1);
      std::optional<int64_t> m, n, k;
      if (x2 != std::string::npos) {
        m = positive(v->substr(0, x1), kMaxDim);
        n = positive(v->substr(x1 + 1, x2 - x1 - 1), kMaxDim);
        k = positive(v->substr(x2 + 1), kMaxDim);
      }
      if (!m || !n || !k) {
        std::cerr << "tile-tune-run: expected --shape=MxNxK with M, N and K "
                     "from 1 to "
                  << kMaxDim << ", but got '" << *v << "'\n";
        return std::nullopt;
      }
      o.m = *m, o.n = *n, o.k = *k;
      for (int64_t elements : {o.m * o.k, o.k * o.n, o.m * o.n})
        if (elements > kMaxElements) {
          std::cerr << "tile-tune-run: --shape=" << *v << " has a matrix of "
                    << elements << " elements, at most " << kMaxElements
                    << " are allocated\n";
          return std::nullopt;
        }
    } else if (auto v = value("--cache")) {
      o.cache = *v;
    } else if (auto v = value("--runs")) {
      std::optional<int64_t> runs = positive(*v, kMaxRuns);
      if (!runs) {
        std::cerr << "tile-tune-run: expected --runs from 1 to " << kMaxRuns
                  << ", but got '" << *v << "'\n";
        return std::nullopt;
      }
      o.runs = int(*runs);
    } else if (arg == "--force") {
      o.force = true;
    } else if (arg == "--quiet") {
      o.quiet = true;
    } else if (!arg.empty() && arg[0] != '-' && o.dir.empty()) {
      o.dir = arg;
    } else {
      std::cerr << "tile-tune-run: unexpected argument '" << arg << "'\n";
      return std::nullopt;
    }
  }
  if (o.dir.empty() || o.m <= 0) {
    std::cerr << "tile-tune-run: give the folder of a tile-tune search and "
                 "--shape\n";
    return std::nullopt;
  }
  return o;
}

/// What tune.json says about the search (written by tile-tune).
struct Search {
  std::string generator, dtypes, toolchain;
  bool inBf16 = false;
  std::string outType;
  /// How A and B are stored ("nn", "nt", "tn", "tt"); "nn" in searches
  /// written before tune.json had it.
  std::string layout = "nn";
  bool transposeA() const { return layout[0] == 't'; }
  bool transposeB() const { return layout[1] == 't'; }
};

/// Reads `dir`/tune.json; nullopt after saying on stderr what is wrong
/// with it (missing, not JSON, truncated, a field missing or of another
/// type, a search this program cannot run).
std::optional<Search> readSearch(const std::string &dir) {
  std::string path = dir + "/tune.json";
  std::ifstream file(path);
  if (!file) {
    std::cerr << "tile-tune-run: no " << path
              << " (run tile-tune --out-dir=" << dir << ")\n";
    return std::nullopt;
  }
  auto invalid = [&](const std::string &why) {
    std::cerr << "tile-tune-run: " << path
              << " is not a tile-tune search: " << why << "\n";
    return std::nullopt;
  };
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(file);
  } catch (const nlohmann::json::exception &e) {
    return invalid(e.what());
  }
  if (!json.is_object() || json.value("format", nlohmann::json()) !=
                               nlohmann::json("tile-tune-search"))
    return invalid("expected an object with \"format\": "
                   "\"tile-tune-search\"");
  Search search;
  for (auto [field, out] : {std::pair{"generator", &search.generator},
                            {"dtypes", &search.dtypes},
                            {"toolchain", &search.toolchain}}) {
    if (!json.contains(field) || !json[field].is_string())
      return invalid(std::string("expected a string \"") + field + "\"");
    *out = json[field].get<std::string>();
  }
  if (search.generator != "gemm")
    return invalid("generator '" + search.generator +
                   "': tile-tune-run times GEMM searches only");
  size_t arrow = search.dtypes.find("->");
  std::string in = search.dtypes.substr(0, arrow);
  search.outType =
      arrow == std::string::npos ? "" : search.dtypes.substr(arrow + 2);
  if ((in != "f16" && in != "bf16") ||
      (search.outType != "f32" && search.outType != "f16" &&
       search.outType != "bf16"))
    return invalid("dtypes '" + search.dtypes +
                   "': expected IN->OUT, IN f16 or bf16, OUT f32, f16 or "
                   "bf16");
  search.inBf16 = in == "bf16";
  if (json.contains("layout")) {
    const nlohmann::json &layout = json["layout"];
    const std::vector<std::string> layouts{"nn", "nt", "tn", "tt"};
    if (!layout.is_string() ||
        std::find(layouts.begin(), layouts.end(), layout.get<std::string>()) ==
            layouts.end())
      return invalid("expected \"layout\" to be \"nn\", \"nt\", \"tn\" or "
                     "\"tt\", but got " +
                     layout.dump());
    search.layout = layout.get<std::string>();
  }
  return search;
}

/// Why candidate `v` cannot run on `device`, read from its manifest before
/// loading it (loading would fail): more dynamic shared memory per block
/// than the device allows. Empty if it fits.
std::string sharedMemoryMisfit(const rt::KernelVariant &v,
                               const rt::Device &device) {
  const rt::KernelInfo *info =
      rt::loadManifestFile(v.manifestPath).findKernel(v.name);
  int limit = device.sharedMemoryPerBlockOptin();
  if (!info || info->dynamicSharedMemory <= unsigned(limit))
    return "";
  return "pruned on this GPU: needs " +
         std::to_string(info->dynamicSharedMemory / 1024) +
         " KiB of shared memory per block, " + device.name() + " allows " +
         std::to_string(limit / 1024) + " KiB";
}

std::string utcNow() {
  std::time_t now = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%MZ", std::gmtime(&now));
  return text;
}

} // namespace

static int run(int argc, char **argv) {
  rt::Stopwatch clock;
  std::optional<Options> options = parse(argc, argv);
  if (!options) {
    std::cerr << "usage: tile-tune-run DIR --shape=MxNxK [--cache=FILE] "
                 "[--force] [--runs=N] [--quiet]\n";
    return 2;
  }
  std::optional<Search> search = readSearch(options->dir);
  if (!search)
    return 2;
  const std::string &generator = search->generator;
  std::string indexError;
  auto candidates = rt::loadKernelIndex(options->dir, generator, &indexError);
  if (!candidates) {
    std::cerr << "tile-tune-run: " << indexError << "\n";
    return 2;
  }
  if (candidates->empty()) {
    std::cerr << "tile-tune-run: no candidates in " << options->dir << "\n";
    return 2;
  }
  std::string why;
  if (!rt::isDriverAvailable(&why) || rt::deviceCount() == 0) {
    std::cout << "SKIPPED: no CUDA GPU (" << (why.empty() ? "no device" : why)
              << "): " << candidates->size() << " candidates not timed\n";
    return 2;
  }
  rt::Device device = rt::Device::open();
  rt::ComputeCapability cc = device.computeCapability();
  std::string shape = std::to_string(options->m) + "x" +
                      std::to_string(options->n) + "x" +
                      std::to_string(options->k);
  rt::TuneKey key{
      device.name(),  std::to_string(cc.major) + "." + std::to_string(cc.minor),
      generator,      shape,
      search->dtypes, search->toolchain,
      search->layout};
  rt::TuneCache cache(options->cache);
  if (!cache.error().empty())
    std::cerr << "tile-tune-run: " << options->cache
              << " is not a tuning cache (" << cache.error()
              << "): searching, and replacing it with this search's result\n";
  if (!options->force)
    if (std::optional<rt::TuneResult> hit = cache.lookup(key)) {
      std::cout << "cached: " << hit->winner << ", " << hit->medianUs
                << " us (measured " << hit->date << "), key " << key.toJson()
                << "; no search (--force searches)\n";
      return 0;
    }

  // Random normal inputs, rounded to the input type; the reference uses the
  // rounded values.
  const int64_t m = options->m, n = options->n, k = options->k;
  bool inBf16 = search->inBf16;
  const std::string &outType = search->outType;
  std::mt19937 rng(7);
  std::normal_distribution<float> dist(0.0f, 1.0f);
  std::vector<uint16_t> a(m * k), b(k * n);
  for (auto &x : a)
    x = rt::floatToLow(dist(rng), inBf16);
  for (auto &x : b)
    x = rt::floatToLow(dist(rng), inBf16);
  // Stored as the search's layout says: A K x M, B N x K when transposed
  // (the reference below reads the M x K and K x N values).
  rt::DeviceBuffer A = rt::DeviceBuffer::fromHost(
      device, search->transposeA() ? bench::transposed(a, m, k) : a);
  rt::DeviceBuffer B = rt::DeviceBuffer::fromHost(
      device, search->transposeB() ? bench::transposed(b, k, n) : b);
  size_t outBytes = outType == "f32" ? 4 : 2;
  rt::DeviceBuffer C(device, m * n * outBytes);
  // Sampled outputs and their float64 values.
  std::vector<std::pair<int64_t, int64_t>> samples;
  std::uniform_int_distribution<int64_t> row(0, m - 1), col(0, n - 1);
  samples.push_back({0, 0});
  samples.push_back({m - 1, n - 1});
  while (samples.size() < 512)
    samples.push_back({row(rng), col(rng)});
  std::vector<double> reference;
  for (auto [i, j] : samples) {
    double sum = 0;
    for (int64_t p = 0; p < k; ++p)
      sum += double(rt::lowToFloat(a[i * k + p], inBf16)) *
             rt::lowToFloat(b[p * n + j], inBf16);
    reference.push_back(sum);
  }
  double tolerance = outType == "f32" ? 1e-4 : outType == "f16" ? 2e-3 : 2e-2;
  // A buffer larger than the L2 (50 MB on the H200), copied between timed
  // runs so that each starts with A and B out of the cache.
  const size_t flushBytes = size_t(256) << 20;
  rt::DeviceBuffer flushFrom(device, flushBytes), flushTo(device, flushBytes);
  rt::Stream stream(device);
  rt::Event start(device), stop(device);

  struct Row {
    std::string name, status;
    double medianUs = 0;
    rt::KernelConfig config;
  };
  std::vector<Row> rows;
  double flops = 2.0 * m * n * k;
  // Validates, then times one candidate; its status says why it was not
  // timed. The compile side pruned against a table or a saved description
  // of the GPU; this GPU decides, so a candidate that does not fit is
  // pruned here, with the reason, instead of failing to load or launch.
  auto evaluate = [&](const rt::KernelVariant &v, Row &row) {
    if (!bench::keepsDivisibility(v.config, m, n, k)) {
      row.status = "skipped: compiled for rows that are multiples of " +
                   std::to_string(v.config.getOrDefault(key::divisibility)) +
                   ", which this shape's are not";
      return;
    }
    row.status = sharedMemoryMisfit(v, device);
    if (!row.status.empty())
      return;
    rt::Kernel kernel =
        rt::Module::load(device, v.cubinPath, v.manifestPath).kernel(v.name);
    if (kernel.maxActiveBlocksPerMultiprocessor() == 0) {
      row.status = "pruned on this GPU: no block fits on a multiprocessor "
                   "(occupancy API)";
      return;
    }
    std::vector<rt::Arg> args =
        bench::gemmArgs(v.config, A, B, C, /*bias=*/nullptr, m, n, k);
    kernel.launch(stream, args);
    stream.synchronize();
    rt::RelativeError error;
    if (outType == "f32") {
      std::vector<float> out = C.download<float>();
      for (size_t s = 0; s < samples.size(); ++s)
        error.add(out[samples[s].first * n + samples[s].second], reference[s]);
    } else {
      std::vector<uint16_t> out = C.download<uint16_t>();
      for (size_t s = 0; s < samples.size(); ++s)
        error.add(rt::lowToFloat(out[samples[s].first * n + samples[s].second],
                                 outType == "bf16"),
                  reference[s]);
    }
    if (!error.finite || !(error.value() <= tolerance)) {
      char text[96];
      std::snprintf(text, sizeof(text), "rejected: relative error %.3g > %.1g",
                    error.value(), tolerance);
      row.status = text;
      return;
    }
    row.status = "ok";
    for (int w = 0; w < 3; ++w)
      kernel.launch(stream, args);
    std::vector<double> times;
    for (int r = 0; r < options->runs; ++r) {
      flushTo.copyFromAsync(flushFrom, flushBytes, stream);
      start.record(stream);
      kernel.launch(stream, args);
      stop.record(stream);
      stop.synchronize();
      times.push_back(rt::Event::elapsedMs(start, stop) * 1e3);
    }
    std::sort(times.begin(), times.end());
    row.medianUs = times[times.size() / 2];
  };
  if (!options->quiet)
    std::cerr << "tile-tune-run: timing " << candidates->size()
              << " candidates at " << shape << " (" << search->dtypes << ", "
              << search->layout << ") on " << key.gpu << std::endl;
  rt::BestSoFar bestSoFar;
  for (size_t c = 0; c < candidates->size(); ++c) {
    const rt::KernelVariant &v = (*candidates)[c];
    Row row{v.name, "", 0, v.config};
    try {
      evaluate(v, row);
    } catch (const std::exception &error) {
      // rt::Error from the runtime or a configuration key of the wrong type
      // (KernelConfig); a wrong value (gemmArgs, keepsDivisibility).
      row.status = std::string("failed: ") + error.what();
    }
    // Standard error, flushed: a long search shows how far it got.
    bestSoFar.offer(row.name, row.medianUs);
    if (!options->quiet)
      std::cerr << rt::progressLine(
                       c + 1, candidates->size(), clock.seconds(), row.name,
                       rt::timingDetail(row.name, row.status, row.medianUs,
                                        flops, bestSoFar))
                << std::endl;
    rows.push_back(row);
  }

  std::cout << "\n";
  std::printf("%-44s %10s %9s  %s\n", "candidate", "median us", "TFLOP/s",
              "status");
  const Row *best = nullptr;
  for (const Row &r : rows) {
    if (r.medianUs > 0)
      std::printf("%-44s %10.1f %9.1f  %s\n", r.name.c_str(), r.medianUs,
                  flops / r.medianUs / 1e6, r.status.c_str());
    else
      std::printf("%-44s %10s %9s  %s\n", r.name.c_str(), "-", "-",
                  r.status.c_str());
    if (r.medianUs > 0 && (!best || r.medianUs < best->medianUs))
      best = &r;
  }
  if (!best) {
    std::cout << "no valid candidate\n";
    return 1;
  }
  std::cout << "winner: " << best->name << " (" << best->medianUs << " us, "
            << flops / best->medianUs / 1e6 << " TFLOP/s) on " << key.gpu
            << "\n";
  if (!cache.store({key, best->name, best->config, best->medianUs, utcNow()}))
    std::cerr << "tile-tune-run: cannot write " << options->cache << "\n";
  else
    std::cout << "cached in " << options->cache << "\n";
  return 0;
}

int main(int argc, char **argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception &e) {
    // Device memory or a stream that the runtime cannot get (rt::Error),
    // host memory (std::bad_alloc).
    std::cerr << "tile-tune-run: " << e.what() << "\n";
    return 1;
  }
}
