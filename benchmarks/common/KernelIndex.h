//===- KernelIndex.h - Compiled kernels for GPU runs ------------*- C++ -*-===//
//
// `tile-kernels --out-dir=DIR` writes DIR/index.json listing every compiled
// variant (generator, configuration, cubin, manifest). GPU tests and
// benchmarks run on machines without LLVM; they find the kernels through
// this index. The folder comes from $TILE_KERNEL_DIR, else the build's
// default.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_BENCHMARKS_COMMON_KERNELINDEX_H
#define TILE_BENCHMARKS_COMMON_KERNELINDEX_H

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace tile::bench {

struct KernelVariant {
  std::string name;
  std::string generator;
  nlohmann::json config;
  std::string cubinPath;
  std::string manifestPath;
};

/// The kernel folder: $TILE_KERNEL_DIR, else `fallback`.
inline std::string kernelDir(const std::string &fallback) {
  const char *dir = std::getenv("TILE_KERNEL_DIR");
  return dir && *dir ? dir : fallback;
}

/// The variants of `generator` (all of them for "") in `dir`/index.json;
/// nullopt when the index is missing (kernels not compiled).
inline std::optional<std::vector<KernelVariant>>
loadVariants(const std::string &dir, const std::string &generator) {
  std::ifstream in(dir + "/index.json");
  if (!in)
    return std::nullopt;
  nlohmann::json index = nlohmann::json::parse(in);
  std::vector<KernelVariant> variants;
  for (const auto &entry : index.at("kernels")) {
    if (!generator.empty() && entry.at("generator") != generator)
      continue;
    variants.push_back({entry.at("name"), entry.at("generator"),
                        entry.at("config"),
                        dir + "/" + entry.at("cubin").get<std::string>(),
                        dir + "/" + entry.at("manifest").get<std::string>()});
  }
  return variants;
}

/// The variants of `generator` in kernelDir(fallback); says on stderr why
/// there are none.
inline std::vector<KernelVariant>
requireVariants(const std::string &fallback, const std::string &generator) {
  std::string dir = kernelDir(fallback);
  auto variants = loadVariants(dir, generator);
  if (!variants || variants->empty()) {
    std::cerr << "no compiled " << generator << " kernels in " << dir
              << " (run tile-kernels --out-dir=" << dir << ")\n";
    return {};
  }
  return *variants;
}

} // namespace tile::bench

#endif // TILE_BENCHMARKS_COMMON_KERNELINDEX_H
