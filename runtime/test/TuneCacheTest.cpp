//===- TuneCacheTest.cpp - The autotuner's result cache -------------------===//
//
// No GPU needed: a result is found again under exactly its key, never when
// any part of the key (GPU, compute capability, generator, shape, types,
// toolchain) differs, and survives a reload from disk with its
// configuration; a file that is not a cache starts empty with the reason.
//
//===----------------------------------------------------------------------===//

#include "tile/runtime/TuneCache.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

using namespace tile::rt;

namespace {

TuneKey h200Key() {
  return {"NVIDIA H200", "9.0",
          "gemm",        "4096x4096x4096",
          "f16->f32",    "LLVM 22.1.8; ptxas V13.0.88; PTX 0x1",
          "nn"};
}

TEST(TuneCache, ReusesOnlyAnExactKey) {
  std::string path =
      (std::filesystem::temp_directory_path() / "tile-tune-cache-test.json")
          .string();
  std::remove(path.c_str());
  {
    TuneCache cache(path);
    EXPECT_EQ(cache.size(), 0u);
    EXPECT_FALSE(cache.lookup(h200Key()));
    ASSERT_TRUE(cache.store({h200Key(),
                             "gemm_f16_f32_128x128x64_t128_s3",
                             {{"block_m", int64_t(128)},
                              {"in_dtype", std::string("bf16")},
                              {"transpose_a", true},
                              {"scale", 0.5}},
                             340.5,
                             "2026-11-30T20:00Z"}));
  }
  TuneCache reloaded(path);
  std::optional<TuneResult> hit = reloaded.lookup(h200Key());
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->winner, "gemm_f16_f32_128x128x64_t128_s3");
  EXPECT_EQ(hit->config.getInt("block_m"), 128);
  EXPECT_EQ(hit->config.getString("in_dtype"), "bf16");
  EXPECT_TRUE(hit->config.getBool("transpose_a"));
  EXPECT_DOUBLE_EQ(hit->config.getNumber("scale"), 0.5);
  EXPECT_EQ(hit->config.entries().size(), 4u);
  EXPECT_DOUBLE_EQ(hit->medianUs, 340.5);

  // Any part of the key that differs misses.
  for (int part = 0; part < 8; ++part) {
    TuneKey other = h200Key();
    std::string *fields[] = {&other.gpu,       &other.computeCapability,
                             &other.generator, &other.shape,
                             &other.dtypes,    &other.toolchain,
                             &other.layout,    &other.options};
    *fields[part] += "'";
    EXPECT_FALSE(reloaded.lookup(other)) << "part " << part;
  }

  // Storing under the same key replaces the result.
  ASSERT_TRUE(reloaded.store(
      {h200Key(), "gemm_f16_f32_256x128x64_t256_s3", {}, 330.0, "later"}));
  EXPECT_EQ(reloaded.size(), 1u);
  EXPECT_EQ(TuneCache(path).lookup(h200Key())->winner,
            "gemm_f16_f32_256x128x64_t256_s3");
  std::remove(path.c_str());
}

/// Caches written before the key had an operand layout hold NN searches
/// (and no options).
TEST(TuneCache, AnEntryWithoutALayoutIsNN) {
  std::string path =
      (std::filesystem::temp_directory_path() / "tile-tune-cache-nn.json")
          .string();
  std::ofstream(path)
      << "{\"results\": [{\"key\": {\"gpu\": \"NVIDIA H200\", "
         "\"compute_capability\": \"9.0\", \"generator\": \"gemm\", "
         "\"shape\": \"4096x4096x4096\", \"dtypes\": \"f16->f32\", "
         "\"toolchain\": \"LLVM 22.1.8; ptxas V13.0.88; PTX 0x1\"}, "
         "\"winner\": \"w\", \"config\": {}, \"median_us\": 1.5}]}";
  TuneCache cache(path);
  EXPECT_TRUE(cache.error().empty()) << cache.error();
  ASSERT_TRUE(cache.lookup(h200Key()));
  TuneKey tn = h200Key();
  tn.layout = "tn";
  EXPECT_FALSE(cache.lookup(tn));
  // Nor had it options (KernelLibrary's epilogue, causal, ...).
  TuneKey fused = h200Key();
  fused.options = "epilogue=bias_gelu";
  EXPECT_FALSE(cache.lookup(fused));
  EXPECT_NE(h200Key().toJson().find("\"layout\":\"nn\""), std::string::npos);
  std::remove(path.c_str());
}

TEST(TuneCache, UnreadableFileStartsEmpty) {
  std::string path =
      (std::filesystem::temp_directory_path() / "tile-tune-cache-bad.json")
          .string();
  std::ofstream(path) << "{ not json";
  TuneCache cache(path);
  EXPECT_EQ(cache.size(), 0u);
  EXPECT_NE(cache.error().find("parse error"), std::string::npos)
      << cache.error();
  std::remove(path.c_str());
}

TEST(TuneCache, MalformedEntriesStartEmptyWithTheReason) {
  std::string path =
      (std::filesystem::temp_directory_path() / "tile-tune-cache-odd.json")
          .string();
  // Valid JSON that is not a cache: each threw out of the constructor.
  for (const char *text :
       {"{\"results\": 7}", "{\"results\": [5]}", "{\"results\": [{}]}",
        "{\"results\": [{\"key\": {\"gpu\": 1}}]}",
        "{\"results\": [{\"key\": {\"gpu\": \"g\", \"compute_capability\": "
        "\"9.0\", \"generator\": \"gemm\", \"shape\": \"1x1x1\", \"dtypes\": "
        "\"f16->f32\", \"toolchain\": \"t\"}, \"winner\": \"w\", \"config\": "
        "{}, "
        "\"median_us\": \"fast\"}]}",
        "{\"results\": [{\"key\": {\"gpu\": \"g\", \"compute_capability\": "
        "\"9.0\", \"generator\": \"gemm\", \"shape\": \"1x1x1\", \"dtypes\": "
        "\"f16->f32\", \"toolchain\": \"t\"}, \"winner\": \"w\", \"config\": "
        "{\"block_m\": [128]}, \"median_us\": 1.0}]}"}) {
    std::ofstream(path) << text;
    TuneCache cache(path);
    EXPECT_EQ(cache.size(), 0u) << text;
    EXPECT_FALSE(cache.error().empty()) << text;
    // The next store replaces the file with a readable cache.
    ASSERT_TRUE(cache.store({h200Key(), "w", {}, 1.0, "now"})) << text;
    TuneCache reread(path);
    EXPECT_EQ(reread.error(), "") << text;
    EXPECT_TRUE(reread.lookup(h200Key())) << text;
  }
  std::remove(path.c_str());
}

TEST(TuneCache, KeyAsJson) {
  EXPECT_EQ(h200Key().toJson(),
            "{\"compute_capability\":\"9.0\",\"dtypes\":\"f16->f32\","
            "\"generator\":\"gemm\",\"gpu\":\"NVIDIA H200\",\"layout\":"
            "\"nn\",\"options\":\"\",\"shape\":"
            "\"4096x4096x4096\",\"toolchain\":\"LLVM 22.1.8; ptxas V13.0.88; "
            "PTX 0x1\"}");
}

TEST(TuneCache, UnwritableFileFailsTheStore) {
  TuneCache cache("/nonexistent-dir/tune-cache.json");
  EXPECT_EQ(cache.error(), "");
  EXPECT_FALSE(cache.store({h200Key(), "w", {}, 1.0, "now"}));
}

} // namespace
