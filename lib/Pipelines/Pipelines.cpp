//===- Pipelines.cpp - Named tile compilation pipelines -------------------===//
//
// The pipelines are built in C++: each pass from its constructor and its
// typed options struct, so that a misspelt pass or option is a compile
// error, not a run-time parse failure. `tile-opt --dump-pass-pipeline`
// prints them (docs/Pipelines.md shows the output). Their target is checked
// before anything is built for it.
//
//===----------------------------------------------------------------------===//

#include "tile/Pipelines/Pipelines.h"

#include "tile/Conversion/Passes.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/NVGPUToNVVM/NVGPUToNVVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <atomic>

using namespace mlir;
using namespace mlir::tile;

namespace {
/// A chip this compiler supports and the oldest PTX ISA version that has it.
struct SupportedChip {
  const char *name;
  unsigned minPtx; // 78 = PTX 7.8
};
} // namespace

// The chips of sm_80 or newer (mma.sync m16n8k16 with bf16, cp.async,
// ldmatrix) that both LLVM 22's NVPTX back end and ptxas 13 know (LLVM's
// sm_101 is ptxas' sm_110), each with LLVM's minimum PTX version.
static const SupportedChip kSupportedChips[] = {
    {"sm_80", 70},   {"sm_86", 71},   {"sm_87", 74},   {"sm_88", 90},
    {"sm_89", 78},   {"sm_90", 78},   {"sm_90a", 80},  {"sm_100", 86},
    {"sm_100a", 86}, {"sm_100f", 88}, {"sm_103", 88},  {"sm_103a", 88},
    {"sm_103f", 88}, {"sm_110", 90},  {"sm_110a", 90}, {"sm_110f", 90},
    {"sm_120", 87},  {"sm_120a", 87}, {"sm_120f", 88}, {"sm_121", 88},
    {"sm_121a", 88}, {"sm_121f", 88}};

// The PTX ISA versions LLVM 22's NVPTX back end can write.
static const unsigned kPtxVersions[] = {
    32, 40, 41, 42, 43, 50, 60, 61, 62, 63, 64, 65, 70, 71, 72, 73,
    74, 75, 76, 77, 78, 80, 81, 82, 83, 84, 85, 86, 87, 88, 90};

static std::string formatPtx(unsigned version) {
  return llvm::formatv("{0}.{1}", version / 10, version % 10).str();
}

LogicalResult tile::verifyTarget(StringRef chip, StringRef features,
                                 std::string &error) {
  const SupportedChip *found = llvm::find_if(
      kSupportedChips, [&](const SupportedChip &c) { return chip == c.name; });
  if (found == std::end(kSupportedChips)) {
    // "sm_80, ..., sm_90[a], sm_100[a|f], ...": the variants with their base.
    std::string names;
    for (const SupportedChip &c : kSupportedChips) {
      StringRef name = c.name;
      if (name.back() == 'a' || name.back() == 'f') {
        if (names.back() == ']')
          names.insert(names.size() - 1, std::string("|") + name.back());
        else
          names += std::string("[") + name.back() + "]";
        continue;
      }
      names += (names.empty() ? "" : ", ") + name.str();
    }
    unsigned version = 0;
    bool older = chip.starts_with("sm_") &&
                 !chip.drop_front(3).getAsInteger(10, version) && version < 80;
    error = llvm::formatv("expected a target chip of sm_80 or newer ({0}), "
                          "but got '{1}'{2}",
                          names, chip,
                          older ? ", which lacks mma.sync m16n8k16 and "
                                  "cp.async (the lowering uses both)"
                                : "")
                .str();
    return failure();
  }
  if (features.empty())
    return success();
  unsigned ptx = 0;
  StringRef version = features;
  if (!version.consume_front("+ptx") || version.getAsInteger(10, ptx) ||
      !llvm::is_contained(kPtxVersions, ptx)) {
    error = ("expected target features '+ptxNN' (a PTX ISA version that "
             "LLVM knows, e.g. +ptx80) or none, but got '" +
             features + "'")
                .str();
    return failure();
  }
  if (ptx < found->minPtx) {
    error = llvm::formatv("expected PTX {0} or newer for {1} (features "
                          "+ptx{2}), but got +ptx{3} (PTX {4})",
                          formatPtx(found->minPtx), chip, found->minPtx, ptx,
                          formatPtx(ptx))
                .str();
    return failure();
  }
  return success();
}

LogicalResult tile::verifyTargetOptions(const TargetOptions &options,
                                        std::string &error) {
  return verifyTarget(options.chip, options.features, error);
}

namespace {
/// One pass of stage 1's lowering: its name (for stop-after) and its
/// constructor.
struct LoweringPass {
  StringRef name;
  std::unique_ptr<Pass> (*create)();
};
} // namespace

/// Each pass records its decisions in the IR for the ones after it: the
/// fused stores decide where a loop's barrier goes, the offsets where a
/// reused tile needs one; the conversion reads them all.
static ArrayRef<LoweringPass> getLoweringPasses() {
  static const LoweringPass passes[] = {
      {"tile-pipeline", [] { return createTilePipeline(); }},
      {"tile-assign-layouts", [] { return createTileAssignLayouts(); }},
      {"tile-warp-specialize", [] { return createTileWarpSpecialize(); }},
      {"tile-fuse-stores", [] { return createTileFuseStores(); }},
      {"tile-plan-shared-memory", [] { return createTilePlanSharedMemory(); }},
      {"tile-insert-barriers", [] { return createTileInsertBarriers(); }},
      {"convert-tile-to-gpu", [] { return createConvertTileToGPU(); }}};
  return passes;
}

SmallVector<StringRef> tile::getTileLoweringPasses() {
  return llvm::map_to_vector(
      getLoweringPasses(), [](const LoweringPass &pass) { return pass.name; });
}

void tile::buildTileLoweringPipeline(OpPassManager &pm) {
  for (const LoweringPass &pass : getLoweringPasses())
    pm.addPass(pass.create());
}

LogicalResult tile::buildTileToGPUPipelineUpTo(OpPassManager &pm,
                                               StringRef stopAfter,
                                               std::string &error) {
  ArrayRef<LoweringPass> passes = getLoweringPasses();
  const LoweringPass *last = llvm::find_if(
      passes, [&](const LoweringPass &pass) { return pass.name == stopAfter; });
  if (last == passes.end()) {
    error = ("expected stop-after to name a pass of the pipeline (" +
             llvm::join(getTileLoweringPasses(), ", ") + "), but got '" +
             stopAfter + "'")
                .str();
    return failure();
  }
  for (const LoweringPass &pass : passes.take_front(last - passes.begin() + 1))
    pm.addPass(pass.create());
  return success();
}

void tile::buildTileCleanupPipeline(OpPassManager &pm) {
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void tile::buildTileToGPUPipeline(OpPassManager &pm) {
  buildTileLoweringPipeline(pm);
  buildTileCleanupPipeline(pm);
}

void tile::buildGPUToNVVMPipeline(OpPassManager &pm,
                                  const TargetOptions &options) {
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = options.features;
  target.optLevel = options.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(target));
  // By name: the gpu.module's class would bring GPUDialect.h into this file
  // for nothing but the nesting.
  OpPassManager &gpuModule = pm.nest("gpu.module");
  gpuModule.addPass(createConvertNVGPUToNVVMPass());
  gpuModule.addPass(createConvertNVVMToLLVMPass());
  gpuModule.addPass(createSCFToControlFlowPass());
  gpuModule.addPass(memref::createExpandStridedMetadataPass());
  gpuModule.addPass(createLowerAffinePass());
  // Before the libdevice calls: fastmath<afn> ops to single instructions.
  gpuModule.addPass(createTileApproximateMath());
  // Bare pointers: one kernel parameter per memref instead of 3 + 2 * rank
  // (the sizes travel as separate parameters).
  ConvertGpuOpsToNVVMOpsOptions gpuToNVVM;
  gpuToNVVM.useBarePtrCallConv = true;
  gpuModule.addPass(createConvertGpuOpsToNVVMOps(gpuToNVVM));
  gpuModule.addPass(createCanonicalizerPass());
  gpuModule.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  // Changes nothing in a module without TMA copies.
  pm.addPass(createTileMarkGridConstants());
}

void tile::buildTileToNVVMPipeline(OpPassManager &pm,
                                   const TargetOptions &options) {
  buildTileToGPUPipeline(pm);
  buildGPUToNVVMPipeline(pm, options);
}

LogicalResult tile::addTargetPipeline(OpPassManager &pm,
                                      const TargetOptions &options,
                                      bool fromTile,
                                      llvm::raw_ostream &errors) {
  std::string error;
  if (failed(verifyTargetOptions(options, error))) {
    errors << error;
    return failure();
  }
  if (fromTile)
    buildTileToNVVMPipeline(pm, options);
  else
    buildGPUToNVVMPipeline(pm, options);
  return success();
}

//===----------------------------------------------------------------------===//
// Errors mean failure
//===----------------------------------------------------------------------===//

namespace {
/// Counts the error diagnostics reported in a context while it is alive.
class ErrorCounter {
public:
  explicit ErrorCounter(MLIRContext *context) : context(context) {
    handler = context->getDiagEngine().registerHandler([this](Diagnostic &d) {
      if (d.getSeverity() == DiagnosticSeverity::Error)
        ++errors;
      return failure(); // Reported by the handlers registered before.
    });
  }
  ErrorCounter(const ErrorCounter &) = delete;
  ErrorCounter &operator=(const ErrorCounter &) = delete;
  ~ErrorCounter() { context->getDiagEngine().eraseHandler(handler); }
  unsigned count() const { return errors; }

private:
  MLIRContext *context;
  DiagnosticEngine::HandlerID handler;
  std::atomic<unsigned> errors{0};
};

/// The last pass: fails when an error was reported while the passes before
/// it ran (the errors are printed already; this makes the run fail).
struct ErrorDiagnosticsCheckPass
    : public PassWrapper<ErrorDiagnosticsCheckPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ErrorDiagnosticsCheckPass)

  explicit ErrorDiagnosticsCheckPass(std::shared_ptr<ErrorCounter> counter)
      : counter(std::move(counter)) {}
  StringRef getArgument() const override {
    return "tile-fail-on-reported-errors";
  }
  // For --mlir-timing and crash reproducers (the default is the C++ type).
  StringRef getName() const override { return "ErrorDiagnosticsCheck"; }
  StringRef getDescription() const override {
    return "fail when a pass before reported an error but succeeded";
  }
  void runOnOperation() override {
    if (counter->count() != 0)
      signalPassFailure();
  }

  std::shared_ptr<ErrorCounter> counter;
};
} // namespace

void tile::addErrorDiagnosticsCheck(PassManager &pm) {
  pm.addPass(std::make_unique<ErrorDiagnosticsCheckPass>(
      std::make_shared<ErrorCounter>(pm.getContext())));
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

/// Registers a pipeline with TargetPipelineOptions whose target is checked
/// first: an unsupported chip or malformed features fail the pipeline's
/// parsing (and so the tool).
static void registerTargetPipeline(StringRef name, StringRef description,
                                   bool fromTile) {
  registerPassPipeline(
      name, description,
      [name = name.str(),
       fromTile](OpPassManager &pm, StringRef text,
                 function_ref<LogicalResult(const Twine &)> errorHandler)
          -> LogicalResult {
        TargetPipelineOptions options;
        if (failed(options.parseFromString(text)))
          return failure();
        std::string errors;
        llvm::raw_string_ostream os(errors);
        if (failed(addTargetPipeline(pm, options.toTargetOptions(), fromTile,
                                     os))) {
          // Named by the pipeline (the option handler's error has no
          // location to give).
          llvm::errs() << "error: " << name << ": " << errors << "\n";
          return failure();
        }
        return success();
      },
      [](function_ref<void(const detail::PassOptions &)> optHandler) {
        optHandler(TargetPipelineOptions());
      });
}

void tile::registerTilePipelines() {
  registerPassPipeline(
      "tile-to-gpu", "Stage 1: tile -> gpu.func over scf/vector/memref/arith",
      [](OpPassManager &pm, StringRef text,
         function_ref<LogicalResult(const Twine &)> errorHandler)
          -> LogicalResult {
        // `stop-after=<pass>`: the passes up to that one, without cleanup.
        if (text.empty()) {
          buildTileToGPUPipeline(pm);
          return success();
        }
        StringRef stopAfter = text.trim();
        if (!stopAfter.consume_front("stop-after="))
          return errorHandler(
              "tile-to-gpu: expected the option stop-after=<pass>, but got '" +
              text + "'");
        std::string error;
        if (failed(buildTileToGPUPipelineUpTo(pm, stopAfter, error)))
          return errorHandler("tile-to-gpu: " + error);
        return success();
      },
      [](function_ref<void(const detail::PassOptions &)>) {});
  registerTargetPipeline(
      "tile-gpu-to-nvvm",
      "Stage 2: attach the NVVM target and lower gpu.module to NVVM/LLVM",
      /*fromTile=*/false);
  registerTargetPipeline(
      "tile-to-nvvm",
      "The whole lowering: tile -> gpu -> NVVM, ready for tile-translate",
      /*fromTile=*/true);
}
