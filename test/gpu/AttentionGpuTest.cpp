//===- AttentionGpuTest.cpp - FlashAttention forward on the GPU -----------===//
//
// Runs every compiled attention variant on [batch, heads, seq, head_dim]
// inputs of odd lengths (one element, lengths that are not multiples of
// the blocks, key length different from the query length), with the
// standard scale 1/sqrt(D) and others, K and V with as many heads as Q and
// fewer (grouped-query attention), and compares every output element (and
// the log-sum-exp, for variants with one) with a float64 reference computed
// from the same rounded inputs, causal variants with the top-left aligned
// mask (query i sees keys j <= i). Skips visibly without a GPU or without
// kernels.
//
//===----------------------------------------------------------------------===//

#include "GpuTest.h"

#include "tile/runtime/Half.h"
#include "tile/runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <map>
#include <optional>
#include <random>
#include <thread>
#include <tuple>

using namespace tile;
/// The configuration keys of the attention generator's variants.
namespace key = config::attention;

namespace {

struct AttentionGpuKernels {
  static const char *name() { return key::generator; }
};
using AttentionGpu = test::VariantTest<AttentionGpuKernels>;

/// Q, K, V of one problem as the kernel reads them (16-bit values), and the
/// scale it is given. K and V have `kvHeads` heads, which divide `heads`.
struct Problem {
  int64_t batch, heads, queries, keys, d;
  bool bf16, causal;
  std::vector<uint16_t> q, k, v;
  int64_t kvHeads;
  float scale;
};

/// The float64 output row of query `i` of (batch, head) pair `bh`, from the
/// same rounded inputs and scale; causal: keys j <= i (top-left aligned).
/// Query head h reads K/V head h / (heads / kvHeads).
std::vector<double> referenceRow(const Problem &p, int64_t bh, int64_t i,
                                 double *logSumExp = nullptr) {
  auto value = [&](const std::vector<uint16_t> &t, size_t index) {
    return double(rt::lowToFloat(t[index], p.bf16));
  };
  int64_t batch = bh / p.heads, head = bh % p.heads;
  int64_t kvPair = batch * p.kvHeads + head / (p.heads / p.kvHeads);
  int64_t visible = p.causal ? std::min(i + 1, p.keys) : p.keys;
  double maxScore = -INFINITY, sum = 0;
  std::vector<double> weights(visible), row(p.d, 0.0);
  for (int64_t j = 0; j < visible; ++j) {
    double dot = 0;
    for (int64_t c = 0; c < p.d; ++c)
      dot += value(p.q, (bh * p.queries + i) * p.d + c) *
             value(p.k, (kvPair * p.keys + j) * p.d + c);
    weights[j] = dot * double(p.scale);
    maxScore = std::max(maxScore, weights[j]);
  }
  for (double &w : weights) {
    w = std::exp(w - maxScore);
    sum += w;
  }
  if (logSumExp)
    *logSumExp = maxScore + std::log(sum);
  for (int64_t j = 0; j < visible; ++j)
    for (int64_t c = 0; c < p.d; ++c)
      row[c] += weights[j] / sum * value(p.v, (kvPair * p.keys + j) * p.d + c);
  return row;
}

/// The launch arguments of `variant` for `p`: Q, K, V, O, the log-sum-exp
/// for variants with one, then the scale.
std::vector<rt::Arg> attentionArgs(const rt::KernelVariant &variant,
                                   const Problem &p, rt::DeviceBuffer &Q,
                                   rt::DeviceBuffer &K, rt::DeviceBuffer &V,
                                   rt::DeviceBuffer &O, rt::DeviceBuffer &L) {
  rt::DType type = p.bf16 ? rt::DType::bf16 : rt::DType::f16;
  std::vector<int64_t> qShape = {p.batch, p.heads, p.queries, p.d},
                       kShape = {p.batch, p.kvHeads, p.keys, p.d};
  std::vector<rt::Arg> args = {
      rt::Arg::buffer(Q, type, qShape), rt::Arg::buffer(K, type, kShape),
      rt::Arg::buffer(V, type, kShape), rt::Arg::buffer(O, type, qShape)};
  if (variant.config.getOrDefault(key::lse))
    args.push_back(
        rt::Arg::buffer(L, rt::DType::f32, {p.batch, p.heads, p.queries}));
  args.push_back(rt::Arg::scalar(p.scale));
  return args;
}

/// Runs `variant` on `p`; returns O (batch x heads x queries x d values)
/// followed by `guard` values the kernel must leave as they were (0x7e00).
/// Variants with a log-sum-exp output write it to `lse` (batch x heads x
/// queries values, then `guard` that must stay -7).
std::vector<uint16_t> runAttention(rt::Device &device,
                                   const rt::KernelVariant &variant,
                                   const Problem &p, size_t guard,
                                   std::vector<float> *lse = nullptr) {
  std::vector<uint16_t> sentinel(p.q.size() + guard, 0x7e00);
  rt::DeviceBuffer Q = rt::DeviceBuffer::fromHost(device, p.q);
  rt::DeviceBuffer K = rt::DeviceBuffer::fromHost(device, p.k);
  rt::DeviceBuffer V = rt::DeviceBuffer::fromHost(device, p.v);
  rt::DeviceBuffer O = rt::DeviceBuffer::fromHost(device, sentinel);
  rt::Module module =
      rt::Module::load(device, variant.cubinPath, variant.manifestPath);
  rt::Stream stream(device);
  std::vector<float> lseInit(p.batch * p.heads * p.queries + guard, -7.0f);
  rt::DeviceBuffer L = rt::DeviceBuffer::fromHost(device, lseInit);
  module.kernel(variant.name)
      .launch(stream, attentionArgs(variant, p, Q, K, V, O, L));
  stream.synchronize();
  if (variant.config.getOrDefault(key::lse) && lse)
    *lse = L.download<float>();
  return O.download<uint16_t>();
}

/// Random normal Q, K, V for a variant's head dimension and types; K and V
/// with `kvHeads` heads (0: as many as Q), the scale 1/sqrt(D) unless one
/// is given.
Problem drawProblem(const rt::KernelVariant &variant, int64_t batch,
                    int64_t heads, int64_t queries, int64_t keys,
                    std::mt19937 &rng, int64_t kvHeads = 0,
                    std::optional<float> scale = std::nullopt) {
  int64_t d = variant.config.get(key::headDim);
  Problem p{batch,
            heads,
            queries,
            keys,
            d,
            variant.config.get(key::dtype) == "bf16",
            variant.config.get(key::causal),
            {},
            {},
            {},
            kvHeads ? kvHeads : heads,
            scale.value_or(float(1.0 / std::sqrt(double(d))))};
  std::normal_distribution<float> dist(0.0f, 1.0f);
  auto draw = [&](int64_t tensorHeads, int64_t rows) {
    std::vector<uint16_t> bits(batch * tensorHeads * rows * p.d);
    for (auto &x : bits)
      x = rt::floatToLow(dist(rng), p.bf16);
    return bits;
  };
  p.q = draw(heads, queries);
  p.k = draw(p.kvHeads, keys);
  p.v = draw(p.kvHeads, keys);
  return p;
}

/// Runs `variant` on random inputs of `s`'s shape and compares O (and the
/// log-sum-exp, for variants with one) with float64, and the guards past O
/// and LSE with what runAttention put there. `kvHeads` 0: as many as Q;
/// no `scale`: 1/sqrt(D).
struct Shape {
  int64_t batch, heads, queries, keys;
  int64_t kvHeads = 0;
  std::optional<float> scale;
};
void expectMatchesFloat64(rt::Device &device, const rt::KernelVariant &variant,
                          Shape s) {
  int64_t d = variant.config.get(key::headDim);
  std::mt19937 rng(s.queries * 131 + s.keys * 7 + d + s.kvHeads);
  Problem p = drawProblem(variant, s.batch, s.heads, s.queries, s.keys, rng,
                          s.kvHeads, s.scale);
  std::vector<float> lse;
  std::vector<uint16_t> out = runAttention(device, variant, p, 64, &lse);
  bool withLse = variant.config.getOrDefault(key::lse);
  std::string where = variant.name + " " + std::to_string(s.batch) + "x" +
                      std::to_string(s.heads) + "x" +
                      std::to_string(s.queries) + "x" + std::to_string(s.keys) +
                      " kv heads " + std::to_string(p.kvHeads) + " scale " +
                      std::to_string(p.scale);
  test::RelativeError error;
  // Largest log-sum-exp error; a NaN would not raise a maximum, so
  // finiteness is checked on its own.
  double lseError = 0;
  bool lseFinite = true;
  for (int64_t bh = 0; bh < s.batch * s.heads; ++bh)
    for (int64_t i = 0; i < s.queries; ++i) {
      double refLse = 0;
      std::vector<double> ref = referenceRow(p, bh, i, &refLse);
      if (withLse) {
        float got = lse[bh * s.queries + i];
        lseFinite &= std::isfinite(got);
        lseError = std::max(lseError, std::abs(got - refLse));
      }
      for (int64_t c = 0; c < d; ++c)
        error.add(rt::lowToFloat(out[(bh * s.queries + i) * d + c], p.bf16),
                  ref[c]);
    }
  for (size_t i = p.q.size(); i < out.size(); ++i)
    ASSERT_EQ(out[i], 0x7e00) << where << ": wrote past the end of O";
  for (size_t i = s.batch * s.heads * s.queries; i < lse.size(); ++i)
    ASSERT_EQ(lse[i], -7.0f) << where << ": wrote past the end of LSE";
  EXPECT_TRUE(error.finite) << where;
  // The probabilities are rounded to the input type before P x V, and
  // the output once more: a few units of 2^-11 (f16) or 2^-8 (bf16).
  EXPECT_LE(error.value(), p.bf16 ? 2e-2 : 4e-3) << where;
  // The log-sum-exp of f32 scores of O(10): f32 rounding.
  EXPECT_TRUE(lseFinite) << where << ": log-sum-exp";
  EXPECT_LE(lseError, 1e-3) << where << ": log-sum-exp";
}

TEST_F(AttentionGpu, MatchesFloat64) {
  rt::Device device = rt::Device::open();
  for (const auto &variant : variants)
    for (Shape s : {Shape{1, 1, 1, 1}, Shape{2, 3, 100, 100},
                    Shape{1, 2, 257, 130}, Shape{2, 2, 64, 300}})
      expectMatchesFloat64(device, variant, s);
}

/// Scales other than 1/sqrt(D): larger (0.5, 1: sharper rows, scores of
/// O(10) to O(40) times the scale), and smaller (1/D: flatter rows), on odd
/// lengths; the log-sum-exp follows the scale.
TEST_F(AttentionGpu, UserScale) {
  rt::Device device = rt::Device::open();
  for (const auto &variant : variants) {
    float d = float(variant.config.get(key::headDim));
    for (float scale : {0.5f, 1.0f / d, 1.0f})
      for (Shape s : {Shape{1, 2, 257, 130}, Shape{2, 1, 100, 300}}) {
        s.scale = scale;
        expectMatchesFloat64(device, variant, s);
      }
  }
}

/// Grouped-query attention: 8 query heads on 4, 2 and 1 K/V heads, with
/// odd query and key lengths (more keys than queries and fewer) and the
/// causal mask where the variant has it; with a scale too.
TEST_F(AttentionGpu, GroupedQueryAttention) {
  rt::Device device = rt::Device::open();
  for (const auto &variant : variants)
    for (int64_t kvHeads : {4, 2, 1})
      for (Shape s :
           {Shape{2, 8, 130, 257, kvHeads}, Shape{1, 8, 257, 100, kvHeads},
            Shape{1, 8, 1, 1, kvHeads}, Shape{1, 8, 65, 65, kvHeads, 0.25f}})
        expectMatchesFloat64(device, variant, s);
}

/// At the contract's limits (K and V as many batches as Q and heads that
/// divide Q's, V as long as K, O and LSE exactly Q's shape): a single key
/// (Sk = 1) for one
/// query and for a block and a tail of queries, more keys than queries and
/// fewer, each block exactly and one element past it. Q, K and V are
/// allocated to the element; O and LSE have 64-element guards
/// (runAttention).
TEST_F(AttentionGpu, ContractBoundaries) {
  rt::Device device = rt::Device::open();
  for (const auto &variant : variants) {
    int64_t bm = variant.config.get(key::blockM),
            bn = variant.config.get(key::blockN);
    for (Shape s :
         {Shape{1, 1, 1, 1}, Shape{2, 3, bm + 1, 1}, Shape{1, 2, 1, bn + 1},
          Shape{2, 1, bm, bn}, Shape{1, 2, bm + 1, 2 * bn + 1},
          Shape{1, 1, 2 * bm + 3, 5},
          // One K/V head for every query head, and for three.
          Shape{2, 3, bm + 1, bn + 1, 1}, Shape{1, 3, bm, 2 * bn + 1, 3}})
      expectMatchesFloat64(device, variant, s);
  }
}

/// No keys at all (Sk = 0, which the contract allows): no query sees a key,
/// so O is 0 and the log-sum-exp -inf (as torch's scaled_dot_product_attention
/// gives for an empty key sequence), with nothing written past O or LSE. K and
/// V are empty buffers (address 0, no bytes).
TEST_F(AttentionGpu, ContractBoundariesNoKeys) {
  rt::Device device = rt::Device::open();
  for (const auto &variant : variants) {
    int64_t bm = variant.config.get(key::blockM);
    std::mt19937 rng(17);
    Problem p = drawProblem(variant, 2, 3, bm + 1, 0, rng);
    std::vector<float> lse;
    std::vector<uint16_t> out = runAttention(device, variant, p, 64, &lse);
    bool withLse = variant.config.getOrDefault(key::lse);
    for (size_t i = 0; i < p.q.size(); ++i)
      ASSERT_EQ(out[i] & 0x7fff, 0) << variant.name << ": O[" << i << "]";
    for (size_t i = p.q.size(); i < out.size(); ++i)
      ASSERT_EQ(out[i], 0x7e00) << variant.name << ": wrote past the end of O";
    if (!withLse)
      continue;
    size_t rows = p.batch * p.heads * p.queries;
    for (size_t i = 0; i < rows; ++i)
      ASSERT_TRUE(std::isinf(lse[i]) && lse[i] < 0)
          << variant.name << ": LSE[" << i << "] = " << lse[i];
    for (size_t i = rows; i < lse.size(); ++i)
      ASSERT_EQ(lse[i], -7.0f) << variant.name << ": wrote past the end of LSE";
  }
}

/// K and V with heads that do not divide Q's (3 for 8, 16 for 8: before
/// grouped-query attention, the 2 for 8 read past them), K and V
/// with different heads, and V, O or LSE that disagree with K or Q,
/// refused before anything runs.
TEST_F(AttentionGpu, MisusesAreRefused) {
  rt::Device device = rt::Device::open();
  for (const auto &variant : variants) {
    rt::DType type = variant.config.get(key::dtype) == "bf16" ? rt::DType::bf16
                                                              : rt::DType::f16;
    int64_t d = variant.config.get(key::headDim);
    bool withLse = variant.config.getOrDefault(key::lse);
    rt::Module module =
        rt::Module::load(device, variant.cubinPath, variant.manifestPath);
    rt::Kernel kernel = module.kernel(variant.name);
    rt::Stream stream(device);
    const int64_t batch = 1, heads = 8, seq = 256;
    size_t bytes = batch * heads * seq * d * 2;
    // K and V hold 16 heads, so that the contract, not the capacity check,
    // refuses 16 K/V heads for 8.
    rt::DeviceBuffer Q(device, bytes), K(device, 2 * bytes),
        V(device, 2 * bytes), O(device, bytes),
        L(device, batch * heads * seq * 4);
    O.fillBytes(0x7e);
    L.fillBytes(0x7e);
    using Dims = std::vector<int64_t>;
    auto launch = [&](Dims q, Dims k, Dims v, Dims o, Dims l) {
      std::vector<rt::Arg> args = {
          rt::Arg::buffer(Q, type, q), rt::Arg::buffer(K, type, k),
          rt::Arg::buffer(V, type, v), rt::Arg::buffer(O, type, o)};
      if (withLse)
        args.push_back(rt::Arg::buffer(L, rt::DType::f32, l));
      args.push_back(rt::Arg::scalar(0.125f));
      kernel.launch(stream, args);
    };
    Dims q = {batch, heads, seq, d}, l = {batch, heads, seq};
    auto kvWith = [&](int64_t kvHeads) { return Dims{batch, kvHeads, seq, d}; };
    std::string prefix = "kernel '" + variant.name + "': requires ";
    for (int64_t kvHeads : {3, 16})
      test::expectRefused(
          device, [&] { launch(q, kvWith(kvHeads), kvWith(kvHeads), q, l); },
          {&O, &L},
          {prefix + "K[1] divides Q[1], but K[1] = " + std::to_string(kvHeads) +
           " and Q[1] = 8"},
          variant.name + ": K and V with " + std::to_string(kvHeads) +
              " heads for 8");
    test::expectRefused(
        device, [&] { launch(q, kvWith(2), kvWith(4), q, l); }, {&O, &L},
        {prefix + "V[1] == K[1], but V[1] = 4 and K[1] = 2"},
        variant.name + ": K with 2 heads and V with 4");
    test::expectRefused(
        device,
        [&] {
          launch(q, q, {batch, heads, seq - 1, d}, q, l);
        },
        {&O, &L}, {prefix, "V[2]"}, variant.name + ": V shorter than K");
    test::expectRefused(
        device,
        [&] {
          launch(q, q, q, {batch, heads, seq - 1, d}, l);
        },
        {&O, &L}, {prefix, "O[2]"}, variant.name + ": O shorter than Q");
    if (withLse)
      test::expectRefused(
          device,
          [&] {
            launch(q, q, q, q, {batch, heads, seq - 1});
          },
          {&O, &L}, {prefix, "LSE[2]"}, variant.name + ": LSE shorter than Q");
  }
}

/// The sizes: batch 4 x 8 heads, sequence 128 ... 8192 including
/// 1000 and 4097. The float64 reference covers 24 query rows per (batch,
/// head) - the first, the last and random ones - computed on all cores.
TEST_F(AttentionGpu, LargeShapesSampled) {
  rt::Device device = rt::Device::open();
  const int64_t batch = 4, heads = 8, pairs = batch * heads;
  // Variants that share a head dimension, type and mode share the inputs,
  // the sampled rows and their float64 reference (drawn and computed once).
  struct Case {
    Problem problem;
    std::vector<int64_t> rows;
    std::vector<std::vector<double>> reference; // [bh * rows + r][c]
  };
  for (int64_t seq : {128, 1000, 4097, 8192}) {
    std::map<std::tuple<int64_t, bool, bool>, Case> cases;
    for (const auto &variant : variants) {
      int64_t d = variant.config.get(key::headDim);
      bool bf16 = variant.config.get(key::dtype) == "bf16";
      bool causal = variant.config.get(key::causal);
      auto [it, isNew] = cases.try_emplace({d, bf16, causal});
      Case &c = it->second;
      if (isNew) {
        std::mt19937 rng(seq * 17 + d + bf16);
        c.problem = drawProblem(variant, batch, heads, seq, seq, rng);
        c.rows = {0, seq - 1};
        std::uniform_int_distribution<int64_t> pick(0, seq - 1);
        while (c.rows.size() < 24)
          c.rows.push_back(pick(rng));
        c.reference.resize(pairs * c.rows.size());
        std::vector<std::thread> workers;
        for (int64_t bh = 0; bh < pairs; ++bh)
          workers.emplace_back([&c, bh] {
            for (size_t r = 0; r < c.rows.size(); ++r)
              c.reference[bh * c.rows.size() + r] =
                  referenceRow(c.problem, bh, c.rows[r]);
          });
        for (auto &worker : workers)
          worker.join();
      }
      const Problem &p = c.problem;
      std::vector<uint16_t> out = runAttention(device, variant, p, 0);
      test::RelativeError error;
      for (int64_t bh = 0; bh < pairs; ++bh)
        for (size_t r = 0; r < c.rows.size(); ++r) {
          const std::vector<double> &ref = c.reference[bh * c.rows.size() + r];
          for (int64_t col = 0; col < d; ++col)
            error.add(
                rt::lowToFloat(out[(bh * seq + c.rows[r]) * d + col], p.bf16),
                ref[col]);
        }
      std::string where = variant.name + " 4x8x" + std::to_string(seq);
      EXPECT_TRUE(error.finite) << where;
      EXPECT_LE(error.value(), p.bf16 ? 2e-2 : 4e-3) << where;
      std::cout << where << ": relative error " << error.value() << "\n";
    }
  }
}

} // namespace
