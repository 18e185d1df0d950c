//===- SoftmaxGpuTest.cpp - Row softmax on the GPU ------------------------===//
//
// Runs every compiled softmax variant on the shapes it can hold (N up to
// its block_n) and compares every element with a float64 reference:
// random rows, large magnitudes, rows with -inf entries, constant rows,
// one-element rows. Skips visibly without a GPU or without kernels.
//
//===----------------------------------------------------------------------===//

#include "GpuTest.h"

#include "tile/runtime/Half.h"
#include "tile/runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <optional>
#include <random>

using namespace tile;
/// The configuration keys of the softmax generator's variants.
namespace key = config::softmax;

namespace {

struct SoftmaxGpuKernels {
  static const char *name() { return key::generator; }
};
using SoftmaxGpu = test::VariantTest<SoftmaxGpuKernels>;

/// Element bits of `dtype` for a float, and back.
uint32_t toBits(float value, const std::string &dtype) {
  if (dtype == "f32") {
    uint32_t bits;
    std::memcpy(&bits, &value, 4);
    return bits;
  }
  return rt::floatToLow(value, dtype == "bf16");
}
double fromBits(uint32_t bits, const std::string &dtype) {
  if (dtype == "f32") {
    float value;
    std::memcpy(&value, &bits, 4);
    return value;
  }
  return rt::lowToFloat(static_cast<uint16_t>(bits), dtype == "bf16");
}

/// The error of `out` (m x n `dtype` elements, then anything) against the
/// float64 softmax of each row of `x`.
test::RelativeError softmaxError(const std::vector<double> &x,
                                 const std::vector<uint8_t> &out, int64_t m,
                                 int64_t n, const std::string &dtype) {
  size_t bytes = dtype == "f32" ? 4 : 2;
  test::RelativeError error;
  for (int64_t r = 0; r < m; ++r) {
    double maxValue = -INFINITY, sum = 0;
    for (int64_t c = 0; c < n; ++c)
      maxValue = std::max(maxValue, x[r * n + c]);
    for (int64_t c = 0; c < n; ++c)
      sum += std::exp(x[r * n + c] - maxValue);
    for (int64_t c = 0; c < n; ++c) {
      uint32_t bits = 0;
      std::memcpy(&bits, out.data() + (r * n + c) * bytes, bytes);
      error.add(fromBits(bits, dtype), std::exp(x[r * n + c] - maxValue) / sum);
    }
  }
  return error;
}

TEST_F(SoftmaxGpu, MatchesFloat64) {
  rt::Device device = rt::Device::open();
  for (const auto &variant : variants) {
    std::string dtype = variant.config.get(key::dtype);
    int64_t blockN = variant.config.get(key::blockN);
    size_t bytes = dtype == "f32" ? 4 : 2;
    rt::DType type = *rt::parseDType(dtype);
    // Relative error of one rounding of the output type, with margin.
    double tolerance = dtype == "f32" ? 1e-5 : dtype == "f16" ? 2e-3 : 1e-2;
    // Online variants take rows of any length: several chunks, a partial
    // last one, and (rows % 4 == 2) a first chunk that starts with -inf.
    bool online = variant.config.getOrDefault(key::online);
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
      test::RelativeError error = softmaxError(x, out, m, n, dtype);
      for (size_t i = m * n * bytes; i < out.size(); ++i)
        ASSERT_EQ(out[i], 0xff) << variant.name << ": wrote past the end";
      EXPECT_TRUE(error.finite) << variant.name << " " << m << "x" << n;
      EXPECT_LE(error.value(), tolerance)
          << variant.name << " " << m << "x" << n;
    }
  }
}

/// Rows of random normal values (std 3) as `dtype` elements (float64 values
/// of the rounded inputs in `x`).
std::vector<uint8_t> randomRows(int64_t m, int64_t n, const std::string &dtype,
                                std::vector<double> &x) {
  size_t bytes = dtype == "f32" ? 4 : 2;
  std::mt19937 rng(m * 7 + n);
  std::normal_distribution<float> dist(0.0f, 3.0f);
  x.resize(m * n);
  std::vector<uint8_t> host(m * n * bytes);
  for (int64_t i = 0; i < m * n; ++i) {
    uint32_t bits = toBits(dist(rng), dtype);
    x[i] = fromBits(bits, dtype);
    std::memcpy(host.data() + i * bytes, &bits, bytes);
  }
  return host;
}

/// At the contract's limits: rows exactly as wide as its bound on X[1] (the
/// single-pass variants; online ones have none: several chunks and a tail
/// there), one-element rows, one row and one row past a block of rows. X is
/// allocated to the element (a read past it is a memcheck error), Y has a
/// 256-byte guard.
TEST_F(SoftmaxGpu, ContractBoundaries) {
  rt::Device device = rt::Device::open();
  for (const auto &variant : variants) {
    std::string dtype = variant.config.get(key::dtype);
    int64_t blockN = variant.config.get(key::blockN);
    int64_t rows = variant.config.get(key::rows);
    bool online = variant.config.getOrDefault(key::online);
    rt::DType type = *rt::parseDType(dtype);
    double tolerance = dtype == "f32" ? 1e-5 : dtype == "f16" ? 2e-3 : 1e-2;
    rt::Module module =
        rt::Module::load(device, variant.cubinPath, variant.manifestPath);
    rt::Kernel kernel = module.kernel(variant.name);
    std::optional<int64_t> bound =
        test::contractUpperBound(kernel.info(), "X", 1);
    if (!online) {
      // A row must fit in one block: the contract says how wide.
      ASSERT_TRUE(bound) << variant.name << ": no bound on X[1]";
      EXPECT_EQ(*bound, blockN) << variant.name;
    }
    int64_t wide = online ? 2 * blockN + 1 : *bound;
    for (auto [m, n] : {std::pair<int64_t, int64_t>{1, wide},
                        {rows + 1, wide},
                        {rows, 1},
                        {2 * rows + 1, online ? blockN + 1 : wide - 1}}) {
      std::vector<double> x;
      std::vector<uint8_t> host = randomRows(m, n, dtype, x);
      const size_t guard = 256;
      std::vector<uint8_t> sentinel(host.size() + guard, 0xff);
      rt::DeviceBuffer X = rt::DeviceBuffer::fromHost(device, host);
      rt::DeviceBuffer Y = rt::DeviceBuffer::fromHost(device, sentinel);
      rt::Stream stream(device);
      kernel.launch(stream, {rt::Arg::buffer(X, type, {m, n}),
                             rt::Arg::buffer(Y, type, {m, n})});
      stream.synchronize();
      std::vector<uint8_t> out = Y.download<uint8_t>();
      test::RelativeError error = softmaxError(x, out, m, n, dtype);
      std::string where =
          variant.name + " " + std::to_string(m) + "x" + std::to_string(n);
      for (size_t i = host.size(); i < out.size(); ++i)
        ASSERT_EQ(out[i], 0xff) << where << ": wrote past the end";
      EXPECT_TRUE(error.finite) << where;
      EXPECT_LE(error.value(), tolerance) << where;
    }
  }
}

/// The softmax misuse (10000-wide rows on a kernel for rows of at
/// most 4096 returned NaN in 1808 of 10000 outputs) and Y of another shape
/// than X, refused before anything runs.
TEST_F(SoftmaxGpu, MisusesAreRefused) {
  rt::Device device = rt::Device::open();
  for (const auto &variant : variants) {
    std::string dtype = variant.config.get(key::dtype);
    int64_t blockN = variant.config.get(key::blockN);
    rt::DType type = *rt::parseDType(dtype);
    size_t bytes = dtype == "f32" ? 4 : 2;
    rt::Module module =
        rt::Module::load(device, variant.cubinPath, variant.manifestPath);
    rt::Kernel kernel = module.kernel(variant.name);
    rt::Stream stream(device);
    const int64_t m = 4;
    int64_t n = std::max<int64_t>(10000, blockN + 1);
    rt::DeviceBuffer X(device, m * n * bytes), Y(device, m * n * bytes);
    Y.fillBytes(0x7f);
    std::string prefix = "kernel '" + variant.name + "': requires ";
    if (!variant.config.getOrDefault(key::online))
      test::expectRefused(
          device,
          [&] {
            kernel.launch(stream, {rt::Arg::buffer(X, type, {m, n}),
                                   rt::Arg::buffer(Y, type, {m, n})});
          },
          {&Y}, {prefix, "<= " + std::to_string(blockN)},
          variant.name + ": rows of " + std::to_string(n));
    test::expectRefused(
        device,
        [&] {
          kernel.launch(stream, {rt::Arg::buffer(X, type, {m, 100}),
                                 rt::Arg::buffer(Y, type, {m, 99})});
        },
        {&Y}, {prefix, "Y[1]"}, variant.name + ": Y narrower than X");
    test::expectRefused(
        device,
        [&] {
          kernel.launch(stream, {rt::Arg::buffer(X, type, {m, 100}),
                                 rt::Arg::buffer(Y, type, {m - 1, 100})});
        },
        {&Y}, {prefix, "Y[0]"}, variant.name + ": Y with fewer rows than X");
  }
}

} // namespace
