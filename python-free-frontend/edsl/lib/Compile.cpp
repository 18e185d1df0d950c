//===- Compile.cpp - Compile frontend programs to cubins ------------------===//
//
// The frontend's path to binaries is the compile driver's (the one
// tile-translate takes): this only copies the module, collects the
// diagnostics as text and maps the driver's result.
//
//===----------------------------------------------------------------------===//

#include "tile/Frontend/Compile.h"

#include "tile/Compiler/Compile.h"
#include "tile/Frontend/Frontend.h"

#include "mlir/IR/Diagnostics.h"

using namespace mlir;

namespace tile::fe {

std::string defaultCudaToolkit() { return TILE_CUDA_TOOLKIT_ROOT; }

CompiledModule compile(ModuleOp module, const CompileOptions &options,
                       const std::string &binaryName) {
  CompiledModule result;
  llvm::raw_string_ostream errors(result.error);
  ScopedDiagnosticHandler handler(module.getContext(), [&](Diagnostic &diag) {
    printDiagnostic(errors, diag);
    return success();
  });
  mlir::tile::CompileOptions driverOptions;
  driverOptions.target = options.target;
  driverOptions.cudaToolkit =
      options.cudaToolkit.empty() ? defaultCudaToolkit() : options.cudaToolkit;
  driverOptions.emitCubin = options.emitCubin;
  driverOptions.refuseSpills = options.refuseSpills;
  driverOptions.emitReport = true; // a scan of the PTX: cheap
  driverOptions.binaryName = binaryName;
  // Before anything is built, with the setting's name in the message.
  std::string error;
  if (failed(mlir::tile::verifyCompileOptions(
          driverOptions, "CompileOptions::cudaToolkit", error))) {
    errors << error;
    return result;
  }
  // The driver lowers in place; the caller's module stays as it is.
  OwningOpRef<ModuleOp> copy = module.clone();
  FailureOr<mlir::tile::CompileResult> compiled =
      mlir::tile::compile(*copy, driverOptions);
  if (failed(compiled))
    return result;
  result.ok = true;
  result.ptx = std::move(compiled->ptx);
  result.cubin = std::move(compiled->cubin);
  result.manifest = std::move(compiled->manifest);
  result.ptxasLog = std::move(compiled->ptxasLog);
  result.kernels = std::move(compiled->reports);
  result.compileSeconds = compiled->timings.total;
  result.lowerSeconds = compiled->timings.lower;
  result.llvmSeconds = compiled->timings.llvm;
  result.ptxasSeconds = compiled->timings.ptxas;
  return result;
}

} // namespace tile::fe
