//===- ManifestParser.cpp - Reading kernel manifests from JSON ------------===//
//
// Reads the JSON manifest written by `tile-translate --emit=manifest` into a
// ManifestInfo: every field is type- and range-checked as it is read, hostile
// input (deep nesting, huge numbers, invalid UTF-8) is refused with a message
// that says where, and each kernel is then validated (KernelInfo::validate,
// Manifest.cpp).
//
//===----------------------------------------------------------------------===//

#include "tile/runtime/Error.h"
#include "tile/runtime/Manifest.h"

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
      else if (access == "accumulate")
        param.access = Access::Accumulate;
      else
        p.fail(where, "unknown access '" + cut(access) +
                          "' (expected 'read', 'write', 'readwrite' or "
                          "'accumulate')");
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
  } else if (kind == "tensor_map") {
    // {"name": "A.tma", "kind": "tensor_map", "buffer": "A",
    //  "box": [128, 64], "swizzle": 128}
    param.kind = ParamKind::TensorMap;
    param.buffer = p.string(node, "buffer", where);
    const json &box = p.array(node, "box", where);
    if (box.size() > kMaxTensorMapRank)
      p.fail(where, "field 'box' has " + std::to_string(box.size()) +
                        " entries, but TMA takes at most " +
                        std::to_string(kMaxTensorMapRank));
    for (std::size_t d = 0; d < box.size(); ++d)
      param.box.push_back(p.checkInteger(box[d],
                                         "box[" + std::to_string(d) + "]",
                                         where, 1, kMaxTensorMapBox));
    param.swizzle = static_cast<int>(p.integer(node, "swizzle", where, 0, 128));
  } else if (kind == "workspace") {
    // {"name": "workspace", "kind": "workspace", "bytes_per_block": 131080}
    param.kind = ParamKind::Workspace;
    param.bytesPerBlock =
        p.integer(node, "bytes_per_block", where, 1, int64_t(1) << 32);
  } else {
    p.fail(where, "unknown kind '" + cut(kind) +
                      "' (expected 'buffer', 'dim', 'scalar', 'tensor_map' "
                      "or 'workspace')");
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
  else if (op == "divides")
    relation.op = ShapeRelation::Op::Divides;
  else
    p.fail(where, "unknown op '" + cut(op) +
                      "' (expected '==', '<=', '>=' or 'divides')");
  bool hasDim = node.contains("rhs"), hasValue = node.contains("value");
  if (hasDim == hasValue)
    p.fail(where, hasDim ? "has both 'rhs' and 'value', but a relation "
                           "compares with one of them"
                         : "missing field 'rhs' or 'value'");
  relation.rhsIsDim = hasDim;
  if (hasDim)
    relation.rhs = parseDimRef(p, node, "rhs", where);
  else if (relation.op == ShapeRelation::Op::Divides)
    p.fail(where, "op 'divides' compares with a dimension ('rhs'), but got "
                  "'value'");
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

  // "persistent": {"blocks_per_sm": 1, "cluster": [1, 2]}
  if (node.contains("persistent")) {
    const json &persistent = p.objectField(node, "persistent", where);
    std::string at = where + ": persistent";
    kernel.persistent = PersistentGrid{static_cast<unsigned>(
        p.integer(persistent, "blocks_per_sm", at, 1, 32))};
    if (persistent.contains("cluster")) {
      const json &cluster = p.array(persistent, "cluster", at);
      for (std::size_t i = 0; i < cluster.size(); ++i)
        kernel.persistent->cluster.push_back(static_cast<unsigned>(
            p.checkInteger(cluster[i], "cluster[" + std::to_string(i) + "]", at,
                           1, kMaxClusterBlocks)));
    }
  }

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
