//===- VectorAddBench.cpp - Vector-add bandwidth against a DtoD copy ------===//
//
// Times every compiled vector-add variant on 2^28 random floats and, in the
// same process, cuMemcpyDtoD over the same number of floats: CUDA events
// around each launch (Google Benchmark manual time), warm-up first, median
// of many repetitions. Bytes moved: vector add 3 x 4 x N (read A and B,
// write C); copy 2 x 4 x N (read + write).
//
//===----------------------------------------------------------------------===//

#include "common/Timing.h"

#include "tile/runtime/KernelIndex.h"
#include "tile/runtime/Runtime.h"

#include <benchmark/benchmark.h>

#include <iostream>
#include <memory>
#include <random>

using namespace tile;

namespace {

constexpr int64_t kElements = int64_t(1) << 28;
constexpr int kRepetitions = 50;

struct Fixture {
  explicit Fixture(rt::Device device) : device(device), timer(device) {
    std::mt19937 rng(1234);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<float> host(kElements);
    for (float &x : host)
      x = dist(rng);
    A = rt::DeviceBuffer::fromHost(device, host);
    for (float &x : host)
      x = dist(rng);
    B = rt::DeviceBuffer::fromHost(device, host);
    C = rt::DeviceBuffer(device, kElements * sizeof(float));
  }
  rt::Device device;
  bench::EventTimer timer;
  rt::DeviceBuffer A, B, C;
};

std::unique_ptr<Fixture> fixture;

void runTimed(benchmark::State &state, const std::function<void()> &work,
              double bytes) {
  bench::runTimed(state, fixture->timer, work, /*warmup=*/10, "GB/s", bytes);
  state.counters["bytes"] = bytes;
}

/// cuMemcpyDtoD(Async) of N floats: the device's copy bandwidth.
void benchCopy(benchmark::State &state) {
  runTimed(
      state,
      [&] {
        fixture->C.copyFromAsync(fixture->A, kElements * sizeof(float),
                                 fixture->timer.stream);
      },
      2.0 * sizeof(float) * kElements);
}

void benchVectorAdd(benchmark::State &state, const rt::KernelVariant &variant) {
  std::optional<rt::Kernel> kernel =
      bench::loadKernel(state, fixture->device, variant);
  if (!kernel)
    return;
  std::vector<rt::Arg> args = {
      rt::Arg::buffer(fixture->A, rt::DType::f32, {kElements}),
      rt::Arg::buffer(fixture->B, rt::DType::f32, {kElements}),
      rt::Arg::buffer(fixture->C, rt::DType::f32, {kElements})};
  runTimed(
      state, [&] { kernel->launch(fixture->timer.stream, args); },
      3.0 * 4 * kElements);
}

} // namespace

int main(int argc, char **argv) {
  std::vector<rt::KernelVariant> variants;
  if (std::optional<int> exitCode =
          bench::startBenchmark(argc, argv, TILE_KERNEL_DIR_DEFAULT,
                                config::vector_add::generator, variants))
    return *exitCode;
  fixture = std::make_unique<Fixture>(rt::Device::open());
  std::cout << "device: " << fixture->device.name() << " ("
            << fixture->device.chip() << "), N = " << kElements << "\n";

  auto configure = [](benchmark::internal::Benchmark *b) {
    bench::configureRuns(b, kRepetitions);
  };
  configure(benchmark::RegisterBenchmark("copy_dtod", benchCopy));
  for (const auto &variant : variants)
    configure(benchmark::RegisterBenchmark(variant.name.c_str(),
                                           [variant](benchmark::State &state) {
                                             benchVectorAdd(state, variant);
                                           }));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  fixture.reset();
  return 0;
}
