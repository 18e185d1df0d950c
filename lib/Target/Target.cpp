//===- Target.cpp - From NVVM-level IR to PTX, cubins and manifests -------===//
//
// Serialization goes through the upstream `gpu-module-to-binary` pass and the
// NVVM target attribute; nothing here writes PTX by hand.
//
//===----------------------------------------------------------------------===//

#include "tile/Target/Target.h"

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace mlir::tile;

std::optional<BinaryFormat> tile::parseBinaryFormat(StringRef name) {
  return llvm::StringSwitch<std::optional<BinaryFormat>>(name)
      .Case("ptx", BinaryFormat::PTX)
      .Case("cubin", BinaryFormat::Cubin)
      .Case("fatbin", BinaryFormat::Fatbin)
      .Default(std::nullopt);
}

static gpu::GPUModuleOp findGPUModule(ModuleOp module) {
  auto modules = module.getOps<gpu::GPUModuleOp>();
  return modules.empty() ? gpu::GPUModuleOp() : *modules.begin();
}

LogicalResult tile::lowerToNVVM(ModuleOp module, const TargetOptions &options) {
  std::string pipeline;
  gpu::GPUModuleOp gpuModule = findGPUModule(module);
  if (!module.getOps<KernelOp>().empty())
    pipeline = getTileToNVVMPipeline(options);
  else if (gpuModule && !gpuModule.getTargetsAttr())
    pipeline = getGPUToNVVMPipeline(options);
  else if (!gpuModule)
    return module.emitError("expected tile kernels or a gpu.module to "
                            "compile, but the module has neither");
  if (pipeline.empty())
    return success();
  PassManager pm(module.getContext());
  std::string errors;
  llvm::raw_string_ostream os(errors);
  if (failed(addPipeline(pm, pipeline, os)))
    return module.emitError("cannot build the pipeline '")
           << pipeline << "': " << errors;
  return pm.run(module);
}

FailureOr<std::string> tile::serializeGPUModule(ModuleOp module,
                                                BinaryFormat format,
                                                StringRef toolkitPath) {
  gpu::GPUModuleOp gpuModule = findGPUModule(module);
  if (!gpuModule || !gpuModule.getTargetsAttr())
    return module.emitError("expected a gpu.module with an NVVM target; run "
                            "the tile-to-nvvm pipeline first");
  // Serialize a copy: the pass replaces gpu.module by gpu.binary.
  OwningOpRef<ModuleOp> copy = module.clone();
  GpuModuleToBinaryPassOptions options;
  options.toolkitPath = toolkitPath.str();
  options.compilationTarget = format == BinaryFormat::PTX     ? "isa"
                              : format == BinaryFormat::Cubin ? "bin"
                                                              : "fatbin";
  PassManager pm(module.getContext());
  pm.addPass(createGpuModuleToBinaryPass(options));
  if (failed(pm.run(*copy)))
    return failure();
  for (auto binary : copy->getOps<gpu::BinaryOp>())
    for (Attribute object : binary.getObjects())
      if (auto gpuObject = dyn_cast<gpu::ObjectAttr>(object))
        return gpuObject.getObject().getValue().str();
  return module.emitError("gpu-module-to-binary produced no object");
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
  gpu::GPUModuleOp gpuModule = findGPUModule(module);
  if (!gpuModule)
    return module.emitError("expected a gpu.module produced by "
                            "convert-tile-to-gpu");
  auto kernels = gpuModule->getAttrOfType<ArrayAttr>("tile.kernels");
  if (!kernels)
    return gpuModule.emitError("expected a 'tile.kernels' attribute, which "
                               "convert-tile-to-gpu writes");
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
