//===- Manifest.cpp - Parsing and validating kernel manifests -------------===//
//
// Reads the JSON manifest written by `tile-translate --emit=manifest`, checks
// every field and cross-reference, and computes launch grids. Also the pure
// target helpers (dtypes, chips, image kinds).
//
//===----------------------------------------------------------------------===//

#include "tile/runtime/Manifest.h"
#include "tile/runtime/Error.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

using namespace tile::rt;
using json = nlohmann::json;

//===----------------------------------------------------------------------===//
// DType
//===----------------------------------------------------------------------===//

namespace {
struct DTypeEntry {
  DType type;
  const char *name;
  std::size_t size;
};
constexpr DTypeEntry kDTypes[] = {
    {DType::f16, "f16", 2}, {DType::bf16, "bf16", 2}, {DType::f32, "f32", 4},
    {DType::f64, "f64", 8}, {DType::i8, "i8", 1},     {DType::i16, "i16", 2},
    {DType::i32, "i32", 4}, {DType::i64, "i64", 8},
};
} // namespace

const char *tile::rt::dtypeName(DType type) {
  for (const DTypeEntry &entry : kDTypes)
    if (entry.type == type)
      return entry.name;
  return "<invalid dtype>";
}

std::optional<DType> tile::rt::parseDType(std::string_view name) {
  for (const DTypeEntry &entry : kDTypes)
    if (name == entry.name)
      return entry.type;
  return std::nullopt;
}

std::size_t tile::rt::dtypeSize(DType type) {
  for (const DTypeEntry &entry : kDTypes)
    if (entry.type == type)
      return entry.size;
  return 0;
}

//===----------------------------------------------------------------------===//
// Targets
//===----------------------------------------------------------------------===//

namespace {
/// sm_<major><minor>[a|f] -> capability and suffix ('\0', 'a' or 'f').
bool splitChip(std::string_view chip, ComputeCapability &capability,
               char &suffix) {
  if (chip.substr(0, 3) != "sm_")
    return false;
  chip.remove_prefix(3);
  suffix = '\0';
  if (!chip.empty() && (chip.back() == 'a' || chip.back() == 'f')) {
    suffix = chip.back();
    chip.remove_suffix(1);
  }
  if (chip.size() < 2 || chip.size() > 4)
    return false;
  int number = 0;
  for (char c : chip) {
    if (c < '0' || c > '9')
      return false;
    number = number * 10 + (c - '0');
  }
  capability = {number / 10, number % 10};
  return capability.major > 0;
}
} // namespace

std::optional<ComputeCapability> tile::rt::parseChip(std::string_view chip) {
  ComputeCapability capability;
  char suffix;
  if (!splitChip(chip, capability, suffix))
    return std::nullopt;
  return capability;
}

ImageKind tile::rt::detectImageKind(const void *data, std::size_t size) {
  const auto *bytes = static_cast<const unsigned char *>(data);
  if (size >= 4 && bytes[0] == 0x7f && bytes[1] == 'E' && bytes[2] == 'L' &&
      bytes[3] == 'F')
    return ImageKind::Cubin;
  // The fatbinary file magic 0xBA55ED50, little endian.
  if (size >= 4 && bytes[0] == 0x50 && bytes[1] == 0xED && bytes[2] == 0x55 &&
      bytes[3] == 0xBA)
    return ImageKind::Fatbin;
  return ImageKind::Ptx;
}

bool tile::rt::isChipCompatible(std::string_view chip, ComputeCapability device,
                                ImageKind kind) {
  ComputeCapability target;
  char suffix;
  if (!splitChip(chip, target, suffix))
    return false;
  if (suffix == 'a')
    return device.major == target.major && device.minor == target.minor;
  if (kind == ImageKind::Cubin || suffix == 'f')
    return device.major == target.major && device.minor >= target.minor;
  return device.major > target.major ||
         (device.major == target.major && device.minor >= target.minor);
}

//===----------------------------------------------------------------------===//
// Kernel and manifest queries
//===----------------------------------------------------------------------===//

std::vector<const ParamInfo *> KernelInfo::userParams() const {
  std::vector<const ParamInfo *> result;
  for (const ParamInfo &param : params)
    if (param.kind != ParamKind::Dim)
      result.push_back(&param);
  return result;
}

const ParamInfo *KernelInfo::findParam(std::string_view paramName) const {
  for (const ParamInfo &param : params)
    if (param.name == paramName)
      return &param;
  return nullptr;
}

Dim3 KernelInfo::gridFor(
    const std::vector<std::vector<int64_t>> &bufferShapes) const {
  std::string prefix = "kernel '" + name + "': ";
  std::vector<const ParamInfo *> buffers;
  for (const ParamInfo &param : params)
    if (param.kind == ParamKind::Buffer)
      buffers.push_back(&param);
  if (bufferShapes.size() != buffers.size())
    throw Error(prefix + "the grid needs " + std::to_string(buffers.size()) +
                " buffer shapes, but got " +
                std::to_string(bufferShapes.size()));
  if (grid.size() > 3)
    throw Error(prefix + "the grid has " + std::to_string(grid.size()) +
                " extents, but at most 3 are allowed");

  int64_t extents[3] = {1, 1, 1};
  for (std::size_t i = 0; i < grid.size(); ++i) {
    const GridExtent &extent = grid[i];
    std::string where = prefix + "grid[" + std::to_string(i) + "]: ";
    if (extent.kind == GridExtent::Kind::Const) {
      if (extent.value < 0)
        throw Error(where + "negative extent " + std::to_string(extent.value));
      extents[i] = extent.value;
      continue;
    }
    std::size_t index = 0;
    while (index < buffers.size() && buffers[index]->name != extent.param)
      ++index;
    if (index == buffers.size())
      throw Error(where + "'" + extent.param + "' is not a buffer parameter");
    const std::vector<int64_t> &shape = bufferShapes[index];
    if (extent.dim < 0 || static_cast<std::size_t>(extent.dim) >= shape.size())
      throw Error(where + "uses dim " + std::to_string(extent.dim) + " of '" +
                  extent.param + "', but its shape has rank " +
                  std::to_string(shape.size()));
    int64_t size = shape[extent.dim];
    if (size < 0)
      throw Error(where + "size " + std::to_string(size) + " of dim " +
                  std::to_string(extent.dim) + " of '" + extent.param +
                  "' is negative");
    if (extent.divisor < 1)
      throw Error(where + "divisor must be >= 1, but got " +
                  std::to_string(extent.divisor));
    extents[i] = size / extent.divisor + (size % extent.divisor != 0);
  }

  const int64_t limits[3] = {std::numeric_limits<int32_t>::max(), 65535, 65535};
  const char *axes = "xyz";
  for (int i = 0; i < 3; ++i)
    if (extents[i] > limits[i])
      throw Error(prefix + "grid." + axes[i] + " = " +
                  std::to_string(extents[i]) + " exceeds the CUDA limit of " +
                  std::to_string(limits[i]));
  return Dim3{static_cast<unsigned>(extents[0]),
              static_cast<unsigned>(extents[1]),
              static_cast<unsigned>(extents[2])};
}

const KernelInfo *ManifestInfo::findKernel(std::string_view name) const {
  for (const KernelInfo &kernel : kernels)
    if (kernel.name == name)
      return &kernel;
  return nullptr;
}

std::vector<std::string> ManifestInfo::kernelNames() const {
  std::vector<std::string> names;
  for (const KernelInfo &kernel : kernels)
    names.push_back(kernel.name);
  return names;
}

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

namespace {

/// Typed field access with messages of the form
///   <source>: kernel 'k': param 'p': field 'dtype' must be a string, but got
///   number
class Parser {
public:
  explicit Parser(std::string source) : source_(std::move(source)) {}

  [[noreturn]] void fail(const std::string &where,
                         const std::string &message) const {
    throw Error(source_ + ": " + (where.empty() ? "" : where + ": ") + message);
  }

  const json &field(const json &object, const char *key,
                    const std::string &where) const {
    auto it = object.find(key);
    if (it == object.end())
      fail(where, std::string("missing field '") + key + "'");
    return *it;
  }

  const json &typed(const json &object, const char *key,
                    const std::string &where, json::value_t type,
                    const char *expected) const {
    const json &value = field(object, key, where);
    bool ok = value.type() == type ||
              (type == json::value_t::number_integer &&
               value.type() == json::value_t::number_unsigned);
    if (!ok)
      fail(where, std::string("field '") + key + "' must be " + expected +
                      ", but got " + value.type_name());
    return value;
  }

  std::string string(const json &object, const char *key,
                     const std::string &where) const {
    return typed(object, key, where, json::value_t::string, "a string")
        .get<std::string>();
  }

  const json &array(const json &object, const char *key,
                    const std::string &where) const {
    return typed(object, key, where, json::value_t::array, "an array");
  }

  const json &objectField(const json &object, const char *key,
                          const std::string &where) const {
    return typed(object, key, where, json::value_t::object, "an object");
  }

  /// An integer field in [min, max].
  int64_t integer(const json &object, const char *key, const std::string &where,
                  int64_t min,
                  int64_t max = std::numeric_limits<int64_t>::max()) const {
    const json &value = field(object, key, where);
    return checkInteger(value, std::string("field '") + key + "'", where, min,
                        max);
  }

  int64_t checkInteger(const json &value, const std::string &what,
                       const std::string &where, int64_t min,
                       int64_t max) const {
    if (!value.is_number_integer() ||
        (value.is_number_unsigned() &&
         value.get<uint64_t>() >
             static_cast<uint64_t>(std::numeric_limits<int64_t>::max())))
      fail(where, what + " must be an integer, but got " +
                      (value.is_number_integer() ? std::string("a huge number")
                                                 : value.dump()));
    int64_t result = value.get<int64_t>();
    if (result < min || result > max)
      fail(where, what + " must be " + rangeText(min, max) + ", but got " +
                      std::to_string(result));
    return result;
  }

private:
  static std::string rangeText(int64_t min, int64_t max) {
    if (max == std::numeric_limits<int64_t>::max())
      return ">= " + std::to_string(min);
    return "in [" + std::to_string(min) + ", " + std::to_string(max) + "]";
  }

  std::string source_;
};

ParamInfo parseParam(const Parser &p, const json &node,
                     const std::string &kernelWhere, std::size_t index) {
  std::string where = kernelWhere + ": params[" + std::to_string(index) + "]";
  if (!node.is_object())
    p.fail(where,
           std::string("must be an object, but got ") + node.type_name());
  ParamInfo param;
  param.name = p.string(node, "name", where);
  if (param.name.empty())
    p.fail(where, "field 'name' is empty");
  where = kernelWhere + ": param '" + param.name + "'";

  std::string kind = p.string(node, "kind", where);
  if (kind == "buffer") {
    param.kind = ParamKind::Buffer;
    std::string dtype = p.string(node, "dtype", where);
    std::optional<DType> parsed = parseDType(dtype);
    if (!parsed)
      p.fail(where, "unknown dtype '" + dtype +
                        "' (expected f16, bf16, f32, f64, i8, i16, i32 or "
                        "i64)");
    param.dtype = *parsed;
    const json &shape = p.array(node, "shape", where);
    for (std::size_t d = 0; d < shape.size(); ++d)
      param.shape.push_back(p.checkInteger(
          shape[d], "shape[" + std::to_string(d) + "]", where, -1, INT64_MAX));
    if (node.contains("divisibility")) {
      const json &divisors = p.array(node, "divisibility", where);
      if (divisors.size() != shape.size())
        p.fail(where, "field 'divisibility' has " +
                          std::to_string(divisors.size()) +
                          " entries, but the shape has " +
                          std::to_string(shape.size()));
      for (std::size_t d = 0; d < divisors.size(); ++d)
        param.divisibility.push_back(p.checkInteger(
            divisors[d], "divisibility[" + std::to_string(d) + "]", where, 1,
            INT64_MAX));
    }
  } else if (kind == "dim") {
    param.kind = ParamKind::Dim;
    param.dtype = DType::i64;
    if (node.contains("type")) {
      std::string type = p.string(node, "type", where);
      if (type != "i64")
        p.fail(where, "dim parameters have type i64, but got '" + type + "'");
    }
    param.buffer = p.string(node, "buffer", where);
    param.dim = static_cast<int>(p.integer(node, "dim", where, 0, 64));
  } else if (kind == "scalar") {
    param.kind = ParamKind::Scalar;
    std::string type = p.string(node, "type", where);
    std::optional<DType> parsed = parseDType(type);
    if (!parsed || (*parsed != DType::f32 && *parsed != DType::f64 &&
                    *parsed != DType::i32 && *parsed != DType::i64))
      p.fail(where, "unsupported scalar type '" + type +
                        "' (expected f32, f64, i32 or i64)");
    param.dtype = *parsed;
  } else {
    p.fail(where, "unknown kind '" + kind +
                      "' (expected 'buffer', 'dim' or 'scalar')");
  }
  return param;
}

GridExtent parseGridExtent(const Parser &p, const json &node,
                           const std::string &where) {
  if (!node.is_object())
    p.fail(where,
           std::string("must be an object, but got ") + node.type_name());
  GridExtent extent;
  std::string kind = p.string(node, "kind", where);
  if (kind == "const") {
    extent.kind = GridExtent::Kind::Const;
    extent.value = p.integer(node, "value", where, 1);
  } else if (kind == "ceildiv") {
    extent.kind = GridExtent::Kind::CeilDiv;
    extent.param = p.string(node, "param", where);
    extent.dim = static_cast<int>(p.integer(node, "dim", where, 0, 64));
    extent.divisor = p.integer(node, "divisor", where, 1);
  } else {
    p.fail(where,
           "unknown kind '" + kind + "' (expected 'const' or 'ceildiv')");
  }
  return extent;
}

/// Checks that `bufferName`/`dim` names a dimension of a buffer parameter.
void checkBufferDim(const Parser &p, const KernelInfo &kernel,
                    const std::string &where, const std::string &bufferName,
                    int dim) {
  const ParamInfo *buffer = kernel.findParam(bufferName);
  if (!buffer)
    p.fail(where, "refers to unknown buffer '" + bufferName + "'");
  if (buffer->kind != ParamKind::Buffer)
    p.fail(where, "refers to '" + bufferName + "', which is not a buffer");
  if (static_cast<std::size_t>(dim) >= buffer->shape.size())
    p.fail(where, "refers to dim " + std::to_string(dim) + " of buffer '" +
                      bufferName + "', which has rank " +
                      std::to_string(buffer->shape.size()));
}

KernelInfo parseKernel(const Parser &p, const json &node, std::size_t index) {
  std::string where = "kernels[" + std::to_string(index) + "]";
  if (!node.is_object())
    p.fail(where,
           std::string("must be an object, but got ") + node.type_name());
  KernelInfo kernel;
  kernel.name = p.string(node, "name", where);
  if (kernel.name.empty())
    p.fail(where, "field 'name' is empty");
  where = "kernel '" + kernel.name + "'";

  const json &block = p.array(node, "block", where);
  if (block.empty() || block.size() > 3)
    p.fail(where, "field 'block' must have 1 to 3 entries, but has " +
                      std::to_string(block.size()));
  unsigned *blockDims[3] = {&kernel.block.x, &kernel.block.y, &kernel.block.z};
  for (std::size_t i = 0; i < block.size(); ++i)
    *blockDims[i] = static_cast<unsigned>(p.checkInteger(
        block[i], "block[" + std::to_string(i) + "]", where, 1, 1024));

  const json &grid = p.array(node, "grid", where);
  if (grid.empty() || grid.size() > 3)
    p.fail(where, "field 'grid' must have 1 to 3 entries, but has " +
                      std::to_string(grid.size()));
  for (std::size_t i = 0; i < grid.size(); ++i)
    kernel.grid.push_back(parseGridExtent(
        p, grid[i], where + ": grid[" + std::to_string(i) + "]"));

  if (node.contains("dynamic_shared_memory"))
    kernel.dynamicSharedMemory = static_cast<unsigned>(
        p.integer(node, "dynamic_shared_memory", where, 0, UINT32_MAX));

  const json &params = p.array(node, "params", where);
  std::set<std::string> names;
  for (std::size_t i = 0; i < params.size(); ++i) {
    ParamInfo param = parseParam(p, params[i], where, i);
    if (!names.insert(param.name).second)
      p.fail(where, "duplicate param name '" + param.name + "'");
    kernel.params.push_back(std::move(param));
  }

  // Cross-references: dims and grid extents name dims of buffers.
  for (const ParamInfo &param : kernel.params)
    if (param.kind == ParamKind::Dim)
      checkBufferDim(p, kernel, where + ": param '" + param.name + "'",
                     param.buffer, param.dim);
  for (std::size_t i = 0; i < kernel.grid.size(); ++i)
    if (kernel.grid[i].kind == GridExtent::Kind::CeilDiv)
      checkBufferDim(p, kernel, where + ": grid[" + std::to_string(i) + "]",
                     kernel.grid[i].param, kernel.grid[i].dim);
  return kernel;
}

} // namespace

ManifestInfo tile::rt::parseManifest(const std::string &jsonText,
                                     const std::string &source) {
  Parser p(source);
  json root;
  try {
    root = json::parse(jsonText);
  } catch (const json::parse_error &error) {
    p.fail("", std::string("not valid JSON: ") + error.what());
  }
  if (!root.is_object())
    p.fail("", std::string("the top level must be an object, but got ") +
                   root.type_name());

  std::string format = p.string(root, "format", "");
  if (format != "tile-manifest")
    p.fail("",
           "unsupported format '" + format + "' (expected 'tile-manifest')");
  ManifestInfo manifest;
  const json &version = p.field(root, "version", "");
  if (!version.is_number_integer() || version.get<int64_t>() != 1)
    p.fail("", "unsupported version " + version.dump() +
                   " (this runtime reads version 1)");
  manifest.version = 1;

  const json &target = p.objectField(root, "target", "");
  manifest.target.chip = p.string(target, "chip", "target");
  if (!parseChip(manifest.target.chip))
    p.fail("target", "chip '" + manifest.target.chip +
                         "' is not of the form sm_<major><minor>[a|f]");
  if (target.contains("features"))
    manifest.target.features = p.string(target, "features", "target");

  const json &kernels = p.array(root, "kernels", "");
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    KernelInfo kernel = parseKernel(p, kernels[i], i);
    if (manifest.findKernel(kernel.name))
      p.fail("", "duplicate kernel name '" + kernel.name + "'");
    manifest.kernels.push_back(std::move(kernel));
  }
  return manifest;
}

ManifestInfo tile::rt::loadManifestFile(const std::string &path) {
  std::ifstream file(path, std::ios::binary);
  if (!file)
    throw Error("cannot read manifest '" + path + "': " + std::strerror(errno));
  std::ostringstream text;
  text << file.rdbuf();
  return parseManifest(text.str(), "manifest '" + path + "'");
}
