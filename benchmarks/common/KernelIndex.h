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
/// nullopt when the index is missing (kernels not compiled) or is not a
/// kernel index (not JSON, truncated, a field missing or of another type):
/// then `error`, when given, says why (else standard error does, so that a
/// broken index is not mistaken for a missing one).
inline std::optional<std::vector<KernelVariant>>
loadVariants(const std::string &dir, const std::string &generator,
             std::string *error = nullptr) {
  std::string path = dir + "/index.json";
  std::ifstream in(path);
  if (!in) {
    if (error)
      *error = "no " + path;
    return std::nullopt;
  }
  auto invalid = [&](const std::string &why) {
    std::string message = path + ": not a kernel index: " + why;
    if (error)
      *error = message;
    else
      std::cerr << message << "\n";
    return std::nullopt;
  };
  nlohmann::json index;
  try {
    index = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception &e) {
    return invalid(e.what());
  }
  if (!index.is_object() || !index.contains("kernels") ||
      !index["kernels"].is_array())
    return invalid("expected an object with a \"kernels\" array");
  std::vector<KernelVariant> variants;
  size_t number = 0;
  for (const auto &entry : index["kernels"]) {
    std::string where = "kernel #" + std::to_string(number++);
    if (!entry.is_object())
      return invalid(where + " is not an object");
    for (const char *field : {"name", "generator", "cubin", "manifest"})
      if (!entry.contains(field) || !entry[field].is_string())
        return invalid(where + ": expected a string \"" + field + "\"");
    if (!entry.contains("config") || !entry["config"].is_object())
      return invalid(where + ": expected an object \"config\"");
    if (!generator.empty() && entry["generator"] != generator)
      continue;
    variants.push_back({entry["name"], entry["generator"], entry["config"],
                        dir + "/" + entry["cubin"].get<std::string>(),
                        dir + "/" + entry["manifest"].get<std::string>()});
  }
  return variants;
}

/// The variants of `generator` in kernelDir(fallback); says on stderr why
/// there are none.
inline std::vector<KernelVariant>
requireVariants(const std::string &fallback, const std::string &generator) {
  std::string dir = kernelDir(fallback), error;
  auto variants = loadVariants(dir, generator, &error);
  if (!variants && error.rfind("no ", 0) != 0) {
    std::cerr << error << "\n";
    return {};
  }
  if (!variants || variants->empty()) {
    std::cerr << "no compiled " << generator << " kernels in " << dir
              << " (run tile-kernels --out-dir=" << dir << ")\n";
    return {};
  }
  return *variants;
}

} // namespace tile::bench

#endif // TILE_BENCHMARKS_COMMON_KERNELINDEX_H
