//===- SoftmaxBench.cpp - Row softmax against a device-to-device copy -----===//
//
// Times every softmax variant that holds a row of each shape, and every
// online (two-pass) variant, on random inputs, and cuMemcpyDtoDAsync of the
// same bytes, in one process: CUDA events around each launch, 10 warm-ups,
// median of 50. GB/s counts the bytes read plus written (2 M N element bytes).
//
//===----------------------------------------------------------------------===//

#include "common/Timing.h"

#include "tile/runtime/Half.h"
#include "tile/runtime/KernelIndex.h"
#include "tile/runtime/Runtime.h"

#include <benchmark/benchmark.h>

#include <iostream>
#include <memory>
#include <random>

using namespace tile;
/// The configuration keys of the softmax generator's variants.
namespace key = config::softmax;

namespace {

struct Shape {
  int64_t m, n;
  std::string label() const {
    return std::to_string(m) + "x" + std::to_string(n);
  }
};

struct Fixture {
  explicit Fixture(rt::Device device) : device(device), timer(device) {}
  rt::Device device;
  bench::EventTimer timer;
  rt::DeviceBuffer X, Y;
};

std::unique_ptr<Fixture> fixture;

void runTimed(benchmark::State &state, const std::function<void()> &work,
              double bytes) {
  bench::runTimed(state, fixture->timer, work, /*warmup=*/10, "GB/s", bytes);
}

void benchCopy(benchmark::State &state, Shape s, int64_t elementBytes) {
  size_t bytes = s.m * s.n * elementBytes;
  runTimed(
      state,
      [&] {
        fixture->Y.copyFromAsync(fixture->X, bytes, fixture->timer.stream);
      },
      2.0 * bytes);
}

void benchSoftmax(benchmark::State &state, const rt::KernelVariant &variant,
                  Shape s, rt::DType type, int64_t elementBytes) {
  std::optional<rt::Kernel> kernel =
      bench::loadKernel(state, fixture->device, variant);
  if (!kernel)
    return;
  std::vector<rt::Arg> args = {rt::Arg::buffer(fixture->X, type, {s.m, s.n}),
                               rt::Arg::buffer(fixture->Y, type, {s.m, s.n})};
  runTimed(
      state, [&] { kernel->launch(fixture->timer.stream, args); },
      2.0 * s.m * s.n * elementBytes);
}

} // namespace

int main(int argc, char **argv) {
  std::vector<rt::KernelVariant> variants;
  if (std::optional<int> exitCode = bench::startBenchmark(
          argc, argv, TILE_KERNEL_DIR_DEFAULT, key::generator, variants))
    return *exitCode;
  std::vector<Shape> shapes = {
      {4096, 4096},
      {8192, 8192},
      {32768, 1024},
      {1024, 32768},
      // Rows longer than any one-pass variant holds: the online ones.
      {1024, 65536}};
  fixture = std::make_unique<Fixture>(rt::Device::open());
  size_t maxBytes = 8192 * 8192 * 4;
  {
    // Random normal inputs (as f32 bits; f16/bf16 runs read them as pairs
    // of 16-bit values: random, finite, varied).
    std::mt19937 rng(5);
    std::normal_distribution<float> dist(0.0f, 2.0f);
    std::vector<uint16_t> host(maxBytes / 2);
    for (auto &x : host)
      x = rt::floatToHalf(dist(rng));
    fixture->X = rt::DeviceBuffer(fixture->device, maxBytes);
    fixture->X.copyFromHost(host.data(), maxBytes);
    fixture->Y = rt::DeviceBuffer(fixture->device, maxBytes);
  }
  std::cout << "device: " << fixture->device.name() << "\n";
  auto configure = [](benchmark::internal::Benchmark *b) {
    bench::configureRuns(b, 50);
  };
  for (const Shape &s : shapes)
    for (std::string dtype : {"f16", "f32"}) {
      int64_t elementBytes = dtype == "f32" ? 4 : 2;
      rt::DType type = *rt::parseDType(dtype);
      configure(benchmark::RegisterBenchmark(
          ("copy_" + dtype + "/" + s.label()).c_str(),
          [s, elementBytes](benchmark::State &state) {
            benchCopy(state, s, elementBytes);
          }));
      // Every one-pass variant that holds a row, and every online
      // (two-pass) one; the summary reports the fastest.
      for (const auto &v : variants) {
        if (v.config.get(key::dtype) != dtype)
          continue;
        if (!v.config.getOrDefault(key::online) &&
            int64_t(v.config.get(key::blockN)) < s.n)
          continue;
        const rt::KernelVariant *variant = &v;
        configure(benchmark::RegisterBenchmark(
            (v.name + "/" + s.label()).c_str(),
            [variant, s, type, elementBytes](benchmark::State &state) {
              benchSoftmax(state, *variant, s, type, elementBytes);
            }));
      }
    }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  fixture.reset();
  return 0;
}
