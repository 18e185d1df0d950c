//===- AttentionGpuTest.cpp - FlashAttention forward on the GPU -----------===//
//
// Runs every compiled attention variant on [batch, heads, seq, head_dim]
// inputs of odd lengths (one element, lengths that are not multiples of
// the blocks, key length different from the query length) and compares
// every output element with a float64 reference computed from the same
// rounded inputs, causal variants with the top-left aligned mask (query i
// sees keys j <= i). Skips visibly without a GPU or without kernels.
//
//===----------------------------------------------------------------------===//

#include "../../benchmarks/common/Half.h"
#include "GpuTest.h"

#include "tile/runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <random>
#include <thread>

using namespace tile;

namespace {

struct AttentionGpuKernels {
  static const char *name() { return "attention"; }
};
using AttentionGpu = test::VariantTest<AttentionGpuKernels>;

TEST_F(AttentionGpu, MatchesFloat64) {
  rt::Device device = rt::Device::open();
  for (const auto &variant : variants) {
    bool bf16 = variant.config.at("dtype") == "bf16";
    bool causal = variant.config.at("causal");
    int64_t d = variant.config.at("head_dim");
    rt::DType type = bf16 ? rt::DType::bf16 : rt::DType::f16;
    struct Shape {
      int64_t batch, heads, queries, keys;
    };
    for (Shape s : {Shape{1, 1, 1, 1}, Shape{2, 3, 100, 100},
                    Shape{1, 2, 257, 130}, Shape{2, 2, 64, 300}}) {
      std::mt19937 rng(s.queries * 131 + s.keys * 7 + d);
      std::normal_distribution<float> dist(0.0f, 1.0f);
      auto draw = [&](int64_t rows) {
        std::vector<uint16_t> bits(s.batch * s.heads * rows * d);
        for (auto &x : bits)
          x = bench::floatToLow(dist(rng), bf16);
        return bits;
      };
      std::vector<uint16_t> q = draw(s.queries), k = draw(s.keys),
                            v = draw(s.keys);
      std::vector<uint16_t> sentinel(q.size() + 64, 0x7e00); // NaN
      rt::DeviceBuffer Q = rt::DeviceBuffer::fromHost(device, q);
      rt::DeviceBuffer K = rt::DeviceBuffer::fromHost(device, k);
      rt::DeviceBuffer V = rt::DeviceBuffer::fromHost(device, v);
      rt::DeviceBuffer O = rt::DeviceBuffer::fromHost(device, sentinel);
      rt::Module module =
          rt::Module::load(device, variant.cubinPath, variant.manifestPath);
      rt::Stream stream(device);
      std::vector<int64_t> qShape = {s.batch, s.heads, s.queries, d},
                           kShape = {s.batch, s.heads, s.keys, d};
      module.kernel(variant.name)
          .launch(stream, {rt::Arg::buffer(Q, type, qShape),
                           rt::Arg::buffer(K, type, kShape),
                           rt::Arg::buffer(V, type, kShape),
                           rt::Arg::buffer(O, type, qShape)});
      stream.synchronize();
      std::vector<uint16_t> out = O.download<uint16_t>();

      double diff = 0, norm = 0;
      bool finite = true;
      double scale = 1.0 / std::sqrt(double(d));
      std::vector<double> p(s.keys), ref(d);
      for (int64_t bh = 0; bh < s.batch * s.heads; ++bh)
        for (int64_t i = 0; i < s.queries; ++i) {
          const uint16_t *qi = &q[(bh * s.queries + i) * d];
          int64_t visible = causal ? std::min(i + 1, s.keys) : s.keys;
          double maxScore = -INFINITY, sum = 0;
          for (int64_t j = 0; j < visible; ++j) {
            const uint16_t *kj = &k[(bh * s.keys + j) * d];
            double dot = 0;
            for (int64_t c = 0; c < d; ++c)
              dot += double(bench::lowToFloat(qi[c], bf16)) *
                     bench::lowToFloat(kj[c], bf16);
            p[j] = dot * scale;
            maxScore = std::max(maxScore, p[j]);
          }
          std::fill(ref.begin(), ref.end(), 0.0);
          for (int64_t j = 0; j < visible; ++j) {
            p[j] = std::exp(p[j] - maxScore);
            sum += p[j];
          }
          for (int64_t j = 0; j < visible; ++j)
            for (int64_t c = 0; c < d; ++c)
              ref[c] += p[j] / sum *
                        bench::lowToFloat(v[(bh * s.keys + j) * d + c], bf16);
          for (int64_t c = 0; c < d; ++c) {
            double got =
                bench::lowToFloat(out[(bh * s.queries + i) * d + c], bf16);
            finite &= std::isfinite(got);
            diff += (got - ref[c]) * (got - ref[c]);
            norm += ref[c] * ref[c];
          }
        }
      for (size_t i = q.size(); i < out.size(); ++i)
        ASSERT_EQ(out[i], 0x7e00) << variant.name << ": wrote past the end";
      std::string where = variant.name + " " + std::to_string(s.batch) + "x" +
                          std::to_string(s.heads) + "x" +
                          std::to_string(s.queries) + "x" +
                          std::to_string(s.keys);
      EXPECT_TRUE(finite) << where;
      // The probabilities are rounded to the input type before P x V, and
      // the output once more: a few units of 2^-11 (f16) or 2^-8 (bf16).
      EXPECT_LE(std::sqrt(diff / norm), bf16 ? 2e-2 : 4e-3) << where;
    }
  }
}

/// The sizes: batch 4 x 8 heads, sequence 128 ... 8192 including
/// 1000 and 4097. The float64 reference covers 24 query rows per (batch,
/// head) - the first, the last and random ones - computed on all cores.
TEST_F(AttentionGpu, LargeShapesSampled) {
  rt::Device device = rt::Device::open();
  const int64_t batch = 4, heads = 8;
  for (int64_t seq : {128, 1000, 4097, 8192})
    for (const auto &variant : variants) {
      bool bf16 = variant.config.at("dtype") == "bf16";
      bool causal = variant.config.at("causal");
      int64_t d = variant.config.at("head_dim");
      rt::DType type = bf16 ? rt::DType::bf16 : rt::DType::f16;
      size_t count = size_t(batch) * heads * seq * d;
      std::mt19937 rng(seq * 17 + d + bf16);
      std::normal_distribution<float> dist(0.0f, 1.0f);
      std::vector<uint16_t> q(count), k(count), v(count);
      for (auto *tensor : {&q, &k, &v})
        for (auto &x : *tensor)
          x = bench::floatToLow(dist(rng), bf16);
      rt::DeviceBuffer Q = rt::DeviceBuffer::fromHost(device, q);
      rt::DeviceBuffer K = rt::DeviceBuffer::fromHost(device, k);
      rt::DeviceBuffer V = rt::DeviceBuffer::fromHost(device, v);
      rt::DeviceBuffer O(device, count * 2);
      rt::Module module =
          rt::Module::load(device, variant.cubinPath, variant.manifestPath);
      rt::Stream stream(device);
      std::vector<int64_t> shape = {batch, heads, seq, d};
      module.kernel(variant.name)
          .launch(stream, {rt::Arg::buffer(Q, type, shape),
                           rt::Arg::buffer(K, type, shape),
                           rt::Arg::buffer(V, type, shape),
                           rt::Arg::buffer(O, type, shape)});
      stream.synchronize();
      std::vector<uint16_t> out = O.download<uint16_t>();

      std::vector<int64_t> rows = {0, seq - 1};
      std::uniform_int_distribution<int64_t> pick(0, seq - 1);
      while (rows.size() < 24)
        rows.push_back(pick(rng));
      int64_t pairs = batch * heads;
      std::vector<double> diffs(pairs), norms(pairs);
      std::vector<char> finite(pairs, 1);
      auto check = [&](int64_t bh) {
        double scale = 1.0 / std::sqrt(double(d));
        std::vector<double> p(seq), ref(d);
        for (int64_t i : rows) {
          const uint16_t *qi = &q[(bh * seq + i) * d];
          int64_t visible = causal ? i + 1 : seq;
          double maxScore = -INFINITY, sum = 0;
          for (int64_t j = 0; j < visible; ++j) {
            const uint16_t *kj = &k[(bh * seq + j) * d];
            double dot = 0;
            for (int64_t c = 0; c < d; ++c)
              dot += double(bench::lowToFloat(qi[c], bf16)) *
                     bench::lowToFloat(kj[c], bf16);
            p[j] = dot * scale;
            maxScore = std::max(maxScore, p[j]);
          }
          for (int64_t j = 0; j < visible; ++j) {
            p[j] = std::exp(p[j] - maxScore);
            sum += p[j];
          }
          std::fill(ref.begin(), ref.end(), 0.0);
          for (int64_t j = 0; j < visible; ++j)
            for (int64_t c = 0; c < d; ++c)
              ref[c] += p[j] / sum *
                        bench::lowToFloat(v[(bh * seq + j) * d + c], bf16);
          for (int64_t c = 0; c < d; ++c) {
            double got = bench::lowToFloat(out[(bh * seq + i) * d + c], bf16);
            finite[bh] &= std::isfinite(got);
            diffs[bh] += (got - ref[c]) * (got - ref[c]);
            norms[bh] += ref[c] * ref[c];
          }
        }
      };
      std::vector<std::thread> workers;
      for (int64_t bh = 0; bh < pairs; ++bh)
        workers.emplace_back(check, bh);
      for (auto &worker : workers)
        worker.join();
      double diff = 0, norm = 0;
      bool allFinite = true;
      for (int64_t bh = 0; bh < pairs; ++bh) {
        diff += diffs[bh];
        norm += norms[bh];
        allFinite &= finite[bh] != 0;
      }
      std::string where = variant.name + " 4x8x" + std::to_string(seq);
      EXPECT_TRUE(allFinite) << where;
      EXPECT_LE(std::sqrt(diff / norm), bf16 ? 2e-2 : 4e-3) << where;
      std::cout << where << ": relative error " << std::sqrt(diff / norm)
                << "\n";
    }
}

} // namespace
