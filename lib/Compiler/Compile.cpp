//===- Compile.cpp - The compile driver -----------------------------------===//
//
// One path from a module to binaries: the checks up front, the typed
// pipelines to the NVVM level, then lib/Target's serializers, each phase
// timed. LLVM's code generation runs once: ptxas and fatbinary work on the
// PTX it made, and the report reads that PTX and ptxas' own -v log.
//
//===----------------------------------------------------------------------===//

#include "tile/Compiler/Compile.h"

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Target/Target.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"

#include <chrono>
#include <map>

using namespace mlir;
using namespace mlir::tile;

LogicalResult tile::verifyCompileOptions(const CompileOptions &options,
                                         StringRef toolkitSetting,
                                         std::string &error) {
  if (failed(verifyTargetOptions(options.target, error)))
    return failure();
  if (!options.needsPTX())
    return success();
  if (failed(verifyCudaToolkit(options.cudaToolkit, options.needsPtxas(),
                               error))) {
    if (!toolkitSetting.empty())
      error += (" (" + toolkitSetting + ")").str();
    return failure();
  }
  return success();
}

/// A scope nested in `parent` named `name`, or one that times nothing.
static TimingScope nest(TimingScope *parent, StringRef name) {
  return parent ? parent->nest(name) : TimingScope();
}

LogicalResult tile::lowerToNVVM(ModuleOp module, const TargetOptions &options,
                                TimingScope *timing) {
  // The input first: a module built in C++ (the frontend) was never
  // verified, and the passes assume valid IR.
  if (failed(verify(module)))
    return failure();
  auto gpuModules = module.getOps<gpu::GPUModuleOp>();
  bool fromTile = !module.getOps<KernelOp>().empty();
  if (!fromTile && gpuModules.empty())
    return module.emitError("expected tile kernels or a gpu.module to "
                            "compile, but the module has neither");
  if (!fromTile && (*gpuModules.begin()).getTargetsAttr())
    return verifyNVVMTargets(module);
  std::string error;
  if (failed(verifyTargetOptions(options, error)))
    return module.emitError(error);
  MLIRContext *context = module.getContext();
  // Where the IR is verified: after each of tile's own passes, whose
  // tile-level mistakes the lowering erases (no later check could see
  // them), and once after the upstream passes that follow (canonicalize,
  // cse, the NVVM chain), which keep verifiable IR verifiable; verifying
  // after each of those too made the lowering ~45% slower (0.18 s -> 0.26 s
  // of CPU for the largest attention kernel, tile-opt --verify-each) for
  // nothing the final verification does not catch. tile-opt verifies after
  // every pass.
  if (fromTile) {
    PassManager tilePasses(context);
    TimingScope tileTiming = nest(timing, "tile passes");
    tilePasses.enableTiming(tileTiming);
    buildTileLoweringPipeline(tilePasses);
    addErrorDiagnosticsCheck(tilePasses);
    if (failed(tilePasses.run(module)))
      return failure();
  }
  PassManager upstreamPasses(context);
  TimingScope upstreamTiming = nest(timing, "upstream passes");
  upstreamPasses.enableTiming(upstreamTiming);
  upstreamPasses.enableVerifier(false);
  if (fromTile)
    buildTileCleanupPipeline(upstreamPasses);
  buildGPUToNVVMPipeline(upstreamPasses, options);
  addErrorDiagnosticsCheck(upstreamPasses);
  if (failed(upstreamPasses.run(module)))
    return failure();
  return verify(module);
}

namespace {
using Clock = std::chrono::steady_clock;

/// Seconds since `from`.
double secondsSince(Clock::time_point from) {
  return std::chrono::duration<double>(Clock::now() - from).count();
}
} // namespace

/// The steps of compile() after the checks; fails on the first step that
/// fails.
static LogicalResult compileChecked(ModuleOp module,
                                    const CompileOptions &options,
                                    TimingScope *timing,
                                    CompileResult &result) {
  // What the tile ops ask for, read before they are lowered.
  std::map<std::string, KernelExpectations> expected;
  if (options.emitReport)
    expected = collectExpectations(module);

  // wgmma and setmaxnreg exist only on sm_90a (not sm_90, and Blackwell has
  // no wgmma): say so before the lowering fails on an NVVM op.
  StringRef chip = options.target.chip;
  WalkResult hopper = module.walk([&](KernelOp kernel) {
    if (!kernel.getWarpSpecialized() || chip == "sm_90a")
      return WalkResult::advance();
    kernel.emitOpError("is warp_specialized (TMA, wgmma, setmaxnreg), which "
                       "needs the chip sm_90a, but the target is ")
        << chip;
    return WalkResult::interrupt();
  });
  if (hopper.wasInterrupted())
    return failure();

  Clock::time_point start = Clock::now();
  TimingScope phase = nest(timing, "lower to NVVM");
  if (failed(lowerToNVVM(module, options.target, &phase)))
    return failure();
  result.timings.lower = secondsSince(start);

  PTXModule ptx;
  if (options.needsPTX()) {
    Clock::time_point llvmStart = Clock::now();
    phase = nest(timing, "LLVM to PTX");
    FailureOr<PTXModule> serialized =
        serializeToPTX(module, options.cudaToolkit);
    if (failed(serialized))
      return failure();
    ptx = std::move(*serialized);
    result.timings.llvm = secondsSince(llvmStart);
  }
  std::string error;
  if (options.needsPtxas()) {
    // The chip and -O of the module's #nvvm.target: the options' for a
    // module compiled from tile or gpu level, its own for an NVVM-level one.
    Clock::time_point ptxasStart = Clock::now();
    phase = nest(timing, "ptxas");
    FailureOr<PtxasOutput> cubin =
        runPtxas(ptx.ptx, ptx.chip, ptx.optLevel, options.cudaToolkit, error);
    if (failed(cubin))
      return module.emitError(error);
    // On sm_90a the kernel was written for wgmma's asynchrony: a
    // serialized or fenced wgmma, or an ignored setmaxnreg, is a silent
    // downgrade, refused unless asked for.
    if (StringRef(ptx.chip).ends_with("a") && !options.allowPerformanceLoss) {
      std::vector<std::string> losses = findPtxasPerformanceLoss(cubin->log);
      if (!losses.empty()) {
        InFlightDiagnostic diag = emitError(module.getLoc())
                                  << "ptxas reports " << losses.size()
                                  << " performance loss(es) on " << ptx.chip
                                  << " (allowed with --allow-performance-loss)";
        for (const std::string &loss : losses)
          diag.attachNote() << loss;
        return diag;
      }
    }
    if (options.refuseSpills) {
      std::vector<KernelReport> spilled = analyzePtx(ptx.ptx);
      addPtxasInfo(spilled, cubin->log);
      for (const KernelReport &kernel : spilled)
        if (kernel.spillStores.value_or(0) > 0)
          return emitError(module.getLoc())
                 << "expected no register spills (refused with "
                    "--no-spills), but ptxas spills "
                 << *kernel.spillStores << " bytes in '" << kernel.name
                 << "' at " << kernel.registers.value_or(0) << " registers";
    }
    result.cubin = std::move(cubin->cubin);
    result.ptxasLog = std::move(cubin->log);
    result.timings.ptxas = secondsSince(ptxasStart);
  }
  if (options.emitFatbin) {
    Clock::time_point fatbinStart = Clock::now();
    phase = nest(timing, "fatbinary");
    FailureOr<std::string> fatbin = runFatbinary(
        result.cubin, ptx.ptx, ptx.chip, options.cudaToolkit, error);
    if (failed(fatbin))
      return module.emitError(error);
    result.fatbin = std::move(*fatbin);
    result.timings.fatbinary = secondsSince(fatbinStart);
  }
  if (options.emitReport) {
    phase = nest(timing, "report");
    result.reports = analyzePtx(ptx.ptx);
    addPtxasInfo(result.reports, result.ptxasLog);
    addLaunchResources(result.reports, module);
    addWarnings(result.reports, expected);
  }
  if (options.emitManifest) {
    phase = nest(timing, "manifest");
    FailureOr<std::string> manifest =
        buildKernelManifest(module, options.binaryName);
    if (failed(manifest))
      return failure();
    result.manifest = std::move(*manifest);
  }
  phase.stop();
  if (options.emitPTX)
    result.ptx = std::move(ptx.ptx);
  result.timings.total = secondsSince(start);
  return success();
}

FailureOr<CompileResult> tile::compile(ModuleOp module,
                                       const CompileOptions &options,
                                       TimingScope *timing) {
  // Any error reported on the way fails the compilation, even where the
  // step that reported it went on. Counted here, printed by the handlers
  // registered before.
  unsigned errors = 0;
  ScopedDiagnosticHandler counter(module.getContext(), [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error)
      ++errors;
    return failure();
  });
  std::string error;
  if (failed(verifyCompileOptions(options, /*toolkitSetting=*/"", error)))
    return module.emitError(error);
  CompileResult result;
  if (failed(compileChecked(module, options, timing, result)) || errors != 0)
    return failure();
  return result;
}
