//===- CoverageTest.cpp - What the library's attention and softmax cover --===//
//
// The kernel library (build/kernels/index.json) offers every attention
// configuration with the log-sum-exp output too, and every softmax shape in
// every element type; read from the index, without a GPU. A variant removed
// from tile-kernels' defaultVariants() fails here instead of leaving callers
// without a kernel. A missing index fails, as in ContractTest.cpp.
//
//===----------------------------------------------------------------------===//

#include "tile/runtime/KernelIndex.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

using namespace tile;

namespace {

/// The variants of `generator` in the library; fails the test without them.
std::vector<rt::KernelVariant> libraryVariants(const char *generator) {
  std::string error;
  auto variants = rt::loadKernelIndex(rt::kernelDir(TILE_KERNEL_DIR_DEFAULT),
                                      generator, &error);
  EXPECT_TRUE(variants && !variants->empty())
      << "no " << generator << " kernels: " << error;
  return variants.value_or(std::vector<rt::KernelVariant>());
}

TEST(Coverage, EveryAttentionConfigurationHasALogSumExpForm) {
  namespace key = config::attention;
  // (type, head dim, causal) -> whether a variant without and one with the
  // log-sum-exp exist.
  std::map<std::tuple<std::string, int64_t, bool>, std::pair<bool, bool>> seen;
  for (const rt::KernelVariant &v : libraryVariants(key::generator)) {
    auto &[plain, withLse] =
        seen[{v.config.get(key::dtype), v.config.get(key::headDim),
              v.config.get(key::causal)}];
    (v.config.getOrDefault(key::lse) ? withLse : plain) = true;
  }
  for (const char *dtype : {"f16", "bf16"})
    for (int64_t d : {64, 128})
      for (bool causal : {false, true}) {
        auto [plain, withLse] = seen[{dtype, d, causal}];
        std::string what = std::string(dtype) + " D=" + std::to_string(d) +
                           (causal ? " causal" : "");
        EXPECT_TRUE(plain) << "no attention variant for " << what;
        EXPECT_TRUE(withLse) << "no attention variant with the log-sum-exp "
                             << "for " << what;
      }
}

TEST(Coverage, EverySoftmaxShapeInEveryType) {
  namespace key = config::softmax;
  // (rows, block_n, threads, online, stages) -> the types it is built for.
  using Shape = std::tuple<int64_t, int64_t, int64_t, bool, int64_t>;
  std::map<Shape, std::set<std::string>> types;
  std::set<int64_t> onChipClasses;
  for (const rt::KernelVariant &v : libraryVariants(key::generator)) {
    bool online = v.config.getOrDefault(key::online);
    int64_t blockN = v.config.get(key::blockN);
    types[{v.config.get(key::rows), blockN, v.config.get(key::threads), online,
           v.config.getOrDefault(key::stages)}]
        .insert(v.config.get(key::dtype));
    if (!online)
      onChipClasses.insert(blockN);
  }
  // The row-length classes held on chip, and rows of any length.
  EXPECT_EQ(onChipClasses, (std::set<int64_t>{1024, 4096, 8192, 32768}));
  EXPECT_TRUE(std::any_of(types.begin(), types.end(), [](const auto &entry) {
    return std::get<3>(entry.first);
  })) << "no online softmax";
  for (const auto &[shape, built] : types) {
    auto [rows, blockN, threads, online, stages] = shape;
    EXPECT_EQ(built, (std::set<std::string>{"f16", "bf16", "f32"}))
        << "softmax " << (online ? "online " : "") << rows << "x" << blockN
        << " t" << threads << " s" << stages;
  }
}

} // namespace
