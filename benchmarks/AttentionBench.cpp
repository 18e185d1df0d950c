//===- AttentionBench.cpp - FlashAttention forward TFLOP/s ----------------===//
//
// Times every compiled attention variant at batch 4, 32 heads, sequence
// 1024 ... 16384, on random normal inputs: CUDA events around each launch,
// 10 warm-ups, median of 20. TFLOP/s = 4 B H N^2 D / t, halved for causal
// (the work a causal kernel must do). The PyTorch peer
// (benchmarks/peers/attention_torch.py) times scaled_dot_product_attention
// with its FLASH and cuDNN backends on the same shapes.
//
//===----------------------------------------------------------------------===//

#include "common/Half.h"
#include "common/KernelIndex.h"
#include "common/Timing.h"

#include "tile/runtime/Runtime.h"

#include <benchmark/benchmark.h>

#include <iostream>
#include <memory>
#include <random>

using namespace tile;

namespace {

struct Fixture {
  explicit Fixture(rt::Device device) : device(device), timer(device) {}
  rt::Device device;
  bench::EventTimer timer;
  rt::DeviceBuffer Q, K, V, O;
};

std::unique_ptr<Fixture> fixture;

void benchAttention(benchmark::State &state,
                    const bench::KernelVariant &variant, int64_t seq) {
  std::optional<rt::Kernel> kernel =
      bench::loadKernel(state, fixture->device, variant);
  if (!kernel)
    return;
  const int64_t batch = 4, heads = 32;
  int64_t d = variant.config.at("head_dim");
  bool causal = variant.config.at("causal");
  rt::DType type =
      variant.config.at("dtype") == "bf16" ? rt::DType::bf16 : rt::DType::f16;
  std::vector<int64_t> shape = {batch, heads, seq, d};
  std::vector<rt::Arg> args = {rt::Arg::buffer(fixture->Q, type, shape),
                               rt::Arg::buffer(fixture->K, type, shape),
                               rt::Arg::buffer(fixture->V, type, shape),
                               rt::Arg::buffer(fixture->O, type, shape)};
  double flops = 4.0 * batch * heads * double(seq) * seq * d;
  if (causal)
    flops /= 2;
  bench::runTimed(
      state, fixture->timer,
      [&] { kernel->launch(fixture->timer.stream, args); }, /*warmup=*/10,
      "TFLOP/s", flops);
}

} // namespace

int main(int argc, char **argv) {
  std::vector<bench::KernelVariant> variants;
  if (std::optional<int> exitCode = bench::startBenchmark(
          argc, argv, TILE_KERNEL_DIR_DEFAULT, "attention", variants))
    return *exitCode;
  fixture = std::make_unique<Fixture>(rt::Device::open());
  // The largest tensor: 4 x 32 x 16384 x 128 16-bit values.
  size_t bytes = size_t(4) * 32 * 16384 * 128 * 2;
  {
    std::mt19937 rng(11);
    std::normal_distribution<float> dist(0.0f, 1.0f);
    std::vector<uint16_t> host(bytes / 2);
    for (auto &x : host)
      x = bench::floatToHalf(dist(rng));
    for (rt::DeviceBuffer *buffer : {&fixture->Q, &fixture->K, &fixture->V}) {
      *buffer = rt::DeviceBuffer(fixture->device, bytes);
      buffer->copyFromHost(host.data(), bytes);
    }
    fixture->O = rt::DeviceBuffer(fixture->device, bytes);
  }
  std::cout << "device: " << fixture->device.name() << "\n";
  for (int64_t seq : {1024, 2048, 4096, 8192, 16384})
    for (const auto &v : variants) {
      const bench::KernelVariant *variant = &v;
      bench::configureRuns(
          benchmark::RegisterBenchmark(
              (v.name + "/" + std::to_string(seq)).c_str(),
              [variant, seq](benchmark::State &state) {
                benchAttention(state, *variant, seq);
              }),
          20);
    }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  fixture.reset();
  return 0;
}
