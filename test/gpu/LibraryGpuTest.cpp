//===- LibraryGpuTest.cpp - The kernel library's calls on a GPU -----------===//
//
// KernelLibrary (tile/runtime/Library.h) over the compiled library, as a
// user calls it: gemm (plain, a transposed view of A, a fused bias + GELU
// epilogue), softmax, attention (causal, a user scale), vector add, each
// against float64 on shapes nobody tuned for; tuning on first use, its
// cache read back by a second library; and the refusals (an output
// overlapping an input, a call no variant exists for). Without a GPU or
// compiled kernels every test skips, saying why.
//
//===----------------------------------------------------------------------===//

#include "GpuTest.h"

#include "tile/runtime/Half.h"
#include "tile/runtime/Library.h"

#include <cmath>
#include <cstring>
#include <filesystem>
#include <random>
#include <unistd.h>

using namespace tile;
using rt::DType;
using rt::Tensor;

namespace {

class LibraryGpu : public ::testing::Test {
protected:
  void SetUp() override {
    std::vector<rt::KernelVariant> variants;
    std::string why = test::findGpuVariants("", variants);
    if (!why.empty())
      GTEST_SKIP() << why;
    device.emplace(rt::Device::open());
    dir = rt::kernelDir(TILE_KERNEL_DIR_DEFAULT);
    cachePath =
        (std::filesystem::temp_directory_path() /
         ("tile-library-gpu-test-" + std::to_string(::getpid()) + ".json"))
            .string();
    std::filesystem::remove(cachePath);
    rt::LibraryOptions options;
    options.tuneCache = cachePath;
    library.emplace(*device, dir, options);
  }
  void TearDown() override { std::filesystem::remove(cachePath); }

  /// `count` random values in [-1, 1] stored as `type` on the device,
  /// and their float64 values.
  std::pair<rt::DeviceBuffer, std::vector<double>> random(int64_t count,
                                                          DType type) {
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<double> values(count);
    if (type == DType::f32) {
      std::vector<float> host(count);
      for (int64_t i = 0; i < count; ++i)
        values[i] = host[i] = dist(rng);
      return {rt::DeviceBuffer::fromHost(*device, host), values};
    }
    bool bf16 = type == DType::bf16;
    std::vector<uint16_t> host(count);
    for (int64_t i = 0; i < count; ++i) {
      host[i] = rt::floatToLow(dist(rng), bf16);
      values[i] = rt::lowToFloat(host[i], bf16);
    }
    return {rt::DeviceBuffer::fromHost(*device, host), values};
  }

  /// The buffer's first `count` values of `type`, as doubles.
  std::vector<double> download(const rt::DeviceBuffer &buffer, int64_t count,
                               DType type) {
    std::vector<double> values(count);
    if (type == DType::f32) {
      std::vector<float> host = buffer.download<float>();
      for (int64_t i = 0; i < count; ++i)
        values[i] = host[i];
    } else {
      std::vector<uint16_t> host = buffer.download<uint16_t>();
      for (int64_t i = 0; i < count; ++i)
        values[i] = rt::lowToFloat(host[i], type == DType::bf16);
    }
    return values;
  }

  static double relativeError(const std::vector<double> &got,
                              const std::vector<double> &ref) {
    rt::RelativeError error;
    for (size_t i = 0; i < ref.size(); ++i)
      error.add(got[i], ref[i]);
    return error.finite ? error.value() : INFINITY;
  }

  std::optional<rt::Device> device;
  std::optional<rt::KernelLibrary> library;
  std::string dir, cachePath;
  std::mt19937 rng{2026};
};

/// C = A B (+ bias, GELU) in float64; A as M x K values.
std::vector<double> gemmReference(const std::vector<double> &a,
                                  const std::vector<double> &b, int64_t m,
                                  int64_t n, int64_t k,
                                  const std::vector<double> *bias = nullptr) {
  std::vector<double> c(m * n);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0;
      for (int64_t p = 0; p < k; ++p)
        sum += a[i * k + p] * b[p * n + j];
      c[i * n + j] = bias ? test::geluReference(sum + (*bias)[j], false) : sum;
    }
  return c;
}

TEST_F(LibraryGpu, GemmOnTensorsAndTransposedViews) {
  const int64_t m = 300, n = 200, k = 136;
  auto [a, af] = random(m * k, DType::f16);
  auto [b, bf] = random(k * n, DType::f16);
  rt::DeviceBuffer c(*device, m * n * 4);
  const rt::CallReport &report = library->gemm(
      Tensor::of(a, DType::f16, {m, k}), Tensor::of(b, DType::f16, {k, n}),
      Tensor::of(c, DType::f32, {m, n}));
  library->synchronize();
  ASSERT_TRUE(report.choice.chosen);
  EXPECT_EQ(report.source, rt::ChoiceSource::Heuristic);
  std::vector<double> ref = gemmReference(af, bf, m, n, k);
  EXPECT_LT(relativeError(download(c, m * n, DType::f32), ref), 1e-3)
      << report.explain();

  // A stored K x M, passed as its M x K transposed view.
  std::vector<double> at(k * m);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t p = 0; p < k; ++p)
      at[p * m + i] = af[i * k + p];
  std::vector<uint16_t> atBits(k * m);
  for (size_t i = 0; i < at.size(); ++i)
    atBits[i] = rt::floatToLow(float(at[i]), false);
  rt::DeviceBuffer aT = rt::DeviceBuffer::fromHost(*device, atBits);
  c.fillZero();
  const rt::CallReport &tn = library->gemm(
      Tensor::of(aT, DType::f16, {k, m}).transposed(),
      Tensor::of(b, DType::f16, {k, n}), Tensor::of(c, DType::f32, {m, n}));
  library->synchronize();
  ASSERT_TRUE(tn.choice.chosen);
  EXPECT_TRUE(tn.choice.chosen->config.getOrDefault(config::gemm::transposeA))
      << tn.explain();
  EXPECT_LT(relativeError(download(c, m * n, DType::f32), ref), 1e-3)
      << tn.explain();
}

TEST_F(LibraryGpu, GemmWithAFusedEpilogue) {
  const int64_t m = 130, n = 264, k = 72;
  auto [a, af] = random(m * k, DType::f16);
  auto [b, bf] = random(k * n, DType::f16);
  auto [bias, biasf] = random(n, DType::f16);
  rt::DeviceBuffer c(*device, m * n * 2);
  rt::GemmOptions options;
  options.epilogue = "bias_gelu";
  options.bias = Tensor::of(bias, DType::f16, {n});
  const rt::CallReport &report = library->gemm(
      Tensor::of(a, DType::f16, {m, k}), Tensor::of(b, DType::f16, {k, n}),
      Tensor::of(c, DType::f16, {m, n}), options);
  library->synchronize();
  ASSERT_TRUE(report.choice.chosen);
  EXPECT_EQ(report.choice.chosen->config.getOrDefault(config::gemm::epilogue),
            "bias_gelu");
  EXPECT_LT(relativeError(download(c, m * n, DType::f16),
                          gemmReference(af, bf, m, n, k, &biasf)),
            5e-3)
      << report.explain();
}

TEST_F(LibraryGpu, SoftmaxOfRowsShortAndLong) {
  for (auto [rows, cols, type] : {std::tuple{37, 3000, DType::f32},
                                  {5, 20000, DType::f16},
                                  {64, 1000, DType::bf16}}) {
    auto [x, xf] = random(rows * cols, type);
    rt::DeviceBuffer y(*device, rows * cols * rt::dtypeSize(type));
    const rt::CallReport &report = library->softmax(
        Tensor::of(x, type, {rows, cols}), Tensor::of(y, type, {rows, cols}));
    library->synchronize();
    std::vector<double> ref(rows * cols);
    for (int64_t r = 0; r < rows; ++r) {
      double top = -INFINITY, sum = 0;
      for (int64_t j = 0; j < cols; ++j)
        top = std::max(top, xf[r * cols + j]);
      for (int64_t j = 0; j < cols; ++j)
        sum += std::exp(xf[r * cols + j] - top);
      for (int64_t j = 0; j < cols; ++j)
        ref[r * cols + j] = std::exp(xf[r * cols + j] - top) / sum;
    }
    EXPECT_LT(relativeError(download(y, rows * cols, type), ref),
              type == DType::f32 ? 1e-5 : 1e-2)
        << rows << " x " << cols << ": " << report.explain();
  }
}

TEST_F(LibraryGpu, AttentionCausalWithAUserScale) {
  const int64_t batch = 1, heads = 2, seq = 100, d = 64;
  int64_t count = batch * heads * seq * d;
  auto [q, qf] = random(count, DType::f16);
  auto [kk, kf] = random(count, DType::f16);
  auto [v, vf] = random(count, DType::f16);
  rt::DeviceBuffer o(*device, count * 2);
  std::vector<int64_t> shape{batch, heads, seq, d};
  for (std::optional<float> scale : {std::optional<float>(), {0.3f}}) {
    rt::AttentionOptions options;
    options.causal = true;
    options.scale = scale;
    const rt::CallReport *report = nullptr;
    try {
      report = &library->attention(Tensor::of(q, DType::f16, shape),
                                   Tensor::of(kk, DType::f16, shape),
                                   Tensor::of(v, DType::f16, shape),
                                   Tensor::of(o, DType::f16, shape), options);
    } catch (const rt::Error &e) {
      // A library compiled before the scale became a parameter refuses
      // another scale, saying so; the default scale must work.
      ASSERT_TRUE(scale) << e.what();
      EXPECT_NE(std::string(e.what()).find("built in"), std::string::npos)
          << e.what();
      continue;
    }
    library->synchronize();
    double s = scale.value_or(1.0 / std::sqrt(double(d)));
    std::vector<double> ref(count);
    for (int64_t h = 0; h < heads; ++h)
      for (int64_t i = 0; i < seq; ++i) {
        const double *qi = &qf[(h * seq + i) * d];
        std::vector<double> p(i + 1);
        double top = -INFINITY, sum = 0;
        for (int64_t j = 0; j <= i; ++j) {
          double dot = 0;
          for (int64_t e = 0; e < d; ++e)
            dot += qi[e] * kf[(h * seq + j) * d + e];
          p[j] = dot * s;
          top = std::max(top, p[j]);
        }
        for (double &x : p)
          sum += (x = std::exp(x - top));
        for (int64_t e = 0; e < d; ++e) {
          double acc = 0;
          for (int64_t j = 0; j <= i; ++j)
            acc += p[j] * vf[(h * seq + j) * d + e];
          ref[(h * seq + i) * d + e] = acc / sum;
        }
      }
    EXPECT_LT(relativeError(download(o, count, DType::f16), ref), 5e-3)
        << report->explain();
  }
}

TEST_F(LibraryGpu, VectorAdd) {
  const int64_t n = 100003;
  auto [a, af] = random(n, DType::f32);
  auto [b, bf] = random(n, DType::f32);
  rt::DeviceBuffer c(*device, n * 4);
  const rt::CallReport &report = library->vectorAdd(
      Tensor::of(a, DType::f32, {n}), Tensor::of(b, DType::f32, {n}),
      Tensor::of(c, DType::f32, {n}));
  library->synchronize();
  std::vector<double> ref(n);
  for (int64_t i = 0; i < n; ++i)
    ref[i] = af[i] + bf[i];
  EXPECT_LT(relativeError(download(c, n, DType::f32), ref), 1e-6)
      << report.explain();
}

TEST_F(LibraryGpu, TunesOnFirstUseAndReadsTheCacheBack) {
  const int64_t m = 512, n = 512, k = 512;
  auto [a, af] = random(m * k, DType::f16);
  auto [b, bf] = random(k * n, DType::f16);
  rt::DeviceBuffer c(*device, m * n * 4);
  auto call = [&](rt::KernelLibrary &on) -> const rt::CallReport & {
    c.fillZero();
    const rt::CallReport &report = on.gemm(Tensor::of(a, DType::f16, {m, k}),
                                           Tensor::of(b, DType::f16, {k, n}),
                                           Tensor::of(c, DType::f32, {m, n}));
    on.synchronize();
    return report;
  };
  std::vector<double> ref = gemmReference(af, bf, m, n, k);
  rt::LibraryOptions tuning;
  tuning.tuneCache = cachePath;
  tuning.tuneOnFirstUse = true;
  tuning.tuneRuns = 5;
  rt::KernelLibrary tuned(*device, dir, tuning);
  const rt::CallReport &first = call(tuned);
  EXPECT_EQ(first.source, rt::ChoiceSource::Tuned) << first.explain();
  EXPECT_GE(first.timings.size(), 2u) << first.explain();
  ASSERT_TRUE(first.choice.chosen);
  EXPECT_LT(relativeError(download(c, m * n, DType::f32), ref), 1e-3);
  for (const auto &[name, us] : first.timings)
    EXPECT_GT(us, 0) << name;
  // Every variant that accepts the call agrees with the library's own
  // choice (tuning compares each with it before timing).
  for (const rt::PassedOver &p : first.choice.passedOver)
    EXPECT_EQ(p.reason.find("differs"), std::string::npos)
        << p.variant << ": " << p.reason;

  // Another library opened on the same cache afterwards takes the stored
  // winner.
  rt::LibraryOptions reading;
  reading.tuneCache = cachePath;
  rt::KernelLibrary after(*device, dir, reading);
  const rt::CallReport &second = call(after);
  EXPECT_EQ(second.source, rt::ChoiceSource::TuneCache) << second.explain();
  ASSERT_TRUE(second.choice.chosen);
  EXPECT_EQ(second.choice.chosen->name, first.choice.chosen->name);
  EXPECT_LT(relativeError(download(c, m * n, DType::f32), ref), 1e-3);
}

TEST_F(LibraryGpu, RefusalsSayWhy) {
  const int64_t n = 4096;
  rt::DeviceBuffer a(*device, n * 4), b(*device, n * 4);
  // C over A: every variant's contract refuses the overlap.
  try {
    library->vectorAdd(Tensor::of(a, DType::f32, {n}),
                       Tensor::of(b, DType::f32, {n}),
                       Tensor::of(a, DType::f32, {n}));
    ADD_FAILURE() << "an output overlapping an input was launched";
  } catch (const rt::Error &e) {
    EXPECT_NE(std::string(e.what()).find("no variant suits this launch"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("overlap"), std::string::npos)
        << e.what();
  }
  // f32 inputs: no gemm variant at all.
  EXPECT_THROW(
      {
        try {
          library->gemm(Tensor::of(a, DType::f32, {32, 32}),
                        Tensor::of(b, DType::f32, {32, 32}),
                        Tensor::of(b, DType::f32, {32, 32}));
        } catch (const rt::Error &e) {
          EXPECT_NE(
              std::string(e.what()).find("no gemm variant for f32 -> f32"),
              std::string::npos)
              << e.what();
          throw;
        }
      },
      rt::Error);
}

} // namespace
