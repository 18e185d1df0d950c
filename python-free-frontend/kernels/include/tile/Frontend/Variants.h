//===- Variants.h - Kernel generators with their configuration --*- C++ -*-===//
//
// A variant is one generator with one configuration: what tile-kernels
// compiles into the kernel library and what tile-tune searches over. The
// configuration is also written to the kernel index (JSON), where the GPU
// tests and benchmarks read it.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_FRONTEND_VARIANTS_H
#define TILE_FRONTEND_VARIANTS_H

#include "tile/Frontend/Kernels.h"

#include "llvm/Support/JSON.h"

#include <functional>
#include <optional>
#include <string>

namespace tile::fe {

/// One kernel variant: a generator with its configuration.
struct Variant {
  std::string generator;
  /// The kernel's name (the configuration's kernelName()).
  std::string name;
  llvm::json::Object config;
  /// Builds the kernel into the program and returns its name; throws
  /// std::invalid_argument when the generator does not support the
  /// configuration (its validate()).
  std::function<std::string(Program &)> build;
  /// The shared memory its tiles need at least, in bytes, where the
  /// generator says (GemmConfig::sharedMemoryBytes); 0 otherwise.
  int64_t sharedMemoryBytes = 0;
  /// The chip it must be compiled for where it needs more than the
  /// library's (sm_90a for wgmma and TMA); empty: the library's chip.
  std::string chip = {};
};

/// A configuration as index.json's "config" object: every field under its
/// key (Config::forEachField; llvm::json writes the keys sorted).
template <typename Config> llvm::json::Object configToJson(const Config &c) {
  llvm::json::Object object;
  Config::forEachField(
      c, [&](const auto &key, const auto &field) { object[key.name] = field; });
  return object;
}

namespace detail {
/// `field` from `v` when `v` holds its type.
inline bool readField(const llvm::json::Value &v, int64_t &field) {
  std::optional<int64_t> value = v.getAsInteger();
  if (value)
    field = *value;
  return value.has_value();
}
inline bool readField(const llvm::json::Value &v, bool &field) {
  std::optional<bool> value = v.getAsBoolean();
  if (value)
    field = *value;
  return value.has_value();
}
inline bool readField(const llvm::json::Value &v, std::string &field) {
  std::optional<llvm::StringRef> value = v.getAsString();
  if (value)
    field = value->str();
  return value.has_value();
}
} // namespace detail

/// The configuration of a "config" object: a missing key keeps the
/// generator's default. nullopt, with `error` saying which key, when a key
/// has another type or is not one of the generator's.
template <typename Config>
std::optional<Config> configFromJson(const llvm::json::Object &object,
                                     std::string &error) {
  Config c;
  std::string why;
  size_t known = 0;
  Config::forEachField(c, [&](const auto &key, auto &field) {
    const llvm::json::Value *value = object.get(key.name);
    if (!value || !why.empty())
      return;
    ++known;
    if (!detail::readField(*value, field))
      why = std::string("\"") + key.name + "\" has another type";
  });
  // Some key is none of the generator's: name the first one.
  for (auto it = object.begin();
       why.empty() && known != object.size() && it != object.end(); ++it) {
    bool found = false;
    Config::forEachField(c, [&](const auto &key, const auto &) {
      found |= it->first == key.name;
    });
    if (!found)
      why = "no field \"" + it->first.str() + "\"";
  }
  if (!why.empty()) {
    error = why;
    return std::nullopt;
  }
  return c;
}

Variant vectorAddVariant(const VectorAddConfig &c);
Variant printDemoVariant(const PrintDemoConfig &c);
Variant biasGeluVariant(const BiasGeluConfig &c);
Variant gemmSoftmaxVariant(const GemmSoftmaxConfig &c);
Variant attentionVariant(const AttentionConfig &c);
Variant softmaxVariant(const SoftmaxConfig &c);
Variant gemmVariant(const GemmConfig &c);

/// A generator as tile-kernels lists it: its name (ConfigKeys.h), what it
/// computes, and the variant of a configuration.
template <typename Config> struct Generator {
  using ConfigType = Config;
  const char *name;
  const char *summary;
  Variant (*variant)(const Config &);
};

/// Every generator, in the order of tile-kernels --list: `visit(g)` with a
/// Generator<Config> (the configuration type is
/// `typename decltype(g)::ConfigType`). Where a tile-kernels flag sets
/// fields of several generators, the first one's key gives its default.
template <typename Visit> void forEachGenerator(Visit &&visit) {
  visit(Generator<VectorAddConfig>{config::vector_add::generator,
                                   "C = A + B, 1-D, any length",
                                   vectorAddVariant});
  visit(Generator<GemmConfig>{config::gemm::generator,
                              "C = A x B on tensor cores, f16/bf16 in, f32 "
                              "accumulate, any M, N, K",
                              gemmVariant});
  visit(Generator<SoftmaxConfig>{
      config::softmax::generator,
      "Y = softmax(X) along rows of up to block_n elements, or of any "
      "length (online)",
      softmaxVariant});
  visit(Generator<BiasGeluConfig>{
      config::bias_gelu::generator,
      "C = gelu(C + bias) in place, row-major M x N", biasGeluVariant});
  visit(Generator<GemmSoftmaxConfig>{
      config::gemm_softmax::generator,
      "Y = softmax(A x B^T) along rows, N up to block_n, reduced in the MMA "
      "accumulator; times V with head_dim",
      gemmSoftmaxVariant});
  visit(Generator<AttentionConfig>{
      config::attention::generator,
      "O = softmax(scale Q K^T) V, Q/O [batch, heads, seq, D], K/V [batch, "
      "kv heads dividing heads, keys, D], any lengths",
      attentionVariant});
  visit(Generator<PrintDemoConfig>{
      config::print_demo::generator,
      "device printing: an index, a shared tile and the fragment elements "
      "of a warp (tile.print)",
      printDemoVariant});
}

} // namespace tile::fe

#endif // TILE_FRONTEND_VARIANTS_H
