//===- Timing.h - CUDA-event timing for Google Benchmark --------*- C++ -*-===//
//
// What every GPU benchmark here does the same way: warm up, time each launch
// with a pair of CUDA events (Google Benchmark manual time), report a rate,
// run a fixed number of single-launch repetitions and keep the aggregates
// (median first), and skip a variant that fails instead of aborting.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_BENCHMARKS_COMMON_TIMING_H
#define TILE_BENCHMARKS_COMMON_TIMING_H

#include "tile/runtime/KernelIndex.h"
#include "tile/runtime/Runtime.h"

#include <benchmark/benchmark.h>

#include <functional>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace tile::bench {

/// A stream and the two events that time one enqueue on it.
struct EventTimer {
  explicit EventTimer(const rt::Device &device)
      : stream(device), start(device), stop(device) {}
  double timeOnceMs(const std::function<void()> &work) {
    start.record(stream);
    work();
    stop.record(stream);
    stop.synchronize();
    return rt::Event::elapsedMs(start, stop);
  }
  rt::Stream stream;
  rt::Event start, stop;
};

/// A counter of `amount` per second of each iteration (e.g. FLOPs ->
/// FLOP/s), 1000-based.
inline benchmark::Counter perSecond(double amount) {
  return benchmark::Counter(amount,
                            benchmark::Counter::kIsIterationInvariantRate,
                            benchmark::Counter::OneK::kIs1000);
}

/// Times `work` once per benchmark iteration after `warmup` untimed runs and
/// reports `counter` = `amount` per second (e.g. bytes -> GB/s). With a
/// `warmupKey` (the benchmark's name), only its first repetition warms up:
/// the repetitions run back to back, so the GPU is still warm, and long
/// kernels (attention at 16K tokens: 30 ms) do not spend 10x their timed
/// launches warming up.
inline void runTimed(benchmark::State &state, EventTimer &timer,
                     const std::function<void()> &work, int warmup,
                     const std::string &counter, double amount,
                     const std::string &warmupKey = "") {
  static std::string lastWarmed;
  try {
    if (warmupKey.empty() || warmupKey != lastWarmed)
      for (int i = 0; i < warmup; ++i)
        work();
    lastWarmed = warmupKey;
    timer.stream.synchronize();
    for (auto _ : state)
      state.SetIterationTime(timer.timeOnceMs(work) / 1e3);
  } catch (const rt::Error &error) {
    state.SkipWithError(error.what());
    return;
  }
  state.counters[counter] = perSecond(amount);
}

/// One launch per iteration, `repetitions` of them, aggregates only.
inline void configureRuns(benchmark::internal::Benchmark *b, int repetitions) {
  b->UseManualTime()
      ->Iterations(1)
      ->Repetitions(repetitions)
      ->ReportAggregatesOnly(true)
      ->Unit(benchmark::kMicrosecond);
}

/// False (after saying why) when there is no GPU to benchmark on.
inline bool haveGpu() {
  std::string why;
  if (rt::isDriverAvailable(&why) && rt::deviceCount() > 0)
    return true;
  std::cout << "SKIPPED: no CUDA GPU (" << (why.empty() ? "no device" : why)
            << ")\n";
  return false;
}

/// The kernel of `variant`, loaded (it keeps its module loaded); nullopt,
/// with the benchmark marked skipped and why, when it cannot be.
inline std::optional<rt::Kernel> loadKernel(benchmark::State &state,
                                            const rt::Device &device,
                                            const rt::KernelVariant &variant) {
  try {
    return rt::Module::load(device, variant.cubinPath, variant.manifestPath)
        .kernel(variant.name);
  } catch (const rt::Error &error) {
    state.SkipWithError(error.what());
    return std::nullopt;
  }
}

/// The variants of `generator` in rt::kernelDir(fallback); says on standard
/// error why there are none (a broken index, or kernels not compiled).
inline std::vector<rt::KernelVariant>
requireVariants(const std::string &fallback, const std::string &generator) {
  std::string dir = rt::kernelDir(fallback), error;
  auto variants = rt::loadKernelIndex(dir, generator, &error);
  if (!variants && error.rfind("no ", 0) != 0) {
    std::cerr << error << "\n";
    return {};
  }
  if (!variants || variants->empty()) {
    std::cerr << "no compiled " << generator << " kernels in " << dir
              << " (run tile-kernels --out-dir=" << dir << ")\n";
    return {};
  }
  return *variants;
}

/// The start of every benchmark program: Google Benchmark's flags, a GPU
/// and the compiled variants of `generator` (in kernelDir(fallback)).
/// Returns the exit code to stop
/// with (0 without a GPU, 1 without kernels; both said why), or nullopt to
/// go on with `variants` filled.
inline std::optional<int>
startBenchmark(int &argc, char **argv, const std::string &fallback,
               const std::string &generator,
               std::vector<rt::KernelVariant> &variants) {
  benchmark::Initialize(&argc, argv);
  if (!haveGpu())
    return 0;
  variants = requireVariants(fallback, generator);
  if (variants.empty())
    return 1;
  // sm_90a variants on a Hopper GPU only.
  std::string chip = rt::Device::open().chip();
  if (size_t removed = rt::removeVariantsNotRunningOn(variants, chip))
    std::cerr << removed << " " << generator << " variants do not run on this "
              << chip << " GPU; skipped\n";
  return std::nullopt;
}

} // namespace tile::bench

#endif // TILE_BENCHMARKS_COMMON_TIMING_H
