//===- KernelIndexTest.cpp - Reading a kernel library's index.json --------===//
//
// No GPU needed: the variants of one generator or of all, in index order,
// with their configuration and paths; a missing index said as such; every
// kind of broken index said as broken, with the reason; the typed getters
// of KernelConfig and their errors.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "tile/runtime/KernelIndex.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace tile::rt;

namespace {

/// A fresh folder under the temporary directory, removed at the end.
class KernelIndex : public ::testing::Test {
protected:
  void SetUp() override {
    dir = (std::filesystem::temp_directory_path() /
           ("tile-kernel-index-test-" + std::to_string(::getpid())))
              .string();
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
  }
  void TearDown() override { std::filesystem::remove_all(dir); }
  void writeIndex(const std::string &text) {
    std::ofstream(dir + "/index.json") << text;
  }
  std::string dir;
};

constexpr const char *kIndex = R"json({
  "format": "tile-kernel-index", "version": 1,
  "kernels": [
    {"name": "vector_add_f32_1024x256", "generator": "vector_add",
     "config": {"block_n": 1024, "dtype": "f32", "threads": 256},
     "cubin": "vector_add_f32_1024x256.cubin",
     "manifest": "vector_add_f32_1024x256.manifest.json",
     "ptx": "vector_add_f32_1024x256.ptx", "compile_ms": 50.7},
    {"name": "gemm_bf16_f32", "generator": "gemm",
     "config": {"block_m": 128, "in_dtype": "bf16", "transpose_a": true,
                "scale": 0.25},
     "cubin": "gemm_bf16_f32.cubin", "manifest": "gemm_bf16_f32.manifest.json",
     "chip": "sm_90a"},
    {"name": "gemm_f16_f32", "generator": "gemm", "config": {},
     "cubin": "gemm_f16_f32.cubin", "manifest": "gemm_f16_f32.manifest.json"}
  ]})json";

TEST_F(KernelIndex, ReadsTheVariantsOfAGenerator) {
  writeIndex(kIndex);
  std::string error;
  auto gemms = loadKernelIndex(dir, "gemm", &error);
  ASSERT_TRUE(gemms) << error;
  ASSERT_EQ(gemms->size(), 2u);
  const KernelVariant &v = (*gemms)[0];
  EXPECT_EQ(v.name, "gemm_bf16_f32");
  EXPECT_EQ(v.generator, "gemm");
  EXPECT_EQ(v.cubinPath, dir + "/gemm_bf16_f32.cubin");
  EXPECT_EQ(v.manifestPath, dir + "/gemm_bf16_f32.manifest.json");
  EXPECT_EQ(v.config.getInt("block_m"), 128);
  EXPECT_EQ(v.config.getString("in_dtype"), "bf16");
  EXPECT_TRUE(v.config.getBool("transpose_a"));
  EXPECT_DOUBLE_EQ(v.config.getNumber("scale"), 0.25);
  EXPECT_DOUBLE_EQ(v.config.getNumber("block_m"), 128.0);
  EXPECT_EQ(v.config.toJson(), "{\"block_m\":128,\"in_dtype\":\"bf16\","
                               "\"scale\":0.25,\"transpose_a\":true}");
  EXPECT_EQ(v.chip, "sm_90a");
  EXPECT_EQ((*gemms)[1].name, "gemm_f16_f32");
  EXPECT_TRUE((*gemms)[1].config.empty());
  EXPECT_EQ((*gemms)[1].chip, ""); // older indexes do not say

  auto all = loadKernelIndex(dir, "");
  ASSERT_TRUE(all);
  ASSERT_EQ(all->size(), 3u);
  EXPECT_EQ((*all)[0].name, "vector_add_f32_1024x256");
  auto none = loadKernelIndex(dir, "attention");
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->empty());
}

TEST(ChipRunsOn, ArchSpecificCubinsRunOnTheirChipAloneOthersWithinAMajor) {
  struct Case {
    const char *kernel, *device;
    bool runs;
  };
  for (Case c : {Case{"sm_90a", "sm_90", true},
                 {"sm_90a", "sm_100", false},
                 {"sm_90a", "sm_80", false},
                 {"sm_90", "sm_90", true},
                 {"sm_90", "sm_89", false},
                 {"sm_90", "sm_100", false},
                 {"sm_80", "sm_86", true},
                 {"sm_86", "sm_80", false},
                 {"sm_80", "sm_90", false},
                 {"", "sm_75", true},
                 {"compute_90", "sm_90", false},
                 {"sm_9x", "sm_90", false}})
    EXPECT_EQ(chipRunsOn(c.kernel, c.device), c.runs)
        << c.kernel << " on " << c.device;
}

TEST_F(KernelIndex, MissingIndexSaysNo) {
  std::string error;
  EXPECT_FALSE(loadKernelIndex(dir, "", &error));
  EXPECT_EQ(error, "no " + dir + "/index.json");
  EXPECT_FALSE(loadKernelIndex(dir, "")); // no error wanted: still nullopt
}

TEST_F(KernelIndex, BrokenIndexSaysWhy) {
  const std::pair<const char *, const char *> cases[] = {
      {"{ not json", "parse error"},
      {"", "parse error"},
      {"[]", "expected an object with a \"kernels\" array"},
      {R"({"kernels": 3})", "expected an object with a \"kernels\" array"},
      {R"({"kernels": [7]})", "kernel #0 is not an object"},
      {R"({"kernels": [{"generator": "g", "cubin": "c", "manifest": "m",
                        "config": {}}]})",
       "kernel #0: expected a string \"name\""},
      {R"({"kernels": [{"name": 1, "generator": "g", "cubin": "c",
                        "manifest": "m", "config": {}}]})",
       "kernel #0: expected a string \"name\""},
      {R"({"kernels": [{"name": "n", "generator": "g", "cubin": "c",
                        "manifest": "m"}]})",
       "kernel #0: expected an object \"config\""},
      {R"({"kernels": [{"name": "n", "generator": "g", "cubin": "c",
                        "manifest": "m", "config": {"block_m": [1]}}]})",
       "kernel #0: config: \"block_m\" is array"},
      {R"({"kernels": [{"name": "n", "generator": "g", "cubin": "c",
                        "manifest": "m", "config": {"x": null}}]})",
       "kernel #0: config: \"x\" is null"},
  };
  for (const auto &[text, expected] : cases) {
    writeIndex(text);
    std::string error;
    // Broken anywhere is broken, also for another generator's reader.
    EXPECT_FALSE(loadKernelIndex(dir, "other", &error)) << text;
    EXPECT_EQ(error.rfind(dir + "/index.json: not a kernel index: ", 0), 0u)
        << error;
    EXPECT_NE(error.find(expected), std::string::npos)
        << "expected '" << expected << "' in: " << error;
  }
}

TEST_F(KernelIndex, KernelDirPrefersTheEnvironment) {
  const char *saved = std::getenv("TILE_KERNEL_DIR");
  std::string savedValue = saved ? saved : "";
  ::setenv("TILE_KERNEL_DIR", "/from/env", 1);
  EXPECT_EQ(kernelDir("/fallback"), "/from/env");
  ::setenv("TILE_KERNEL_DIR", "", 1);
  EXPECT_EQ(kernelDir("/fallback"), "/fallback");
  ::unsetenv("TILE_KERNEL_DIR");
  EXPECT_EQ(kernelDir("/fallback"), "/fallback");

  // Another variable, for another folder; TILE_KERNEL_DIR does not count.
  const char *other = "TILE_KERNEL_DIR_TEST_OTHER";
  ::setenv(other, "/other", 1);
  EXPECT_EQ(kernelDir("/fallback", other), "/other");
  ::unsetenv(other);
  ::setenv("TILE_KERNEL_DIR", "/from/env", 1);
  EXPECT_EQ(kernelDir("/fallback", other), "/fallback");
  ::unsetenv("TILE_KERNEL_DIR");
  if (saved)
    ::setenv("TILE_KERNEL_DIR", savedValue.c_str(), 1);
}

TEST(KernelConfig, TypedGettersAndTheirErrors) {
  KernelConfig config = {{"block_m", int64_t(128)},
                         {"dtype", std::string("f16")},
                         {"causal", false},
                         {"scale", 0.5}};
  EXPECT_EQ(config.getInt("block_m"), 128);
  EXPECT_EQ(config.getInt("block_n", 64), 64);
  EXPECT_EQ(config.getString("epilogue", "none"), "none");
  EXPECT_FALSE(config.getBool("causal", true));
  EXPECT_TRUE(config.getBool("lse", true));
  EXPECT_TRUE(config.contains("dtype"));
  EXPECT_FALSE(config.contains("lse"));

  EXPECT_TILE_ERROR(config.getInt("block_n"), "kernel config: no \"block_n\"");
  EXPECT_TILE_ERROR(config.getInt("dtype"),
                    "\"dtype\" is a string, expected an integer");
  EXPECT_TILE_ERROR(config.getInt("scale"),
                    "\"scale\" is a number, expected an integer");
  // A fallback covers a missing key, never one of another type.
  EXPECT_TILE_ERROR(config.getBool("block_m", false),
                    "\"block_m\" is an integer, expected a boolean");
  EXPECT_TILE_ERROR(config.getString("causal", ""),
                    "\"causal\" is a boolean, expected a string");
  EXPECT_TILE_ERROR(config.getNumber("dtype"),
                    "\"dtype\" is a string, expected a number");
}

TEST(KernelConfig, ReadsByTheGeneratorsKeys) {
  namespace key = tile::config::gemm;
  KernelConfig config = {{"block_m", int64_t(64)},
                         {"in_dtype", std::string("bf16")},
                         {"transpose_a", true},
                         {"epilogue", int64_t(3)}};
  EXPECT_EQ(config.get(key::blockM), 64);
  EXPECT_EQ(config.get(key::inDtype), "bf16");
  EXPECT_TRUE(config.get(key::transposeA));
  // Keys an older index lacks: the generator's default, or an error.
  EXPECT_EQ(config.getOrDefault(key::divisibility), 1);
  EXPECT_FALSE(config.getOrDefault(key::transposeB));
  EXPECT_EQ(config.getOrDefault(key::outDtype), "f32");
  EXPECT_TILE_ERROR(config.get(key::blockN), "kernel config: no \"block_n\"");
  // The key's type is checked as the getters do.
  EXPECT_TILE_ERROR(config.getOrDefault(key::epilogue),
                    "\"epilogue\" is an integer, expected a string");
}

TEST(KernelConfig, JsonRoundTrip) {
  KernelConfig config = KernelConfig::fromJson(
      R"({"b": true, "i": -3, "f": 1.5, "s": "x", "big": 18446744073709551615})");
  EXPECT_EQ(config.getInt("i"), -3);
  EXPECT_DOUBLE_EQ(config.getNumber("f"), 1.5);
  EXPECT_TILE_ERROR(config.getInt("big"), "is a number");
  EXPECT_EQ(KernelConfig::fromJson(config.toJson()), config);
  EXPECT_EQ(KernelConfig().toJson(), "{}");
  EXPECT_TILE_ERROR(KernelConfig::fromJson("[1]"), "expected an object");
  EXPECT_TILE_ERROR(KernelConfig::fromJson("{"), "parse error");
  EXPECT_TILE_ERROR(KernelConfig::fromJson(R"({"a": {"b": 1}})"),
                    "\"a\" is object");
}

} // namespace
