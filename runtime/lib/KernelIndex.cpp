//===- KernelIndex.cpp - Reading a kernel library's index.json ------------===//
//
// Parses index.json with the runtime's private JSON library and checks
// every field a reader relies on, so that a broken index is reported as
// such instead of as missing kernels.
//
//===----------------------------------------------------------------------===//

#include "tile/runtime/KernelIndex.h"
#include "tile/runtime/Error.h"

#include "ConfigJson.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>

using namespace tile::rt;
using json = nlohmann::json;

//===----------------------------------------------------------------------===//
// KernelConfig
//===----------------------------------------------------------------------===//

namespace {
const char *typeName(const KernelConfig::Value &value) {
  switch (value.index()) {
  case 0:
    return "an integer";
  case 1:
    return "a number";
  case 2:
    return "a boolean";
  default:
    return "a string";
  }
}

[[noreturn]] void wrongType(const std::string &key,
                            const KernelConfig::Value &value,
                            const char *expected) {
  throw Error("kernel config: \"" + key + "\" is " + typeName(value) +
              ", expected " + expected);
}
} // namespace

const KernelConfig::Value &KernelConfig::find(const std::string &key) const {
  auto it = values.find(key);
  if (it == values.end())
    throw Error("kernel config: no \"" + key + "\"");
  return it->second;
}

int64_t KernelConfig::getInt(const std::string &key) const {
  const Value &value = find(key);
  if (const int64_t *i = std::get_if<int64_t>(&value))
    return *i;
  wrongType(key, value, "an integer");
}

int64_t KernelConfig::getInt(const std::string &key, int64_t fallback) const {
  return contains(key) ? getInt(key) : fallback;
}

double KernelConfig::getNumber(const std::string &key) const {
  const Value &value = find(key);
  if (const int64_t *i = std::get_if<int64_t>(&value))
    return double(*i);
  if (const double *d = std::get_if<double>(&value))
    return *d;
  wrongType(key, value, "a number");
}

double KernelConfig::getNumber(const std::string &key, double fallback) const {
  return contains(key) ? getNumber(key) : fallback;
}

bool KernelConfig::getBool(const std::string &key) const {
  const Value &value = find(key);
  if (const bool *b = std::get_if<bool>(&value))
    return *b;
  wrongType(key, value, "a boolean");
}

bool KernelConfig::getBool(const std::string &key, bool fallback) const {
  return contains(key) ? getBool(key) : fallback;
}

const std::string &KernelConfig::getString(const std::string &key) const {
  const Value &value = find(key);
  if (const std::string *s = std::get_if<std::string>(&value))
    return *s;
  wrongType(key, value, "a string");
}

std::string KernelConfig::getString(const std::string &key,
                                    const std::string &fallback) const {
  return contains(key) ? getString(key) : fallback;
}

std::string KernelConfig::toJson() const {
  return detail::configToJson(*this).dump();
}

KernelConfig KernelConfig::fromJson(const std::string &jsonText) {
  json parsed;
  try {
    parsed = json::parse(jsonText);
  } catch (const json::exception &e) {
    throw Error(std::string("kernel config: ") + e.what());
  }
  std::string error;
  std::optional<KernelConfig> config = detail::configFromJson(parsed, error);
  if (!config)
    throw Error("kernel config: " + error);
  return *config;
}

//===----------------------------------------------------------------------===//
// The JSON form, shared with TuneCache.cpp
//===----------------------------------------------------------------------===//

json detail::configToJson(const KernelConfig &config) {
  json object = json::object();
  for (const auto &entry : config.entries())
    std::visit([&](const auto &v) { object[entry.first] = v; }, entry.second);
  return object;
}

std::optional<KernelConfig> detail::configFromJson(const json &object,
                                                   std::string &error) {
  if (!object.is_object()) {
    error = "expected an object";
    return std::nullopt;
  }
  KernelConfig config;
  for (const auto &[key, value] : object.items()) {
    if (value.is_boolean())
      config.set(key, value.get<bool>());
    else if (value.is_number_unsigned() &&
             value.get<uint64_t>() > uint64_t(INT64_MAX))
      config.set(key, value.get<double>());
    else if (value.is_number_integer())
      config.set(key, value.get<int64_t>());
    else if (value.is_number_float())
      config.set(key, value.get<double>());
    else if (value.is_string())
      config.set(key, value.get<std::string>());
    else {
      error = "\"" + key + "\" is " + value.type_name() +
              ", expected an integer, a number, a boolean or a string";
      return std::nullopt;
    }
  }
  return config;
}

//===----------------------------------------------------------------------===//
// The index
//===----------------------------------------------------------------------===//

std::string tile::rt::kernelDir(const std::string &fallback,
                                const char *variable) {
  const char *dir = std::getenv(variable);
  return dir && *dir ? dir : fallback;
}

std::optional<std::vector<KernelVariant>>
tile::rt::loadKernelIndex(const std::string &dir, const std::string &generator,
                          std::string *error) {
  std::string path = dir + "/index.json";
  auto fail = [&](const std::string &message) {
    if (error)
      *error = message;
    return std::nullopt;
  };
  std::ifstream in(path);
  if (!in)
    return fail("no " + path);
  auto invalid = [&](const std::string &why) {
    return fail(path + ": not a kernel index: " + why);
  };
  json index;
  try {
    index = json::parse(in);
  } catch (const json::exception &e) {
    return invalid(e.what());
  }
  if (!index.is_object() || !index.contains("kernels") ||
      !index["kernels"].is_array())
    return invalid("expected an object with a \"kernels\" array");
  std::vector<KernelVariant> variants;
  size_t number = 0;
  for (const json &entry : index["kernels"]) {
    std::string where = "kernel #" + std::to_string(number++);
    if (!entry.is_object())
      return invalid(where + " is not an object");
    for (const char *field : {"name", "generator", "cubin", "manifest"})
      if (!entry.contains(field) || !entry[field].is_string())
        return invalid(where + ": expected a string \"" + field + "\"");
    if (!entry.contains("config") || !entry["config"].is_object())
      return invalid(where + ": expected an object \"config\"");
    std::string configError;
    std::optional<KernelConfig> config =
        detail::configFromJson(entry["config"], configError);
    if (!config)
      return invalid(where + ": config: " + configError);
    if (!generator.empty() && entry["generator"] != generator)
      continue;
    std::string chip;
    if (entry.contains("chip")) {
      if (!entry["chip"].is_string())
        return invalid(where + ": expected a string \"chip\"");
      chip = entry["chip"];
    }
    variants.push_back({entry["name"], entry["generator"], std::move(*config),
                        dir + "/" + entry["cubin"].get<std::string>(),
                        dir + "/" + entry["manifest"].get<std::string>(),
                        std::move(chip)});
  }
  return variants;
}

bool tile::rt::chipRunsOn(const std::string &kernelChip,
                          const std::string &deviceChip) {
  if (kernelChip.empty())
    return true;
  // "sm_" digits, the last the minor version, then an optional "a".
  auto parse = [](std::string chip, int &major, int &minor, bool &specific) {
    specific = !chip.empty() && chip.back() == 'a';
    if (specific)
      chip.pop_back();
    if (chip.rfind("sm_", 0) != 0 || chip.size() < 5 ||
        chip.find_first_not_of("0123456789", 3) != std::string::npos)
      return false;
    int version = std::stoi(chip.substr(3));
    major = version / 10;
    minor = version % 10;
    return true;
  };
  int kernelMajor, kernelMinor, deviceMajor, deviceMinor;
  bool kernelSpecific, deviceSpecific;
  if (!parse(kernelChip, kernelMajor, kernelMinor, kernelSpecific) ||
      !parse(deviceChip, deviceMajor, deviceMinor, deviceSpecific))
    return false;
  if (kernelSpecific)
    return kernelMajor == deviceMajor && kernelMinor == deviceMinor;
  return kernelMajor == deviceMajor && kernelMinor <= deviceMinor;
}

size_t
tile::rt::removeVariantsNotRunningOn(std::vector<KernelVariant> &variants,
                                     const std::string &deviceChip) {
  size_t before = variants.size();
  variants.erase(std::remove_if(variants.begin(), variants.end(),
                                [&](const KernelVariant &v) {
                                  return !chipRunsOn(v.chip, deviceChip);
                                }),
                 variants.end());
  return before - variants.size();
}
