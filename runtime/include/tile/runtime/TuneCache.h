//===- TuneCache.h - Autotuning results kept on disk ------------*- C++ -*-===//
//
// The winner of a search is kept under a key of everything that can change
// the answer: the GPU's name and compute capability, the generator, the
// problem shape, the types, the operand layout and the toolchain that
// compiled the candidates.
// A lookup matches every part of the key exactly; a search whose key
// differs in any part runs again. tile-tune-run writes and reads it:
//
//   TuneCache cache("tune-cache.json");
//   if (std::optional<TuneResult> hit = cache.lookup(key)) ... // no search
//   cache.store({key, winner.name, winner.config, medianUs, date});
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_TUNECACHE_H
#define TILE_RUNTIME_TUNECACHE_H

#include "tile/runtime/KernelIndex.h"

#include <optional>
#include <string>
#include <vector>

namespace tile::rt {

struct TuneKey {
  std::string gpu;               // "NVIDIA H200"
  std::string computeCapability; // "9.0"
  std::string generator;         // "gemm"
  std::string shape;             // "4096x4096x4096"
  std::string dtypes;            // "f16->f32"
  std::string toolchain;         // what compiled the candidates
  /// How A and B are stored: "nn" (A M x K, B K x N), "nt" (B N x K),
  /// "tn" (A K x M) or "tt". A cache entry without it is "nn".
  std::string layout = "nn";
  /// What else selects the kernels (KernelLibrary: "epilogue=bias_gelu",
  /// "causal=1,lse=0"); "" for a tile-tune search and in entries written
  /// before it.
  std::string options;

  /// The key as the cache file writes it: a compact JSON object.
  std::string toJson() const;

  bool operator==(const TuneKey &o) const {
    return gpu == o.gpu && computeCapability == o.computeCapability &&
           generator == o.generator && shape == o.shape && dtypes == o.dtypes &&
           toolchain == o.toolchain && layout == o.layout &&
           options == o.options;
  }
  bool operator!=(const TuneKey &o) const { return !(*this == o); }
};

struct TuneResult {
  TuneKey key;
  std::string winner;  // kernel name
  KernelConfig config; // its configuration
  double medianUs = 0;
  std::string date; // when it was measured (UTC, ISO 8601)
};

/// A JSON file of results, one per key. A file that cannot be read as a
/// cache (not JSON, an entry with a field missing or of another type)
/// starts empty, with error() saying why; the next store() replaces it.
class TuneCache {
public:
  /// Reads `path` when it exists; a missing file is an empty cache.
  explicit TuneCache(std::string path);

  /// Why the file could not be read ("" when it was, or did not exist).
  const std::string &error() const { return loadError; }

  /// The result stored under exactly `key`.
  std::optional<TuneResult> lookup(const TuneKey &key) const;

  /// Stores `result`, replacing the one under the same key, and writes the
  /// file. False when the file cannot be written.
  bool store(const TuneResult &result);

  size_t size() const { return results.size(); }
  const std::string &path() const { return filePath; }

private:
  bool write() const;

  std::string filePath;
  std::vector<TuneResult> results;
  std::string loadError;
};

} // namespace tile::rt

#endif // TILE_RUNTIME_TUNECACHE_H
