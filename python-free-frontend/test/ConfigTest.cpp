//===- ConfigTest.cpp - The generators' configurations round-trip --------===//
//
// Every generator's configuration is described once (its forEachField over
// the keys of tile/runtime/ConfigKeys.h); the JSON form, the runtime's typed
// reads, tile-kernels' options and their help, and the field checks of
// validate() are derived from it. These tests change every field and check
// that it survives each of those paths, so a field added to a struct but
// not to its table (or a key whose flag sets another field) shows up here;
// and they check that every key documents itself and that validate()
// refuses a value exactly where its key's limits say, with their why.
//
//===----------------------------------------------------------------------===//

#include "tile/Frontend/Variants.h"

#include "llvm/Support/JSON.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <vector>

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

/// What `tile-kernels <arguments>` prints.
std::string runTileKernels(const std::string &arguments) {
  std::string command = std::string(TILE_KERNELS_PATH) + " " + arguments;
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

/// What `tile-kernels --kernel=<generator> <flags> --print-config` prints.
std::string printConfig(const std::string &generator,
                        const std::string &flags) {
  return runTileKernels("--kernel=" + generator + flags + " --print-config");
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

/// The generator's default configuration with the field of `key` set to
/// `value`.
template <typename Config, typename Key, typename Value>
Config withField(const Key &key, const Value &value) {
  Config c;
  Config::forEachField(c, [&](const auto &other, auto &field) {
    if constexpr (std::is_same_v<std::decay_t<decltype(other)>, Key>)
      if (&other == &key)
        field = value;
  });
  return c;
}

/// What validate() says about `c`; "" when it accepts it.
template <typename Config> std::string refusal(const Config &c) {
  try {
    c.validate();
    return "";
  } catch (const std::invalid_argument &e) {
    return e.what();
  }
}

/// Whether `why` refuses the field `field` ("gemm: block_k") for a limit
/// of its own ("must be at least 16", "must be one of f16, bf16"), rather
/// than for a rule across fields ("stages must be 1 without online").
bool isFieldLimit(const std::string &why, const std::string &field) {
  std::string start = field + " must be ";
  if (why.compare(0, start.size(), start) != 0)
    return false;
  for (const char *limit :
       {"at least ", "at most ", "from ", "a multiple of ", "one of "})
    if (why.compare(start.size(), std::strlen(limit), limit) == 0)
      return true;
  return false;
}

TEST(Config, EveryKeyHasHelpAndAllowsItsDefault) {
  int generators = 0;
  forEachGenerator([&](const auto &generator) {
    using Config = typename std::decay_t<decltype(generator)>::ConfigType;
    SCOPED_TRACE(generator.name);
    ++generators;
    EXPECT_TRUE(generator.summary && *generator.summary);
    Config c;
    Config::forEachField(c, [&](const auto &key, const auto &) {
      EXPECT_TRUE(key.help && *key.help) << key.name << " has no help text";
      using Field = std::decay_t<decltype(key.defaultValue)>;
      if constexpr (!std::is_same_v<Field, bool>) {
        EXPECT_TRUE(key.limits.allows(key.defaultValue))
            << key.name << ": its default is outside its limits";
        if constexpr (std::is_same_v<Field, int64_t>)
          EXPECT_EQ(!key.limits.isLimited(), !key.limits.why)
              << key.name << ": limits need their why, and only limits";
      }
    });
  });
  EXPECT_EQ(generators, 7);
}

/// Each limit of each key, from the key: validate() refuses the values just
/// outside it with the key's limit and why, and does not refuse the values
/// at it for that field (a check written again in validate() with other
/// bounds shows up here).
TEST(Config, FieldLimitsAreTheKeys) {
  forEachGenerator([&](const auto &generator) {
    using Config = typename std::decay_t<decltype(generator)>::ConfigType;
    SCOPED_TRACE(generator.name);
    std::string prefix = std::string(generator.name) + ": ";
    ASSERT_EQ(refusal(Config()), "");
    Config defaults;
    Config::forEachField(defaults, [&](const auto &key, const auto &) {
      using Field = std::decay_t<decltype(key.defaultValue)>;
      std::string fieldCheck =
          prefix + key.name + " must be " + limitText(key.limits);
      if constexpr (std::is_same_v<Field, int64_t>) {
        const tile::config::IntLimits &limits = key.limits;
        if (!limits.isLimited())
          return;
        std::vector<int64_t> outside, at;
        if (limits.min != INT64_MIN) {
          outside.push_back(limits.min - 1);
          at.push_back(limits.min);
        }
        if (limits.max != INT64_MAX) {
          outside.push_back(limits.max + 1);
          at.push_back(limits.max);
        }
        if (limits.multipleOf != 1)
          outside.push_back(limits.min + 1);
        if (limits.orZero)
          at.push_back(0);
        for (int64_t value : outside) {
          if (limits.allows(value))
            continue;
          std::string why = refusal(withField<Config>(key, value));
          EXPECT_EQ(why, fieldCheck + " (" + limits.why + "), but got " +
                             std::to_string(value));
          // The bound it crossed, spelled in the message.
          int64_t bound = value < limits.min || limits.max == INT64_MAX
                              ? limits.min
                              : limits.max;
          EXPECT_NE(why.find(std::to_string(bound)), std::string::npos) << why;
        }
        for (int64_t value : at) {
          std::string why = refusal(withField<Config>(key, value));
          EXPECT_FALSE(isFieldLimit(why, prefix + key.name))
              << key.name << " = " << value << ": " << why;
        }
      } else if constexpr (std::is_same_v<Field, const char *>) {
        const tile::config::StringLimits &limits = key.limits;
        if (!limits.isLimited())
          return;
        EXPECT_EQ(refusal(withField<Config>(key, std::string("no_such"))),
                  fieldCheck + ", but got 'no_such'");
        for (const char *name : limits.allowed) {
          if (!name)
            break;
          std::string why = refusal(withField<Config>(key, std::string(name)));
          EXPECT_FALSE(isFieldLimit(why, prefix + key.name))
              << key.name << " = " << name << ": " << why;
        }
      }
    });
  });
}

/// tile-kernels' options are the keys': each flag is an option whose help
/// has what every key with that flag says.
TEST(Config, TheHelpHasEveryFlagWithItsKeysText) {
  std::string help = runTileKernels("--help");
  forEachGenerator([&](const auto &generator) {
    using Config = typename std::decay_t<decltype(generator)>::ConfigType;
    SCOPED_TRACE(generator.name);
    Config c;
    Config::forEachField(c, [&](const auto &key, const auto &) {
      if (!key.flag)
        return;
      size_t option = help.find(std::string("  --") + key.flag + "=");
      if (option == std::string::npos)
        option = help.find(std::string("  --") + key.flag + " ");
      ASSERT_NE(option, std::string::npos) << key.flag << " in\n" << help;
      std::string line = help.substr(option, help.find('\n', option) - option);
      EXPECT_NE(line.find(key.help), std::string::npos)
          << key.name << ": " << line;
    });
  });
}

} // namespace
