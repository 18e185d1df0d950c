//===- ConfigTest.cpp - The generators' configurations round-trip --------===//
//
// Every generator's configuration is described once (its forEachField over
// the keys of tile/runtime/ConfigKeys.h); the JSON form, the runtime's typed
// reads and tile-kernels' options are derived from it. These tests change
// every field and check that it survives each of those paths, so a field
// added to a struct but not to its table (or a key whose flag sets another
// field) shows up here.
//
//===----------------------------------------------------------------------===//

#include "tile/Frontend/Variants.h"

#include "llvm/Support/JSON.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <memory>

using namespace tile::fe;

namespace {

/// Every field of `c` changed from its default (the values need not be
/// valid: nothing is built).
template <typename Config> Config changedConfig() {
  Config c;
  int64_t i = 3;
  Config::forEachField(c, [&](const auto &key, auto &field) {
    using Field = std::decay_t<decltype(field)>;
    if constexpr (std::is_same_v<Field, int64_t>)
      field = key.defaultValue + 7 * i++;
    else if constexpr (std::is_same_v<Field, bool>)
      field = !key.defaultValue;
    else
      field = std::string(key.defaultValue) + "_x";
  });
  return c;
}

template <typename Config> llvm::json::Value asJson(const Config &c) {
  return llvm::json::Value(configToJson(c));
}

/// The command line that sets every field of `c` that has a flag.
template <typename Config> std::string commandLine(const Config &c) {
  std::string line;
  Config::forEachField(c, [&](const auto &key, const auto &field) {
    if (!key.flag)
      return;
    line += std::string(" --") + key.flag + "=";
    using Field = std::decay_t<decltype(field)>;
    if constexpr (std::is_same_v<Field, int64_t>)
      line += std::to_string(field);
    else if constexpr (std::is_same_v<Field, bool>)
      line += field ? "true" : "false";
    else
      line += field;
  });
  return line;
}

/// What `tile-kernels --kernel=<generator> <flags> --print-config` prints.
std::string printConfig(const std::string &generator,
                        const std::string &flags) {
  std::string command = std::string(TILE_KERNELS_PATH) +
                        " --kernel=" + generator + flags + " --print-config";
  std::unique_ptr<FILE, int (*)(FILE *)> pipe(popen(command.c_str(), "r"),
                                              pclose);
  if (!pipe)
    return "";
  std::string out;
  std::array<char, 4096> buffer;
  while (size_t n = fread(buffer.data(), 1, buffer.size(), pipe.get()))
    out.append(buffer.data(), n);
  return out;
}

template <typename Config>
void expectRoundTrips(const std::string &generator,
                      Variant (*variant)(const Config &)) {
  SCOPED_TRACE(generator);
  for (const Config &c : {Config(), changedConfig<Config>()}) {
    // The variant records exactly the fields, under their keys.
    llvm::json::Object json = variant(c).config;
    EXPECT_EQ(llvm::json::Value(llvm::json::Object(json)), asJson(c));
    // JSON -> config -> JSON.
    std::string error;
    std::optional<Config> back = configFromJson<Config>(json, error);
    ASSERT_TRUE(back) << error;
    EXPECT_EQ(asJson(*back), asJson(c));
    // Every key is read by its type: a field of another type is refused.
    Config::forEachField(c, [&](const auto &key, const auto &) {
      llvm::json::Object broken = json;
      broken[key.name] = llvm::json::Array();
      std::string why;
      EXPECT_FALSE(configFromJson<Config>(broken, why)) << key.name;
      EXPECT_NE(why.find(key.name), std::string::npos) << why;
    });
  }
  // Unknown keys are refused, missing ones keep the default.
  std::string error;
  EXPECT_FALSE(
      configFromJson<Config>(llvm::json::Object{{"no_such_field", 1}}, error));
  EXPECT_EQ(error, "no field \"no_such_field\"");
  error.clear();
  std::optional<Config> defaults =
      configFromJson<Config>(llvm::json::Object(), error);
  ASSERT_TRUE(defaults) << error;
  EXPECT_EQ(asJson(*defaults), asJson(Config()));
}

TEST(Config, EveryConfigRoundTripsThroughJson) {
  expectRoundTrips("vector_add", vectorAddVariant);
  expectRoundTrips("print_demo", printDemoVariant);
  expectRoundTrips("gemm", gemmVariant);
  expectRoundTrips("bias_gelu", biasGeluVariant);
  expectRoundTrips("gemm_softmax", gemmSoftmaxVariant);
  expectRoundTrips("attention", attentionVariant);
  expectRoundTrips("softmax", softmaxVariant);
}

/// Config -> tile-kernels flags -> config: every field with a flag is set
/// by it (the others keep their defaults).
template <typename Config> void expectCommandLineRoundTrips(const char *name) {
  SCOPED_TRACE(name);
  Config changed = changedConfig<Config>();
  Config expected;
  Config::forEachField(expected, [&](const auto &key, auto &field) {
    if (key.flag)
      Config::forEachField(changed, [&](const auto &other, const auto &value) {
        if constexpr (std::is_same_v<std::decay_t<decltype(field)>,
                                     std::decay_t<decltype(value)>>)
          if (&other == &key)
            field = value;
      });
  });
  std::string printed = printConfig(name, commandLine(changed));
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(printed);
  ASSERT_TRUE(bool(json)) << llvm::toString(json.takeError()) << ": "
                          << printed;
  EXPECT_EQ(*json, asJson(expected)) << printed;
}

TEST(Config, EveryConfigRoundTripsThroughTheCommandLine) {
  expectCommandLineRoundTrips<VectorAddConfig>("vector_add");
  expectCommandLineRoundTrips<PrintDemoConfig>("print_demo");
  expectCommandLineRoundTrips<GemmConfig>("gemm");
  expectCommandLineRoundTrips<BiasGeluConfig>("bias_gelu");
  expectCommandLineRoundTrips<GemmSoftmaxConfig>("gemm_softmax");
  expectCommandLineRoundTrips<AttentionConfig>("attention");
  expectCommandLineRoundTrips<SoftmaxConfig>("softmax");
}

TEST(Config, DefaultsAreTheKeys) {
  // The struct defaults and the ones GPU-side readers assume are one.
  EXPECT_EQ(GemmConfig().blockM, tile::config::gemm::blockM.defaultValue);
  EXPECT_EQ(AttentionConfig().headDim,
            tile::config::attention::headDim.defaultValue);
  EXPECT_EQ(SoftmaxConfig().dtype, tile::config::softmax::dtype.defaultValue);
}

} // namespace
