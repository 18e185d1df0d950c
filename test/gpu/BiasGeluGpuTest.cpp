//===- BiasGeluGpuTest.cpp - The bias + GELU kernel on the GPU ------------===//
//
// Runs every compiled bias_gelu variant (C = gelu(C + bias) in place) on
// random f16 data and compares every element with a float64 reference by
// relative error. Skips visibly without a GPU or without compiled kernels.
//
//===----------------------------------------------------------------------===//

#include "GpuTest.h"

#include "tile/runtime/Half.h"
#include "tile/runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace tile;
/// The configuration keys of the bias_gelu generator's variants.
namespace key = config::bias_gelu;

namespace {

struct BiasGeluGpuKernels {
  static const char *name() { return key::generator; }
};
using BiasGeluGpu = test::VariantTest<BiasGeluGpuKernels>;

TEST_F(BiasGeluGpu, MatchesFloat64OnOddAndLargeShapes) {
  rt::Device device = rt::Device::open();
  for (const auto &variant : variants) {
    bool tanhForm = variant.config.getOrDefault(key::tanh);
    for (auto [m, n] : {std::pair<int64_t, int64_t>{1, 1},
                        {3, 5000},
                        {1000, 1000},
                        {4096, 4096}}) {
      std::mt19937 rng(m * 13 + n);
      std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
      std::vector<uint16_t> c(m * n + 64, 0xffff), bias(n);
      for (int64_t i = 0; i < m * n; ++i)
        c[i] = rt::floatToHalf(dist(rng));
      for (auto &x : bias)
        x = rt::floatToHalf(dist(rng));
      rt::DeviceBuffer C = rt::DeviceBuffer::fromHost(device, c);
      rt::DeviceBuffer Bias = rt::DeviceBuffer::fromHost(device, bias);
      rt::Module module =
          rt::Module::load(device, variant.cubinPath, variant.manifestPath);
      rt::Stream stream(device);
      module.kernel(variant.name)
          .launch(stream, {rt::Arg::buffer(C, rt::DType::f16, {m, n}),
                           rt::Arg::buffer(Bias, rt::DType::f16, {n})});
      stream.synchronize();
      std::vector<uint16_t> got = C.download<uint16_t>();
      test::RelativeError error;
      for (int64_t i = 0; i < m * n; ++i) {
        double x = rt::halfToFloat(c[i]) + rt::halfToFloat(bias[i % n]);
        double ref = test::geluReference(x, tanhForm);
        error.add(rt::halfToFloat(got[i]), ref);
      }
      for (int64_t i = m * n; i < m * n + 64; ++i)
        EXPECT_EQ(got[i], 0xffff) << variant.name << ": wrote past the end";
      EXPECT_TRUE(error.finite) << variant.name << " " << m << "x" << n;
      // One f16 rounding of the result (2^-11 relative) dominates.
      EXPECT_LE(error.value(), 1e-3) << variant.name << " " << m << "x" << n;
    }
  }
}

/// At the contract's limits (the bias exactly N long, allocated to the
/// element): one row and one column, one block exactly (block_m x block_n)
/// and one element past it, with a 64-element guard past C.
TEST_F(BiasGeluGpu, ContractBoundaries) {
  rt::Device device = rt::Device::open();
  for (const auto &variant : variants) {
    bool tanhForm = variant.config.getOrDefault(key::tanh);
    int64_t bm = variant.config.get(key::blockM),
            bn = variant.config.get(key::blockN);
    rt::Module module =
        rt::Module::load(device, variant.cubinPath, variant.manifestPath);
    rt::Kernel kernel = module.kernel(variant.name);
    for (auto [m, n] : {std::pair<int64_t, int64_t>{1, 1},
                        {bm, bn},
                        {bm + 1, bn + 1},
                        {1, 2 * bn - 1}}) {
      std::mt19937 rng(m * 13 + n);
      std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
      const int64_t guard = 64;
      std::vector<uint16_t> c(m * n + guard, 0xffff), bias(n);
      for (int64_t i = 0; i < m * n; ++i)
        c[i] = rt::floatToHalf(dist(rng));
      for (auto &x : bias)
        x = rt::floatToHalf(dist(rng));
      rt::DeviceBuffer C = rt::DeviceBuffer::fromHost(device, c);
      rt::DeviceBuffer Bias = rt::DeviceBuffer::fromHost(device, bias);
      rt::Stream stream(device);
      kernel.launch(stream, {rt::Arg::buffer(C, rt::DType::f16, {m, n}),
                             rt::Arg::buffer(Bias, rt::DType::f16, {n})});
      stream.synchronize();
      std::vector<uint16_t> got = C.download<uint16_t>();
      test::RelativeError error;
      for (int64_t i = 0; i < m * n; ++i)
        error.add(rt::halfToFloat(got[i]),
                  test::geluReference(rt::halfToFloat(c[i]) +
                                          rt::halfToFloat(bias[i % n]),
                                      tanhForm));
      std::string where =
          variant.name + " " + std::to_string(m) + "x" + std::to_string(n);
      for (int64_t i = m * n; i < m * n + guard; ++i)
        ASSERT_EQ(got[i], 0xffff) << where << ": wrote past the end";
      EXPECT_TRUE(error.finite) << where;
      EXPECT_LE(error.value(), 1e-3) << where;
    }
  }
}

/// A bias that does not match C's columns is refused before anything runs.
TEST_F(BiasGeluGpu, MisusesAreRefused) {
  rt::Device device = rt::Device::open();
  for (const auto &variant : variants) {
    rt::Module module =
        rt::Module::load(device, variant.cubinPath, variant.manifestPath);
    rt::Kernel kernel = module.kernel(variant.name);
    const int64_t m = 8, n = 1000;
    rt::DeviceBuffer C(device, m * n * 2), Bias(device, (n + 1) * 2);
    C.fillBytes(0x3c); // 1.0 in f16 (0x3c3c)
    rt::Stream stream(device);
    for (int64_t length : {n - 1, n + 1})
      test::expectRefused(
          device,
          [&] {
            kernel.launch(stream,
                          {rt::Arg::buffer(C, rt::DType::f16, {m, n}),
                           rt::Arg::buffer(Bias, rt::DType::f16, {length})});
          },
          {&C}, {"kernel '" + variant.name + "': requires ", "Bias[0]"},
          variant.name + ": bias of " + std::to_string(length) + " for " +
              std::to_string(n) + " columns");
  }
}

} // namespace
