//===- TuneCache.cpp - Autotuning results kept on disk --------------------===//
//
// The cache file: {"format": "tile-tune-cache", "version": 1, "results":
// [{"key": {...}, "winner", "config", "median_us", "date"}]}.
//
//===----------------------------------------------------------------------===//

#include "tile/runtime/TuneCache.h"

#include "ConfigJson.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <stdexcept>

using namespace tile::rt;
using json = nlohmann::json;

namespace {
json keyToJson(const TuneKey &key) {
  return {{"gpu", key.gpu},
          {"compute_capability", key.computeCapability},
          {"generator", key.generator},
          {"shape", key.shape},
          {"dtypes", key.dtypes},
          {"toolchain", key.toolchain},
          {"layout", key.layout},
          {"options", key.options}};
}
} // namespace

std::string TuneKey::toJson() const { return keyToJson(*this).dump(); }

TuneCache::TuneCache(std::string path) : filePath(std::move(path)) {
  std::ifstream in(filePath);
  if (!in)
    return;
  try {
    json file = json::parse(in);
    if (!file.is_object() || !file.contains("results") ||
        !file["results"].is_array())
      throw std::invalid_argument(
          "expected an object with a \"results\" array");
    for (const json &entry : file["results"]) {
      const json &k = entry.at("key");
      std::string configError;
      std::optional<KernelConfig> config =
          detail::configFromJson(entry.at("config"), configError);
      if (!config)
        throw std::invalid_argument("config: " + configError);
      results.push_back(
          {{k.at("gpu"), k.at("compute_capability"), k.at("generator"),
            k.at("shape"), k.at("dtypes"), k.at("toolchain"),
            k.value("layout", "nn"), k.value("options", "")},
           entry.at("winner"),
           std::move(*config),
           entry.at("median_us"),
           entry.value("date", "")});
    }
  } catch (const std::exception &e) {
    // The JSON library's parse, type and missing-field errors, and the
    // above.
    results.clear();
    loadError = e.what();
  }
}

std::optional<TuneResult> TuneCache::lookup(const TuneKey &key) const {
  for (const TuneResult &r : results)
    if (r.key == key)
      return r;
  return std::nullopt;
}

bool TuneCache::store(const TuneResult &result) {
  for (TuneResult &r : results)
    if (r.key == result.key) {
      r = result;
      return write();
    }
  results.push_back(result);
  return write();
}

bool TuneCache::write() const {
  json list = json::array();
  for (const TuneResult &r : results)
    list.push_back({{"key", keyToJson(r.key)},
                    {"winner", r.winner},
                    {"config", detail::configToJson(r.config)},
                    {"median_us", r.medianUs},
                    {"date", r.date}});
  std::ofstream out(filePath);
  out << json{{"format", "tile-tune-cache"}, {"version", 1}, {"results", list}}
             .dump(2)
      << "\n";
  out.close(); // a full disk fails here
  return bool(out);
}
