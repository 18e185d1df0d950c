//===- GemmSoftmaxGpuTest.cpp - Softmax of A x B^T on the GPU -------------===//
//
// Runs every compiled gemm_softmax variant (Y = softmax(A x B^T) along rows,
// the row maximum and sum reduced in the MMA accumulator layout; with a
// head dimension, times V with the probabilities as a register A operand) on
// odd shapes and compares every element with a float64 reference computed from
// the same rounded inputs. Covers masked columns (N < block_n), partial
// row blocks, K tails (K % 8 != 0 takes the one-stage fallback) and large
// score magnitudes. Skips visibly without a GPU or without kernels.
//
//===----------------------------------------------------------------------===//

#include "GpuTest.h"

#include "tile/runtime/Half.h"
#include "tile/runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <random>

using namespace tile;
/// The configuration keys of the gemm_softmax generator's variants.
namespace key = config::gemm_softmax;

namespace {

struct GemmSoftmaxGpuKernels {
  static const char *name() { return key::generator; }
};
using GemmSoftmaxGpu = test::VariantTest<GemmSoftmaxGpuKernels>;

struct Shape {
  int64_t m, n, k;
  float scale; // spread of the inputs: scores of order scale^2 k
  /// With a head dimension: the columns of V and Y (0: the variant's
  /// head_dim, the most its contract allows).
  int64_t headCols = 0;
};

/// Runs `kernel` (a gemm_softmax variant) on random inputs of shape `s`:
/// A (M x K), B (N x K) and V (N x head_dim) allocated to the element, Y
/// with a 64-element guard. Returns the relative error against float64
/// from the same rounded inputs; -1 if the guard was overwritten.
double gemmSoftmaxError(rt::Device &device, rt::Kernel &kernel,
                        const rt::KernelVariant &variant, Shape s) {
  bool bf16 = variant.config.get(key::inDtype) == "bf16";
  rt::DType inType = bf16 ? rt::DType::bf16 : rt::DType::f16;
  // With a head dimension: Y = softmax(A x B^T) x V, the probabilities
  // rounded to the input type in registers before the second gemm.
  int64_t headDim = variant.config.getOrDefault(key::headDim);
  if (headDim && s.headCols)
    headDim = s.headCols;
  std::mt19937 rng(s.m * 31 + s.n * 7 + s.k);
  std::normal_distribution<float> dist(0.0f, s.scale);
  std::vector<uint16_t> a(s.m * s.k), b(s.n * s.k);
  for (auto &x : a)
    x = rt::floatToLow(dist(rng), bf16);
  for (auto &x : b)
    x = rt::floatToLow(dist(rng), bf16);
  std::vector<uint16_t> v(s.n * std::max<int64_t>(headDim, 1));
  std::normal_distribution<float> unit(0.0f, 1.0f);
  for (auto &x : v)
    x = rt::floatToLow(unit(rng), bf16);
  int64_t cols = headDim ? headDim : s.n; // of Y
  std::vector<float> sentinel(s.m * cols + 64, -7.0f);
  rt::DeviceBuffer A = rt::DeviceBuffer::fromHost(device, a);
  rt::DeviceBuffer B = rt::DeviceBuffer::fromHost(device, b);
  rt::DeviceBuffer V = rt::DeviceBuffer::fromHost(device, v);
  rt::DeviceBuffer Y = rt::DeviceBuffer::fromHost(device, sentinel);
  rt::Stream stream(device);
  std::vector<rt::Arg> args = {rt::Arg::buffer(A, inType, {s.m, s.k}),
                               rt::Arg::buffer(B, inType, {s.n, s.k})};
  if (headDim)
    args.push_back(rt::Arg::buffer(V, inType, {s.n, headDim}));
  args.push_back(rt::Arg::buffer(Y, rt::DType::f32, {s.m, cols}));
  kernel.launch(stream, args);
  stream.synchronize();
  std::vector<float> got = Y.download<float>();
  test::RelativeError error;
  std::vector<double> scores(s.n);
  for (int64_t r = 0; r < s.m; ++r) {
    double maxValue = -INFINITY, sum = 0;
    for (int64_t c = 0; c < s.n; ++c) {
      double dot = 0;
      for (int64_t i = 0; i < s.k; ++i)
        dot += double(rt::lowToFloat(a[r * s.k + i], bf16)) *
               rt::lowToFloat(b[c * s.k + i], bf16);
      scores[c] = dot;
      maxValue = std::max(maxValue, dot);
    }
    for (int64_t c = 0; c < s.n; ++c)
      sum += std::exp(scores[c] - maxValue);
    std::vector<double> ref(cols, 0.0);
    for (int64_t c = 0; c < s.n; ++c) {
      double p = std::exp(scores[c] - maxValue) / sum;
      if (!headDim)
        ref[c] = p;
      for (int64_t d = 0; d < headDim; ++d)
        ref[d] += p * rt::lowToFloat(v[c * headDim + d], bf16);
    }
    for (int64_t c = 0; c < cols; ++c)
      error.add(got[r * cols + c], ref[c]);
  }
  for (int64_t i = s.m * cols; i < s.m * cols + 64; ++i)
    if (got[i] != -7.0f)
      return -1;
  return error.finite ? error.value() : INFINITY;
}

/// f32 accumulation of rounded inputs; exp2 with log2(e) folded in
/// (ex2.approx) adds ~2^-22 relative per element, more where scores are
/// large (scale 4: scores of order 4000, one f32 ulp ~ 2^-12). P x V: one
/// rounding of the probabilities to f16 (2^-11) or bf16 (2^-8), averaged
/// over the row.
double tolerance(const rt::KernelVariant &variant, Shape s) {
  if (variant.config.getOrDefault(key::headDim))
    return variant.config.get(key::inDtype) == "bf16" ? 1e-2 : 2e-3;
  return s.scale > 1.0f ? 2e-3 : 1e-4;
}

TEST_F(GemmSoftmaxGpu, MatchesFloat64InTheMmaLayout) {
  rt::Device device = rt::Device::open();
  for (const auto &variant : variants) {
    int64_t blockN = variant.config.get(key::blockN);
    rt::Module module =
        rt::Module::load(device, variant.cubinPath, variant.manifestPath);
    rt::Kernel kernel = module.kernel(variant.name);
    for (Shape s :
         {Shape{1, 1, 8, 1.0f}, Shape{100, blockN / 2 + 3, 72, 1.0f},
          Shape{257, blockN, 36, 1.0f}, Shape{130, blockN - 1, 256, 4.0f}}) {
      std::string where = variant.name + " " + std::to_string(s.m) + "x" +
                          std::to_string(s.n) + "x" + std::to_string(s.k);
      double error = gemmSoftmaxError(device, kernel, variant, s);
      EXPECT_GE(error, 0) << where << ": wrote past the end";
      EXPECT_LE(error, tolerance(variant, s)) << where;
    }
  }
}

/// At the contract's limits: N (the rows of B, a row of scores held in
/// registers) exactly at its bound and 1; M of 1, one block and one past
/// it; K of 1, one block and a tail; with a head dimension, V and Y of its
/// bound (the variant's head_dim) and of 1 and 9 columns.
TEST_F(GemmSoftmaxGpu, ContractBoundaries) {
  rt::Device device = rt::Device::open();
  for (const auto &variant : variants) {
    int64_t bm = variant.config.get(key::blockM),
            bk = variant.config.get(key::blockK);
    rt::Module module =
        rt::Module::load(device, variant.cubinPath, variant.manifestPath);
    rt::Kernel kernel = module.kernel(variant.name);
    std::optional<int64_t> bound =
        test::contractUpperBound(kernel.info(), "B", 0);
    ASSERT_TRUE(bound) << variant.name << ": no bound on B[0]";
    EXPECT_EQ(*bound, int64_t(variant.config.get(key::blockN))) << variant.name;
    int64_t n = *bound;
    for (Shape s :
         {Shape{1, n, 1, 1.0f}, Shape{bm, 1, bk, 1.0f},
          Shape{bm + 1, n, bk + 1, 1.0f}, Shape{1, n - 1, 2 * bk, 1.0f},
          Shape{2 * bm - 1, n, 3, 1.0f}, Shape{bm + 1, n, bk, 1.0f, 1},
          Shape{3, n - 1, 40, 1.0f, 9}}) {
      std::string where = variant.name + " " + std::to_string(s.m) + "x" +
                          std::to_string(s.n) + "x" + std::to_string(s.k);
      double error = gemmSoftmaxError(device, kernel, variant, s);
      EXPECT_GE(error, 0) << where << ": wrote past the end";
      EXPECT_LE(error, tolerance(variant, s)) << where;
    }
  }
}

/// Rows of scores wider than the kernel holds, and K of A and B that
/// disagree, refused before anything runs.
TEST_F(GemmSoftmaxGpu, MisusesAreRefused) {
  rt::Device device = rt::Device::open();
  for (const auto &variant : variants) {
    rt::DType in = variant.config.get(key::inDtype) == "bf16" ? rt::DType::bf16
                                                              : rt::DType::f16;
    int64_t headDim = variant.config.getOrDefault(key::headDim);
    int64_t blockN = variant.config.get(key::blockN);
    rt::Module module =
        rt::Module::load(device, variant.cubinPath, variant.manifestPath);
    rt::Kernel kernel = module.kernel(variant.name);
    rt::Stream stream(device);
    const int64_t m = 64, k = 64, n = blockN + 1;
    rt::DeviceBuffer A(device, m * k * 2), B(device, n * k * 2),
        V(device, n * std::max<int64_t>(headDim, 1) * 2),
        Y(device, m * std::max(n, headDim) * 4);
    Y.fillBytes(0xff);
    auto launch = [&](int64_t kA, int64_t kB, int64_t rowsB) {
      std::vector<rt::Arg> args = {rt::Arg::buffer(A, in, {m, kA}),
                                   rt::Arg::buffer(B, in, {rowsB, kB})};
      if (headDim)
        args.push_back(rt::Arg::buffer(V, in, {rowsB, headDim}));
      args.push_back(
          rt::Arg::buffer(Y, rt::DType::f32, {m, headDim ? headDim : rowsB}));
      kernel.launch(stream, args);
    };
    std::string prefix = "kernel '" + variant.name + "': requires ";
    test::expectRefused(
        device, [&] { launch(k, k, n); }, {&Y},
        {prefix, "<= " + std::to_string(blockN)},
        variant.name + ": N = " + std::to_string(n));
    test::expectRefused(
        device, [&] { launch(k, k - 8, blockN); }, {&Y},
        {prefix, "A[1]", "B[1]"}, variant.name + ": K of A and B disagree");
  }
}

} // namespace
