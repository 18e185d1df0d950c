//===- LayerNormCatalogTest.cpp - The cookbook's kernels in a library -----===//
//
// KernelCatalog::choose over the folder tile-layernorm-example wrote
// (build/cookbook-kernels, or $TILE_COOKBOOK_KERNEL_DIR), for an H200
// ("sm_90") and without a GPU: the calls of docs/Cookbook.md choose the
// variant the index's order says, a row longer than a tile passes that tile
// over with its contract's words, and a call no variant takes is refused
// with every variant's reason.
//
//===----------------------------------------------------------------------===//

#include "tile/runtime/Error.h"
#include "tile/runtime/Library.h"

#include <gtest/gtest.h>

using namespace tile;
using rt::DType;
using rt::Tensor;

namespace {

class LayerNormCatalog : public ::testing::Test {
protected:
  void SetUp() override {
    std::string dir = rt::kernelDir(TILE_COOKBOOK_KERNEL_DIR_DEFAULT,
                                    "TILE_COOKBOOK_KERNEL_DIR");
    try {
      catalog.emplace(dir);
    } catch (const rt::Error &e) {
      // The build compiles the folder (tile-cookbook-kernels): without it
      // this is a failure, not a skip.
      FAIL() << e.what();
    }
  }

  /// The arguments of a layernorm call on M x N rows of `type`, each
  /// tensor at a distinct, 16-byte aligned address; W and B get `wn`
  /// values (N when 0).
  std::vector<rt::NamedArg> call(DType type, int64_t m, int64_t n,
                                 int64_t wn = 0) {
    auto at = [&](std::vector<int64_t> shape) {
      next += 0x10000000;
      return Tensor::at(next, type, std::move(shape));
    };
    wn = wn ? wn : n;
    return {{"X", at({m, n})},
            {"W", at({wn})},
            {"B", at({wn})},
            {"Y", at({m, n})},
            {"eps", 1e-5f}};
  }

  std::optional<rt::KernelCatalog> catalog;
  CUdeviceptr next = 0;
};

TEST_F(LayerNormCatalog, ShortRowsTakeTheNarrowTile) {
  rt::KernelChoice choice =
      catalog->choose("layernorm", call(DType::f32, 37, 20), "sm_90");
  ASSERT_TRUE(choice.chosen) << choice.explain();
  EXPECT_EQ(choice.chosen->name, "layernorm_f32_4x256_t128")
      << choice.explain();
  EXPECT_EQ(choice.chosen->config.getInt("block_n"), 256);
  // The f16 variants before it, for the element type.
  ASSERT_EQ(choice.passedOver.size(), 2u) << choice.explain();
  for (const rt::PassedOver &p : choice.passedOver)
    EXPECT_NE(p.reason.find("f16"), std::string::npos)
        << p.variant << ": " << p.reason;
}

TEST_F(LayerNormCatalog, LongRowsPassTheNarrowTileOver) {
  rt::KernelChoice choice =
      catalog->choose("layernorm", call(DType::f16, 9, 1000), "sm_90");
  ASSERT_TRUE(choice.chosen) << choice.explain();
  EXPECT_EQ(choice.chosen->name, "layernorm_f16_4x1024_t256")
      << choice.explain();
  ASSERT_EQ(choice.passedOver.size(), 1u) << choice.explain();
  EXPECT_EQ(choice.passedOver[0].variant, "layernorm_f16_4x256_t128");
  EXPECT_NE(
      choice.passedOver[0].reason.find("requires X[1] <= 256, but X[1] = 1000"),
      std::string::npos)
      << choice.explain();
}

TEST_F(LayerNormCatalog, RefusalsNameTheContract) {
  // A row no tile holds: every variant says why.
  rt::KernelChoice wide =
      catalog->choose("layernorm", call(DType::f16, 2, 1500), "sm_90");
  EXPECT_FALSE(wide.chosen);
  EXPECT_NE(wide.explain().find("no variant suits this launch"),
            std::string::npos)
      << wide.explain();
  EXPECT_NE(wide.explain().find("requires X[1] <= 1024, but X[1] = 1500"),
            std::string::npos)
      << wide.explain();
  // W of another length than the rows.
  rt::KernelChoice shortW =
      catalog->choose("layernorm", call(DType::f16, 2, 100, 99), "sm_90");
  EXPECT_FALSE(shortW.chosen);
  EXPECT_NE(shortW.explain().find(
                "requires W[0] == X[1], but W[0] = 99 and X[1] = 100"),
            std::string::npos)
      << shortW.explain();
  // No eps.
  std::vector<rt::NamedArg> noEps = call(DType::f32, 2, 100);
  noEps.pop_back();
  rt::KernelChoice missing = catalog->choose("layernorm", noEps, "sm_90");
  EXPECT_FALSE(missing.chosen);
  EXPECT_NE(missing.explain().find("takes parameter 'eps', which this call "
                                   "does not"),
            std::string::npos)
      << missing.explain();
}

} // namespace
