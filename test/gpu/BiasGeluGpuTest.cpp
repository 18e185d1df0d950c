//===- BiasGeluGpuTest.cpp - The bias + GELU kernel on the GPU ------------===//
//
// Runs every compiled bias_gelu variant (C = gelu(C + bias) in place) on
// random f16 data and compares every element with a float64 reference by
// relative error. Skips visibly without a GPU or without compiled kernels.
//
//===----------------------------------------------------------------------===//

#include "../../benchmarks/common/Half.h"
#include "GpuTest.h"

#include "tile/runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace tile;

namespace {

struct BiasGeluGpuKernels {
  static const char *name() { return "bias_gelu"; }
};
using BiasGeluGpu = test::VariantTest<BiasGeluGpuKernels>;

TEST_F(BiasGeluGpu, MatchesFloat64OnOddAndLargeShapes) {
  rt::Device device = rt::Device::open();
  for (const auto &variant : variants) {
    bool tanhForm = variant.config.value("tanh", false);
    for (auto [m, n] : {std::pair<int64_t, int64_t>{1, 1},
                        {3, 5000},
                        {1000, 1000},
                        {4096, 4096}}) {
      std::mt19937 rng(m * 13 + n);
      std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
      std::vector<uint16_t> c(m * n + 64, 0xffff), bias(n);
      for (int64_t i = 0; i < m * n; ++i)
        c[i] = bench::floatToHalf(dist(rng));
      for (auto &x : bias)
        x = bench::floatToHalf(dist(rng));
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
        double x = bench::halfToFloat(c[i]) + bench::halfToFloat(bias[i % n]);
        double ref = test::geluReference(x, tanhForm);
        error.add(bench::halfToFloat(got[i]), ref);
      }
      for (int64_t i = m * n; i < m * n + 64; ++i)
        EXPECT_EQ(got[i], 0xffff) << variant.name << ": wrote past the end";
      EXPECT_TRUE(error.finite) << variant.name << " " << m << "x" << n;
      // One f16 rounding of the result (2^-11 relative) dominates.
      EXPECT_LE(error.value(), 1e-3) << variant.name << " " << m << "x" << n;
    }
  }
}

} // namespace
