//===- LibraryTest.cpp - The kernel library's choice, without a GPU -------===//
//
// The order of softmax and attention candidates, arguments by parameter
// name (the attention scale), and KernelCatalog over a small hand-written
// library on disk: the index and its manifests read once, a transposed
// view of A choosing the transposed variant, refusals of tensors no kernel
// reads, a broken manifest passing its variant over with the reason, and a
// missing index. The same on the compiled library and on a GPU is in
// test/library/ and test/gpu/LibraryGpuTest.cpp.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "tile/runtime/Library.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <tuple>
#include <unistd.h>

using namespace tile::rt;

namespace {

std::vector<std::string> names(const std::vector<KernelVariant> &variants) {
  std::vector<std::string> result;
  for (const KernelVariant &v : variants)
    result.push_back(v.name);
  return result;
}

KernelVariant softmaxVariant(const std::string &name, int64_t rows,
                             int64_t blockN, int64_t threads,
                             bool online = false, int64_t stages = 1) {
  KernelVariant v;
  v.name = name;
  v.generator = "softmax";
  v.config = {{"dtype", "f16"},     {"rows", rows},     {"block_n", blockN},
              {"threads", threads}, {"online", online}, {"stages", stages}};
  return v;
}

TEST(LibraryChoice,
     SoftmaxPrefersTheNarrowestOnChipRowsNearThirtyTwoPerThread) {
  std::vector<KernelVariant> library = {
      softmaxVariant("s1x1024t32", 1, 1024, 32),
      softmaxVariant("s4x1024t128", 4, 1024, 128),
      softmaxVariant("s1x4096t64", 1, 4096, 64),
      softmaxVariant("s1x4096t128", 1, 4096, 128),
      softmaxVariant("s1x32768t512", 1, 32768, 512),
      softmaxVariant("online", 1, 4096, 128, true),
      softmaxVariant("online_s3", 1, 4096, 128, true, 3)};
  auto order = [&](int64_t n, DType type = DType::f16) {
    for (KernelVariant &v : library)
      v.config.set("dtype", std::string(dtypeName(type)));
    SoftmaxRequest request{Arg::buffer(0x10000000, type, {64, n}),
                           Arg::buffer(0x20000000, type, {64, n})};
    return names(softmaxCandidates(library, request));
  };
  // Both 1024-wide kernels hold 32 values a thread: more rows first.
  EXPECT_EQ(order(1000),
            (std::vector<std::string>{"s4x1024t128", "s1x1024t32",
                                      "s1x4096t128", "s1x4096t64",
                                      "s1x32768t512", "online_s3", "online"}));
  // Too narrow for 3000: last, for the contract to refuse with the bound.
  EXPECT_EQ(order(3000),
            (std::vector<std::string>{"s1x4096t128", "s1x4096t64",
                                      "s1x32768t512", "online_s3", "online",
                                      "s1x1024t32", "s4x1024t128"}));
  // Long 16-bit rows: the staged online kernel first.
  EXPECT_EQ(order(20000).front(), "online_s3");
  EXPECT_EQ(order(20000, DType::f32).front(), "s1x32768t512");
  // Another type: nothing.
  SoftmaxRequest bf16{Arg::buffer(0x10000000, DType::bf16, {4, 8}),
                      Arg::buffer(0x20000000, DType::bf16, {4, 8})};
  EXPECT_TRUE(softmaxCandidates(library, bf16).empty());
  EXPECT_EQ(chooseSoftmax(library, bf16, "sm_90").noCandidates,
            "no softmax variant for bf16 in the library (tile-kernels "
            "--kernel=softmax can compile one)");
}

KernelVariant attentionVariant(const std::string &name, const char *dtype,
                               int64_t headDim, int64_t blockM, int64_t blockN,
                               int64_t threads, bool causal = false,
                               bool lse = false) {
  KernelVariant v;
  v.name = name;
  v.generator = "attention";
  v.config = {{"dtype", dtype},    {"head_dim", headDim}, {"block_m", blockM},
              {"block_n", blockN}, {"threads", threads},  {"causal", causal},
              {"lse", lse},        {"stages", int64_t(2)}};
  return v;
}

AttentionRequest attentionRequest(DType type, int64_t headDim,
                                  bool causal = false, bool lse = false) {
  AttentionRequest request{Arg::buffer(0x10000000, type, {1, 2, 100, headDim}),
                           Arg::buffer(0x20000000, type, {1, 2, 100, headDim}),
                           Arg::buffer(0x30000000, type, {1, 2, 100, headDim}),
                           Arg::buffer(0x40000000, type, {1, 2, 100, headDim}),
                           causal,
                           std::nullopt,
                           std::nullopt};
  if (lse)
    request.lse = Arg::buffer(0x50000000, DType::f32, {1, 2, 100});
  return request;
}

TEST(LibraryChoice, AttentionPrefersTheTilesMeasuredFastest) {
  std::vector<KernelVariant> library = {
      attentionVariant("f16_d64_64x64", "f16", 64, 64, 64, 128),
      attentionVariant("f16_d64_128x64", "f16", 64, 128, 64, 128),
      attentionVariant("f16_d64_128x128", "f16", 64, 128, 128, 128),
      attentionVariant("f16_d128_128x128_t256", "f16", 128, 128, 128, 256),
      attentionVariant("f16_d128_128x64", "f16", 128, 128, 64, 128),
      attentionVariant("bf16_d64_128x64", "bf16", 64, 128, 64, 128),
      attentionVariant("f16_d64_128x64_causal", "f16", 64, 128, 64, 128, true),
      attentionVariant("f16_d64_128x64_lse", "f16", 64, 128, 64, 128, false,
                       true)};
  EXPECT_EQ(
      names(attentionCandidates(library, attentionRequest(DType::f16, 64))),
      (std::vector<std::string>{"f16_d64_128x128", "f16_d64_128x64",
                                "f16_d64_64x64"}));
  EXPECT_EQ(
      names(attentionCandidates(library, attentionRequest(DType::f16, 128))),
      (std::vector<std::string>{"f16_d128_128x64", "f16_d128_128x128_t256"}));
  EXPECT_EQ(names(attentionCandidates(library,
                                      attentionRequest(DType::f16, 64, true))),
            (std::vector<std::string>{"f16_d64_128x64_causal"}));
  EXPECT_EQ(names(attentionCandidates(
                library, attentionRequest(DType::f16, 64, false, true))),
            (std::vector<std::string>{"f16_d64_128x64_lse"}));
  EXPECT_EQ(chooseAttention(library,
                            attentionRequest(DType::bf16, 128, true, true),
                            "sm_90")
                .noCandidates,
            "no attention variant for bf16, head dimension 128, causal, with "
            "the log-sum-exp in the library (tile-kernels --kernel=attention "
            "can compile one)");
}

/// An attention kernel description with the parameters `names` (buffers,
/// and `scale` as an f32 scalar).
KernelInfo attentionInfo(std::vector<std::string> names) {
  KernelInfo info;
  info.name = "attention_test";
  for (const std::string &name : names) {
    ParamInfo param;
    param.name = name;
    param.kind = name == "scale" ? ParamKind::Scalar : ParamKind::Buffer;
    info.params.push_back(param);
  }
  return info;
}

TEST(LibraryChoice, ArgumentsByParameterName) {
  KernelInfo withScale = attentionInfo({"Q", "K", "V", "O", "scale"});
  KernelVariant variant;
  std::vector<Arg> args =
      attentionArgs(attentionRequest(DType::f16, 64))(variant, withScale);
  ASSERT_EQ(args.size(), 5u);
  EXPECT_EQ(args[1].devicePtr(), CUdeviceptr(0x20000000));
  ASSERT_EQ(args[4].kind(), ParamKind::Scalar);
  float scale = 0;
  std::memcpy(&scale, args[4].scalarData(), sizeof scale);
  EXPECT_FLOAT_EQ(scale, 0.125f); // 1/sqrt(64)
  AttentionRequest scaled = attentionRequest(DType::f16, 64);
  scaled.scale = 0.5f;
  std::memcpy(&scale, attentionArgs(scaled)(variant, withScale)[4].scalarData(),
              sizeof scale);
  EXPECT_FLOAT_EQ(scale, 0.5f);

  // A kernel with the scale built in takes the default and refuses another.
  KernelInfo builtIn = attentionInfo({"Q", "K", "V", "O"});
  EXPECT_EQ(
      attentionArgs(attentionRequest(DType::f16, 64))(variant, builtIn).size(),
      4u);
  EXPECT_TILE_ERROR(attentionArgs(scaled)(variant, builtIn),
                    "kernel 'attention_test' has the scale 1/sqrt(head_dim) "
                    "built in, but this call asks for scale 0.5");
  // LSE asked of a kernel without it, and a kernel parameter no one gives.
  EXPECT_TILE_ERROR(attentionArgs(attentionRequest(DType::f16, 64, false,
                                                   true))(variant, builtIn),
                    "kernel 'attention_test' has no parameter 'LSE' for this "
                    "call's argument");
  EXPECT_TILE_ERROR(
      argsByName(attentionInfo({"Q", "extra"}), {{"Q", scaled.q}}),
      "kernel 'attention_test' takes parameter 'extra', which this call does "
      "not provide");
}

//===----------------------------------------------------------------------===//
// KernelCatalog on a hand-written library
//===----------------------------------------------------------------------===//

/// A manifest of one gemm kernel A x B -> C (f16 -> f32) with the
/// generator's contract on M and N (A stored K x M with `transposeA`).
std::string gemmManifest(const std::string &name, bool transposeA) {
  std::string dims;
  for (const char *buffer : {"A", "B", "C"})
    for (int d : {0, 1})
      dims += std::string(",\n {\"name\": \"") + buffer + ".dim" +
              std::to_string(d) +
              "\", \"kind\": \"dim\", \"type\": \"i64\", \"buffer\": \"" +
              buffer + "\", \"dim\": " + std::to_string(d) + "}";
  return R"({"format": "tile-manifest", "version": 1,
  "target": {"chip": "sm_90", "features": "+ptx80"},
  "kernels": [{"name": ")" +
         name + R"(", "block": [128, 1, 1],
    "grid": [{"kind": "ceildiv", "param": "C", "dim": 1, "divisor": 64},
             {"kind": "ceildiv", "param": "C", "dim": 0, "divisor": 64}],
    "dynamic_shared_memory": 0,
    "requires": [
      {"lhs": {"param": "C", "dim": 0}, "op": "==", "rhs": {"param": "A", "dim": )" +
         (transposeA ? "1" : "0") + R"(}},
      {"lhs": {"param": "C", "dim": 1}, "op": "==", "rhs": {"param": "B", "dim": 1}}],
    "params": [
 {"name": "A", "kind": "buffer", "dtype": "f16", "shape": [-1, -1], "access": "read"},
 {"name": "B", "kind": "buffer", "dtype": "f16", "shape": [-1, -1], "access": "read"},
 {"name": "C", "kind": "buffer", "dtype": "f32", "shape": [-1, -1], "access": "write"})" +
         dims + "]}]}";
}

class CatalogTest : public ::testing::Test {
protected:
  void SetUp() override {
    dir = (std::filesystem::temp_directory_path() /
           ("tile-catalog-test-" + std::to_string(::getpid())))
              .string();
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    // The broken one first, so that the NN choice passes it over.
    std::string entries;
    for (auto [name, transposeA, broken] :
         {std::tuple{"gemm_broken", false, true},
          {"gemm_nn", false, false},
          {"gemm_tn", true, false}}) {
      std::ofstream(dir + "/" + name + ".manifest.json")
          << (broken ? std::string("{\"format\": 1")
                     : gemmManifest(name, transposeA));
      entries +=
          std::string(entries.empty() ? "" : ",\n") + "{\"name\": \"" + name +
          "\", \"generator\": \"gemm\", \"chip\": \"sm_90\", " +
          "\"config\": {\"in_dtype\": \"f16\", \"out_dtype\": " +
          "\"f32\", \"transpose_a\": " + (transposeA ? "true" : "false") +
          "}, \"cubin\": \"" + name + ".cubin\", \"manifest\": \"" + name +
          ".manifest.json\"}";
    }
    std::ofstream(dir + "/index.json")
        << "{\"format\": \"tile-kernels\", \"version\": 1, \"kernels\": [\n"
        << entries << "]}";
  }
  void TearDown() override { std::filesystem::remove_all(dir); }

  std::string dir;
};

TEST_F(CatalogTest, ReadsTheIndexAndItsManifestsOnce) {
  KernelCatalog catalog(dir);
  ASSERT_EQ(catalog.variants().size(), 3u);
  EXPECT_EQ(catalog.variants()[0].name, "gemm_broken");
  EXPECT_EQ(catalog.info(catalog.variants()[1]).name, "gemm_nn");
  // Read at construction: removing the files changes nothing.
  std::filesystem::remove(dir + "/gemm_nn.manifest.json");
  EXPECT_EQ(catalog.info(catalog.variants()[1]).params.size(), 9u);
  EXPECT_TILE_ERROR(catalog.info(catalog.variants()[0]),
                    "gemm_broken.manifest.json");
}

TEST_F(CatalogTest, TransposedViewsChooseTheTransposedVariant) {
  KernelCatalog catalog(dir);
  Tensor a = Tensor::at(0x10000000, DType::f16, {128, 64});
  Tensor b = Tensor::at(0x20000000, DType::f16, {64, 256});
  Tensor c = Tensor::at(0x30000000, DType::f32, {128, 256});
  KernelChoice nn = catalog.chooseGemm(a, b, c, {}, "sm_90");
  ASSERT_TRUE(nn.chosen) << nn.explain();
  EXPECT_EQ(nn.chosen->name, "gemm_nn");
  ASSERT_EQ(nn.passedOver.size(), 1u);
  EXPECT_EQ(nn.passedOver[0].variant, "gemm_broken");

  // A as the K x M view of a stored K x M matrix: the TN variant, given
  // the stored matrix.
  Tensor storedKxM = Tensor::at(0x10000000, DType::f16, {64, 128});
  KernelChoice tn =
      catalog.chooseGemm(storedKxM.transposed(), b, c, {}, "sm_90");
  ASSERT_TRUE(tn.chosen) << tn.explain();
  EXPECT_EQ(tn.chosen->name, "gemm_tn");
  EXPECT_EQ(tn.args[0].shape(), (std::vector<int64_t>{64, 128}));
  // The same with the flag on the stored matrix; flag and view cancel.
  GemmOptions transposeA;
  transposeA.transposeA = true;
  EXPECT_EQ(
      catalog.chooseGemm(storedKxM, b, c, transposeA, "sm_90").chosen->name,
      "gemm_tn");
  EXPECT_EQ(catalog.chooseGemm(a.transposed(), b, c, transposeA, "sm_90")
                .chosen->name,
            "gemm_nn");

  EXPECT_TILE_ERROR(
      catalog.chooseGemm(
          Tensor::at(0x10000000, DType::f16, {128, 64}, {128, 2}), b, c, {},
          "sm_90"),
      "gemm: A must be a row-major matrix or the transposed view of one, but "
      "it is f16[128, 64] strides [128, 2]");
  EXPECT_TILE_ERROR(catalog.chooseGemm(a, b, c.transposed(), {}, "sm_90"),
                    "C must be row-major");
  KernelChoice bf16 = catalog.chooseGemm(
      Tensor::at(0x10000000, DType::bf16, {128, 64}),
      Tensor::at(0x20000000, DType::bf16, {64, 256}), c, {}, "sm_90");
  EXPECT_FALSE(bf16.chosen);
  EXPECT_EQ(bf16.noCandidates,
            "no gemm variant for bf16 -> f32, A M x K, B K x N, epilogue none "
            "in the library (tile-kernels or tile-tune can compile one)");
}

TEST_F(CatalogTest, AnyGeneratorByParameterName) {
  KernelCatalog catalog(dir);
  Tensor a = Tensor::at(0x10000000, DType::f16, {128, 64});
  Tensor b = Tensor::at(0x20000000, DType::f16, {64, 256});
  Tensor c = Tensor::at(0x30000000, DType::f32, {128, 256});
  KernelChoice choice =
      catalog.choose("gemm", {{"C", c}, {"A", a}, {"B", b}}, "sm_90");
  ASSERT_TRUE(choice.chosen) << choice.explain();
  EXPECT_EQ(choice.chosen->name, "gemm_nn");
  ASSERT_EQ(choice.args.size(), 3u);
  EXPECT_EQ(choice.args[0].devicePtr(), a.data()); // the kernel's order
  EXPECT_EQ(choice.args[2].devicePtr(), c.data());

  KernelChoice missing = catalog.choose("gemm", {{"A", a}, {"B", b}}, "sm_90");
  EXPECT_FALSE(missing.chosen);
  ASSERT_EQ(missing.passedOver.size(), 3u);
  EXPECT_EQ(missing.passedOver[1].reason,
            "kernel 'gemm_nn' takes parameter 'C', which this call does not "
            "provide");
  KernelChoice extra = catalog.choose(
      "gemm", {{"A", a}, {"B", b}, {"C", c}, {"eps", 1e-5f}}, "sm_90");
  EXPECT_FALSE(extra.chosen);
  EXPECT_EQ(extra.passedOver[1].reason,
            "kernel 'gemm_nn' has no parameter 'eps' for this call's argument");
  EXPECT_EQ(catalog.choose("layernorm", {{"X", a}}, "sm_90").noCandidates,
            "no layernorm variant in the library (a generator of that name "
            "compiles them into its folder)");
}

TEST_F(CatalogTest, AMissingIndexSaysHowToMakeOne) {
  std::filesystem::remove(dir + "/index.json");
  EXPECT_TILE_ERROR(KernelCatalog catalog(dir),
                    "(tile-kernels --out-dir=" + dir + " compiles one)");
}

} // namespace
