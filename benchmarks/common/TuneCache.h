//===- TuneCache.h - Autotuning results kept on disk ------------*- C++ -*-===//
//
// The winner of a search is kept under a key of everything that can change
// the answer: the GPU's name and compute capability, the generator, the
// problem shape, the types and the toolchain that compiled the candidates.
// A lookup matches every part of the key exactly; a search whose key
// differs in any part runs again.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_BENCHMARKS_COMMON_TUNECACHE_H
#define TILE_BENCHMARKS_COMMON_TUNECACHE_H

#include <nlohmann/json.hpp>

#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace tile::bench {

struct TuneKey {
  std::string gpu;               // "NVIDIA H200"
  std::string computeCapability; // "9.0"
  std::string generator;         // "gemm"
  std::string shape;             // "4096x4096x4096"
  std::string dtypes;            // "f16->f32"
  std::string toolchain;         // what compiled the candidates

  nlohmann::json toJson() const {
    return {{"gpu", gpu},
            {"compute_capability", computeCapability},
            {"generator", generator},
            {"shape", shape},
            {"dtypes", dtypes},
            {"toolchain", toolchain}};
  }
  bool operator==(const TuneKey &o) const { return toJson() == o.toJson(); }
};

struct TuneResult {
  TuneKey key;
  std::string winner;    // kernel name
  nlohmann::json config; // its configuration
  double medianUs = 0;
  std::string date; // when it was measured (UTC, ISO 8601)
};

/// A JSON file of results, one per key. A file that cannot be read as a
/// cache (not JSON, an entry with a field missing or of another type)
/// starts empty, with error() saying why; the next store() replaces it.
class TuneCache {
public:
  explicit TuneCache(std::string path) : path(std::move(path)) {
    std::ifstream in(this->path);
    if (!in)
      return;
    try {
      nlohmann::json file = nlohmann::json::parse(in);
      if (!file.is_object() || !file.contains("results") ||
          !file["results"].is_array())
        throw std::invalid_argument(
            "expected an object with a \"results\" array");
      for (const auto &entry : file["results"]) {
        const auto &k = entry.at("key");
        results.push_back(
            {{k.at("gpu"), k.at("compute_capability"), k.at("generator"),
              k.at("shape"), k.at("dtypes"), k.at("toolchain")},
             entry.at("winner"),
             entry.at("config"),
             entry.at("median_us"),
             entry.value("date", "")});
      }
    } catch (const std::exception &e) {
      // nlohmann's parse, type and missing-field errors, and the above.
      results.clear();
      loadError = e.what();
    }
  }

  /// Why the file could not be read ("" when it was, or did not exist).
  const std::string &error() const { return loadError; }

  /// The result stored under exactly `key`.
  std::optional<TuneResult> lookup(const TuneKey &key) const {
    for (const TuneResult &r : results)
      if (r.key == key)
        return r;
    return std::nullopt;
  }

  /// Stores `result`, replacing the one under the same key, and writes the
  /// file. False when the file cannot be written.
  bool store(const TuneResult &result) {
    for (TuneResult &r : results)
      if (r.key == result.key) {
        r = result;
        return write();
      }
    results.push_back(result);
    return write();
  }

  size_t size() const { return results.size(); }

private:
  bool write() const {
    nlohmann::json list = nlohmann::json::array();
    for (const TuneResult &r : results)
      list.push_back({{"key", r.key.toJson()},
                      {"winner", r.winner},
                      {"config", r.config},
                      {"median_us", r.medianUs},
                      {"date", r.date}});
    std::ofstream out(path);
    out << nlohmann::json{{"format", "tile-tune-cache"},
                          {"version", 1},
                          {"results", list}}
               .dump(2)
        << "\n";
    out.close(); // a full disk fails here
    return bool(out);
  }

  std::string path;
  std::vector<TuneResult> results;
  std::string loadError;
};

} // namespace tile::bench

#endif // TILE_BENCHMARKS_COMMON_TUNECACHE_H
