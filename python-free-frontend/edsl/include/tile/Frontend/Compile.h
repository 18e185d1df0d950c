//===- Compile.h - Compile frontend programs to cubins ----------*- C++ -*-===//
//
// Compiles a program built with the frontend through the compile driver
// (tile/Compiler/Compile.h) and returns its PTX, cubin, kernel manifest and
// kernel reports, with the time of each phase; errors as text.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_FRONTEND_COMPILE_H
#define TILE_FRONTEND_COMPILE_H

#include "tile/Pipelines/Pipelines.h"
#include "tile/Target/KernelReport.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <vector>

namespace tile::fe {

struct CompileOptions {
  mlir::tile::TargetOptions target;
  /// CUDA toolkit root: ptxas for cubins, libdevice for math functions;
  /// empty: the one found at build time (defaultCudaToolkit()). compile()
  /// fails up front when it lacks either (mlir::tile::verifyCudaToolkit).
  std::string cudaToolkit;
  bool emitCubin = true;
  /// Fail when ptxas spills registers (mlir::tile::CompileOptions).
  bool refuseSpills = false;
};

struct CompiledModule {
  bool ok = false;
  /// Diagnostics when !ok.
  std::string error;
  std::string ptx;
  std::string cubin;
  std::string manifest;
  /// ptxas -v output (registers, spills per kernel) when a cubin was made.
  std::string ptxasLog;
  /// Per kernel: PTX instruction counts (the driver's one count), ptxas'
  /// registers and spills when a cubin was made, warnings.
  std::vector<mlir::tile::KernelReport> kernels;
  /// Wall time of tile IR -> PTX -> cubin, and of its three phases: the
  /// MLIR lowering to NVVM, LLVM's code generation to PTX, and ptxas.
  double compileSeconds = 0;
  double lowerSeconds = 0;
  double llvmSeconds = 0;
  double ptxasSeconds = 0;
};

/// The toolkit found at build time (configurable with -DCUDAToolkit_ROOT).
std::string defaultCudaToolkit();

/// Compiles a copy of `module` (tile level); `module` is left unchanged.
/// `binaryName` is recorded in the manifest.
CompiledModule compile(mlir::ModuleOp module, const CompileOptions &options,
                       const std::string &binaryName = "");

} // namespace tile::fe

#endif // TILE_FRONTEND_COMPILE_H
