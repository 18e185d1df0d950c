//===- KernelManifest.cpp - The kernel manifest of a gpu.module -----------===//
//
// convert-tile-to-gpu describes each kernel's launch (block, grid, shared
// memory, parameters, contract) as a #tile.launch attribute in the
// gpu.module's `tile.kernels` array; the manifest is those descriptions as
// JSON. The attributes' verifiers have checked each description in itself
// (value ranges, the buffers and dims that grid rules, dim parameters and
// relations name). A gpu-level input (tile-translate takes any stage)
// brings its own descriptions, so before the manifest is written each is
// also checked against the gpu.module: it names a kernel function of the
// module, compiled for its block, whose arguments match its parameters one
// to one (the runtime packs the arguments in that order). The runtime
// checks the limits again when it loads the manifest.
//
//===----------------------------------------------------------------------===//

#include "tile/Target/Target.h"

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace mlir::tile;

//===----------------------------------------------------------------------===//
// The description against the gpu.module
//===----------------------------------------------------------------------===//

/// What the kernel function takes for a parameter: a pointer for a buffer (a
/// memref before the NVVM lowering), an i64 for a dim (index before), the
/// scalar's own type for a scalar.
static bool matchesArgument(Attribute param, Type arg) {
  if (isa<BufferParamAttr>(param))
    return isa<LLVM::LLVMPointerType, MemRefType>(arg);
  if (isa<DimParamAttr>(param))
    return arg.isSignlessInteger(64) || arg.isIndex();
  if (isa<TensorMapParamAttr, WorkspaceParamAttr>(param))
    return isa<LLVM::LLVMPointerType, MemRefType>(arg);
  return cast<ScalarParamAttr>(param).getType() == arg;
}

static StringRef getParamName(Attribute param) {
  if (auto buffer = dyn_cast<BufferParamAttr>(param))
    return buffer.getName();
  if (auto dim = dyn_cast<DimParamAttr>(param))
    return dim.getName();
  if (auto map = dyn_cast<TensorMapParamAttr>(param))
    return map.getName();
  if (auto workspace = dyn_cast<WorkspaceParamAttr>(param))
    return workspace.getName();
  return cast<ScalarParamAttr>(param).getName();
}

/// Checks entry `index` of `tile.kernels` against the kernel function it
/// names; errors go to the gpu.module's location, prefixed with the entry
/// ("tile.kernels[0] (kernel 'k'): ").
static LogicalResult checkAgainstFunction(gpu::GPUModuleOp gpuModule,
                                          unsigned index, LaunchAttr launch) {
  std::string where = llvm::formatv("tile.kernels[{0}] (kernel '{1}'): ", index,
                                    launch.getName());
  auto error = [&]() {
    InFlightDiagnostic diag = mlir::emitError(gpuModule.getLoc());
    diag << where;
    return diag;
  };

  Operation *symbol = SymbolTable::lookupSymbolIn(gpuModule, launch.getName());
  auto function = dyn_cast_or_null<FunctionOpInterface>(symbol);
  if (!function || !symbol->hasAttr(gpu::GPUDialect::getKernelFuncAttrName()))
    return error() << "expected a kernel function '" << launch.getName()
                   << "' in the gpu.module, but "
                   << (symbol ? "that symbol is not a kernel"
                              : "there is none");

  // The block the kernel was compiled for (its thread ids are assumed to be
  // in range): gpu.known_block_size of the lowered function, the
  // known_block_size of a gpu.func.
  ArrayRef<int64_t> block = launch.getBlock();
  auto known = symbol->getAttrOfType<DenseI32ArrayAttr>("gpu.known_block_size");
  if (!known)
    known = symbol->getAttrOfType<DenseI32ArrayAttr>("known_block_size");
  if (known && known.size() == 3 &&
      (known[0] != block[0] || known[1] != block[1] || known[2] != block[2]))
    return error() << "expected the block [" << block[0] << ", " << block[1]
                   << ", " << block[2]
                   << "] to be the one the kernel function is compiled for, ["
                   << known[0] << ", " << known[1] << ", " << known[2] << "]";

  ArrayRef<Attribute> params = launch.getParams();
  ArrayRef<Type> arguments = function.getArgumentTypes();
  if (params.size() != arguments.size())
    return error() << "expected " << arguments.size()
                   << " parameters, one per argument of the kernel function, "
                      "but got "
                   << params.size();
  for (auto [i, param] : llvm::enumerate(params)) {
    if (matchesArgument(param, arguments[i]))
      continue;
    StringRef kind = isa<BufferParamAttr>(param)      ? "buffer"
                     : isa<DimParamAttr>(param)       ? "dim"
                     : isa<TensorMapParamAttr>(param) ? "tensor map"
                     : isa<WorkspaceParamAttr>(param) ? "workspace"
                                                      : "scalar";
    std::string expected = "a pointer";
    if (isa<DimParamAttr>(param))
      expected = "an i64";
    else if (auto scalar = dyn_cast<ScalarParamAttr>(param))
      expected = "an " + getDTypeName(scalar.getType());
    std::string argText;
    llvm::raw_string_ostream os(argText);
    os << arguments[i];
    return error() << "expected argument " << i
                   << " of the kernel function to be " << expected
                   << " for params[" << i << "] ('" << getParamName(param)
                   << "'), a " << kind << " parameter, but it is '" << argText
                   << "'";
  }
  return success();
}

/// A short spelling of what was found.
static std::string brief(Attribute attr) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << attr;
  return text.size() > 60 ? text.substr(0, 57) + "..." : text;
}

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

/// A size that a grid rule or a relation names: {"param": "A", "dim": 0}.
static llvm::json::Object sizeToJSON(StringRef param, int64_t dim) {
  return llvm::json::Object{{"param", param.str()}, {"dim", dim}};
}

static llvm::json::Value toJSON(GridRuleAttr rule) {
  if (rule.isConstant())
    return llvm::json::Object{{"kind", "const"}, {"value", rule.getDivisor()}};
  return llvm::json::Object{{"kind", "ceildiv"},
                            {"param", rule.getParam().str()},
                            {"dim", rule.getDim()},
                            {"divisor", rule.getDivisor()}};
}

static llvm::json::Value paramToJSON(Attribute param) {
  if (auto buffer = dyn_cast<BufferParamAttr>(param)) {
    llvm::json::Array shape;
    for (int64_t size : buffer.getShape())
      shape.push_back(ShapedType::isDynamic(size) ? int64_t(-1) : size);
    llvm::json::Object object{
        {"name", buffer.getName().str()},
        {"kind", "buffer"},
        {"dtype", getDTypeName(buffer.getDtype())},
        {"shape", std::move(shape)},
        {"access", stringifyBufferAccess(buffer.getAccess()).str()}};
    if (!buffer.getDivisibility().empty())
      object["divisibility"] = llvm::json::Array(buffer.getDivisibility());
    return object;
  }
  if (auto dim = dyn_cast<DimParamAttr>(param))
    return llvm::json::Object{{"name", dim.getName().str()},
                              {"kind", "dim"},
                              {"type", "i64"},
                              {"buffer", dim.getBuffer().str()},
                              {"dim", dim.getDim()}};
  if (auto map = dyn_cast<TensorMapParamAttr>(param))
    return llvm::json::Object{{"name", map.getName().str()},
                              {"kind", "tensor_map"},
                              {"buffer", map.getBuffer().str()},
                              {"box", llvm::json::Array(map.getBox())},
                              {"swizzle", map.getSwizzle()}};
  if (auto workspace = dyn_cast<WorkspaceParamAttr>(param))
    return llvm::json::Object{
        {"name", workspace.getName().str()},
        {"kind", "workspace"},
        {"bytes_per_block", workspace.getBytesPerBlock()}};
  auto scalar = cast<ScalarParamAttr>(param);
  return llvm::json::Object{{"name", scalar.getName().str()},
                            {"kind", "scalar"},
                            {"type", getDTypeName(scalar.getType())}};
}

static llvm::json::Value toJSON(SizeRelationAttr relation) {
  llvm::json::Object object{
      {"lhs", sizeToJSON(relation.getLhsParam(), relation.getLhsDim())},
      {"op", relation.getPredicateSymbol().str()}};
  if (relation.isConstant())
    object["value"] = *relation.getValue();
  else
    object["rhs"] = sizeToJSON(relation.getRhsParam(), relation.getRhsDim());
  return object;
}

static llvm::json::Value toJSON(LaunchAttr launch) {
  llvm::json::Array grid, params, contract;
  for (GridRuleAttr rule : launch.getGrid())
    grid.push_back(toJSON(rule));
  for (Attribute param : launch.getParams())
    params.push_back(paramToJSON(param));
  for (SizeRelationAttr relation : launch.getContract())
    contract.push_back(toJSON(relation));
  llvm::json::Object object{
      {"name", launch.getName().str()},
      {"block", llvm::json::Array(launch.getBlock())},
      {"grid", std::move(grid)},
      {"dynamic_shared_memory", launch.getDynamicSharedMemory()},
      {"params", std::move(params)}};
  if (!contract.empty())
    object["requires"] = std::move(contract);
  if (launch.getPersistent() > 0) {
    llvm::json::Object persistent{{"blocks_per_sm", launch.getPersistent()}};
    if (!launch.getCluster().empty())
      persistent["cluster"] = llvm::json::Array(launch.getCluster());
    object["persistent"] = std::move(persistent);
  }
  return object;
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
  auto entries = dyn_cast<ArrayAttr>(described);
  if (!entries)
    return mlir::emitError(gpuModule.getLoc())
           << "expected 'tile.kernels' to be an array of #tile.launch "
              "descriptions, but got an attribute of another kind";
  SmallVector<LaunchAttr> launches;
  llvm::StringMap<unsigned> describedNames;
  for (auto [i, entry] : llvm::enumerate(entries)) {
    auto launch = dyn_cast<LaunchAttr>(entry);
    if (!launch)
      return mlir::emitError(gpuModule.getLoc())
             << "tile.kernels[" << i
             << "]: expected a #tile.launch description, but got "
             << brief(entry);
    if (failed(checkAgainstFunction(gpuModule, i, launch)))
      return failure();
    auto [it, inserted] = describedNames.try_emplace(launch.getName(), i);
    if (!inserted)
      return mlir::emitError(gpuModule.getLoc())
             << "tile.kernels[" << i << "] (kernel '" << launch.getName()
             << "'): expected one description per kernel, but tile.kernels["
             << it->second << "] describes it too";
    launches.push_back(launch);
  }

  llvm::json::Object target;
  if (ArrayAttr targets = gpuModule.getTargetsAttr())
    for (Attribute attr : targets)
      if (auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(attr)) {
        target["chip"] = nvvm.getChip().str();
        target["features"] = nvvm.getFeatures().str();
      }
  if (target.empty())
    return gpuModule.emitError("expected an NVVM target on the gpu.module");

  llvm::json::Array kernels;
  for (LaunchAttr launch : launches)
    kernels.push_back(toJSON(launch));
  llvm::json::Object manifest{{"format", "tile-manifest"},
                              {"version", 1},
                              {"target", std::move(target)},
                              {"kernels", std::move(kernels)}};
  if (!binaryName.empty())
    manifest["binary"] = binaryName.str();
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(manifest))) << "\n";
  return text;
}
