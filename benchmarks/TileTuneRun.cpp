//===- TileTuneRun.cpp - The GPU side of the autotuner --------------------===//
//
//   tile-tune-run DIR --shape=4096x4096x4096 [--cache=FILE] [--force]
//
// Times and validates the GEMM candidates that `tile-tune --out-dir=DIR`
// compiled (it needs only the runtime, so it runs on machines without
// LLVM): each candidate is launched once and checked against a float64
// reference on sampled outputs (a wrong one is rejected, never chosen),
// then timed (3 warm-ups; 10 runs, each after an L2 flush; median). A
// candidate the device cannot run (shared memory, occupancy) is pruned
// first, with the reason. The winner is cached under (GPU, compute
// capability, generator, shape, types, toolchain); a later run with the
// same key reuses it without a search.
//
//===----------------------------------------------------------------------===//

#include "common/Flags.h"
#include "common/GemmArgs.h"
#include "common/Half.h"
#include "common/KernelIndex.h"
#include "common/RelativeError.h"
#include "common/TuneCache.h"

#include "tile/runtime/Runtime.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <optional>
#include <random>

using namespace tile;

namespace {

struct Options {
  std::string dir, cache = "tile-tune-cache.json";
  int64_t m = 0, n = 0, k = 0;
  bool force = false;
  int runs = 10;
};

std::optional<Options> parse(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const char *flag) { return bench::flagValue(arg, flag); };
    if (auto v = value("--shape")) {
      if (std::sscanf(v->c_str(), "%ldx%ldx%ld", &o.m, &o.n, &o.k) != 3)
        return std::nullopt;
    } else if (auto v = value("--cache")) {
      o.cache = *v;
    } else if (auto v = value("--runs")) {
      o.runs = std::max(1, std::atoi(v->c_str()));
    } else if (arg == "--force") {
      o.force = true;
    } else if (arg[0] != '-' && o.dir.empty()) {
      o.dir = arg;
    } else {
      return std::nullopt;
    }
  }
  if (o.dir.empty() || o.m <= 0 || o.n <= 0 || o.k <= 0)
    return std::nullopt;
  return o;
}

/// Why candidate `v` cannot run on `device`, read from its manifest before
/// loading it (loading would fail): more dynamic shared memory per block
/// than the device allows. Empty if it fits.
std::string sharedMemoryMisfit(const bench::KernelVariant &v,
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

int main(int argc, char **argv) {
  std::optional<Options> options = parse(argc, argv);
  if (!options) {
    std::cerr << "usage: tile-tune-run DIR --shape=MxNxK [--cache=FILE] "
                 "[--force] [--runs=N]\n";
    return 2;
  }
  std::ifstream searchFile(options->dir + "/tune.json");
  if (!searchFile) {
    std::cerr << "tile-tune-run: no " << options->dir
              << "/tune.json (run tile-tune --out-dir=" << options->dir
              << ")\n";
    return 2;
  }
  nlohmann::json search = nlohmann::json::parse(searchFile);
  std::string generator = search.at("generator");
  auto candidates = bench::loadVariants(options->dir, generator);
  if (!candidates || candidates->empty()) {
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
  bench::TuneKey key{device.name(),
                     std::to_string(cc.major) + "." + std::to_string(cc.minor),
                     generator,
                     shape,
                     search.at("dtypes"),
                     search.at("toolchain")};
  bench::TuneCache cache(options->cache);
  if (!options->force)
    if (std::optional<bench::TuneResult> hit = cache.lookup(key)) {
      std::cout << "cached: " << hit->winner << ", " << hit->medianUs
                << " us (measured " << hit->date << "), key "
                << key.toJson().dump() << "; no search (--force searches)\n";
      return 0;
    }

  // Random normal inputs, rounded to the input type; the reference uses the
  // rounded values.
  const int64_t m = options->m, n = options->n, k = options->k;
  std::string dtypes = key.dtypes;
  bool inBf16 = dtypes.rfind("bf16", 0) == 0;
  std::string outType = dtypes.substr(dtypes.find("->") + 2);
  std::mt19937 rng(7);
  std::normal_distribution<float> dist(0.0f, 1.0f);
  std::vector<uint16_t> a(m * k), b(k * n);
  for (auto &x : a)
    x = bench::floatToLow(dist(rng), inBf16);
  for (auto &x : b)
    x = bench::floatToLow(dist(rng), inBf16);
  rt::DeviceBuffer A(device, a.size() * 2), B(device, b.size() * 2);
  A.copyFromHost(a.data(), a.size() * 2);
  B.copyFromHost(b.data(), b.size() * 2);
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
      sum += double(bench::lowToFloat(a[i * k + p], inBf16)) *
             bench::lowToFloat(b[p * n + j], inBf16);
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
    nlohmann::json config;
  };
  std::vector<Row> rows;
  double flops = 2.0 * m * n * k;
  // Validates, then times one candidate; its status says why it was not
  // timed. The compile side pruned against a table or a saved description
  // of the GPU; this GPU decides, so a candidate that does not fit is
  // pruned here, with the reason, instead of failing to load or launch.
  auto evaluate = [&](const bench::KernelVariant &v, Row &row) {
    if (!bench::keepsDivisibility(v.config, m, n, k)) {
      row.status = "skipped: compiled for rows that are multiples of " +
                   std::to_string(v.config.value("divisibility", 1)) +
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
    bench::RelativeError error;
    if (outType == "f32") {
      std::vector<float> out = C.download<float>();
      for (size_t s = 0; s < samples.size(); ++s)
        error.add(out[samples[s].first * n + samples[s].second], reference[s]);
    } else {
      std::vector<uint16_t> out = C.download<uint16_t>();
      for (size_t s = 0; s < samples.size(); ++s)
        error.add(
            bench::lowToFloat(out[samples[s].first * n + samples[s].second],
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
  for (size_t c = 0; c < candidates->size(); ++c) {
    const bench::KernelVariant &v = (*candidates)[c];
    Row row{v.name, "", 0, v.config};
    try {
      evaluate(v, row);
    } catch (const rt::Error &error) {
      row.status = std::string("failed: ") + error.what();
    }
    std::cout << "[" << c + 1 << "/" << candidates->size() << "] " << row.name
              << ": " << row.status;
    if (row.medianUs > 0)
      std::cout << ", " << row.medianUs << " us";
    std::cout << std::endl;
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
