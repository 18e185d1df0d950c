//===- KernelManifest.cpp - The kernel manifest of a gpu.module -----------===//
//
// convert-tile-to-gpu describes each kernel's launch (block, grid, shared
// memory, parameters, contract) in the gpu.module's `tile.kernels`
// attribute; the manifest is that description as JSON. A gpu-level input
// (tile-translate takes any stage) brings its own attribute, so it is
// checked against the gpu.module before it is written: the structure and
// types of every field the runtime reads, and that each entry names a
// kernel function of the module whose arguments match its parameters one to
// one (the runtime packs the arguments in that order). The runtime checks
// the cross-references (the dims a grid, dim parameter or relation names)
// and the limits again when it loads the manifest.
//
//===----------------------------------------------------------------------===//

#include "tile/Target/Target.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace mlir::tile;

namespace {

/// Checks one entry of `tile.kernels`; errors go to the gpu.module's
/// location, prefixed with the entry ("tile.kernels[0] (kernel 'k')").
class DescriptionChecker {
public:
  DescriptionChecker(gpu::GPUModuleOp gpuModule, unsigned index)
      : gpuModule(gpuModule), where(llvm::formatv("tile.kernels[{0}]", index)) {
  }

  LogicalResult check(Attribute entry);

private:
  InFlightDiagnostic error() {
    InFlightDiagnostic diag = mlir::emitError(gpuModule.getLoc());
    diag << where << ": ";
    return diag;
  }
  /// A short spelling of what was found.
  static std::string brief(Attribute attr) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << attr;
    return text.size() > 60 ? text.substr(0, 57) + "..." : text;
  }

  LogicalResult present(DictionaryAttr dict, StringRef key, StringRef what);
  LogicalResult checkFields(DictionaryAttr dict, StringRef what,
                            ArrayRef<StringRef> allowed,
                            ArrayRef<StringRef> required);
  FailureOr<StringRef> string(DictionaryAttr dict, StringRef key,
                              StringRef what);
  FailureOr<int64_t> integer(Attribute attr, StringRef what, int64_t min,
                             int64_t max);
  FailureOr<int64_t> integer(DictionaryAttr dict, StringRef key, StringRef what,
                             int64_t min, int64_t max) {
    if (failed(present(dict, key, what)))
      return failure();
    return integer(dict.get(key), (what + "'s '" + key + "'").str(), min, max);
  }
  FailureOr<ArrayAttr> array(DictionaryAttr dict, StringRef key,
                             StringRef what);
  FailureOr<DictionaryAttr> dictionary(Attribute attr, StringRef what);
  LogicalResult checkOneOf(StringRef value, StringRef what,
                           ArrayRef<StringRef> allowed);

  LogicalResult checkGridExtent(Attribute attr, StringRef what);
  LogicalResult checkParam(Attribute attr, StringRef what, Type argument,
                           unsigned index);
  LogicalResult checkDimRef(DictionaryAttr dict, StringRef key, StringRef what);
  LogicalResult checkRelation(Attribute attr, StringRef what);

  gpu::GPUModuleOp gpuModule;
  std::string where;
};

} // namespace

LogicalResult DescriptionChecker::checkFields(DictionaryAttr dict,
                                              StringRef what,
                                              ArrayRef<StringRef> allowed,
                                              ArrayRef<StringRef> required) {
  for (NamedAttribute field : dict)
    if (!llvm::is_contained(allowed, field.getName().getValue()))
      return error() << "unknown field '" << field.getName().getValue()
                     << "' in " << what << " (expected "
                     << llvm::join(allowed, ", ") << ")";
  for (StringRef key : required)
    if (!dict.get(key))
      return error() << "expected " << what << " to have a field '" << key
                     << "'";
  return success();
}

LogicalResult DescriptionChecker::present(DictionaryAttr dict, StringRef key,
                                          StringRef what) {
  if (dict.get(key))
    return success();
  return error() << "expected " << what << " to have a field '" << key << "'";
}

FailureOr<StringRef> DescriptionChecker::string(DictionaryAttr dict,
                                                StringRef key, StringRef what) {
  if (failed(present(dict, key, what)))
    return failure();
  auto str = dyn_cast<StringAttr>(dict.get(key));
  if (!str)
    return error() << "expected " << what << "'s '" << key
                   << "' to be a string, but got " << brief(dict.get(key));
  return str.getValue();
}

FailureOr<int64_t> DescriptionChecker::integer(Attribute attr, StringRef what,
                                               int64_t min, int64_t max) {
  auto value = dyn_cast_or_null<IntegerAttr>(attr);
  if (!value || !value.getType().isSignlessInteger(64))
    return error() << "expected " << what << " to be an i64 integer, but got "
                   << brief(attr);
  int64_t v = value.getInt();
  if (v < min || v > max)
    return error() << "expected " << what << " in [" << min << ", " << max
                   << "], but got " << v;
  return v;
}

FailureOr<ArrayAttr> DescriptionChecker::array(DictionaryAttr dict,
                                               StringRef key, StringRef what) {
  if (failed(present(dict, key, what)))
    return failure();
  auto value = dyn_cast<ArrayAttr>(dict.get(key));
  if (!value)
    return error() << "expected " << what << "'s '" << key
                   << "' to be an array, but got " << brief(dict.get(key));
  return value;
}

FailureOr<DictionaryAttr> DescriptionChecker::dictionary(Attribute attr,
                                                         StringRef what) {
  auto dict = dyn_cast_or_null<DictionaryAttr>(attr);
  if (!dict)
    return error() << "expected " << what << " to be a dictionary, but got "
                   << brief(attr);
  return dict;
}

LogicalResult DescriptionChecker::checkOneOf(StringRef value, StringRef what,
                                             ArrayRef<StringRef> allowed) {
  if (llvm::is_contained(allowed, value))
    return success();
  return error() << "expected " << what << " to be one of "
                 << llvm::join(allowed, ", ") << ", but got '" << value << "'";
}

LogicalResult DescriptionChecker::checkGridExtent(Attribute attr,
                                                  StringRef what) {
  FailureOr<DictionaryAttr> extent = dictionary(attr, what);
  if (failed(extent))
    return failure();
  FailureOr<StringRef> kind = string(*extent, "kind", what);
  if (failed(kind) ||
      failed(checkOneOf(*kind, (what + "'s kind").str(), {"const", "ceildiv"})))
    return failure();
  if (*kind == "const")
    return failure(
        failed(checkFields(*extent, what, {"kind", "value"}, {"value"})) ||
        failed(integer(*extent, "value", what, 1, INT64_MAX)));
  return failure(
      failed(checkFields(*extent, what, {"kind", "param", "dim", "divisor"},
                         {"param", "dim", "divisor"})) ||
      failed(string(*extent, "param", what)) ||
      failed(integer(*extent, "dim", what, 0, 63)) ||
      failed(integer(*extent, "divisor", what, 1, INT64_MAX)));
}

/// What the kernel function takes for a parameter of this kind: a pointer
/// for a buffer (a memref before the NVVM lowering), an i64 for a dim
/// (index before), the scalar's own type for a scalar.
static bool matchesArgument(StringRef kind, StringRef scalarType, Type arg) {
  if (kind == "buffer")
    return isa<LLVM::LLVMPointerType, MemRefType>(arg);
  if (kind == "dim")
    return arg.isSignlessInteger(64) || arg.isIndex();
  if (scalarType == "f32")
    return arg.isF32();
  if (scalarType == "f64")
    return arg.isF64();
  if (scalarType == "i32")
    return arg.isSignlessInteger(32);
  return arg.isSignlessInteger(64);
}

LogicalResult DescriptionChecker::checkParam(Attribute attr, StringRef what,
                                             Type argument, unsigned index) {
  FailureOr<DictionaryAttr> param = dictionary(attr, what);
  if (failed(param))
    return failure();
  FailureOr<StringRef> name = string(*param, "name", what);
  if (failed(name))
    return failure();
  FailureOr<StringRef> kind = string(*param, "kind", what);
  if (failed(kind) || failed(checkOneOf(*kind, (what + "'s kind").str(),
                                        {"buffer", "dim", "scalar"})))
    return failure();
  std::string named = (what + " ('" + *name + "')").str();
  StringRef scalarType;
  if (*kind == "buffer") {
    if (failed(checkFields(
            *param, named,
            {"name", "kind", "dtype", "shape", "divisibility", "access"},
            {"dtype", "shape"})))
      return failure();
    FailureOr<StringRef> dtype = string(*param, "dtype", named);
    if (failed(dtype) || failed(checkOneOf(*dtype, named + "'s dtype",
                                           {"f16", "bf16", "f32", "f64", "i8",
                                            "i16", "i32", "i64"})))
      return failure();
    FailureOr<ArrayAttr> shape = array(*param, "shape", named);
    if (failed(shape))
      return failure();
    for (auto [d, size] : llvm::enumerate(*shape))
      if (failed(integer(size,
                         llvm::formatv("{0}'s shape[{1}]", named, d).str(), -1,
                         INT64_MAX)))
        return failure();
    if (param->get("divisibility")) {
      FailureOr<ArrayAttr> divisors = array(*param, "divisibility", named);
      if (failed(divisors))
        return failure();
      if (divisors->size() != shape->size())
        return error() << "expected " << named << "'s divisibility to have "
                       << shape->size() << " entries, one per dimension, but "
                       << "it has " << divisors->size();
      for (auto [d, divisor] : llvm::enumerate(*divisors))
        if (failed(integer(
                divisor,
                llvm::formatv("{0}'s divisibility[{1}]", named, d).str(), 1,
                INT64_MAX)))
          return failure();
    }
    if (param->get("access")) {
      FailureOr<StringRef> access = string(*param, "access", named);
      if (failed(access) || failed(checkOneOf(*access, named + "'s access",
                                              {"read", "write", "readwrite"})))
        return failure();
    }
  } else if (*kind == "dim") {
    if (failed(checkFields(*param, named,
                           {"name", "kind", "type", "buffer", "dim"},
                           {"buffer", "dim"})) ||
        failed(string(*param, "buffer", named)) ||
        failed(integer(*param, "dim", named, 0, 63)))
      return failure();
    if (param->get("type")) {
      FailureOr<StringRef> type = string(*param, "type", named);
      if (failed(type) || failed(checkOneOf(*type, named + "'s type", {"i64"})))
        return failure();
    }
  } else {
    if (failed(checkFields(*param, named, {"name", "kind", "type"}, {"type"})))
      return failure();
    FailureOr<StringRef> type = string(*param, "type", named);
    if (failed(type) || failed(checkOneOf(*type, named + "'s type",
                                          {"f32", "f64", "i32", "i64"})))
      return failure();
    scalarType = *type;
  }
  if (!matchesArgument(*kind, scalarType, argument)) {
    std::string expected = *kind == "buffer" ? "a pointer"
                           : *kind == "dim"  ? "an i64"
                                             : ("an " + scalarType).str();
    std::string argText;
    llvm::raw_string_ostream os(argText);
    os << argument;
    return error() << "expected argument " << index
                   << " of the kernel function to be " << expected << " for "
                   << named << ", a " << *kind << " parameter, but it is '"
                   << argText << "'";
  }
  return success();
}

LogicalResult DescriptionChecker::checkDimRef(DictionaryAttr dict,
                                              StringRef key, StringRef what) {
  std::string refWhat = (what + "'s " + key).str();
  if (failed(present(dict, key, what)))
    return failure();
  FailureOr<DictionaryAttr> ref = dictionary(dict.get(key), refWhat);
  return failure(
      failed(ref) ||
      failed(checkFields(*ref, refWhat, {"param", "dim"}, {"param", "dim"})) ||
      failed(string(*ref, "param", refWhat)) ||
      failed(integer(*ref, "dim", refWhat, 0, 63)));
}

LogicalResult DescriptionChecker::checkRelation(Attribute attr,
                                                StringRef what) {
  FailureOr<DictionaryAttr> relation = dictionary(attr, what);
  if (failed(relation) ||
      failed(checkFields(*relation, what, {"lhs", "op", "rhs", "value"},
                         {"lhs", "op"})) ||
      failed(checkDimRef(*relation, "lhs", what)))
    return failure();
  FailureOr<StringRef> op = string(*relation, "op", what);
  if (failed(op) ||
      failed(checkOneOf(*op, (what + "'s op").str(), {"==", "<=", ">="})))
    return failure();
  bool hasRhs = relation->get("rhs") != nullptr;
  if (hasRhs == (relation->get("value") != nullptr))
    return error() << "expected " << what
                   << " to have one of 'rhs' and 'value', but it has "
                   << (hasRhs ? "both" : "neither");
  if (hasRhs)
    return checkDimRef(*relation, "rhs", what);
  return failure(
      failed(integer(*relation, "value", what, INT64_MIN, INT64_MAX)));
}

LogicalResult DescriptionChecker::check(Attribute entry) {
  FailureOr<DictionaryAttr> kernel =
      dictionary(entry, "the description of a kernel");
  if (failed(kernel))
    return failure();
  FailureOr<StringRef> name = string(*kernel, "name", "the kernel");
  if (failed(name))
    return failure();
  where += (" (kernel '" + *name + "')").str();
  if (failed(checkFields(*kernel, "the kernel",
                         {"name", "block", "grid", "dynamic_shared_memory",
                          "params", "requires"},
                         {"block", "grid", "params"})))
    return failure();

  // The kernel function it describes.
  Operation *symbol = SymbolTable::lookupSymbolIn(gpuModule, *name);
  auto function = dyn_cast_or_null<FunctionOpInterface>(symbol);
  if (!function || !symbol->hasAttr(gpu::GPUDialect::getKernelFuncAttrName()))
    return error() << "expected a kernel function '" << *name
                   << "' in the gpu.module, but "
                   << (symbol ? "that symbol is not a kernel"
                              : "there is none");

  FailureOr<ArrayAttr> block = array(*kernel, "block", "the kernel");
  if (failed(block))
    return failure();
  if (block->empty() || block->size() > 3)
    return error() << "expected 1 to 3 block dimensions, but got "
                   << block->size();
  SmallVector<int64_t, 3> threads = {1, 1, 1};
  for (auto [i, size] : llvm::enumerate(*block)) {
    FailureOr<int64_t> value =
        integer(size, llvm::formatv("block[{0}]", i).str(), 1, 1024);
    if (failed(value))
      return failure();
    threads[i] = *value;
  }
  // The block the kernel was compiled for (its thread ids are assumed to be
  // in range): gpu.known_block_size of the lowered function, the
  // known_block_size of a gpu.func.
  auto known = symbol->getAttrOfType<DenseI32ArrayAttr>("gpu.known_block_size");
  if (!known)
    known = symbol->getAttrOfType<DenseI32ArrayAttr>("known_block_size");
  if (known && known.size() == 3 &&
      (known[0] != threads[0] || known[1] != threads[1] ||
       known[2] != threads[2]))
    return error() << "expected the block [" << threads[0] << ", " << threads[1]
                   << ", " << threads[2]
                   << "] to be the one the kernel function is compiled for, ["
                   << known[0] << ", " << known[1] << ", " << known[2] << "]";

  FailureOr<ArrayAttr> grid = array(*kernel, "grid", "the kernel");
  if (failed(grid))
    return failure();
  if (grid->empty() || grid->size() > 3)
    return error() << "expected 1 to 3 grid dimensions, but got "
                   << grid->size();
  for (auto [i, extent] : llvm::enumerate(*grid))
    if (failed(checkGridExtent(extent, llvm::formatv("grid[{0}]", i).str())))
      return failure();

  if (kernel->get("dynamic_shared_memory") &&
      failed(integer(*kernel, "dynamic_shared_memory", "the kernel", 0,
                     UINT32_MAX)))
    return failure();

  FailureOr<ArrayAttr> params = array(*kernel, "params", "the kernel");
  if (failed(params))
    return failure();
  ArrayRef<Type> arguments = function.getArgumentTypes();
  if (params->size() != arguments.size())
    return error() << "expected " << arguments.size()
                   << " parameters, one per argument of the kernel function, "
                      "but got "
                   << params->size();
  for (auto [i, param] : llvm::enumerate(*params))
    if (failed(checkParam(param, llvm::formatv("params[{0}]", i).str(),
                          arguments[i], i)))
      return failure();

  if (kernel->get("requires")) {
    FailureOr<ArrayAttr> relations = array(*kernel, "requires", "the kernel");
    if (failed(relations))
      return failure();
    for (auto [i, relation] : llvm::enumerate(*relations))
      if (failed(
              checkRelation(relation, llvm::formatv("requires[{0}]", i).str())))
        return failure();
  }
  return success();
}

/// Manifest entries are kept as builtin attributes in the IR; this mirrors
/// them as JSON.
static llvm::json::Value toJSON(Attribute attr) {
  if (auto dict = dyn_cast<DictionaryAttr>(attr)) {
    llvm::json::Object object;
    for (NamedAttribute entry : dict)
      object[entry.getName().getValue()] = toJSON(entry.getValue());
    return object;
  }
  if (auto array = dyn_cast<ArrayAttr>(attr)) {
    llvm::json::Array values;
    for (Attribute element : array)
      values.push_back(toJSON(element));
    return values;
  }
  if (auto str = dyn_cast<StringAttr>(attr))
    return str.getValue().str();
  if (auto integer = dyn_cast<IntegerAttr>(attr))
    return integer.getInt();
  return nullptr;
}

FailureOr<std::string> tile::buildKernelManifest(ModuleOp module,
                                                 StringRef binaryName) {
  auto modules = module.getOps<gpu::GPUModuleOp>();
  if (modules.empty())
    return module.emitError("expected a gpu.module produced by "
                            "convert-tile-to-gpu");
  gpu::GPUModuleOp gpuModule = *modules.begin();
  Attribute described = gpuModule->getAttr("tile.kernels");
  if (!described)
    return gpuModule.emitError("expected a 'tile.kernels' attribute, which "
                               "convert-tile-to-gpu writes");
  auto kernels = dyn_cast<ArrayAttr>(described);
  if (!kernels)
    return mlir::emitError(gpuModule.getLoc())
           << "expected 'tile.kernels' to be an array of kernel "
              "descriptions, but got an attribute of another kind";
  for (auto [i, entry] : llvm::enumerate(kernels))
    if (failed(DescriptionChecker(gpuModule, i).check(entry)))
      return failure();

  llvm::json::Object target;
  if (ArrayAttr targets = gpuModule.getTargetsAttr())
    for (Attribute attr : targets)
      if (auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(attr)) {
        target["chip"] = nvvm.getChip().str();
        target["features"] = nvvm.getFeatures().str();
      }
  if (target.empty())
    return gpuModule.emitError("expected an NVVM target on the gpu.module");

  llvm::json::Object manifest{{"format", "tile-manifest"},
                              {"version", 1},
                              {"target", std::move(target)},
                              {"kernels", toJSON(kernels)}};
  if (!binaryName.empty())
    manifest["binary"] = binaryName.str();
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(manifest))) << "\n";
  return text;
}
