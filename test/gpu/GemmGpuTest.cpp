//===- GemmGpuTest.cpp - Tensor-core GEMM on the GPU ----------------------===//
//
// Runs every compiled GEMM variant on random f16 or bf16 inputs and compares
// with a float64 reference, its epilogue included (bias, GELU erf or tanh,
// ReLU: config::gemm::epilogues), by relative error ||C - ref|| / ||ref||:
// every element for small and odd shapes, 4096 random elements for large
// ones. The output is poisoned with NaN first and guarded past its end.
// Skips visibly without a GPU or without compiled kernels.
//
//===----------------------------------------------------------------------===//

#include "GpuTest.h"
#include "common/GemmArgs.h"

#include "tile/runtime/Half.h"
#include "tile/runtime/KernelChoice.h"
#include "tile/runtime/Runtime.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <stdexcept>
#include <tuple>

using namespace tile;
/// The configuration keys of the gemm generator's variants.
namespace key = config::gemm;

namespace {

struct GemmGpuKernels {
  static const char *name() { return key::generator; }
};
using GemmGpu = test::VariantTest<GemmGpuKernels>;

struct Shape {
  int64_t m, n, k;
};

/// A variant's fused epilogue (config::gemm::epilogues) in float64, on x =
/// the product's element; `bias` is its column's bias.
double applyEpilogue(config::gemm::Epilogue epilogue, double x, double bias) {
  using config::gemm::Epilogue;
  switch (epilogue) {
  case Epilogue::none:
    return x;
  case Epilogue::bias:
    return x + bias;
  case Epilogue::biasGelu:
    return test::geluReference(x + bias, /*tanhForm=*/false);
  case Epilogue::biasGeluTanh:
    return test::geluReference(x + bias, /*tanhForm=*/true);
  case Epilogue::biasRelu:
    return std::max(x + bias, 0.0);
  }
  throw std::logic_error("an epilogue without a reference");
}

/// Relative error of `variant` on one shape; -1 when an element is NaN or
/// the guard past C was overwritten. `loaded`: the variant's kernel, loaded
/// once for several launches (on `stream`), instead of a module of its own.
double gemmRelativeError(rt::Device &device, const rt::KernelVariant &variant,
                         Shape s, bool sampled,
                         const rt::Kernel *loaded = nullptr,
                         rt::Stream *onStream = nullptr) {
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  bool bf16In = variant.config.getOrDefault(key::inDtype) == "bf16";
  bool bf16Out = variant.config.get(key::outDtype) == "bf16";
  // The inputs depend only on the shape and the input type: drawn once per
  // pair (drawing 2 x 8192^2 values per variant dominated the test's time),
  // with the generator's state after them, so that what follows (bias,
  // sampled positions) is the same for every variant.
  struct Inputs {
    std::vector<uint16_t> a, b;
    /// A as K x M and B as N x K, made when a transposed variant needs them.
    std::vector<uint16_t> aT, bT;
    std::vector<double> af, bf;
    std::mt19937 rng;
  };
  static std::map<std::tuple<int64_t, int64_t, int64_t, bool>, Inputs> cache;
  auto [cached, fresh] = cache.try_emplace({s.m, s.n, s.k, bf16In});
  Inputs &inputs = cached->second;
  if (fresh) {
    inputs.rng.seed(s.m * 31 + s.n * 7 + s.k);
    inputs.a.resize(s.m * s.k);
    inputs.b.resize(s.k * s.n);
    for (auto &x : inputs.a)
      x = rt::floatToLow(dist(inputs.rng), bf16In);
    for (auto &x : inputs.b)
      x = rt::floatToLow(dist(inputs.rng), bf16In);
    inputs.af.resize(inputs.a.size());
    inputs.bf.resize(inputs.b.size());
    for (size_t i = 0; i < inputs.a.size(); ++i)
      inputs.af[i] = rt::lowToFloat(inputs.a[i], bf16In);
    for (size_t i = 0; i < inputs.b.size(); ++i)
      inputs.bf[i] = rt::lowToFloat(inputs.b[i], bf16In);
  }
  std::mt19937 rng = inputs.rng;
  const std::vector<uint16_t> &a = inputs.a, &b = inputs.b;
  const std::vector<double> &af = inputs.af, &bf = inputs.bf;
  bool halfOut = variant.config.get(key::outDtype) != "f32";
  size_t outBytes = halfOut ? 2 : 4;
  // Transposed variants take A as K x M and B as N x K: upload those
  // transposed (made once per shape and type: the library has a variant of
  // every layout); the reference below uses the M x K and K x N values.
  bool transposeA = variant.config.getOrDefault(key::transposeA);
  bool transposeB = variant.config.getOrDefault(key::transposeB);
  if (transposeA && inputs.aT.empty())
    inputs.aT = bench::transposed(a, s.m, s.k);
  if (transposeB && inputs.bT.empty())
    inputs.bT = bench::transposed(b, s.k, s.n);
  rt::DeviceBuffer A =
      rt::DeviceBuffer::fromHost(device, transposeA ? inputs.aT : a);
  rt::DeviceBuffer B =
      rt::DeviceBuffer::fromHost(device, transposeB ? inputs.bT : b);
  // Epilogue variants add a bias of N output-type values.
  const config::gemm::EpilogueInfo &epilogue =
      bench::gemmEpilogue(variant.config);
  std::vector<uint16_t> biasBits(s.n);
  std::vector<float> biasF32(s.n);
  std::vector<double> bias(s.n, 0.0);
  for (int64_t j = 0; j < s.n; ++j) {
    float value = dist(rng);
    biasBits[j] = rt::floatToLow(value, bf16Out);
    biasF32[j] = value;
    bias[j] = halfOut ? rt::lowToFloat(biasBits[j], bf16Out) : value;
  }
  const int64_t guard = 64;
  rt::DeviceBuffer C(device, (s.m * s.n + guard) * outBytes);
  C.fillBytes(0xff); // NaN in f16 and f32
  std::optional<rt::Module> module;
  std::optional<rt::Kernel> own;
  if (!loaded) {
    module.emplace(
        rt::Module::load(device, variant.cubinPath, variant.manifestPath));
    own.emplace(module->kernel(variant.name));
  }
  const rt::Kernel &kernel = loaded ? *loaded : *own;
  std::optional<rt::Stream> ownStream;
  if (!onStream)
    ownStream.emplace(device);
  rt::Stream &stream = onStream ? *onStream : *ownStream;
  std::optional<rt::DeviceBuffer> biasBuffer;
  if (epilogue.hasBias)
    biasBuffer.emplace(halfOut ? rt::DeviceBuffer::fromHost(device, biasBits)
                               : rt::DeviceBuffer::fromHost(device, biasF32));
  std::vector<rt::Arg> args =
      bench::gemmArgs(variant.config, A, B, C,
                      biasBuffer ? &*biasBuffer : nullptr, s.m, s.n, s.k);
  kernel.launch(stream, args);
  stream.synchronize();

  std::vector<float> c(s.m * s.n + guard);
  bool guardIntact = true;
  if (halfOut) {
    std::vector<uint16_t> raw = C.download<uint16_t>();
    for (size_t i = 0; i < c.size(); ++i)
      c[i] = rt::lowToFloat(raw[i], bf16Out);
    for (int64_t i = 0; i < guard; ++i)
      guardIntact &= raw[s.m * s.n + i] == 0xffff;
  } else {
    std::vector<uint32_t> raw = C.download<uint32_t>();
    std::memcpy(c.data(), raw.data(), c.size() * 4);
    for (int64_t i = 0; i < guard; ++i)
      guardIntact &= raw[s.m * s.n + i] == 0xffffffffu;
  }
  if (!guardIntact)
    return -1;

  double diff = 0, norm = 0;
  auto check = [&](int64_t i, int64_t j) {
    double ref = 0;
    for (int64_t p = 0; p < s.k; ++p)
      ref += af[i * s.k + p] * bf[p * s.n + j];
    ref = applyEpilogue(epilogue.kind, ref, bias[j]);
    double got = c[i * s.n + j];
    if (std::isnan(got))
      return false;
    diff += (got - ref) * (got - ref);
    norm += ref * ref;
    return true;
  };
  if (sampled) {
    std::uniform_int_distribution<int64_t> row(0, s.m - 1), col(0, s.n - 1);
    for (int i = 0; i < 4096; ++i)
      if (!check(row(rng), col(rng)))
        return -1;
    // The corners, where the tails are masked.
    for (auto [i, j] : {std::pair<int64_t, int64_t>{s.m - 1, s.n - 1},
                        {0, s.n - 1},
                        {s.m - 1, 0}})
      if (!check(i, j))
        return -1;
  } else {
    // The inputs depend only on the shape and the input type: compute the
    // full reference once per pair (i-p-j order, cache friendly).
    static std::map<std::tuple<int64_t, int64_t, int64_t, bool>,
                    std::vector<double>>
        references;
    std::vector<double> &ref = references[{s.m, s.n, s.k, bf16In}];
    if (ref.empty()) {
      ref.assign(s.m * s.n, 0.0);
      for (int64_t i = 0; i < s.m; ++i)
        for (int64_t p = 0; p < s.k; ++p) {
          double x = af[i * s.k + p];
          for (int64_t j = 0; j < s.n; ++j)
            ref[i * s.n + j] += x * bf[p * s.n + j];
        }
    }
    for (int64_t i = 0; i < s.m * s.n; ++i) {
      if (std::isnan(c[i]))
        return -1;
      double expected = applyEpilogue(epilogue.kind, ref[i], bias[i % s.n]);
      diff += (c[i] - expected) * (c[i] - expected);
      norm += expected * expected;
    }
  }
  // K = 0: the reference is the empty sum, and the error absolute.
  return norm == 0 ? std::sqrt(diff) : std::sqrt(diff / norm);
}

double tolerance(const rt::KernelVariant &variant) {
  // f16 inputs are exact in f32 products; f32 accumulation errors grow with
  // K (about 1e-5 measured at K = 8192); an f16 output adds one rounding
  // (2^-11).
  // A bf16 output rounds to 2^-8.
  std::string out = variant.config.get(key::outDtype);
  return out == "bf16" ? 5e-3 : out == "f16" ? 1e-3 : 1e-4;
}

TEST_F(GemmGpu, SmallAndOddShapesAreExactToRounding) {
  rt::Device device = rt::Device::open();
  for (const auto &variant : variants)
    for (Shape s :
         {Shape{128, 128, 32}, Shape{256, 256, 256}, Shape{512, 512, 512},
          Shape{1000, 1000, 1000}, Shape{129, 67, 40}, Shape{77, 130, 33},
          Shape{1, 1, 1}, Shape{300, 8, 24}, Shape{136, 200, 72},
          Shape{8, 8, 8}, Shape{72, 136, 0}}) {
      if (!bench::keepsDivisibility(variant.config, s.m, s.n, s.k)) {
        // A `_div8` kernel refuses sizes that break its promise, before
        // launching.
        try {
          gemmRelativeError(device, variant, s, false);
          ADD_FAILURE() << variant.name << " " << s.m << "x" << s.n << "x"
                        << s.k << ": launched although the shape breaks its "
                        << "divisibility promise";
        } catch (const rt::Error &error) {
          EXPECT_NE(std::string(error.what()).find("multiples of"),
                    std::string::npos)
              << error.what();
        }
        continue;
      }
      double error = gemmRelativeError(device, variant, s, false);
      EXPECT_GE(error, 0) << variant.name << " " << s.m << "x" << s.n << "x"
                          << s.k << ": NaN or write past the end";
      EXPECT_LE(error, tolerance(variant))
          << variant.name << " " << s.m << "x" << s.n << "x" << s.k;
    }
}

/// Persistent kernels with several C tiles per block and a K tail: 2176 x
/// 2176 is 289 tiles of 128x128 (three per block on 132 multiprocessors,
/// so the two compute sets of a ping-pong kernel each run at least one and
/// pass the turn) and 153 of 128x256, with ragged edges; K = 136 is two
/// 64-wide steps and a tail. A small K keeps it cheap enough for the
/// sanitizers, which check the tile loops' barriers on it.
TEST_F(GemmGpu, PersistentBlocksWalkSeveralTiles) {
  rt::Device device = rt::Device::open();
  int tested = 0;
  for (const auto &variant : variants) {
    if (!variant.config.getOrDefault(key::persistent))
      continue;
    Shape s{2176, 2176, 136};
    double error = gemmRelativeError(device, variant, s, false);
    EXPECT_GE(error, 0) << variant.name << ": NaN or write past the end";
    EXPECT_LE(error, tolerance(variant)) << variant.name;
    ++tested;
  }
  if (tested == 0)
    GTEST_SKIP() << "no persistent variant in the library";
}

/// Stream-K: the tiles of a partial round split into K chunks that the
/// blocks take in turn, each tile's chunks summed through the workspace by
/// the block that counts in last, which leaves the count zero for the next
/// launch. One kernel and stream run a sequence of shapes, each checked
/// (128x256 tiles; the splits are those of 132 blocks, an H100's or
/// H200's): 2176^2 x 136 (153 tiles, 21 shared in 3 chunks of one K step
/// each), 2432 x 2048 x 264 (152 tiles, 20 in 4 chunks, the last with the
/// K tail), 3072 x 2048 x 1000 (192 tiles, 60 in 2 chunks), 4224 x 4096
/// (whole rounds), fewer tiles than blocks, K = 0 (bias, GELU of 0 +
/// bias), then the first shape again on the reused workspace.
TEST_F(GemmGpu, StreamKChunksAreSummedAndTheWorkspaceReused) {
  rt::Device device = rt::Device::open();
  int tested = 0;
  for (const auto &variant : variants) {
    if (!variant.config.getOrDefault(key::streamK))
      continue;
    rt::Module module =
        rt::Module::load(device, variant.cubinPath, variant.manifestPath);
    rt::Kernel kernel = module.kernel(variant.name);
    rt::Stream stream(device);
    for (auto [s, sampled] : {std::pair<Shape, bool>{{2176, 2176, 136}, false},
                              {{2432, 2048, 264}, false},
                              {{3072, 2048, 1000}, true},
                              {{4224, 4096, 264}, true},
                              {{1000, 1000, 1000}, false},
                              {{520, 776, 0}, false},
                              {{2176, 2176, 136}, false}}) {
      double error =
          gemmRelativeError(device, variant, s, sampled, &kernel, &stream);
      std::string where = variant.name + " " + std::to_string(s.m) + "x" +
                          std::to_string(s.n) + "x" + std::to_string(s.k);
      EXPECT_GE(error, 0) << where << ": NaN or write past the end";
      EXPECT_LE(error, tolerance(variant)) << where;
    }
    ++tested;
  }
  if (tested == 0)
    GTEST_SKIP() << "no stream_k variant in the library";
}

/// At the contract's limits (A's K == B's K, C exactly M x N, the bias
/// exactly N): the smallest sizes the divisibility promise allows (K = 1,
/// M = N = 1 without one), one block exactly, one element (or one divisor)
/// past it in every dimension, and a K of two blocks and a tail. A and B are
/// allocated to the element, C has a 64-element guard (gemmRelativeError).
TEST_F(GemmGpu, ContractBoundaries) {
  rt::Device device = rt::Device::open();
  for (const auto &variant : variants) {
    int64_t d = variant.config.getOrDefault(key::divisibility);
    int64_t bm = variant.config.get(key::blockM),
            bn = variant.config.get(key::blockN),
            bk = variant.config.get(key::blockK);
    // M is a row length (and so promised a multiple) only with transpose_a.
    int64_t dm = variant.config.getOrDefault(key::transposeA) ? d : 1;
    for (Shape s :
         {Shape{dm, d, d}, Shape{bm, bn, bk}, Shape{bm + dm, bn + d, bk + d},
          Shape{dm, bn + d, d}, Shape{bm, d, 2 * bk + d}}) {
      ASSERT_TRUE(bench::keepsDivisibility(variant.config, s.m, s.n, s.k));
      double error = gemmRelativeError(device, variant, s, false);
      std::string where = variant.name + " " + std::to_string(s.m) + "x" +
                          std::to_string(s.n) + "x" + std::to_string(s.k);
      EXPECT_GE(error, 0) << where << ": NaN or write past the end";
      EXPECT_LE(error, tolerance(variant)) << where;
    }
  }
}

/// The GEMM misuses, refused before anything runs: K of A and B
/// disagree (A 128 x 64, B 32 x 128 computed A[:, :32] B), C too small for
/// the product (64 x 64 for 128 x 128), a bias shorter than N.
TEST_F(GemmGpu, MisusesAreRefused) {
  rt::Device device = rt::Device::open();
  for (const auto &variant : variants) {
    bool ta = variant.config.getOrDefault(key::transposeA);
    bool tb = variant.config.getOrDefault(key::transposeB);
    bool bias = bench::gemmEpilogue(variant.config).hasBias;
    rt::DType in = variant.config.getOrDefault(key::inDtype) == "bf16"
                       ? rt::DType::bf16
                       : rt::DType::f16;
    rt::DType out = *rt::parseDType(variant.config.get(key::outDtype));
    rt::Module module =
        rt::Module::load(device, variant.cubinPath, variant.manifestPath);
    rt::Kernel kernel = module.kernel(variant.name);
    rt::Stream stream(device);
    const int64_t m = 128, n = 128;
    rt::DeviceBuffer A(device, m * 128 * 2), B(device, 128 * n * 2),
        C(device, m * n * 4), Bias(device, n * 4);
    C.fillBytes(0xff);
    // A is M x K (K x M with transpose_a), B K x N (N x K with transpose_b).
    auto launch = [&](int64_t kA, int64_t kB, int64_t cRows, int64_t cCols,
                      int64_t biasLength) {
      std::vector<rt::Arg> args = {
          rt::Arg::buffer(A, in,
                          ta ? std::vector<int64_t>{kA, m}
                             : std::vector<int64_t>{m, kA}),
          rt::Arg::buffer(B, in,
                          tb ? std::vector<int64_t>{n, kB}
                             : std::vector<int64_t>{kB, n}),
          rt::Arg::buffer(C, out, {cRows, cCols})};
      if (bias)
        args.push_back(rt::Arg::buffer(Bias, out, {biasLength}));
      kernel.launch(stream, args);
    };
    std::string prefix = "kernel '" + variant.name + "': requires ";
    std::string kOfA = ta ? "A[0]" : "A[1]", kOfB = tb ? "B[1]" : "B[0]";
    test::expectRefused(
        device, [&] { launch(64, 32, m, n, n); }, {&C}, {prefix, kOfA, kOfB},
        variant.name + ": K of A and B disagree");
    test::expectRefused(
        device, [&] { launch(64, 64, 64, 64, n); }, {&C},
        {prefix, "C[0]", "C[1]"}, variant.name + ": C too small");
    if (bias)
      test::expectRefused(
          device, [&] { launch(64, 64, m, n, n - 8); }, {&C},
          {prefix, "Bias[0]"}, variant.name + ": bias shorter than N");
  }
}

/// Large shapes, sampled. An epilogue acts on each element after the K
/// loop, and that loop and the grid are those of the variant without it
/// (its twin, bench::plainGemmName), which runs every shape here: a fused
/// variant with a twin in the library runs the shapes that reach its
/// epilogue in other ways, many C tiles (several per block of a persistent
/// kernel), a long K and a K tail with few rows. That keeps the run within
/// minutes with a fused variant of every type, layout and epilogue.
TEST_F(GemmGpu, LargeShapesSampled) {
  rt::Device device = rt::Device::open();
  std::set<std::string> names;
  for (const auto &variant : variants)
    names.insert(variant.name);
  const std::vector<Shape> shapes = {{1024, 1024, 1024}, {2048, 2048, 2048},
                                     {4096, 1024, 8192}, {4096, 4096, 4096},
                                     {8192, 8192, 8192}, {16, 8192, 8192},
                                     {64, 8192, 8192},   {64, 4096, 1000}};
  const std::vector<Shape> fusedShapes = {
      {4096, 4096, 4096}, {4096, 1024, 8192}, {64, 4096, 1000}};
  for (const auto &variant : variants) {
    std::string twin = bench::plainGemmName(variant);
    bool twinRunsAll = twin != variant.name && names.count(twin);
    for (Shape s : twinRunsAll ? fusedShapes : shapes) {
      double error = gemmRelativeError(device, variant, s, true);
      EXPECT_GE(error, 0) << variant.name << ": NaN or write past the end";
      EXPECT_LE(error, tolerance(variant))
          << variant.name << " " << s.m << "x" << s.n << "x" << s.k;
      std::cout << variant.name << " " << s.m << "x" << s.n << "x" << s.k
                << ": relative error " << error << "\n";
    }
  }
}

/// The library's choice (rt::chooseGemm) on this GPU, for every types,
/// operand layout and epilogue the library has: with rows that are
/// multiples of 8 an sm_90a
/// variant wins on compute capability 9.0 where one exists (at 16 rows,
/// the first of rt::gemmCandidates' order: a 64-row tile where the library
/// has one for those types); 260x516x260
/// (rows of 520 or 1032 bytes in every layout, which TMA's 16-byte row
/// strides and the divisibility promise refuse) passes every sm_90a variant
/// over with that reason and falls back to a variant for any shape, or, in
/// a library without one, reports every refusal. The chosen variant runs
/// and matches the float64 reference.
TEST_F(GemmGpu, LibraryChoiceFallsBackWithTheReason) {
  rt::Device device = rt::Device::open();
  std::string chip = device.chip();
  std::set<std::tuple<std::string, std::string, bool, bool, std::string>> kinds;
  for (const auto &variant : variants)
    kinds.insert({variant.config.getOrDefault(key::inDtype),
                  variant.config.get(key::outDtype),
                  variant.config.getOrDefault(key::transposeA),
                  variant.config.getOrDefault(key::transposeB),
                  bench::gemmEpilogue(variant.config).name});
  for (auto [in, out, ta, tb, epilogue] : kinds) {
    for (Shape s :
         {Shape{256, 512, 256}, Shape{16, 512, 256}, Shape{260, 516, 260}}) {
      rt::DType inType = *rt::parseDType(in), outType = *rt::parseDType(out);
      rt::DeviceBuffer A(device, s.m * s.k * 2), B(device, s.k * s.n * 2),
          C(device, s.m * s.n * rt::dtypeSize(outType)),
          Bias(device, s.n * rt::dtypeSize(outType));
      std::optional<rt::Arg> bias;
      if (config::gemm::findEpilogue(epilogue)->hasBias)
        bias = rt::Arg::buffer(Bias, outType, {s.n});
      rt::GemmRequest request{
          rt::Arg::buffer(A, inType,
                          ta ? std::vector<int64_t>{s.k, s.m}
                             : std::vector<int64_t>{s.m, s.k}),
          rt::Arg::buffer(B, inType,
                          tb ? std::vector<int64_t>{s.n, s.k}
                             : std::vector<int64_t>{s.k, s.n}),
          rt::Arg::buffer(C, outType, {s.m, s.n}),
          ta,
          tb,
          epilogue,
          bias};
      std::vector<rt::KernelVariant> candidates =
          rt::gemmCandidates(variants, request, chip);
      rt::KernelChoice choice = rt::chooseGemm(variants, request, chip);
      std::string where = in + " -> " + out + " " + (ta ? "T" : "N") +
                          (tb ? "T" : "N") + " " + epilogue + " " +
                          std::to_string(s.m) + "x" + std::to_string(s.n) +
                          "x" + std::to_string(s.k);
      std::cout << where << ": " << choice.explain();
      ASSERT_FALSE(candidates.empty()) << where;
      std::set<std::string> sm90a;
      for (const rt::KernelVariant &v : candidates)
        if (v.chip == "sm_90a")
          sm90a.insert(v.name);
      if (s.m % 8 == 0) {
        // Nothing refuses an aligned shape: the first candidate wins, an
        // sm_90a one on compute capability 9.0 when the library has one.
        ASSERT_TRUE(choice.chosen) << where << ": " << choice.explain();
        EXPECT_EQ(choice.chosen->name, candidates.front().name) << where;
        EXPECT_TRUE(choice.passedOver.empty()) << where;
        if (!sm90a.empty())
          EXPECT_EQ(choice.chosen->chip, "sm_90a") << where;
      } else {
        size_t refusedSm90a = 0;
        for (const rt::PassedOver &p : choice.passedOver)
          if (sm90a.count(p.variant)) {
            ++refusedSm90a;
            EXPECT_NE(p.reason.find("multiples of 8"), std::string::npos)
                << where << ": " << p.reason;
          }
        EXPECT_EQ(refusedSm90a, sm90a.size()) << where;
        if (!choice.chosen) {
          EXPECT_EQ(choice.passedOver.size(), candidates.size()) << where;
          continue;
        }
        EXPECT_NE(choice.chosen->chip, "sm_90a") << where;
      }
      double error = gemmRelativeError(device, *choice.chosen, s, false);
      EXPECT_GE(error, 0) << where << ": NaN or write past the end";
      EXPECT_LE(error, tolerance(*choice.chosen)) << where;
    }
  }
}

} // namespace
