//===- Target.cpp - From NVVM-level IR to PTX, cubins and fat binaries ----===//
//
// Serialization is upstream's NVVM serializer (translation to LLVM IR,
// libdevice, LLVM's optimization pipeline, the NVPTX back end) with the
// pipeline tuned for compile time; ptxas makes cubins. Nothing here writes
// PTX by hand, and nothing here runs MLIR passes (lib/Compiler does).
//
//===----------------------------------------------------------------------===//

#include "tile/Target/Target.h"

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Pipelines/Pipelines.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Target/LLVM/NVVM/Utils.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/StandardInstrumentations.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Target/TargetMachine.h"

using namespace mlir;
using namespace mlir::tile;

static gpu::GPUModuleOp findGPUModule(ModuleOp module) {
  auto modules = module.getOps<gpu::GPUModuleOp>();
  return modules.empty() ? gpu::GPUModuleOp() : *modules.begin();
}

LogicalResult tile::verifyNVVMTargets(ModuleOp module) {
  WalkResult result = module.walk([](gpu::GPUModuleOp gpuModule) {
    ArrayAttr targets = gpuModule.getTargetsAttr();
    for (Attribute attr : targets ? targets.getValue() : ArrayRef<Attribute>())
      if (auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(attr)) {
        std::string error;
        if (failed(verifyTarget(nvvm.getChip(), nvvm.getFeatures(), error))) {
          gpuModule.emitError(error);
          return WalkResult::interrupt();
        }
      }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// `toolkit`/bin/`name`, or a failure saying why it cannot be run.
static FailureOr<SmallString<256>>
findToolkitProgram(StringRef toolkitPath, StringRef name, std::string &error) {
  SmallString<256> program(toolkitPath);
  llvm::sys::path::append(program, "bin", name);
  if (!llvm::sys::fs::can_execute(program)) {
    error = ("cannot run " + name + ": '" + program + "' is not an executable")
                .str();
    return failure();
  }
  return program;
}

LogicalResult tile::verifyCudaToolkit(StringRef toolkitPath, bool needPtxas,
                                      std::string &error) {
  if (toolkitPath.empty()) {
    error = "expected the path of a CUDA toolkit, but got an empty one";
    return failure();
  }
  auto fail = [&](const Twine &problem) {
    error = ("expected a CUDA toolkit at '" + toolkitPath + "', but " + problem)
                .str();
    return failure();
  };
  if (!llvm::sys::fs::is_directory(toolkitPath))
    return fail(llvm::sys::fs::exists(toolkitPath) ? "it is not a directory"
                                                   : "it does not exist");
  // Where upstream's NVVM serializer looks for it.
  SmallString<256> libdevice(toolkitPath);
  llvm::sys::path::append(libdevice, "nvvm", "libdevice", "libdevice.10.bc");
  if (!llvm::sys::fs::is_regular_file(libdevice))
    return fail("it has no libdevice ('" + libdevice +
                "' is not a file), which the PTX links");
  if (needPtxas) {
    SmallString<256> ptxas(toolkitPath);
    llvm::sys::path::append(ptxas, "bin", "ptxas");
    if (!llvm::sys::fs::can_execute(ptxas))
      return fail("it has no ptxas ('" + ptxas +
                  "' is not an executable), which makes the cubin");
  }
  return success();
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

namespace {
/// The temporary files of one run of a toolkit program (its inputs, output
/// and log), removed when this goes out of scope.
class TempFiles {
public:
  TempFiles() = default;
  TempFiles(const TempFiles &) = delete;
  TempFiles &operator=(const TempFiles &) = delete;
  ~TempFiles() {
    for (const SmallString<128> &path : paths)
      llvm::sys::fs::remove(path);
  }

  /// One file per suffix, named `prefix`-*.`suffix`.
  LogicalResult create(StringRef prefix, ArrayRef<StringRef> suffixes,
                       std::string &error) {
    for (StringRef suffix : suffixes) {
      SmallString<128> path;
      if (llvm::sys::fs::createTemporaryFile(prefix, suffix, path)) {
        error = ("cannot create a temporary ." + suffix + " file").str();
        return failure();
      }
      paths.push_back(std::move(path));
    }
    return success();
  }

  StringRef operator[](size_t index) const { return paths[index]; }

  LogicalResult write(size_t index, StringRef contents, std::string &error) {
    std::error_code ec;
    llvm::raw_fd_ostream os(paths[index], ec, llvm::sys::fs::OF_None);
    if (ec) {
      error = ("cannot write " + paths[index] + ": " + ec.message()).str();
      return failure();
    }
    os << contents;
    return success();
  }

private:
  SmallVector<SmallString<128>> paths;
};
} // namespace

FailureOr<PtxasOutput> tile::runPtxas(StringRef ptx, StringRef chip,
                                      unsigned optLevel, StringRef toolkitPath,
                                      std::string &error) {
  FailureOr<SmallString<256>> ptxas =
      findToolkitProgram(toolkitPath, "ptxas", error);
  TempFiles files; // input, output, log
  if (failed(ptxas) ||
      failed(files.create("tile-ptxas", {"ptx", "cubin", "log"}, error)) ||
      failed(files.write(0, ptx, error)))
    return failure();
  std::string arch = ("-arch=" + chip).str();
  std::string opt = "-O" + std::to_string(std::min(optLevel, 3u));
  std::string message;
  int rc = runLogged({*ptxas, arch, opt, "-v", files[0], "-o", files[1]},
                     files[2], message);
  PtxasOutput result;
  result.log = readFile(files[2]);
  if (rc != 0) {
    error = ("ptxas failed (" + Twine(rc) + "): " + message + "\n" + result.log)
                .str();
    return failure();
  }
  result.cubin = readFile(files[1], /*text=*/false);
  if (result.cubin.empty()) {
    error = "ptxas wrote no cubin";
    return failure();
  }
  return result;
}

FailureOr<std::string> tile::runFatbinary(StringRef cubin, StringRef ptx,
                                          StringRef chip, StringRef toolkitPath,
                                          std::string &error) {
  FailureOr<SmallString<256>> fatbinary =
      findToolkitProgram(toolkitPath, "fatbinary", error);
  TempFiles files; // cubin, PTX, output, log
  if (failed(fatbinary) ||
      failed(files.create("tile-fatbin", {"cubin", "ptx", "fatbin", "log"},
                          error)) ||
      failed(files.write(0, cubin, error)) ||
      failed(files.write(1, ptx, error)))
    return failure();
  std::string sm =
      chip.starts_with("sm_") ? chip.drop_front(3).str() : chip.str();
  std::string elf = ("--image3=kind=elf,sm=" + sm + ",file=" + files[0]).str();
  std::string ptxImage =
      ("--image3=kind=ptx,sm=" + sm + ",file=" + files[1]).str();
  std::string create = ("--create=" + files[2]).str();
  std::string message;
  int rc =
      runLogged({*fatbinary, "-64", elf, ptxImage, create}, files[3], message);
  if (rc != 0) {
    error = ("fatbinary failed (" + Twine(rc) + "): " + message + "\n" +
             readFile(files[3]))
                .str();
    return failure();
  }
  return readFile(files[2], /*text=*/false);
}

namespace {
/// Upstream's NVVM serialization up to PTX, with LLVM's pipeline at the
/// target's -O level minus the SLP vectorizer: NVPTX registers are 32 bits
/// wide, so it packs nothing in these kernels (the PTX of the whole library
/// is the same without it) but took about a third of an attention kernel's
/// LLVM time.
class PTXSerializer : public NVVM::SerializeGPUModuleBase {
public:
  using SerializeGPUModuleBase::SerializeGPUModuleBase;

protected:
  LogicalResult optimizeModule(llvm::Module &module, int optLevel) override {
    FailureOr<llvm::TargetMachine *> machine = getOrCreateTargetMachine();
    if (failed(machine))
      return getOperation().emitError("the NVPTX target is not available");
    optLevel = std::clamp(optLevel, 0, 3);
    (*machine)->setOptLevel(static_cast<llvm::CodeGenOptLevel>(optLevel));
    llvm::PipelineTuningOptions tuning;
    tuning.LoopUnrolling = true;
    tuning.LoopInterleaving = true;
    tuning.LoopVectorization = true;
    tuning.SLPVectorization = false;

    llvm::LoopAnalysisManager loops;
    llvm::FunctionAnalysisManager functions;
    llvm::CGSCCAnalysisManager sccs;
    llvm::ModuleAnalysisManager modules;
    // For LLVM's own options (-time-passes, -print-after-all) in the tools.
    llvm::PassInstrumentationCallbacks callbacks;
    llvm::StandardInstrumentations instrumentations(module.getContext(),
                                                    /*DebugLogging=*/false);
    instrumentations.registerCallbacks(callbacks, &modules);
    llvm::PassBuilder builder(*machine, tuning, std::nullopt, &callbacks);
    builder.registerModuleAnalyses(modules);
    builder.registerCGSCCAnalyses(sccs);
    builder.registerFunctionAnalyses(functions);
    builder.registerLoopAnalyses(loops);
    builder.crossRegisterProxies(loops, functions, sccs, modules);
    const llvm::OptimizationLevel levels[] = {
        llvm::OptimizationLevel::O0, llvm::OptimizationLevel::O1,
        llvm::OptimizationLevel::O2, llvm::OptimizationLevel::O3};
    llvm::OptimizationLevel level = levels[optLevel];
    llvm::ModulePassManager passes =
        optLevel == 0 ? builder.buildO0DefaultPipeline(level)
                      : builder.buildPerModuleDefaultPipeline(level);
    passes.run(module, modules);
    return success();
  }

  FailureOr<SmallVector<char, 0>>
  moduleToObject(llvm::Module &module) override {
    FailureOr<llvm::TargetMachine *> machine = getOrCreateTargetMachine();
    if (failed(machine))
      return getOperation().emitError("the NVPTX target is not available");
    FailureOr<SmallString<0>> ptx = translateModuleToISA(
        module, **machine, [&] { return getOperation().emitError(); });
    if (failed(ptx))
      return failure();
    return SmallVector<char, 0>(ptx->begin(), ptx->end());
  }
};
} // namespace

static FailureOr<std::string>
serializeGPUModuleToPTX(gpu::GPUModuleOp gpuModule, NVVM::NVVMTargetAttr target,
                        StringRef toolkitPath) {
  PTXSerializer::init();
  gpu::TargetOptions options(toolkitPath);
  // An error means failure: upstream reports some and goes on (a toolkit
  // path without libdevice: the PTX then calls functions nothing defines).
  // Counted here, printed by the handlers registered before.
  unsigned errors = 0;
  ScopedDiagnosticHandler counter(gpuModule.getContext(), [&](Diagnostic &d) {
    if (d.getSeverity() == DiagnosticSeverity::Error)
      ++errors;
    return failure();
  });
  PTXSerializer serializer(*gpuModule, target, options);
  std::optional<SmallVector<char, 0>> ptx = serializer.run();
  if (!ptx || errors != 0)
    return failure();
  return std::string(ptx->begin(), ptx->end());
}

/// Every function and global of the gpu.module must have a name that PTX
/// can spell.
static LogicalResult verifySymbolNames(gpu::GPUModuleOp gpuModule) {
  for (Operation &op : gpuModule.getBody()->getOperations()) {
    auto symbol = dyn_cast<SymbolOpInterface>(op);
    if (!symbol)
      continue;
    if (std::optional<std::string> problem =
            getPTXIdentifierProblem(symbol.getName()))
      return op.emitError("expected a PTX identifier as the symbol name (a "
                          "letter, '_' or '$', then letters, digits, '_' or "
                          "'$'), but ")
             << *problem;
  }
  return success();
}

FailureOr<PTXModule> tile::serializeToPTX(ModuleOp module,
                                          StringRef toolkitPath) {
  gpu::GPUModuleOp gpuModule = findGPUModule(module);
  NVVM::NVVMTargetAttr target;
  if (gpuModule && gpuModule.getTargetsAttr())
    for (Attribute attr : gpuModule.getTargetsAttr())
      if ((target = dyn_cast<NVVM::NVVMTargetAttr>(attr)))
        break;
  if (!target)
    return module.emitError("expected a gpu.module with an NVVM target; run "
                            "the tile-to-nvvm pipeline first");
  if (failed(verifyNVVMTargets(module)) || failed(verifySymbolNames(gpuModule)))
    return failure();
  FailureOr<std::string> ptx =
      serializeGPUModuleToPTX(gpuModule, target, toolkitPath);
  if (failed(ptx))
    return failure();
  PTXModule result;
  result.ptx = std::move(*ptx);
  result.chip = target.getChip().str();
  result.optLevel = target.getO();
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
  TempFiles files; // input, listing
  if (failed(files.create("tile-sass", {"cubin", "sass"}, error)) ||
      failed(files.write(0, cubin, error)))
    return failure();
  std::string message;
  int rc = runLogged({tool, "-sass", files[0]}, files[1], message);
  std::string sass = readFile(files[1]);
  if (rc != 0) {
    error = ("cuobjdump failed (" + Twine(rc) + "): " + message + "\n" + sass)
                .str();
    return failure();
  }
  return sass;
}

std::string tile::ptxasVersion(StringRef toolkitPath) {
  std::string error, message;
  FailureOr<SmallString<256>> ptxas =
      findToolkitProgram(toolkitPath, "ptxas", error);
  TempFiles files; // log
  if (failed(ptxas) || failed(files.create("tile-ptxas", {"log"}, error)) ||
      runLogged({*ptxas, "--version"}, files[0], message) != 0)
    return "";
  std::string output = readFile(files[0]);
  // "Cuda compilation tools, release 13.0, V13.0.88": the last field.
  StringRef text = output;
  size_t at = text.rfind(", V");
  return at == StringRef::npos
             ? ""
             : text.drop_front(at + 2)
                   .take_until([](char c) { return c == '\n'; })
                   .str();
}
