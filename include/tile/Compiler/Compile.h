//===- Compile.h - The compile driver ---------------------------*- C++ -*-===//
//
// The toolchain's only compile path, used by tile-translate, tile-kernels,
// tile-tune and the frontend's compile(): lower a module at any stage (tile,
// gpu or NVVM level) with the typed pipelines of tile/Pipelines, serialize
// it (tile/Target: PTX, ptxas, fatbinary, manifest, report) and time each
// phase.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_COMPILER_COMPILE_H
#define TILE_COMPILER_COMPILE_H

#include "tile/Pipelines/Pipelines.h"
#include "tile/Target/KernelReport.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "mlir/Support/Timing.h"

#include <string>
#include <vector>

namespace mlir::tile {

/// What to compile for and what to make. Each output brings what it needs:
/// a cubin or a fat binary bring the PTX and ptxas, a report the PTX; the
/// manifest alone needs no toolkit.
struct CompileOptions {
  /// The target of a module that is not at the NVVM level yet; an
  /// NVVM-level module keeps its own #nvvm.target.
  TargetOptions target;
  /// CUDA toolkit root: libdevice for the PTX, ptxas, fatbinary.
  std::string cudaToolkit;
  bool emitPTX = true;
  bool emitCubin = true;
  bool emitFatbin = false;
  bool emitManifest = true;
  /// Per kernel: PTX instruction counts, launch resources, warnings, and
  /// ptxas' registers and spills when ptxas runs (a cubin or fat binary).
  bool emitReport = false;
  /// Accept ptxas' performance-loss lines (C75xx: serialized wgmma, ignored
  /// setmaxnreg) for an arch-specific chip (sm_90a) instead of failing; the
  /// report lists them as warnings either way.
  bool allowPerformanceLoss = false;
  /// Fail when ptxas spills registers in a kernel (its -v log's spill
  /// stores): the rule of the kernel library's sm_90a kernels, whose
  /// accumulators leave no room for spills in the main loop.
  bool refuseSpills = false;
  /// The binary file the manifest names ("" for none).
  std::string binaryName;

  bool needsPTX() const {
    return emitPTX || emitCubin || emitFatbin || emitReport;
  }
  bool needsPtxas() const { return emitCubin || emitFatbin; }
};

/// Wall time of each phase, in seconds (0 for a phase that did not run).
struct CompileTimings {
  double lower = 0;     // MLIR: the pipelines to the NVVM level
  double llvm = 0;      // LLVM: NVVM-level module -> PTX
  double ptxas = 0;     // PTX -> cubin
  double fatbinary = 0; // cubin + PTX -> fat binary
  double total = 0;     // all of compile(), the manifest and report included
};

/// What compile() made; the strings that were not asked for stay empty.
struct CompileResult {
  std::string ptx;
  std::string cubin;
  std::string fatbin;
  /// ptxas -v output (registers, spills per kernel) when ptxas ran.
  std::string ptxasLog;
  /// The JSON kernel manifest (docs/Runtime.md).
  std::string manifest;
  /// One per kernel with emitReport.
  std::vector<KernelReport> reports;
  CompileTimings timings;
};

/// Checks the options before anything is built: the target
/// (verifyTargetOptions) and, for the outputs asked for, the toolkit
/// (verifyCudaToolkit). Fails with the reason in `error`; a toolkit problem
/// ends with " (`toolkitSetting`)", the name under which the caller's user
/// gave the toolkit (e.g. "--cuda-toolkit").
LogicalResult verifyCompileOptions(const CompileOptions &options,
                                   StringRef toolkitSetting,
                                   std::string &error);

/// Brings `module` to the NVVM level: runs `tile-to-nvvm` when it still holds
/// tile kernels, `tile-gpu-to-nvvm` when its gpu.module has no target yet,
/// and nothing when it is already lowered (but checks its target). Verifies
/// the input and the IR after every tile pass; an error reported by any pass
/// fails it. With `timing`, each pass is timed under it.
LogicalResult lowerToNVVM(ModuleOp module, const TargetOptions &options,
                          TimingScope *timing = nullptr);

/// Compiles `module` in place (it is left at the NVVM level): checks the
/// options, lowers it, and makes what `options` asks for. Diagnostics go to
/// the context's handlers; any error reported on the way fails it, also
/// where the step that reported it went on. With `timing` (a tool's
/// --mlir-timing), each phase and each pass of the lowering is also timed
/// under it; CompileResult::timings are kept either way.
FailureOr<CompileResult> compile(ModuleOp module, const CompileOptions &options,
                                 TimingScope *timing = nullptr);

} // namespace mlir::tile

#endif // TILE_COMPILER_COMPILE_H
