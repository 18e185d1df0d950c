//===- KernelChoiceTest.cpp - Which compiled variant runs a launch --------===//
//
// No GPU needed: a small GEMM library (an sm_90a TMA variant, a split-K
// one, portable mma.sync ones with and without the divisibility promise)
// with hand-written manifests, chosen from for launches that each variant
// accepts or refuses. The sm_90a variant is preferred on sm_90, passed over
// with the reason on sm_80 or when the shapes break its promise; a refusal
// by every variant, or no variant at all, says so.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "tile/runtime/KernelChoice.h"

#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace tile::rt;

namespace {

/// A gemm manifest: A (M x K) x B (K x N) -> C (M x N) f16 -> f32 with the
/// generator's contract; rows promised multiples of `divisibility`; TMA
/// descriptors of A and B for an sm_90a kernel; C accumulated into for a
/// split-K one.
std::string gemmManifest(const std::string &name, const std::string &chip,
                         int divisibility, bool splitK) {
  bool tma = chip == "sm_90a";
  std::string div = divisibility > 1 ? ", \"divisibility\": [1, " +
                                           std::to_string(divisibility) + "]"
                                     : "";
  auto dims = [](const char *buffer) {
    std::string text;
    for (int d : {0, 1})
      text += std::string(",\n {\"name\": \"") + buffer + ".dim" +
              std::to_string(d) + "\", \"kind\": \"dim\", \"type\": \"i64\", " +
              "\"buffer\": \"" + buffer + "\", \"dim\": " + std::to_string(d) +
              "}";
    return text;
  };
  return R"({"format": "tile-manifest", "version": 1,
  "target": {"chip": ")" +
         chip + R"(", "features": "+ptx80"},
  "kernels": [{"name": ")" +
         name + R"(", "block": [128, 1, 1],
    "grid": [{"kind": "ceildiv", "param": "B", "dim": 1, "divisor": 128},
             {"kind": "ceildiv", "param": "A", "dim": 0, "divisor": 128}],
    "dynamic_shared_memory": 0,
    "requires": [
      {"lhs": {"param": "A", "dim": 1}, "op": "==", "rhs": {"param": "B", "dim": 0}},
      {"lhs": {"param": "C", "dim": 0}, "op": "==", "rhs": {"param": "A", "dim": 0}},
      {"lhs": {"param": "C", "dim": 1}, "op": "==", "rhs": {"param": "B", "dim": 1}}],
    "params": [
 {"name": "A", "kind": "buffer", "dtype": "f16", "shape": [-1, -1], "access": "read")" +
         div + R"(},
 {"name": "B", "kind": "buffer", "dtype": "f16", "shape": [-1, -1], "access": "read")" +
         div + R"(},
 {"name": "C", "kind": "buffer", "dtype": "f32", "shape": [-1, -1], "access": ")" +
         (splitK ? "accumulate" : "write") + "\"" + div + "}" + dims("A") +
         dims("B") + dims("C") +
         (tma ? R"(,
 {"name": "A.tma0", "kind": "tensor_map", "buffer": "A", "box": [64, 64], "swizzle": 128},
 {"name": "B.tma1", "kind": "tensor_map", "buffer": "B", "box": [64, 64], "swizzle": 128})"
              : "") +
         "]}]}";
}

class KernelChoiceTest : public ::testing::Test {
protected:
  void SetUp() override {
    dir = (std::filesystem::temp_directory_path() /
           ("tile-kernel-choice-test-" + std::to_string(::getpid())))
              .string();
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    // In the order tile-kernels lists them: portable first.
    add("gemm_any", "sm_90", 1, 1);
    add("gemm_div8", "sm_90", 8, 1);
    add("gemm_ws", "sm_90a", 8, 1);
    add("gemm_ws_sk2", "sm_90a", 8, 2);
    // Another layout and type: never a candidate here.
    add("gemm_nt", "sm_90", 1, 1).config.set("transpose_b", true);
    add("gemm_bf16", "sm_90", 1, 1).config.set("in_dtype", "bf16");
  }
  void TearDown() override { std::filesystem::remove_all(dir); }

  KernelVariant &add(const std::string &name, const std::string &chip,
                     int divisibility, int splitK) {
    KernelVariant v;
    v.name = name;
    v.generator = "gemm";
    v.chip = chip;
    v.config = {{"in_dtype", "f16"}, {"out_dtype", "f32"}};
    if (divisibility > 1)
      v.config.set("divisibility", int64_t(divisibility));
    if (splitK > 1)
      v.config.set("split_k", int64_t(splitK));
    v.cubinPath = dir + "/" + name + ".cubin";
    v.manifestPath = dir + "/" + name + ".manifest.json";
    std::ofstream(v.manifestPath)
        << gemmManifest(name, chip, divisibility, splitK > 1);
    library.push_back(v);
    return library.back();
  }

  /// An f16 x f16 -> f32 request at distinct 16-byte aligned addresses.
  static GemmRequest request(int64_t m, int64_t n, int64_t k,
                             CUdeviceptr base = 0x10000000) {
    return {Arg::buffer(base, DType::f16, {m, k}),
            Arg::buffer(base + 0x4000000, DType::f16, {k, n}),
            Arg::buffer(base + 0x8000000, DType::f32, {m, n}),
            /*transposeA=*/false,
            /*transposeB=*/false,
            /*epilogue=*/"none",
            /*bias=*/std::nullopt};
  }

  std::vector<std::string> names(const std::vector<KernelVariant> &variants) {
    std::vector<std::string> result;
    for (const KernelVariant &v : variants)
      result.push_back(v.name);
    return result;
  }

  /// The candidates' names, best first, for an m x n x k request.
  std::vector<std::string> order(int64_t m, int64_t n, int64_t k,
                                 const std::string &chip = "sm_90") {
    return names(gemmCandidates(library, request(m, n, k), chip));
  }

  std::string dir;
  std::vector<KernelVariant> library;
};

TEST_F(KernelChoiceTest, OrdersArchSpecificFirstAndSplitKForFewRows) {
  EXPECT_EQ(order(256, 256, 256),
            (std::vector<std::string>{"gemm_ws", "gemm_ws_sk2", "gemm_any",
                                      "gemm_div8"}));
  EXPECT_EQ(order(64, 256, 256),
            (std::vector<std::string>{"gemm_ws_sk2", "gemm_ws", "gemm_any",
                                      "gemm_div8"}));
  // On sm_80 nothing is specific to the device: the library's order, split-K
  // last.
  EXPECT_EQ(order(256, 256, 256, "sm_80"),
            (std::vector<std::string>{"gemm_any", "gemm_div8", "gemm_ws",
                                      "gemm_ws_sk2"}));
}

TEST_F(KernelChoiceTest, RowTilesFirstForFewRowsOrTilesThenSplitK) {
  add("gemm_ws_64", "sm_90a", 8, 1).config.set("block_m", int64_t(64));
  // At most 64 rows: the 64-row tile, then split-K, then the rest.
  for (int64_t m : {1, 16, 64})
    EXPECT_EQ(order(m, 256, 256),
              (std::vector<std::string>{"gemm_ws_64", "gemm_ws_sk2", "gemm_ws",
                                        "gemm_any", "gemm_div8"}))
        << m;
  // More rows but fewer than 64 tiles of 128x256 (1024 x 1024: 32): the
  // row tile first, split-K (not measured to pay there) last.
  EXPECT_EQ(order(1024, 1024, 256),
            (std::vector<std::string>{"gemm_ws_64", "gemm_ws", "gemm_ws_sk2",
                                      "gemm_any", "gemm_div8"}));
  // 64 tiles (1024 x 2048) and more: both after the taller tiles, in the
  // library's order.
  for (auto [m, n] : {std::pair<int64_t, int64_t>{1024, 2048}, {2048, 2048}})
    EXPECT_EQ(order(m, n, 256),
              (std::vector<std::string>{"gemm_ws", "gemm_ws_sk2", "gemm_ws_64",
                                        "gemm_any", "gemm_div8"}))
        << m << "x" << n;
}

TEST_F(KernelChoiceTest, RowTilesThatHoldCsRowsFirstThenTheTallest) {
  add("gemm_ws_64", "sm_90a", 8, 1).config.set("block_m", int64_t(64));
  for (int64_t rows : {16, 32}) {
    KernelVariant &v =
        add("gemm_ws_swapab_" + std::to_string(rows), "sm_90a", 8, 1);
    v.config.set("block_m", rows);
    v.config.set("swap_ab", true);
  }
  // The fewest rows that hold C's: no products of zero rows.
  for (int64_t m : {1, 16})
    EXPECT_EQ(order(m, 8192, 8192),
              (std::vector<std::string>{
                  "gemm_ws_swapab_16", "gemm_ws_swapab_32", "gemm_ws_64",
                  "gemm_ws_sk2", "gemm_ws", "gemm_any", "gemm_div8"}))
        << m;
  EXPECT_EQ(order(17, 8192, 8192),
            (std::vector<std::string>{"gemm_ws_swapab_32", "gemm_ws_64",
                                      "gemm_ws_swapab_16", "gemm_ws_sk2",
                                      "gemm_ws", "gemm_any", "gemm_div8"}));
  EXPECT_EQ(order(64, 8192, 8192),
            (std::vector<std::string>{"gemm_ws_64", "gemm_ws_swapab_32",
                                      "gemm_ws_swapab_16", "gemm_ws_sk2",
                                      "gemm_ws", "gemm_any", "gemm_div8"}));
  // None holds 1024 rows (few tiles of 128x256 all the same): the tallest
  // row tile first.
  EXPECT_EQ(order(1024, 1024, 256),
            (std::vector<std::string>{"gemm_ws_64", "gemm_ws_swapab_32",
                                      "gemm_ws_swapab_16", "gemm_ws",
                                      "gemm_ws_sk2", "gemm_any", "gemm_div8"}));
}

TEST_F(KernelChoiceTest, RowTilesThatFillAWaveWidestFirstWhenCHasFewRows) {
  // Listed wide first, as the library lists 64x128 before 64x64.
  add("gemm_ws_64x128", "sm_90a", 8, 1).config.set("block_m", int64_t(64));
  library.back().config.set("block_n", int64_t(128));
  add("gemm_ws_64x64", "sm_90a", 8, 1).config.set("block_m", int64_t(64));
  library.back().config.set("block_n", int64_t(64));
  // 33-64 rows: both hold them; at N = 8192 only the narrower fills a wave
  // (128 tiles), at N = 4096 neither does (the narrower first), at N =
  // 28672 both do (the wider first).
  for (int64_t m : {33, 64}) {
    for (int64_t n : {4096, 8192})
      EXPECT_EQ(order(m, n, 8192),
                (std::vector<std::string>{"gemm_ws_64x64", "gemm_ws_64x128",
                                          "gemm_ws_sk2", "gemm_ws", "gemm_any",
                                          "gemm_div8"}))
          << m << "x" << n;
    EXPECT_EQ(order(m, 28672, 8192),
              (std::vector<std::string>{"gemm_ws_64x128", "gemm_ws_64x64",
                                        "gemm_ws_sk2", "gemm_ws", "gemm_any",
                                        "gemm_div8"}))
        << m;
  }
  // Few tiles of many rows (1024^3): the library's order.
  EXPECT_EQ(
      order(1024, 1024, 1024),
      (std::vector<std::string>{"gemm_ws_64x128", "gemm_ws_64x64", "gemm_ws",
                                "gemm_ws_sk2", "gemm_any", "gemm_div8"}));
}

TEST_F(KernelChoiceTest, ClusterVariantsFirstWhenTheTilesDoNotFitMAndN) {
  add("gemm_ws_cm2", "sm_90a", 8, 1).config.set("cluster_m", int64_t(2));
  // 4096 x 4096: multiples of 256, the library's order.
  EXPECT_EQ(order(4096, 4096, 4096),
            (std::vector<std::string>{"gemm_ws", "gemm_ws_cm2", "gemm_ws_sk2",
                                      "gemm_any", "gemm_div8"}));
  // 4000 x 3000 (and one of the two off is enough): the pairs first.
  for (auto [m, n] : {std::pair<int64_t, int64_t>{4000, 3000}, {4096, 3000}})
    EXPECT_EQ(order(m, n, 4096),
              (std::vector<std::string>{"gemm_ws_cm2", "gemm_ws", "gemm_ws_sk2",
                                        "gemm_any", "gemm_div8"}))
        << m << "x" << n;
}

TEST_F(KernelChoiceTest, PrefersTheSm90aVariantOnSm90) {
  KernelChoice choice = chooseGemm(library, request(256, 256, 256), "sm_90");
  ASSERT_TRUE(choice.chosen) << choice.explain();
  EXPECT_EQ(choice.chosen->name, "gemm_ws");
  EXPECT_TRUE(choice.passedOver.empty());
  EXPECT_EQ(choice.explain(), "chose gemm_ws (sm_90a)\n");
  ASSERT_EQ(choice.args.size(), 3u);
  EXPECT_EQ(choice.args[1].shape(), (std::vector<int64_t>{256, 256}));
  // Few rows: the split-K variant.
  choice = chooseGemm(library, request(16, 256, 256), "sm_90");
  ASSERT_TRUE(choice.chosen) << choice.explain();
  EXPECT_EQ(choice.chosen->name, "gemm_ws_sk2");
}

TEST_F(KernelChoiceTest, FallsBackWithTheReasonWhenAPromiseBreaks) {
  // K = 260: A's rows are 520 bytes, which neither the divisibility
  // promise nor TMA's 16-byte row strides allow.
  KernelChoice choice = chooseGemm(library, request(256, 256, 260), "sm_90");
  ASSERT_TRUE(choice.chosen) << choice.explain();
  EXPECT_EQ(choice.chosen->name, "gemm_any");
  ASSERT_EQ(choice.passedOver.size(), 2u);
  EXPECT_EQ(choice.passedOver[0].variant, "gemm_ws");
  EXPECT_EQ(choice.passedOver[1].variant, "gemm_ws_sk2");
  for (const PassedOver &p : choice.passedOver)
    EXPECT_NE(p.reason.find("got size 260 in dim 1, but this kernel was "
                            "compiled for sizes that are multiples of 8"),
              std::string::npos)
        << p.reason;
  std::string text = choice.explain();
  EXPECT_EQ(text.rfind("chose gemm_any (sm_90)\n  passed over gemm_ws: ", 0),
            0u)
      << text;
}

TEST_F(KernelChoiceTest, PassesOverSm90aCubinsOnOtherChips) {
  library.erase(library.begin()); // no portable variant for any shape
  KernelChoice choice = chooseGemm(library, request(256, 256, 256), "sm_80");
  ASSERT_FALSE(choice.chosen);
  ASSERT_EQ(choice.passedOver.size(), 3u);
  EXPECT_EQ(choice.passedOver[0].variant, "gemm_div8");
  EXPECT_EQ(choice.passedOver[0].reason,
            "built for sm_90, which does not run on this sm_80 device");
  EXPECT_EQ(choice.passedOver[1].variant, "gemm_ws");
  EXPECT_EQ(choice.passedOver[1].reason,
            "built for sm_90a, which does not run on this sm_80 device");
  EXPECT_EQ(choice.explain().rfind("no variant suits this launch\n", 0), 0u);
}

TEST_F(KernelChoiceTest, RefusalsByEveryVariantAreAllReported) {
  // A misaligned A: every variant needs 16-byte addresses.
  KernelChoice choice =
      chooseGemm(library, request(256, 256, 256, 0x10000002), "sm_90");
  EXPECT_FALSE(choice.chosen);
  ASSERT_EQ(choice.passedOver.size(), 4u);
  for (const PassedOver &p : choice.passedOver)
    EXPECT_NE(p.reason.find("needs a 16-byte aligned address"),
              std::string::npos)
        << p.reason;
  // Shapes that disagree: the contract's message.
  GemmRequest wrong = request(256, 256, 256);
  wrong.b = Arg::buffer(0x14000000, DType::f16, {128, 256});
  choice = chooseGemm(library, wrong, "sm_90");
  EXPECT_FALSE(choice.chosen);
  ASSERT_FALSE(choice.passedOver.empty());
  EXPECT_NE(choice.passedOver[0].reason.find("requires A[1] == B[0]"),
            std::string::npos)
      << choice.passedOver[0].reason;
}

TEST_F(KernelChoiceTest, NoVariantForTheRequestSaysWhatWasAsked) {
  GemmRequest tn = request(256, 256, 256);
  tn.transposeA = true;
  tn.epilogue = "bias_gelu";
  tn.bias = Arg::buffer(0x1c000000, DType::f32, {256});
  KernelChoice choice = chooseGemm(library, tn, "sm_90");
  EXPECT_FALSE(choice.chosen);
  EXPECT_TRUE(choice.passedOver.empty());
  EXPECT_EQ(choice.explain(),
            "no gemm variant for f16 -> f32, A K x M, B K x N, epilogue "
            "bias_gelu in the library (tile-kernels or tile-tune can compile "
            "one)\n");
}

TEST_F(KernelChoiceTest, ABiasThatDisagreesWithTheEpilogueIsRefused) {
  // Before any variant is tried: the epilogue table (ConfigKeys.h) says
  // which epilogues take the bias.
  GemmRequest missing = request(256, 256, 256);
  missing.epilogue = "bias_relu";
  EXPECT_TILE_ERROR(chooseGemm(library, missing, "sm_90"),
                    "gemm request: epilogue bias_relu adds a bias: expected "
                    "one, but got none");
  GemmRequest extra = request(256, 256, 256);
  extra.bias = Arg::buffer(0x1c000000, DType::f32, {256});
  EXPECT_TILE_ERROR(chooseGemm(library, extra, "sm_90"),
                    "gemm request: epilogue none adds no bias: expected none, "
                    "but got one");
  extra.epilogue = "relu";
  EXPECT_TILE_ERROR(chooseGemm(library, extra, "sm_90"),
                    "gemm request: expected an epilogue of none, bias, "
                    "bias_gelu, bias_gelu_tanh, bias_relu, but got 'relu'");
  // With the bias it takes, the request is only short of a variant.
  extra.epilogue = "bias";
  EXPECT_EQ(chooseGemm(library, extra, "sm_90").explain(),
            "no gemm variant for f16 -> f32, A M x K, B K x N, epilogue bias "
            "in the library (tile-kernels or tile-tune can compile one)\n");
}

TEST_F(KernelChoiceTest, AnUnreadableManifestPassesItsVariantOver) {
  std::filesystem::remove(library[2].manifestPath); // gemm_ws
  KernelChoice choice = chooseGemm(library, request(256, 256, 256), "sm_90");
  ASSERT_TRUE(choice.chosen) << choice.explain();
  EXPECT_EQ(choice.chosen->name, "gemm_ws_sk2");
  ASSERT_EQ(choice.passedOver.size(), 1u);
  EXPECT_NE(choice.passedOver[0].reason.find("gemm_ws.manifest.json"),
            std::string::npos)
      << choice.passedOver[0].reason;
}

} // namespace
