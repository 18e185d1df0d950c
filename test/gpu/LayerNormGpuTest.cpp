//===- LayerNormGpuTest.cpp - The cookbook's LayerNorm through the library ===//
//
// The last step of docs/Cookbook.md: KernelLibrary::call("layernorm", ...)
// over the folder tile-layernorm-example wrote (build/cookbook-kernels, or
// $TILE_COOKBOOK_KERNEL_DIR on the GPU machine), against float64 on rows
// whose mean is far from 0 (where a variance over the zero-filled columns,
// or a division by the tile's width, is far off): N not a multiple of 8, N
// much smaller than the tile, rows not a multiple of the 4 a block holds,
// rows exactly as long as a tile; every variant runs. A row longer than any
// tile is refused with the contract's words before anything runs. Skips,
// saying why, without a GPU.
//
//===----------------------------------------------------------------------===//

#include "GpuTest.h"

#include "tile/runtime/Half.h"
#include "tile/runtime/Library.h"

#include <cmath>
#include <cstring>
#include <filesystem>
#include <random>
#include <set>
#include <unistd.h>

using namespace tile;
using rt::DType;
using rt::Tensor;

namespace {

class LayerNormGpu : public ::testing::Test {
protected:
  void SetUp() override {
    std::string why;
    if (!rt::isDriverAvailable(&why) || rt::deviceCount() == 0)
      GTEST_SKIP() << "no CUDA GPU: " << (why.empty() ? "no device" : why);
    dir = rt::kernelDir(TILE_COOKBOOK_KERNEL_DIR_DEFAULT,
                        "TILE_COOKBOOK_KERNEL_DIR");
    device.emplace(rt::Device::open());
    // A cache of its own: a winner tuned into the folder must not decide.
    cachePath =
        (std::filesystem::temp_directory_path() /
         ("tile-layernorm-gpu-test-" + std::to_string(::getpid()) + ".json"))
            .string();
    rt::LibraryOptions options;
    options.tuneCache = cachePath;
    // The build compiles the folder (and run-gpu.sh prepare the bundle's):
    // with a GPU, a missing one fails the test.
    try {
      library.emplace(*device, dir, options);
    } catch (const rt::Error &e) {
      FAIL() << e.what();
    }
  }
  void TearDown() override {
    if (!cachePath.empty())
      std::filesystem::remove(cachePath);
  }

  /// `values` rounded to `type` in place, and on the device.
  rt::DeviceBuffer upload(std::vector<double> &values, DType type) {
    size_t bytes = rt::dtypeSize(type);
    std::vector<uint8_t> host(values.size() * bytes);
    for (size_t i = 0; i < values.size(); ++i) {
      if (type == DType::f32) {
        float v = float(values[i]);
        values[i] = v;
        std::memcpy(&host[i * bytes], &v, bytes);
      } else {
        uint16_t v = rt::floatToLow(float(values[i]), false);
        values[i] = rt::lowToFloat(v, false);
        std::memcpy(&host[i * bytes], &v, bytes);
      }
    }
    return rt::DeviceBuffer::fromHost(*device, host);
  }

  std::optional<rt::Device> device;
  std::optional<rt::KernelLibrary> library;
  std::string dir, cachePath;
};

/// LayerNorm of the m x n rows of `x` in float64: biased variance, as the
/// kernel computes it.
std::vector<double> layerNorm(const std::vector<double> &x,
                              const std::vector<double> &w,
                              const std::vector<double> &b, int64_t m,
                              int64_t n, double eps) {
  std::vector<double> y(m * n);
  for (int64_t r = 0; r < m; ++r) {
    const double *row = &x[r * n];
    double mean = 0, var = 0;
    for (int64_t j = 0; j < n; ++j)
      mean += row[j];
    mean /= n;
    for (int64_t j = 0; j < n; ++j)
      var += (row[j] - mean) * (row[j] - mean);
    var /= n;
    for (int64_t j = 0; j < n; ++j)
      y[r * n + j] = (row[j] - mean) / std::sqrt(var + eps) * w[j] + b[j];
  }
  return y;
}

TEST_F(LayerNormGpu, MatchesFloat64OnOddShapes) {
  struct Case {
    DType type;
    int64_t m, n;
    float eps;
    const char *variant; // the one the index's order picks
  };
  const Case cases[] = {
      {DType::f32, 37, 20, 1e-5f, "layernorm_f32_4x256_t128"},
      {DType::f32, 6, 1001, 1e-5f, "layernorm_f32_4x1024_t256"},
      {DType::f32, 5, 1024, 0.25f, "layernorm_f32_4x1024_t256"},
      {DType::f16, 130, 3, 1e-5f, "layernorm_f16_4x256_t128"},
      {DType::f16, 1, 1, 1e-5f, "layernorm_f16_4x256_t128"},
      {DType::f16, 7, 256, 1e-5f, "layernorm_f16_4x256_t128"},
      {DType::f16, 9, 300, 1e-5f, "layernorm_f16_4x1024_t256"},
      {DType::f16, 3, 1023, 0.25f, "layernorm_f16_4x1024_t256"},
  };
  std::set<std::string> ran;
  for (const Case &c : cases) {
    std::string where = std::string(rt::dtypeName(c.type)) + " " +
                        std::to_string(c.m) + "x" + std::to_string(c.n);
    // Row r: mean about 1 + r % 5, spread about 1; W around 1, B around 0.
    std::mt19937 rng(c.m * 131 + c.n);
    std::normal_distribution<double> normal(0.0, 1.0);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    std::vector<double> x(c.m * c.n), w(c.n), b(c.n);
    for (int64_t r = 0; r < c.m; ++r)
      for (int64_t j = 0; j < c.n; ++j)
        x[r * c.n + j] = 1.0 + r % 5 + normal(rng);
    for (int64_t j = 0; j < c.n; ++j) {
      w[j] = 1.0 + 0.5 * uniform(rng);
      b[j] = uniform(rng);
    }
    const size_t guard = 256;
    size_t bytes = rt::dtypeSize(c.type);
    rt::DeviceBuffer X = upload(x, c.type);
    rt::DeviceBuffer W = upload(w, c.type);
    rt::DeviceBuffer B = upload(b, c.type);
    // Every byte 0xff: what the kernel does not write stays so.
    rt::DeviceBuffer Y = rt::DeviceBuffer::fromHost(
        *device, std::vector<uint8_t>(c.m * c.n * bytes + guard, 0xff));

    const rt::CallReport &report =
        library->call("layernorm", {{"X", Tensor::of(X, c.type, {c.m, c.n})},
                                    {"W", Tensor::of(W, c.type, {c.n})},
                                    {"B", Tensor::of(B, c.type, {c.n})},
                                    {"Y", Tensor::of(Y, c.type, {c.m, c.n})},
                                    {"eps", c.eps}});
    library->synchronize();
    ASSERT_TRUE(report.choice.chosen) << where << ": " << report.explain();
    EXPECT_EQ(report.choice.chosen->name, c.variant)
        << where << ": " << report.explain();
    ran.insert(report.choice.chosen->name);

    std::vector<uint8_t> out = Y.download<uint8_t>();
    for (size_t i = c.m * c.n * bytes; i < out.size(); ++i)
      ASSERT_EQ(out[i], 0xff) << where << ": wrote past Y";
    std::vector<double> ref = layerNorm(x, w, b, c.m, c.n, c.eps);
    test::RelativeError error;
    for (int64_t i = 0; i < c.m * c.n; ++i) {
      double got;
      if (c.type == DType::f32) {
        float v;
        std::memcpy(&v, &out[i * bytes], bytes);
        got = v;
      } else {
        uint16_t v;
        std::memcpy(&v, &out[i * bytes], bytes);
        got = rt::lowToFloat(v, false);
      }
      error.add(got, ref[i]);
    }
    // One rounding of the output type, with margin.
    double tolerance = c.type == DType::f32 ? 1e-5 : 2e-3;
    EXPECT_TRUE(error.finite) << where;
    EXPECT_LE(error.value(), tolerance) << where << ": " << report.explain();
  }
  // Every compiled variant ran at least once.
  for (const rt::KernelVariant &v : library->catalog().variants())
    EXPECT_TRUE(ran.count(v.name)) << v.name << " never ran";
}

TEST_F(LayerNormGpu, RowsLongerThanEveryTileAreRefused) {
  const int64_t m = 2, n = 1500;
  std::vector<double> x(m * n, 1.0), w(n, 1.0), b(n, 0.0), y(m * n, 0.0);
  rt::DeviceBuffer X = upload(x, DType::f16), W = upload(w, DType::f16),
                   B = upload(b, DType::f16), Y = upload(y, DType::f16);
  test::expectRefused(
      *device,
      [&] {
        library->call("layernorm", {{"X", Tensor::of(X, DType::f16, {m, n})},
                                    {"W", Tensor::of(W, DType::f16, {n})},
                                    {"B", Tensor::of(B, DType::f16, {n})},
                                    {"Y", Tensor::of(Y, DType::f16, {m, n})},
                                    {"eps", 1e-5f}});
      },
      {&Y},
      {"layernorm: no variant suits this launch",
       "requires X[1] <= 1024, but X[1] = 1500"},
      "a 1500-column row");
}

} // namespace
