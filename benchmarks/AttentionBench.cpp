//===- AttentionBench.cpp - FlashAttention forward TFLOP/s ----------------===//
//
// Times every compiled attention variant at batch 4, 32 heads (as many K/V
// heads), sequence 1024 ... 16384, scale 1/sqrt(D), on random normal inputs
// (f16 or bf16, as the variant takes; the LSE output where it has one):
// CUDA events around each launch, 10 warm-ups (before the first of the
// back-to-back repetitions), median of 20. TFLOP/s = 4 B H N^2 D / t,
// halved for causal (the work a causal kernel must do). The PyTorch peer
// (benchmarks/peers/attention_torch.py) times scaled_dot_product_attention
// with its FLASH and cuDNN backends on the same shapes.
//
//===----------------------------------------------------------------------===//

#include "common/Timing.h"

#include "tile/runtime/Half.h"
#include "tile/runtime/KernelIndex.h"
#include "tile/runtime/Runtime.h"

#include <benchmark/benchmark.h>

#include <cmath>
#include <iostream>
#include <memory>
#include <random>

using namespace tile;
/// The configuration keys of the attention generator's variants.
namespace key = config::attention;

namespace {

struct Fixture {
  explicit Fixture(rt::Device device) : device(device), timer(device) {}
  rt::Device device;
  bench::EventTimer timer;
  // Q, K, V per input type (f16, bf16), the output and the log-sum-exp.
  rt::DeviceBuffer inputs[2][3], O, LSE;
};

std::unique_ptr<Fixture> fixture;

void benchAttention(benchmark::State &state, const rt::KernelVariant &variant,
                    int64_t seq) {
  std::optional<rt::Kernel> kernel =
      bench::loadKernel(state, fixture->device, variant);
  if (!kernel)
    return;
  const int64_t batch = 4, heads = 32;
  int64_t d = variant.config.get(key::headDim);
  bool causal = variant.config.get(key::causal);
  rt::DType type = variant.config.get(key::dtype) == "bf16" ? rt::DType::bf16
                                                            : rt::DType::f16;
  std::vector<int64_t> shape = {batch, heads, seq, d};
  rt::DeviceBuffer(&qkv)[3] = fixture->inputs[type == rt::DType::bf16];
  std::vector<rt::Arg> args = {rt::Arg::buffer(qkv[0], type, shape),
                               rt::Arg::buffer(qkv[1], type, shape),
                               rt::Arg::buffer(qkv[2], type, shape),
                               rt::Arg::buffer(fixture->O, type, shape)};
  if (variant.config.getOrDefault(key::lse))
    args.push_back(
        rt::Arg::buffer(fixture->LSE, rt::DType::f32, {batch, heads, seq}));
  args.push_back(rt::Arg::scalar(float(1.0 / std::sqrt(double(d)))));
  double flops = 4.0 * batch * heads * double(seq) * seq * d;
  if (causal)
    flops /= 2;
  bench::runTimed(
      state, fixture->timer,
      [&] { kernel->launch(fixture->timer.stream, args); }, /*warmup=*/10,
      "TFLOP/s", flops, variant.name + "/" + std::to_string(seq));
}

} // namespace

int main(int argc, char **argv) {
  std::vector<rt::KernelVariant> variants;
  if (std::optional<int> exitCode = bench::startBenchmark(
          argc, argv, TILE_KERNEL_DIR_DEFAULT, key::generator, variants))
    return *exitCode;
  fixture = std::make_unique<Fixture>(rt::Device::open());
  // The largest tensor: 4 x 32 x 16384 x 128 16-bit values (one draw, used
  // for Q, K and V, and rounded to bf16 for the bf16 variants).
  size_t elements = size_t(4) * 32 * 16384 * 128;
  {
    std::mt19937 rng(11);
    std::normal_distribution<float> dist(0.0f, 1.0f);
    std::vector<uint16_t> f16(elements), bf16(elements);
    for (size_t i = 0; i < elements; ++i) {
      float x = dist(rng);
      f16[i] = rt::floatToHalf(x);
      bf16[i] = rt::floatToBf16(x);
    }
    for (bool isBf16 : {false, true})
      for (rt::DeviceBuffer &buffer : fixture->inputs[isBf16]) {
        buffer = rt::DeviceBuffer(fixture->device, elements * 2);
        buffer.copyFromHost((isBf16 ? bf16 : f16).data(), elements * 2);
      }
    fixture->O = rt::DeviceBuffer(fixture->device, elements * 2);
    fixture->LSE = rt::DeviceBuffer(fixture->device, elements / 128 * 4);
  }
  std::cout << "device: " << fixture->device.name() << "\n";
  for (int64_t seq : {1024, 2048, 4096, 8192, 16384})
    for (const auto &v : variants) {
      const rt::KernelVariant *variant = &v;
      bench::configureRuns(benchmark::RegisterBenchmark(
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
