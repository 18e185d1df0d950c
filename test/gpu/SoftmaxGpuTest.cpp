//===- SoftmaxGpuTest.cpp - Row softmax on the GPU ------------------------===//
//
// Runs every compiled softmax variant on the shapes it can hold (N up to
// its block_n) and compares every element with a float64 reference:
// random rows, large magnitudes, rows with -inf entries, constant rows,
// one-element rows. Skips visibly without a GPU or without kernels.
//
//===----------------------------------------------------------------------===//

#include "../../benchmarks/common/Half.h"
#include "GpuTest.h"

#include "tile/runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

using namespace tile;

namespace {

struct SoftmaxGpuKernels {
  static const char *name() { return "softmax"; }
};
using SoftmaxGpu = test::VariantTest<SoftmaxGpuKernels>;

/// Element bits of `dtype` for a float, and back.
uint32_t toBits(float value, const std::string &dtype) {
  if (dtype == "f32") {
    uint32_t bits;
    std::memcpy(&bits, &value, 4);
    return bits;
  }
  return bench::floatToLow(value, dtype == "bf16");
}
double fromBits(uint32_t bits, const std::string &dtype) {
  if (dtype == "f32") {
    float value;
    std::memcpy(&value, &bits, 4);
    return value;
  }
  return bench::lowToFloat(static_cast<uint16_t>(bits), dtype == "bf16");
}

TEST_F(SoftmaxGpu, MatchesFloat64) {
  rt::Device device = rt::Device::open();
  for (const auto &variant : variants) {
    std::string dtype = variant.config.at("dtype");
    int64_t blockN = variant.config.at("block_n");
    size_t bytes = dtype == "f32" ? 4 : 2;
    rt::DType type = *rt::parseDType(dtype);
    // Relative error of one rounding of the output type, with margin.
    double tolerance = dtype == "f32" ? 1e-5 : dtype == "f16" ? 2e-3 : 1e-2;
    // Online variants take rows of any length: several chunks, a partial
    // last one, and (rows % 4 == 2) a first chunk that starts with -inf.
    bool online = variant.config.value("online", false);
    std::vector<std::pair<int64_t, int64_t>> shapes = {
        {1, 1}, {7, blockN / 2 + 3}, {129, blockN}, {64, blockN - 1}};
    if (online)
      shapes.insert(shapes.end(),
                    {{6, 3 * blockN + 17}, {4, 65536}, {3, 70000}});
    for (auto [m, n] : shapes) {
      if (n < 1 || (!online && n > blockN))
        continue;
      std::mt19937 rng(m * 7 + n + blockN);
      std::normal_distribution<float> dist(0.0f, 3.0f);
      std::vector<double> x(m * n);
      for (int64_t r = 0; r < m; ++r)
        for (int64_t c = 0; c < n; ++c) {
          double v = dist(rng);
          if (r % 4 == 1)
            v *= 1000; // large magnitudes
          // Masked entries (never a whole row); for online variants a
          // whole first chunk too.
          if (r % 4 == 2 && c + 1 < n &&
              ((c % 3 == 0 && c > 0) || (online && c < blockN)))
            v = -INFINITY;
          if (r % 4 == 3)
            v = 2.5; // constant row
          x[r * n + c] = fromBits(toBits(float(v), dtype), dtype);
        }
      std::vector<uint8_t> host(m * n * bytes + 256, 0xff);
      for (int64_t i = 0; i < m * n; ++i) {
        uint32_t bits = toBits(float(x[i]), dtype);
        std::memcpy(host.data() + i * bytes, &bits, bytes);
      }
      rt::DeviceBuffer X = rt::DeviceBuffer::fromHost(device, host);
      rt::DeviceBuffer Y = rt::DeviceBuffer::fromHost(device, host);
      rt::Module module =
          rt::Module::load(device, variant.cubinPath, variant.manifestPath);
      rt::Stream stream(device);
      module.kernel(variant.name)
          .launch(stream, {rt::Arg::buffer(X, type, {m, n}),
                           rt::Arg::buffer(Y, type, {m, n})});
      stream.synchronize();
      std::vector<uint8_t> out = Y.download<uint8_t>();
      test::RelativeError error;
      for (int64_t r = 0; r < m; ++r) {
        double maxValue = -INFINITY, sum = 0;
        for (int64_t c = 0; c < n; ++c)
          maxValue = std::max(maxValue, x[r * n + c]);
        for (int64_t c = 0; c < n; ++c)
          sum += std::exp(x[r * n + c] - maxValue);
        for (int64_t c = 0; c < n; ++c) {
          double ref = std::exp(x[r * n + c] - maxValue) / sum;
          uint32_t bits = 0;
          std::memcpy(&bits, out.data() + (r * n + c) * bytes, bytes);
          error.add(fromBits(bits, dtype), ref);
        }
      }
      for (size_t i = m * n * bytes; i < out.size(); ++i)
        ASSERT_EQ(out[i], 0xff) << variant.name << ": wrote past the end";
      EXPECT_TRUE(error.finite) << variant.name << " " << m << "x" << n;
      EXPECT_LE(error.value(), tolerance)
          << variant.name << " " << m << "x" << n;
    }
  }
}

} // namespace
