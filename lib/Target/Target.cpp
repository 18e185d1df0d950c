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
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

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

/// `toolkit`/bin/ptxas, or a failure saying why it cannot be run.
static FailureOr<SmallString<256>> findPtxas(StringRef toolkitPath,
                                             std::string &error) {
  SmallString<256> ptxas(toolkitPath);
  llvm::sys::path::append(ptxas, "bin", "ptxas");
  if (!llvm::sys::fs::can_execute(ptxas)) {
    error = ("cannot run ptxas: '" + ptxas + "' is not an executable").str();
    return failure();
  }
  return ptxas;
}

/// Runs `args` (args[0] is the program) with standard output and error
/// going to `log`; the exit code, or -1 with `message` when it did not run.
static int runLogged(ArrayRef<StringRef> args, StringRef log,
                     std::string &message) {
  std::optional<StringRef> redirects[] = {std::nullopt, log, log};
  return llvm::sys::ExecuteAndWait(args[0], args, std::nullopt, redirects,
                                   /*secondsToWait=*/0, /*memoryLimit=*/0,
                                   &message);
}

static std::string readFile(StringRef path, bool text = true) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/text);
  return buffer ? (*buffer)->getBuffer().str() : std::string();
}

FailureOr<PtxasOutput> tile::runPtxas(StringRef ptx, StringRef chip,
                                      unsigned optLevel, StringRef toolkitPath,
                                      std::string &error) {
  FailureOr<SmallString<256>> ptxas = findPtxas(toolkitPath, error);
  if (failed(ptxas))
    return failure();
  SmallString<128> input, output, log;
  for (auto [path, suffix] :
       {std::pair{&input, "ptx"}, {&output, "cubin"}, {&log, "log"}})
    if (llvm::sys::fs::createTemporaryFile("tile-ptxas", suffix, *path)) {
      error = "cannot create a temporary file for ptxas";
      return failure();
    }
  llvm::scope_exit cleanup([&] {
    for (StringRef path : {input.str(), output.str(), log.str()})
      llvm::sys::fs::remove(path);
  });
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(input, ec);
    if (ec) {
      error = "cannot write " + input.str().str() + ": " + ec.message();
      return failure();
    }
    os << ptx;
  }
  std::string arch = ("-arch=" + chip).str();
  std::string opt = "-O" + std::to_string(std::min(optLevel, 3u));
  std::string message;
  int rc =
      runLogged({*ptxas, arch, opt, "-v", input, "-o", output}, log, message);
  PtxasOutput result;
  result.log = readFile(log);
  if (rc != 0) {
    error = ("ptxas failed (" + Twine(rc) + "): " + message + "\n" + result.log)
                .str();
    return failure();
  }
  result.cubin = readFile(output, /*text=*/false);
  if (result.cubin.empty()) {
    error = "ptxas wrote no cubin";
    return failure();
  }
  return result;
}

FailureOr<std::string> tile::disassembleCubin(StringRef cubin,
                                              StringRef toolkitPath,
                                              std::string &error) {
  SmallString<256> tool(toolkitPath);
  llvm::sys::path::append(tool, "bin", "cuobjdump");
  if (!llvm::sys::fs::can_execute(tool)) {
    llvm::ErrorOr<std::string> onPath =
        llvm::sys::findProgramByName("cuobjdump");
    if (!onPath) {
      error = ("SASS needs cuobjdump, which is neither in '" + toolkitPath +
               "/bin' nor on PATH (--emit=ptx shows the PTX)")
                  .str();
      return failure();
    }
    tool = *onPath;
  }
  SmallString<128> input, log;
  for (auto [path, suffix] : {std::pair{&input, "cubin"}, {&log, "sass"}})
    if (llvm::sys::fs::createTemporaryFile("tile-sass", suffix, *path)) {
      error = "cannot create a temporary file for cuobjdump";
      return failure();
    }
  llvm::scope_exit cleanup([&] {
    for (StringRef path : {input.str(), log.str()})
      llvm::sys::fs::remove(path);
  });
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(input, ec, llvm::sys::fs::OF_None);
    if (ec) {
      error = "cannot write " + input.str().str() + ": " + ec.message();
      return failure();
    }
    os << cubin;
  }
  std::string message;
  int rc = runLogged({tool, "-sass", input}, log, message);
  std::string sass = readFile(log);
  if (rc != 0) {
    error = ("cuobjdump failed (" + Twine(rc) + "): " + message + "\n" + sass)
                .str();
    return failure();
  }
  return sass;
}

std::string tile::ptxasVersion(StringRef toolkitPath) {
  std::string error, message;
  FailureOr<SmallString<256>> ptxas = findPtxas(toolkitPath, error);
  SmallString<128> log;
  if (failed(ptxas) ||
      llvm::sys::fs::createTemporaryFile("tile-ptxas", "log", log))
    return "";
  llvm::scope_exit cleanup([&] { llvm::sys::fs::remove(log); });
  if (runLogged({*ptxas, "--version"}, log, message) != 0)
    return "";
  // "Cuda compilation tools, release 13.0, V13.0.88": the last field.
  std::string output = readFile(log);
  StringRef text = output;
  size_t at = text.rfind(", V");
  return at == StringRef::npos
             ? ""
             : text.drop_front(at + 2)
                   .take_until([](char c) { return c == '\n'; })
                   .str();
}
