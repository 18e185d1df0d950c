//===- KernelIndex.h - A kernel library's index.json ------------*- C++ -*-===//
//
// `tile-kernels --out-dir=DIR` and `tile-tune --out-dir=DIR` write
// DIR/index.json listing every compiled variant: its name, generator,
// configuration (flat: integers, numbers, booleans, strings) and the cubin
// and manifest next to it. Programs that run on machines without LLVM (GPU
// tests, benchmarks, tile-tune-run, tile-profile) find their kernels here:
//
//   std::string error;
//   auto variants = loadKernelIndex(kernelDir("build/kernels"), "gemm",
//   &error); for (const KernelVariant &v : *variants)
//     if (v.config.getOrDefault(config::gemm::inDtype) == "bf16") ...
//
// The keys and their types are in tile/runtime/ConfigKeys.h, the one
// description the frontend writes the configurations from.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_KERNELINDEX_H
#define TILE_RUNTIME_KERNELINDEX_H

#include "tile/runtime/ConfigKeys.h"

#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace tile::rt {

/// The configuration a generator recorded for one variant ("block_m": 128,
/// "in_dtype": "bf16", "causal": true). The getters without a fallback throw
/// tile::rt::Error when the key is missing or holds another type; those with
/// one return it when the key is missing (and throw on another type).
class KernelConfig {
public:
  using Value = std::variant<int64_t, double, bool, std::string>;

  KernelConfig() = default;
  KernelConfig(std::initializer_list<std::pair<const std::string, Value>> init)
      : values(init) {}

  bool contains(const std::string &key) const { return values.count(key); }
  bool empty() const { return values.empty(); }

  int64_t getInt(const std::string &key) const;
  int64_t getInt(const std::string &key, int64_t fallback) const;
  /// An integer or a number, as a double.
  double getNumber(const std::string &key) const;
  double getNumber(const std::string &key, double fallback) const;
  bool getBool(const std::string &key) const;
  bool getBool(const std::string &key, bool fallback) const;
  const std::string &getString(const std::string &key) const;
  std::string getString(const std::string &key,
                        const std::string &fallback) const;

  /// Typed access by the generators' keys (ConfigKeys.h): get() throws
  /// like the getters without a fallback; getOrDefault() returns the
  /// generator's default when the key is missing.
  int64_t get(const config::IntKey &key) const { return getInt(key.name); }
  bool get(const config::BoolKey &key) const { return getBool(key.name); }
  const std::string &get(const config::StringKey &key) const {
    return getString(key.name);
  }
  int64_t getOrDefault(const config::IntKey &key) const {
    return getInt(key.name, key.defaultValue);
  }
  bool getOrDefault(const config::BoolKey &key) const {
    return getBool(key.name, key.defaultValue);
  }
  std::string getOrDefault(const config::StringKey &key) const {
    return getString(key.name, key.defaultValue);
  }

  void set(const std::string &key, Value value) {
    values[key] = std::move(value);
  }
  /// Every entry, by key.
  const std::map<std::string, Value> &entries() const { return values; }

  /// The configuration as a compact JSON object, keys sorted (as index.json
  /// has it).
  std::string toJson() const;
  /// Parses a JSON object of scalars; throws tile::rt::Error otherwise.
  static KernelConfig fromJson(const std::string &jsonText);

  bool operator==(const KernelConfig &other) const {
    return values == other.values;
  }
  bool operator!=(const KernelConfig &other) const { return !(*this == other); }

private:
  const Value &find(const std::string &key) const;

  std::map<std::string, Value> values;
};

/// One compiled variant of the index; the paths include the folder.
struct KernelVariant {
  std::string name;
  std::string generator;
  KernelConfig config;
  std::string cubinPath;
  std::string manifestPath;
  /// The chip the cubin was built for ("sm_90", "sm_90a"); empty in an
  /// index that does not say.
  std::string chip;
};

/// Whether a cubin built for `kernelChip` runs on a device of `deviceChip`
/// (Device::chip(), e.g. "sm_90"): an arch-specific "sm_90a" cubin only on
/// that compute capability, any other on the same major version with at
/// least its minor one (cubins carry no PTX to recompile). An unknown
/// (empty) kernel chip is assumed to run.
bool chipRunsOn(const std::string &kernelChip, const std::string &deviceChip);

/// Removes the variants whose cubins cannot run on `deviceChip`
/// (chipRunsOn); returns how many it removed.
size_t removeVariantsNotRunningOn(std::vector<KernelVariant> &variants,
                                  const std::string &deviceChip);

/// The kernel folder: $TILE_KERNEL_DIR (or the environment variable
/// `variable`: TILE_TEST_KERNEL_DIR, TILE_COOKBOOK_KERNEL_DIR) when set and
/// not empty, else `fallback`.
std::string kernelDir(const std::string &fallback,
                      const char *variable = "TILE_KERNEL_DIR");

/// The variants of `generator` (all of them for "") in `dir`/index.json, in
/// index order. nullopt when the index is missing (the kernels were not
/// compiled) or is not a kernel index (not JSON, truncated, a field missing
/// or of another type); then `error`, when given, says why: "no <path>" for
/// a missing index, "<path>: not a kernel index: <why>" for a broken one.
std::optional<std::vector<KernelVariant>>
loadKernelIndex(const std::string &dir, const std::string &generator,
                std::string *error = nullptr);

} // namespace tile::rt

#endif // TILE_RUNTIME_KERNELINDEX_H
