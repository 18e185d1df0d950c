//===- LibraryCatalogTest.cpp - The library's choice over its kernels -----===//
//
// KernelCatalog over the library tile-kernels compiled (build/kernels, or
// $TILE_KERNEL_DIR), for an H200 ("sm_90") and without a GPU: every
// variant's manifest reads; the sm_90a GEMM is chosen where its contract
// holds, and a shape that breaks its promises falls back to a variant for
// any shape with each refusal named; a transposed view chooses a
// transposed variant; softmax and attention take the kernels
// KernelChoice.h documents; a call no variant exists for says so.
//
//===----------------------------------------------------------------------===//

#include "tile/runtime/Error.h"
#include "tile/runtime/Library.h"

#include <gtest/gtest.h>

using namespace tile;
using rt::DType;
using rt::Tensor;

namespace {

class LibraryCatalog : public ::testing::Test {
protected:
  void SetUp() override {
    std::string dir = rt::kernelDir(TILE_KERNEL_DIR_DEFAULT);
    try {
      catalog.emplace(dir);
    } catch (const rt::Error &e) {
      // The test command compiles the library first; without it this is a
      // failure, not a skip.
      FAIL() << e.what();
    }
  }

  /// A row-major tensor at a distinct, 16-byte aligned address.
  Tensor at(DType type, std::vector<int64_t> shape) {
    next += 0x10000000;
    return Tensor::at(next, type, std::move(shape));
  }

  std::optional<rt::KernelCatalog> catalog;
  CUdeviceptr next = 0;
};

TEST_F(LibraryCatalog, EveryManifestReads) {
  ASSERT_FALSE(catalog->variants().empty());
  for (const rt::KernelVariant &v : catalog->variants())
    EXPECT_NO_THROW(catalog->info(v)) << v.name;
}

TEST_F(LibraryCatalog, GemmPrefersSm90aAndFallsBackWithReasons) {
  rt::KernelChoice big = catalog->chooseGemm(
      at(DType::f16, {4096, 4096}), at(DType::f16, {4096, 4096}),
      at(DType::f32, {4096, 4096}), {}, "sm_90");
  ASSERT_TRUE(big.chosen) << big.explain();
  EXPECT_EQ(big.chosen->chip, "sm_90a") << big.explain();
  EXPECT_TRUE(big.passedOver.empty()) << big.explain();

  // Rows of 260 and 516 elements: neither TMA nor the `_div8` promise.
  rt::KernelChoice odd = catalog->chooseGemm(
      at(DType::f16, {260, 260}), at(DType::f16, {260, 516}),
      at(DType::f32, {260, 516}), {}, "sm_90");
  ASSERT_TRUE(odd.chosen) << odd.explain();
  EXPECT_EQ(odd.chosen->config.getOrDefault(config::gemm::divisibility), 1)
      << odd.explain();
  ASSERT_FALSE(odd.passedOver.empty());
  for (const rt::PassedOver &p : odd.passedOver)
    EXPECT_NE(p.reason.find("multiples of 8"), std::string::npos)
        << p.variant << ": " << p.reason;
}

// The library's order is the runtime's preference: the measured leaders
// (benchmarks/results/2026-12-05-tma-store-bands; the fused ones:
// 2026-12-05-gelu-epilogue), in their stream-K form where the library has
// one (2026-12-06-stream-k: not the erf GELU), come first.
TEST_F(LibraryCatalog, GemmTakesTheMeasuredLeaderFirst) {
  rt::KernelChoice half = catalog->chooseGemm(
      at(DType::f16, {4096, 4096}), at(DType::f16, {4096, 4096}),
      at(DType::f16, {4096, 4096}), {}, "sm_90");
  ASSERT_TRUE(half.chosen) << half.explain();
  EXPECT_EQ(half.chosen->name,
            "gemm_f16_f16_128x256x64_t384_s4_r8_div8_ws_tma64_persistent_"
            "streamk");
  // The fused GEMMs: the persistent kernels stored in bands, for both GELUs.
  auto fusedChoice = [&](DType type, const char *epilogue) {
    rt::GemmOptions options;
    options.epilogue = epilogue;
    options.bias = at(type, {4096});
    return catalog->chooseGemm(at(type, {4096, 4096}), at(type, {4096, 4096}),
                               at(type, {4096, 4096}), options, "sm_90");
  };
  rt::KernelChoice tanhForm = fusedChoice(DType::bf16, "bias_gelu_tanh");
  ASSERT_TRUE(tanhForm.chosen) << tanhForm.explain();
  EXPECT_EQ(tanhForm.chosen->name,
            "gemm_bf16_bf16_128x256x64_t384_s4_r8_bias_gelu_tanh_div8_ws_"
            "tma64_persistent_streamk");
  rt::KernelChoice erfForm = fusedChoice(DType::f16, "bias_gelu");
  ASSERT_TRUE(erfForm.chosen) << erfForm.explain();
  EXPECT_EQ(erfForm.chosen->name,
            "gemm_f16_f16_128x256x64_t384_s4_r8_bias_gelu_div8_ws_tma64_"
            "persistent");
}

// The 256x128 tile (four compute warpgroups) leads at 4000x3000x4096 but
// not at 4096^3: the library offers it after the 128x256 leader, for the
// tuner (tuneOnFirstUse, tile-tune-run) to pick by shape.
TEST_F(LibraryCatalog, TheTransposedTileFollowsTheLeader) {
  auto position = [&](const std::string &name) {
    const std::vector<rt::KernelVariant> &all = catalog->variants();
    for (size_t i = 0; i < all.size(); ++i)
      if (all[i].name == name)
        return static_cast<int64_t>(i);
    return int64_t(-1);
  };
  for (const char *types : {"f16_f16", "bf16_bf16"}) {
    std::string prefix = std::string("gemm_") + types;
    int64_t leader =
        position(prefix + "_128x256x64_t384_s4_r8_div8_ws_tma64_persistent");
    int64_t wide =
        position(prefix + "_256x128x64_t640_s4_r8_div8_ws_tma32_persistent");
    ASSERT_GE(leader, 0) << types;
    ASSERT_GE(wide, 0) << types;
    EXPECT_LT(leader, wide) << types;
  }
}

TEST_F(LibraryCatalog, TransposedViewsChooseTransposedVariants) {
  Tensor storedKxM = at(DType::f16, {512, 1024});
  rt::KernelChoice tn =
      catalog->chooseGemm(storedKxM.transposed(), at(DType::f16, {512, 768}),
                          at(DType::f32, {1024, 768}), {}, "sm_90");
  ASSERT_TRUE(tn.chosen) << tn.explain();
  EXPECT_TRUE(tn.chosen->config.getOrDefault(config::gemm::transposeA));
  EXPECT_FALSE(tn.chosen->config.getOrDefault(config::gemm::transposeB));
  EXPECT_EQ(tn.args[0].shape(), (std::vector<int64_t>{512, 1024}));
}

TEST_F(LibraryCatalog, SoftmaxAndAttentionTakeTheDocumentedKernels) {
  rt::KernelChoice shortRows = catalog->chooseSoftmax(
      at(DType::f16, {4096, 1000}), at(DType::f16, {4096, 1000}), "sm_90");
  ASSERT_TRUE(shortRows.chosen) << shortRows.explain();
  EXPECT_EQ(shortRows.chosen->config.getOrDefault(config::softmax::blockN),
            1024);
  EXPECT_FALSE(shortRows.chosen->config.getOrDefault(config::softmax::online));
  rt::KernelChoice longRows = catalog->chooseSoftmax(
      at(DType::f16, {16, 100000}), at(DType::f16, {16, 100000}), "sm_90");
  ASSERT_TRUE(longRows.chosen) << longRows.explain();
  EXPECT_TRUE(longRows.chosen->config.getOrDefault(config::softmax::online));

  std::vector<int64_t> shape{2, 4, 1000, 64};
  rt::KernelChoice attention = catalog->chooseAttention(
      at(DType::f16, shape), at(DType::f16, shape), at(DType::f16, shape),
      at(DType::f16, shape), {}, "sm_90");
  ASSERT_TRUE(attention.chosen) << attention.explain();
  EXPECT_EQ(attention.chosen->config.getOrDefault(config::attention::blockM),
            128);
  EXPECT_EQ(attention.chosen->config.getOrDefault(config::attention::blockN),
            128);
}

TEST_F(LibraryCatalog, CallsWithoutVariantsSaySo) {
  rt::KernelChoice none =
      catalog->chooseGemm(at(DType::f32, {64, 64}), at(DType::f32, {64, 64}),
                          at(DType::f32, {64, 64}), {}, "sm_90");
  EXPECT_FALSE(none.chosen);
  EXPECT_NE(none.noCandidates.find("no gemm variant for f32 -> f32"),
            std::string::npos)
      << none.explain();
  rt::KernelChoice add =
      catalog->chooseVectorAdd(at(DType::f16, {100}), at(DType::f16, {100}),
                               at(DType::f16, {100}), "sm_90");
  EXPECT_FALSE(add.chosen);
  EXPECT_NE(add.explain().find("no vector_add variant for f16"),
            std::string::npos)
      << add.explain();
}

} // namespace
