//===- ConfigJson.h - KernelConfig <-> JSON, inside the runtime -*- C++ -*-===//
//
// The JSON library stays private to the runtime: KernelIndex.cpp and
// TuneCache.cpp share these conversions, the public headers never see them.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_LIB_CONFIGJSON_H
#define TILE_RUNTIME_LIB_CONFIGJSON_H

#include "tile/runtime/KernelIndex.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace tile::rt::detail {

/// The configuration as a JSON object.
nlohmann::json configToJson(const KernelConfig &config);

/// A JSON object of scalars as a configuration; nullopt with `error` saying
/// why for anything else.
std::optional<KernelConfig> configFromJson(const nlohmann::json &object,
                                           std::string &error);

} // namespace tile::rt::detail

#endif // TILE_RUNTIME_LIB_CONFIGJSON_H
