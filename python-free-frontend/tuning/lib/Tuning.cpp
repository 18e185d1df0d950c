//===- Tuning.cpp - Configuration spaces and static pruning ---------------===//

#include "tile/Frontend/Tuning.h"

#include "tile/Target/KernelReport.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <mutex>
#include <thread>

namespace tile::fe {

std::optional<DeviceLimits> limitsForChip(const std::string &chip) {
  // Shared memory per block with the opt-in (cuFuncSetAttribute), from the
  // CUDA C++ programming guide's compute-capability table.
  int64_t sharedKiB = chip == "sm_90"                        ? 227
                      : chip == "sm_80"                      ? 163
                      : (chip == "sm_86" || chip == "sm_89") ? 99
                                                             : 0;
  if (!sharedKiB)
    return std::nullopt;
  DeviceLimits limits;
  limits.name = chip + " (compute-capability table)";
  limits.chip = chip;
  limits.maxSharedPerBlock = sharedKiB * 1024;
  limits.registersPerBlock = 65536;
  limits.maxThreadsPerBlock = 1024;
  return limits;
}

/// The deepest nesting of arrays and objects in `text` (outside strings):
/// llvm::json::parse recurses once per level, so a file nested 10^6 deep
/// would overflow the stack.
static size_t jsonNesting(llvm::StringRef text) {
  size_t depth = 0, deepest = 0;
  bool inString = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

std::optional<DeviceLimits> readDeviceLimits(const std::string &path,
                                             std::string &error) {
  // At most 1 MiB (tile-device-info writes a few hundred bytes per GPU), in
  // chunks: a pipe works, /dev/zero does not read forever.
  constexpr size_t kMaxBytes = 1 << 20;
  std::string text;
  {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      error = std::strerror(errno);
      return std::nullopt;
    }
    char chunk[65536];
    while (in.read(chunk, sizeof(chunk)) || in.gcount() > 0) {
      text.append(chunk, in.gcount());
      if (text.size() > kMaxBytes) {
        error = llvm::formatv("not the output of tile-device-info --json: "
                              "longer than {0} bytes",
                              kMaxBytes);
        return std::nullopt;
      }
    }
  }
  // tile-device-info's output nests 3 deep.
  constexpr size_t kMaxNesting = 64;
  if (size_t nesting = jsonNesting(text); nesting > kMaxNesting) {
    error = llvm::formatv("not the output of tile-device-info --json: its "
                          "arrays and objects nest {0} deep, at most {1} "
                          "are read",
                          nesting, kMaxNesting);
    return std::nullopt;
  }
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(text);
  if (!json) {
    error = "not JSON: " + llvm::toString(json.takeError());
    return std::nullopt;
  }
  const llvm::json::Object *root = json->getAsObject();
  const llvm::json::Array *devices = root ? root->getArray("devices") : nullptr;
  if (!root || root->getString("format") != "tile-device-info" || !devices) {
    error = "not the output of tile-device-info --json";
    return std::nullopt;
  }
  if (devices->empty()) {
    error = "lists no device";
    if (std::optional<llvm::StringRef> why = root->getString("no_gpu_reason"))
      error += " (" + why->str() + ")";
    return std::nullopt;
  }
  const llvm::json::Object *device = devices->front().getAsObject();
  std::optional<llvm::StringRef> name =
      device ? device->getString("name") : std::nullopt;
  std::optional<llvm::StringRef> deviceChip =
      device ? device->getString("chip") : std::nullopt;
  std::optional<int64_t> shared =
      device ? device->getInteger("shared_memory_per_block_optin")
             : std::nullopt;
  std::optional<int64_t> registers =
      device ? device->getInteger("registers_per_block") : std::nullopt;
  std::optional<int64_t> threads =
      device ? device->getInteger("max_threads_per_block") : std::nullopt;
  if (!name || !deviceChip || !shared || !registers || !threads) {
    error = "its first device lacks name, chip, "
            "shared_memory_per_block_optin, registers_per_block or "
            "max_threads_per_block";
    return std::nullopt;
  }
  for (auto [field, value] :
       {std::pair{"shared_memory_per_block_optin", *shared},
        {"registers_per_block", *registers},
        {"max_threads_per_block", *threads}})
    if (value < 1 || value > (int64_t(1) << 30)) {
      error = llvm::formatv("its first device has {0} = {1}, expected a "
                            "positive count",
                            field, value);
      return std::nullopt;
    }
  DeviceLimits limits;
  limits.name = name->str();
  limits.chip = deviceChip->str();
  limits.maxSharedPerBlock = *shared;
  limits.registersPerBlock = *registers;
  limits.maxThreadsPerBlock = *threads;
  return limits;
}

/// Each configuration of `configs` once per value of an axis, in order:
/// `values(c)` gives the axis's values for configuration `c`, `set` sets
/// one.
template <typename T, typename Values, typename Set>
static void expand(std::vector<GemmConfig> &configs, Values values, Set set) {
  std::vector<GemmConfig> expanded;
  for (const GemmConfig &c : configs)
    for (const T &value : values(c)) {
      GemmConfig next = c;
      set(next, value);
      expanded.push_back(std::move(next));
    }
  configs = std::move(expanded);
}

TuneSpace gemmTuneSpace(const std::string &inDtype, const std::string &outDtype,
                        const GemmSpaceAxes &axes) {
  GemmConfig base;
  base.inDtype = inDtype;
  base.outDtype = outDtype;
  base.transposeA = axes.transposeA;
  base.transposeB = axes.transposeB;
  std::vector<GemmConfig> configs{base};
  // The same values for every configuration.
  auto all = [&](auto field, const auto &axis) {
    using T = typename std::decay_t<decltype(axis)>::value_type;
    expand<T>(
        configs, [&](const GemmConfig &) -> const auto & { return axis; },
        [field](GemmConfig &c, T v) { c.*field = v; });
  };
  all(&GemmConfig::warpSpecialized, axes.warpSpecialized);
  all(&GemmConfig::blockM, axes.blockM);
  all(&GemmConfig::blockN, axes.blockN);
  all(&GemmConfig::blockK, axes.blockK);
  all(&GemmConfig::stages, axes.stages);
  // Warp-specialized: one warpgroup per 64 rows and the producer's, not
  // the threads axis.
  expand<int64_t>(
      configs,
      [&](const GemmConfig &c) {
        return c.warpSpecialized
                   ? std::vector<int64_t>{GemmConfig::warpSpecializedThreads(
                         c.blockM)}
                   : axes.threads;
      },
      [](GemmConfig &c, int64_t v) { c.threads = v; });
  all(&GemmConfig::rasterPanel, axes.rasterPanel);
  all(&GemmConfig::divisibility, axes.divisibility);
  all(&GemmConfig::splitK, axes.splitK);
  all(&GemmConfig::persistent, axes.persistent);
  all(&GemmConfig::tmaStore, axes.tmaStore);
  // Band widths apply to TMA stores alone.
  expand<int64_t>(
      configs,
      [&](const GemmConfig &c) {
        return c.tmaStore ? axes.tmaStoreColumns : std::vector<int64_t>{0};
      },
      [](GemmConfig &c, int64_t v) { c.tmaStoreColumns = v; });
  // Clusters are a form of the persistent tile loop.
  expand<int64_t>(
      configs,
      [&](const GemmConfig &c) {
        return c.persistent ? axes.clusterM : std::vector<int64_t>{1};
      },
      [](GemmConfig &c, int64_t v) { c.clusterM = v; });
  // Ping-pong is a form of the persistent tile loop without clusters, its
  // body one compute warpgroup's (tiles that do not fit one are pruned).
  expand<int64_t>(
      configs,
      [&](const GemmConfig &c) {
        return c.persistent && c.clusterM == 1 ? axes.consumers
                                               : std::vector<int64_t>{1};
      },
      [](GemmConfig &c, int64_t v) {
        c.consumers = v;
        if (c.warpSpecialized)
          c.threads = GemmConfig::warpSpecializedThreads(c.blockM, v);
      });

  // C^T = B^T A^T: a form of the warp-specialized pipeline on an NN GEMM
  // that stores C itself; a compute warpgroup per 64 of block_n.
  expand<bool>(
      configs,
      [&](const GemmConfig &c) {
        bool swappable = c.warpSpecialized && c.splitK == 1 && !c.persistent &&
                         !c.tmaStore && !c.transposeA && !c.transposeB;
        return swappable ? axes.swapAB : std::vector<bool>{false};
      },
      [](GemmConfig &c, bool v) {
        c.swapAB = v;
        if (v)
          c.threads = GemmConfig::warpSpecializedThreads(c.blockN);
      });

  // Stream-K: the partial round of a persistent tile walk in K chunks.
  expand<bool>(
      configs,
      [&](const GemmConfig &c) {
        return c.persistent && c.clusterM == 1 && c.consumers == 1
                   ? axes.streamK
                   : std::vector<bool>{false};
      },
      [](GemmConfig &c, bool v) { c.streamK = v; });

  TuneSpace space;
  space.generator = "gemm";
  for (const GemmConfig &c : configs) {
    // Persistent kernels and TMA stores are forms of the warp-specialized
    // pipeline without split-K.
    if ((c.persistent || c.tmaStore) && (!c.warpSpecialized || c.splitK > 1))
      continue;
    space.candidates.push_back(gemmVariant(c));
  }
  return space;
}

/// The first line of a diagnostic dump without its location: it says it;
/// the rest are notes.
static std::string firstError(const std::string &diagnostics) {
  std::string first = diagnostics.substr(0, diagnostics.find('\n'));
  size_t error = first.find("error: ");
  return error == std::string::npos ? first : first.substr(error + 7);
}

std::vector<TuneCandidate> pruneStatically(const TuneSpace &space,
                                           const DeviceLimits &limits) {
  std::vector<TuneCandidate> candidates;
  for (const Variant &variant : space.candidates) {
    TuneCandidate candidate;
    candidate.variant = variant;
    candidate.name = variant.name;
    // The target's limits (the generator checks the largest chip's).
    int64_t threads =
        variant.config.getInteger(config::gemm::threads.name).value_or(0);
    if (threads > limits.maxThreadsPerBlock)
      candidate.pruned.push_back(
          llvm::formatv("{0} threads, {1} allows {2} per block", threads,
                        limits.name, limits.maxThreadsPerBlock));
    if (variant.sharedMemoryBytes > limits.maxSharedPerBlock)
      candidate.pruned.push_back(llvm::formatv(
          "needs {0} KiB of shared memory, {1} allows {2} KiB per block",
          variant.sharedMemoryBytes / 1024, limits.name,
          limits.maxSharedPerBlock / 1024));
    // The generator's own rules: its validate() (sizes, stages, registers)
    // when building, then the dialect's verifier (warps must tile the block
    // in whole MMA tiles, copies must spread over the threads, ...).
    try {
      Program program;
      variant.build(program);
      std::string diagnostics = program.verify();
      if (!diagnostics.empty())
        candidate.pruned.push_back(firstError(diagnostics));
    } catch (const std::exception &e) {
      candidate.pruned.push_back(e.what());
    }
    candidates.push_back(std::move(candidate));
  }
  return candidates;
}

void compileCandidates(std::vector<TuneCandidate> &candidates,
                       const CompileOptions &options,
                       const DeviceLimits &limits, unsigned jobs,
                       const CompileProgress &progress) {
  std::vector<TuneCandidate *> work;
  for (TuneCandidate &c : candidates)
    if (c.alive())
      work.push_back(&c);
  std::atomic<size_t> next{0}, done{0};
  std::mutex progressMutex;
  auto worker = [&] {
    for (size_t i = next++; i < work.size(); i = next++) {
      TuneCandidate &c = *work[i];
      try {
        Program program; // one MLIR context per candidate and thread
        c.variant.build(program);
        // A variant that needs its own chip (sm_90a) is compiled for it.
        CompileOptions own = options;
        if (!c.variant.chip.empty())
          own.target.chip = c.variant.chip;
        c.compiled = compile(program.module(), own, c.name + ".cubin");
      } catch (const std::exception &e) {
        c.compiled.ok = false;
        c.compiled.error = e.what();
      }
      if (!c.compiled.ok) {
        c.pruned.push_back("does not compile: " + firstError(c.compiled.error));
      } else {
        // The driver's report of the candidate's one kernel.
        const std::vector<mlir::tile::KernelReport> &reports =
            c.compiled.kernels;
        if (!reports.empty()) {
          c.registers = reports.front().registers;
          c.spillBytes = reports.front().spillStores.value_or(0) +
                         reports.front().spillLoads.value_or(0);
        }
        int64_t threads =
            c.variant.config.getInteger(config::gemm::threads.name).value_or(0);
        if (c.registers && *c.registers * threads > limits.registersPerBlock)
          c.pruned.push_back(llvm::formatv(
              "{0} registers x {1} threads exceed the {2} registers of a "
              "block",
              *c.registers, threads, limits.registersPerBlock));
      }
      std::lock_guard<std::mutex> lock(progressMutex);
      if (progress)
        progress(++done, work.size(), c);
    }
  };
  std::vector<std::thread> threads;
  size_t workers =
      std::clamp<size_t>(jobs, 1, std::max<size_t>(1, work.size()));
  for (size_t j = 0; j < workers; ++j)
    threads.emplace_back(worker);
  for (std::thread &t : threads)
    t.join();
}

} // namespace tile::fe
