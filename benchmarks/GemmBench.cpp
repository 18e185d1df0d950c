//===- GemmBench.cpp - Tensor-core GEMM against cuBLAS --------------------===//
//
// Times every compiled GEMM variant and cublasGemmEx (tensor ops, f16
// inputs, f32 compute, same output type) on the same random row-major
// inputs, in one process: CUDA events around each launch (Google Benchmark
// manual time), warm-up first, median of the repetitions. Reports TFLOP/s
// (2 M N K / time).
//
//===----------------------------------------------------------------------===//

#include "common/Half.h"
#include "common/KernelIndex.h"
#include "common/Timing.h"

#include "tile/runtime/Runtime.h"

#include <benchmark/benchmark.h>
#include <cublas_v2.h>

#include <iostream>
#include <memory>
#include <optional>
#include <random>

using namespace tile;

namespace {

constexpr int kRepetitions = 20;

struct Problem {
  int64_t m, n, k;
  std::string label() const {
    return std::to_string(m) + "x" + std::to_string(n) + "x" +
           std::to_string(k);
  }
};

struct Fixture {
  explicit Fixture(rt::Device device) : device(device), timer(device) {
    if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
      throw rt::Error("cublasCreate failed");
    cublasSetStream(handle,
                    reinterpret_cast<cudaStream_t>(timer.stream.handle()));
  }
  ~Fixture() { cublasDestroy(handle); }

  /// Random f16 inputs for the largest problem; outputs big enough for all.
  void allocate(int64_t maxA, int64_t maxB, int64_t maxC) {
    std::mt19937 rng(99);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<uint16_t> host(std::max(maxA, maxB));
    for (auto &x : host)
      x = bench::floatToHalf(dist(rng));
    A = rt::DeviceBuffer(device, maxA * 2);
    A.copyFromHost(host.data(), maxA * 2);
    B = rt::DeviceBuffer(device, maxB * 2);
    B.copyFromHost(host.data(), maxB * 2);
    C = rt::DeviceBuffer(device, maxC * 4);
  }

  rt::Device device;
  bench::EventTimer timer;
  rt::DeviceBuffer A, B, C;
  cublasHandle_t handle = nullptr;
};

std::unique_ptr<Fixture> fixture;

void runTimed(benchmark::State &state, const std::function<void()> &work,
              const Problem &p) {
  bench::runTimed(state, fixture->timer, work, /*warmup=*/5, "TFLOP/s",
                  2.0 * p.m * p.n * p.k);
}

cudaDataType cudaType(const std::string &dtype) {
  return dtype == "f16"    ? CUDA_R_16F
         : dtype == "bf16" ? CUDA_R_16BF
                           : CUDA_R_32F;
}

/// Row-major C = A B is column-major C^T = B^T A^T. bf16 runs read the same
/// random bits as the f16 ones (as bf16 values: small, random, non-zero).
void benchCublas(benchmark::State &state, Problem p, const std::string &in,
                 const std::string &out) {
  float alpha = 1, beta = 0;
  runTimed(
      state,
      [&] {
        cublasStatus_t status = cublasGemmEx(
            fixture->handle, CUBLAS_OP_N, CUBLAS_OP_N, p.n, p.m, p.k, &alpha,
            reinterpret_cast<void *>(fixture->B.ptr()), cudaType(in), p.n,
            reinterpret_cast<void *>(fixture->A.ptr()), cudaType(in), p.k,
            &beta, reinterpret_cast<void *>(fixture->C.ptr()), cudaType(out),
            p.n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
        if (status != CUBLAS_STATUS_SUCCESS)
          throw rt::Error("cublasGemmEx failed with status " +
                          std::to_string(status));
      },
      p);
}

void benchTile(benchmark::State &state, const bench::KernelVariant &variant,
               Problem p) {
  std::optional<rt::Module> module;
  std::optional<rt::Kernel> kernel;
  try {
    module.emplace(rt::Module::load(fixture->device, variant.cubinPath,
                                    variant.manifestPath));
    kernel.emplace(module->kernel(variant.name));
  } catch (const rt::Error &error) {
    state.SkipWithError(error.what());
    return;
  }
  std::string out = variant.config.at("out_dtype");
  rt::DType inType = variant.config.value("in_dtype", "f16") == "bf16"
                         ? rt::DType::bf16
                         : rt::DType::f16;
  std::vector<rt::Arg> args = {
      rt::Arg::buffer(fixture->A, inType,
                      variant.config.value("transpose_a", false)
                          ? std::vector<int64_t>{p.k, p.m}
                          : std::vector<int64_t>{p.m, p.k}),
      rt::Arg::buffer(fixture->B, inType,
                      variant.config.value("transpose_b", false)
                          ? std::vector<int64_t>{p.n, p.k}
                          : std::vector<int64_t>{p.k, p.n}),
      rt::Arg::buffer(fixture->C, *rt::parseDType(out), {p.m, p.n})};
  runTimed(
      state, [&] { kernel->launch(fixture->timer.stream, args); }, p);
}

} // namespace

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  if (!bench::haveGpu())
    return 0;
  std::vector<bench::KernelVariant> variants =
      bench::requireVariants(TILE_KERNEL_DIR_DEFAULT, "gemm");
  if (variants.empty())
    return 1;
  std::vector<Problem> problems = {{1024, 1024, 1024},
                                   {2048, 2048, 2048},
                                   {4096, 4096, 4096},
                                   {8192, 8192, 8192},
                                   {4096, 1024, 8192},
                                   // LLM-like: an MLP up-projection, and
                                   // decoding with 16 tokens.
                                   {8192, 8192, 28672},
                                   {16, 8192, 8192}};
  fixture = std::make_unique<Fixture>(rt::Device::open());
  int64_t maxA = 0, maxB = 0, maxC = 0;
  for (const Problem &p : problems) {
    maxA = std::max(maxA, p.m * p.k);
    maxB = std::max(maxB, p.k * p.n);
    maxC = std::max(maxC, p.m * p.n);
  }
  fixture->allocate(maxA, maxB, maxC);
  std::cout << "device: " << fixture->device.name() << " ("
            << fixture->device.chip() << ")\n";

  auto configure = [](benchmark::internal::Benchmark *b) {
    bench::configureRuns(b, kRepetitions);
  };
  for (const Problem &p : problems) {
    for (std::string in : {"f16", "bf16"})
      for (std::string out : {std::string("f32"), in})
        configure(benchmark::RegisterBenchmark(
            ("cublas_" + in + "_" + out + "/" + p.label()).c_str(),
            [p, in, out](benchmark::State &state) {
              benchCublas(state, p, in, out);
            }));
    for (const auto &variant : variants)
      configure(
          benchmark::RegisterBenchmark((variant.name + "/" + p.label()).c_str(),
                                       [variant, p](benchmark::State &state) {
                                         benchTile(state, variant, p);
                                       }));
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  fixture.reset();
  return 0;
}
