//===- Compile.cpp - Compile frontend programs to cubins ------------------===//
//
// The frontend's path to binaries: the lowering and PTX serialization that
// tile-opt and tile-translate use, then ptxas on that PTX for the cubin
// (one LLVM code generation instead of two; its -v log comes along).
//
//===----------------------------------------------------------------------===//

#include "tile/Frontend/Compile.h"

#include "tile/Frontend/Frontend.h"
#include "tile/Target/Target.h"

#include "mlir/IR/Diagnostics.h"

#include <chrono>

using namespace mlir;

namespace tile::fe {

std::string defaultCudaToolkit() { return TILE_CUDA_TOOLKIT_ROOT; }

CompiledModule compile(ModuleOp module, const CompileOptions &options,
                       const std::string &binaryName) {
  CompiledModule result;
  llvm::raw_string_ostream errors(result.error);
  // Any error reported on the way fails the compilation, even where the
  // step that reported it went on.
  unsigned reportedErrors = 0;
  ScopedDiagnosticHandler handler(module.getContext(), [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error)
      ++reportedErrors;
    printDiagnostic(errors, diag);
    return success();
  });
  std::string targetError;
  if (failed(mlir::tile::verifyTargetOptions(options.target, targetError))) {
    errors << targetError;
    return result;
  }
  std::string toolkit =
      options.cudaToolkit.empty() ? defaultCudaToolkit() : options.cudaToolkit;
  // Before anything is built: libdevice for the PTX, ptxas for the cubin.
  std::string toolkitError;
  if (failed(mlir::tile::verifyCudaToolkit(toolkit, options.emitCubin,
                                           toolkitError))) {
    errors << toolkitError << " (CompileOptions::cudaToolkit)";
    return result;
  }

  using Clock = std::chrono::steady_clock;
  auto secondsSince = [](Clock::time_point from) {
    return std::chrono::duration<double>(Clock::now() - from).count();
  };
  auto start = Clock::now();
  // lowerToNVVM verifies the copy before lowering it.
  OwningOpRef<ModuleOp> copy = module.clone();
  if (failed(mlir::tile::lowerToNVVM(*copy, options.target)))
    return result;
  result.lowerSeconds = secondsSince(start);
  auto llvmStart = Clock::now();
  FailureOr<std::string> ptx = mlir::tile::serializeGPUModule(
      *copy, mlir::tile::BinaryFormat::PTX, toolkit);
  if (failed(ptx))
    return result;
  result.ptx = std::move(*ptx);
  result.llvmSeconds = secondsSince(llvmStart);
  if (options.emitCubin) {
    auto ptxasStart = Clock::now();
    // ptxas on the PTX just made (LLVM's code generation runs once).
    std::string error;
    FailureOr<mlir::tile::PtxasOutput> cubin =
        mlir::tile::runPtxas(result.ptx, options.target.chip,
                             options.target.optLevel, toolkit, error);
    if (failed(cubin)) {
      errors << error;
      return result;
    }
    result.cubin = std::move(cubin->cubin);
    result.ptxasLog = std::move(cubin->log);
    result.ptxasSeconds = secondsSince(ptxasStart);
  }
  FailureOr<std::string> manifest =
      mlir::tile::buildKernelManifest(*copy, binaryName);
  if (failed(manifest))
    return result;
  result.manifest = std::move(*manifest);
  result.compileSeconds = secondsSince(start);
  result.ok = reportedErrors == 0;
  return result;
}

} // namespace tile::fe
