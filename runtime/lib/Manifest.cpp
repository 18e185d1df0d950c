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
#include <optional>
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
// Access and shape relations
//===----------------------------------------------------------------------===//

const char *tile::rt::accessName(Access access) {
  switch (access) {
  case Access::Read:
    return "read";
  case Access::Write:
    return "write";
  case Access::ReadWrite:
    return "readwrite";
  }
  return "<invalid access>";
}

const char *ShapeRelation::opName(Op op) {
  switch (op) {
  case Op::Eq:
    return "==";
  case Op::Le:
    return "<=";
  case Op::Ge:
    return ">=";
  }
  return "<invalid op>";
}

bool ShapeRelation::holds(int64_t lhsSize, int64_t rhsSize) const {
  switch (op) {
  case Op::Eq:
    return lhsSize == rhsSize;
  case Op::Le:
    return lhsSize <= rhsSize;
  case Op::Ge:
    return lhsSize >= rhsSize;
  }
  return false;
}

std::string ShapeRelation::str() const {
  auto dim = [](const DimRef &ref) {
    return ref.param + "[" + std::to_string(ref.dim) + "]";
  };
  return dim(lhs) + " " + opName(op) + " " +
         (rhsIsDim ? dim(rhs) : std::to_string(value));
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

namespace {
/// Why `bufferName`[`dim`] is not a dimension of a buffer parameter of
/// `kernel`, or nothing (and no allocation) when it is.
std::optional<std::string> bufferDimProblem(const KernelInfo &kernel,
                                            const std::string &bufferName,
                                            int dim) {
  const ParamInfo *buffer = kernel.findParam(bufferName);
  if (!buffer)
    return "refers to unknown buffer '" + bufferName + "'";
  if (buffer->kind != ParamKind::Buffer)
    return "refers to '" + bufferName + "', which is not a buffer";
  if (dim < 0 || static_cast<std::size_t>(dim) >= buffer->shape.size())
    return "refers to dim " + std::to_string(dim) + " of buffer '" +
           bufferName + "', which has rank " +
           std::to_string(buffer->shape.size());
  return std::nullopt;
}
} // namespace

void KernelInfo::validate() const {
  // Nothing is built on the success path: a launch validates its kernel.
  if (name.empty())
    throw Error("kernel description: field 'name' is empty");
  if (name.size() > kMaxNameLength)
    throw Error("kernel description: the kernel name has " +
                std::to_string(name.size()) + " bytes, but at most " +
                std::to_string(kMaxNameLength) + " are allowed");
  auto prefix = [&](const std::string &where = "") {
    return "kernel '" + name + "': " + (where.empty() ? "" : where + ": ");
  };

  const unsigned blockDims[3] = {block.x, block.y, block.z};
  const unsigned blockLimits[3] = {1024, 1024, 64};
  for (int i = 0; i < 3; ++i)
    if (blockDims[i] < 1 || blockDims[i] > blockLimits[i])
      throw Error(prefix() + "block." + "xyz"[i] + " = " +
                  std::to_string(blockDims[i]) +
                  " is outside CUDA's range [1, " +
                  std::to_string(blockLimits[i]) + "]");
  uint64_t threads = uint64_t(block.x) * block.y * block.z;
  if (threads > 1024)
    throw Error(prefix() + "block " + std::to_string(block.x) + " x " +
                std::to_string(block.y) + " x " + std::to_string(block.z) +
                " has " + std::to_string(threads) +
                " threads, but CUDA allows at most 1024 per block");

  // (Bounded counts keep the quadratic checks below fast on any input.)
  if (params.size() > kMaxParams)
    throw Error(prefix() + "has " + std::to_string(params.size()) +
                " parameters, but at most " + std::to_string(kMaxParams) +
                " are allowed (CUDA passes at most 32764 bytes of kernel "
                "parameters)");
  if (relations.size() > kMaxRelations)
    throw Error(prefix() + "has " + std::to_string(relations.size()) +
                " relations, but at most " + std::to_string(kMaxRelations) +
                " are allowed");
  for (std::size_t i = 0; i < params.size(); ++i) {
    const ParamInfo &param = params[i];
    if (param.name.empty())
      throw Error(prefix("params[" + std::to_string(i) + "]") +
                  "field 'name' is empty");
    if (param.name.size() > kMaxNameLength)
      throw Error(prefix("params[" + std::to_string(i) + "]") +
                  "the name has " + std::to_string(param.name.size()) +
                  " bytes, but at most " + std::to_string(kMaxNameLength) +
                  " are allowed");
    for (std::size_t j = 0; j < i; ++j)
      if (params[j].name == param.name)
        throw Error(prefix() + "duplicate param name '" + param.name + "'");
    switch (param.kind) {
    case ParamKind::Buffer:
      if (param.shape.size() > kMaxRank)
        throw Error(prefix("param '" + param.name + "'") + "has rank " +
                    std::to_string(param.shape.size()) + ", but at most " +
                    std::to_string(kMaxRank) + " is allowed");
      for (std::size_t d = 0; d < param.shape.size(); ++d)
        if (param.shape[d] < -1)
          throw Error(prefix("param '" + param.name + "'") + "shape[" +
                      std::to_string(d) + "] must be >= -1, but got " +
                      std::to_string(param.shape[d]));
      if (!param.divisibility.empty() &&
          param.divisibility.size() != param.shape.size())
        throw Error(prefix("param '" + param.name + "'") +
                    "field 'divisibility' has " +
                    std::to_string(param.divisibility.size()) +
                    " entries, but the shape has " +
                    std::to_string(param.shape.size()));
      for (std::size_t d = 0; d < param.divisibility.size(); ++d)
        if (param.divisibility[d] < 1)
          throw Error(prefix("param '" + param.name + "'") + "divisibility[" +
                      std::to_string(d) + "] must be >= 1, but got " +
                      std::to_string(param.divisibility[d]));
      break;
    case ParamKind::Dim:
      if (param.dtype != DType::i64)
        throw Error(prefix("param '" + param.name + "'") +
                    "dim parameters have type i64, but got '" +
                    dtypeName(param.dtype) + "'");
      break;
    case ParamKind::Scalar:
      if (param.dtype != DType::f32 && param.dtype != DType::f64 &&
          param.dtype != DType::i32 && param.dtype != DType::i64)
        throw Error(prefix("param '" + param.name + "'") +
                    "unsupported scalar type '" + dtypeName(param.dtype) +
                    "' (expected f32, f64, i32 or i64)");
      break;
    }
  }

  // Each dynamic dimension reaches the kernel through exactly one hidden
  // dim parameter, a static one through none: otherwise the binary's
  // signature and the packed parameters disagree, and every later parameter
  // would shift.
  for (const ParamInfo &param : params) {
    if (param.kind != ParamKind::Dim)
      continue;
    if (auto problem = bufferDimProblem(*this, param.buffer, param.dim))
      throw Error(prefix("param '" + param.name + "'") + *problem);
    int64_t size = findParam(param.buffer)->shape[param.dim];
    if (size >= 0)
      throw Error(prefix("param '" + param.name + "'") + "refers to dim " +
                  std::to_string(param.dim) + " of buffer '" + param.buffer +
                  "', which is static (size " + std::to_string(size) +
                  "); only dynamic dims are passed as dim parameters");
  }
  for (const ParamInfo &buffer : params) {
    if (buffer.kind != ParamKind::Buffer)
      continue;
    for (std::size_t d = 0; d < buffer.shape.size(); ++d) {
      if (buffer.shape[d] >= 0)
        continue;
      const ParamInfo *first = nullptr;
      for (const ParamInfo &param : params) {
        if (param.kind != ParamKind::Dim || param.buffer != buffer.name ||
            param.dim != static_cast<int>(d))
          continue;
        if (first)
          throw Error(prefix("param '" + buffer.name + "'") + "dim " +
                      std::to_string(d) +
                      " is passed by two dim parameters, '" + first->name +
                      "' and '" + param.name +
                      "', but a dynamic dim has exactly one");
        first = &param;
      }
      if (!first)
        throw Error(prefix("param '" + buffer.name + "'") + "dim " +
                    std::to_string(d) +
                    " is dynamic, but no dim parameter passes its size to "
                    "the kernel (expected one with \"buffer\": \"" +
                    buffer.name + "\", \"dim\": " + std::to_string(d) + ")");
    }
  }

  if (grid.empty() || grid.size() > 3)
    throw Error(prefix() + "the grid has " + std::to_string(grid.size()) +
                " extents, but 1 to 3 are required");
  for (std::size_t i = 0; i < grid.size(); ++i) {
    const GridExtent &extent = grid[i];
    auto where = [&] { return prefix("grid[" + std::to_string(i) + "]"); };
    if (extent.kind == GridExtent::Kind::Const) {
      if (extent.value < 0)
        throw Error(where() + "negative extent " +
                    std::to_string(extent.value));
      continue;
    }
    if (auto problem = bufferDimProblem(*this, extent.param, extent.dim))
      throw Error(where() + *problem);
    if (extent.divisor < 1)
      throw Error(where() + "divisor must be >= 1, but got " +
                  std::to_string(extent.divisor));
  }

  for (std::size_t i = 0; i < relations.size(); ++i) {
    const ShapeRelation &relation = relations[i];
    std::optional<std::string> problem =
        bufferDimProblem(*this, relation.lhs.param, relation.lhs.dim);
    if (!problem && relation.rhsIsDim)
      problem = bufferDimProblem(*this, relation.rhs.param, relation.rhs.dim);
    if (problem)
      throw Error(prefix("requires[" + std::to_string(i) + "]") + *problem);
  }
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

/// `text` cut to at most `max` bytes (at a UTF-8 character boundary), with
/// "..." when something was cut: what messages quote of the input.
std::string cut(std::string_view text, std::size_t max = 64) {
  if (text.size() <= max)
    return std::string(text);
  std::size_t end = max;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80)
    --end;
  return std::string(text.substr(0, end)) + "...";
}

/// Appends JSON text for `value` to `out`, stopping soon after `out` reaches
/// `limit` bytes (the depth is bounded by the parser).
void appendBrief(const json &value, std::string &out, std::size_t limit) {
  if (out.size() >= limit)
    return;
  if (value.is_array() || value.is_object()) {
    bool isArray = value.is_array();
    out += isArray ? '[' : '{';
    bool first = true;
    for (auto it = value.begin(); it != value.end(); ++it) {
      if (out.size() >= limit)
        return;
      if (!first)
        out += ", ";
      first = false;
      if (!isArray)
        out += json(cut(it.key(), limit))
                   .dump(-1, ' ', false, json::error_handler_t::replace) +
               ": ";
      appendBrief(*it, out, limit);
    }
    out += isArray ? ']' : '}';
    return;
  }
  if (value.is_string()) {
    out += json(cut(value.get_ref<const std::string &>(), limit))
               .dump(-1, ' ', false, json::error_handler_t::replace);
    return;
  }
  out += value.dump();
}

/// A short JSON rendering of `value` for messages: at most about 64 bytes,
/// whatever its size or depth.
std::string brief(const json &value) {
  std::string text;
  appendBrief(value, text, 64);
  return cut(text);
}

/// SAX handler that builds the DOM (nlohmann's own builder) while bounding
/// the nesting depth and recording where the parser is
/// ("kernels[0].block[1]"), so that parse errors (a number beyond a double)
/// can say which field they are in. (nlohmann's parser callback would do
/// the first two, but rescans the parent array after every element:
/// quadratic in the number of kernels.)
class BoundedDomBuilder {
public:
  BoundedDomBuilder(json &root, const std::string &source)
      : dom_(root), source_(source) {}

  bool null() { return value(dom_.null()); }
  bool boolean(bool v) { return value(dom_.boolean(v)); }
  bool number_integer(json::number_integer_t v) {
    return value(dom_.number_integer(v));
  }
  bool number_unsigned(json::number_unsigned_t v) {
    return value(dom_.number_unsigned(v));
  }
  bool number_float(json::number_float_t v, const json::string_t &text) {
    return value(dom_.number_float(v, text));
  }
  bool string(json::string_t &v) { return value(dom_.string(v)); }
  bool binary(json::binary_t &v) { return value(dom_.binary(v)); }

  bool start_object(std::size_t size) {
    enter(false);
    return dom_.start_object(size);
  }
  bool key(json::string_t &key) {
    levels_.back().key = cut(key, 32);
    return dom_.key(key);
  }
  bool end_object() {
    levels_.pop_back();
    return value(dom_.end_object());
  }
  bool start_array(std::size_t size) {
    enter(true);
    return dom_.start_array(size);
  }
  bool end_array() {
    levels_.pop_back();
    return value(dom_.end_array());
  }

  /// Syntax errors, numbers beyond a double (out_of_range.406), invalid
  /// UTF-8: everything the parser reports.
  template <typename Exception>
  bool parse_error(std::size_t, const std::string &, const Exception &error) {
    throw Error(source_ + ": not valid JSON: " + cut(error.what(), 300) +
                " (in " + path() + ")");
  }

private:
  void enter(bool isArray) {
    if (levels_.size() >= static_cast<std::size_t>(kMaxManifestDepth))
      throw Error(source_ + ": values are nested more than " +
                  std::to_string(kMaxManifestDepth) + " deep (at " + path() +
                  ")");
    levels_.push_back({isArray, "", 0});
  }
  /// One element of the enclosing array (if any) is complete.
  bool value(bool result) {
    if (!levels_.empty() && levels_.back().isArray)
      ++levels_.back().index;
    return result;
  }

  /// Where the parser is, "the top level" outside any value.
  std::string path() const {
    std::string text;
    for (const Level &level : levels_) {
      if (level.isArray)
        text += "[" + std::to_string(level.index) + "]";
      else if (!level.key.empty())
        text += (text.empty() ? "" : ".") + level.key;
      if (text.size() > 200)
        return cut(text, 200);
    }
    return text.empty() ? "the top level" : text;
  }

  struct Level {
    bool isArray;
    std::string key;
    std::size_t index;
  };
  nlohmann::detail::json_sax_dom_parser<json> dom_;
  const std::string &source_;
  std::vector<Level> levels_;
};

/// Typed field access with messages of the form
///   <source>: kernel 'k': param 'p': field 'dtype' must be a string, but got
///   number
class Parser {
public:
  explicit Parser(std::string source) : source_(std::move(source)) {}

  const std::string &source() const { return source_; }

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

  /// A name: a non-empty string of at most kMaxNameLength bytes.
  std::string name(const json &object, const std::string &where) const {
    std::string result = string(object, "name", where);
    if (result.empty())
      fail(where, "field 'name' is empty");
    if (result.size() > kMaxNameLength)
      fail(where, "field 'name' has " + std::to_string(result.size()) +
                      " bytes, but at most " + std::to_string(kMaxNameLength) +
                      " are allowed ('" + cut(result) + "')");
    return result;
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
                                                 : brief(value)));
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
  param.name = p.name(node, where);
  where = kernelWhere + ": param '" + param.name + "'";

  std::string kind = p.string(node, "kind", where);
  if (kind == "buffer") {
    param.kind = ParamKind::Buffer;
    std::string dtype = p.string(node, "dtype", where);
    std::optional<DType> parsed = parseDType(dtype);
    if (!parsed)
      p.fail(where, "unknown dtype '" + cut(dtype) +
                        "' (expected f16, bf16, f32, f64, i8, i16, i32 or "
                        "i64)");
    param.dtype = *parsed;
    const json &shape = p.array(node, "shape", where);
    if (shape.size() > kMaxRank)
      p.fail(where, "field 'shape' has " + std::to_string(shape.size()) +
                        " entries, but at most " + std::to_string(kMaxRank) +
                        " are allowed");
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
    // Older manifests say nothing: the kernel may read and write it.
    if (node.contains("access")) {
      std::string access = p.string(node, "access", where);
      if (access == "read")
        param.access = Access::Read;
      else if (access == "write")
        param.access = Access::Write;
      else if (access == "readwrite")
        param.access = Access::ReadWrite;
      else
        p.fail(where, "unknown access '" + cut(access) +
                          "' (expected 'read', 'write' or 'readwrite')");
    }
  } else if (kind == "dim") {
    param.kind = ParamKind::Dim;
    param.dtype = DType::i64;
    if (node.contains("type")) {
      std::string type = p.string(node, "type", where);
      if (type != "i64")
        p.fail(where,
               "dim parameters have type i64, but got '" + cut(type) + "'");
    }
    param.buffer = p.string(node, "buffer", where);
    param.dim = static_cast<int>(p.integer(node, "dim", where, 0, 64));
  } else if (kind == "scalar") {
    param.kind = ParamKind::Scalar;
    std::string type = p.string(node, "type", where);
    std::optional<DType> parsed = parseDType(type);
    if (!parsed || (*parsed != DType::f32 && *parsed != DType::f64 &&
                    *parsed != DType::i32 && *parsed != DType::i64))
      p.fail(where, "unsupported scalar type '" + cut(type) +
                        "' (expected f32, f64, i32 or i64)");
    param.dtype = *parsed;
  } else {
    p.fail(where, "unknown kind '" + cut(kind) +
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
           "unknown kind '" + cut(kind) + "' (expected 'const' or 'ceildiv')");
  }
  return extent;
}

/// {"param": "A", "dim": 1}
DimRef parseDimRef(const Parser &p, const json &node, const char *key,
                   const std::string &where) {
  const json &ref = p.objectField(node, key, where);
  std::string refWhere = where + ": " + key;
  DimRef result;
  result.param = p.string(ref, "param", refWhere);
  result.dim = static_cast<int>(p.integer(ref, "dim", refWhere, 0, 64));
  return result;
}

/// {"lhs": {...}, "op": "==", "rhs": {...}} or {"lhs": ..., "op": "<=",
/// "value": 4096}
ShapeRelation parseRelation(const Parser &p, const json &node,
                            const std::string &where) {
  if (!node.is_object())
    p.fail(where,
           std::string("must be an object, but got ") + node.type_name());
  ShapeRelation relation;
  relation.lhs = parseDimRef(p, node, "lhs", where);
  std::string op = p.string(node, "op", where);
  if (op == "==")
    relation.op = ShapeRelation::Op::Eq;
  else if (op == "<=")
    relation.op = ShapeRelation::Op::Le;
  else if (op == ">=")
    relation.op = ShapeRelation::Op::Ge;
  else
    p.fail(where, "unknown op '" + cut(op) + "' (expected '==', '<=' or '>=')");
  bool hasDim = node.contains("rhs"), hasValue = node.contains("value");
  if (hasDim == hasValue)
    p.fail(where, hasDim ? "has both 'rhs' and 'value', but a relation "
                           "compares with one of them"
                         : "missing field 'rhs' or 'value'");
  relation.rhsIsDim = hasDim;
  if (hasDim)
    relation.rhs = parseDimRef(p, node, "rhs", where);
  else
    relation.value = p.integer(node, "value", where, INT64_MIN);
  return relation;
}

KernelInfo parseKernel(const Parser &p, const json &node, std::size_t index) {
  std::string where = "kernels[" + std::to_string(index) + "]";
  if (!node.is_object())
    p.fail(where,
           std::string("must be an object, but got ") + node.type_name());
  KernelInfo kernel;
  kernel.name = p.name(node, where);
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
  if (params.size() > kMaxParams)
    p.fail(where, "field 'params' has " + std::to_string(params.size()) +
                      " entries, but at most " + std::to_string(kMaxParams) +
                      " are allowed (CUDA passes at most 32764 bytes of "
                      "kernel parameters)");
  for (std::size_t i = 0; i < params.size(); ++i)
    kernel.params.push_back(parseParam(p, params[i], where, i));

  if (node.contains("requires")) {
    const json &relations = p.array(node, "requires", where);
    if (relations.size() > kMaxRelations)
      p.fail(where, "field 'requires' has " + std::to_string(relations.size()) +
                        " entries, but at most " +
                        std::to_string(kMaxRelations) + " are allowed");
    for (std::size_t i = 0; i < relations.size(); ++i)
    kernel.relations.push_back(parseRelation(
        p, relations[i], where + ": requires[" + std::to_string(i) + "]"));
  }

  // Cross-references (dims, grid extents and relations name dims of
  // buffers; one dim parameter per dynamic dim), block limits.
  try {
    kernel.validate();
  } catch (const Error &error) {
    p.fail("", error.what());
  }
  return kernel;
}

ManifestInfo parseValidated(const Parser &p, const json &root) {
  if (!root.is_object())
    p.fail("", std::string("the top level must be an object, but got ") +
                   root.type_name());

  std::string format = p.string(root, "format", "");
  if (format != "tile-manifest")
    p.fail("", "unsupported format '" + cut(format) +
                   "' (expected 'tile-manifest')");
  ManifestInfo manifest;
  const json &version = p.field(root, "version", "");
  if (!version.is_number_integer() || version.get<int64_t>() != 1)
    p.fail("", "unsupported version " + brief(version) +
                   " (this runtime reads version 1)");
  manifest.version = 1;

  const json &target = p.objectField(root, "target", "");
  manifest.target.chip = p.string(target, "chip", "target");
  if (!parseChip(manifest.target.chip))
    p.fail("target", "chip '" + cut(manifest.target.chip) +
                         "' is not of the form sm_<major><minor>[a|f]");
  if (target.contains("features"))
    manifest.target.features = p.string(target, "features", "target");

  const json &kernels = p.array(root, "kernels", "");
  std::set<std::string> names; // (findKernel would be quadratic)
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    KernelInfo kernel = parseKernel(p, kernels[i], i);
    if (!names.insert(kernel.name).second)
      p.fail("", "duplicate kernel name '" + kernel.name + "'");
    manifest.kernels.push_back(std::move(kernel));
  }
  return manifest;
}

} // namespace

ManifestInfo tile::rt::parseManifest(const std::string &jsonText,
                                     const std::string &source) {
  Parser p(source);
  json root;
  BoundedDomBuilder builder(root, source);
  try {
    json::sax_parse(jsonText, &builder);
  } catch (const json::exception &error) {
    // (The builder reports parse errors itself; this is what remains.)
    p.fail("", "not valid JSON: " + cut(error.what(), 300));
  }
  try {
    return parseValidated(p, root);
  } catch (const json::exception &error) {
    // Every value is type-checked before it is read, so this is a bug; it
    // still reaches the caller as the documented Error.
    p.fail("",
           std::string("cannot read the manifest: ") + cut(error.what(), 300));
  }
}

ManifestInfo tile::rt::loadManifestFile(const std::string &path) {
  std::ifstream file(path, std::ios::binary);
  if (!file)
    throw Error("cannot read manifest '" + path + "': " + std::strerror(errno));
  std::ostringstream text;
  text << file.rdbuf();
  if (file.bad())
    throw Error("cannot read manifest '" + path + "': " + std::strerror(errno));
  return parseManifest(text.str(), "manifest '" + path + "'");
}
