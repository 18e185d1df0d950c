//===- TileToGPU.cpp - Lower tile kernels to gpu.func ---------------------===//
//
// Implements -convert-tile-to-gpu: each tile.kernel becomes a gpu.func kernel
// whose tile operations are unrolled per thread into scf, vector, memref and
// arith operations. The pass is the driver: per kernel it builds the function
// (KernelLowering::begin), applies the op-family patterns
// (populateTileToGPUPatterns) to the tile ops in program order, and collects
// the manifest entry (KernelLowering::finish).
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/TileToGPU/TileToGPU.h"
#include "LoweringState.h"
#include "tile/Conversion/Passes.h"

// The pass's dependent dialects (Passes.td) must be complete here.
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Rewrite/PatternApplicator.h"

namespace mlir::tile {
#define GEN_PASS_DEF_CONVERTTILETOGPU
#include "tile/Conversion/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

void mlir::tile::populateTileToGPUPatterns(lowering::KernelLowering &lowering,
                                           RewritePatternSet &patterns) {
  populateTileKernelToGPUPatterns(lowering, patterns);
  populateTileMemoryToGPUPatterns(lowering, patterns);
  populateTileParallelToGPUPatterns(lowering, patterns);
  populateTileReduceToGPUPatterns(lowering, patterns);
  populateTileGemmToGPUPatterns(lowering, patterns);
  populateTilePrintToGPUPatterns(lowering, patterns);
}

namespace {

/// Lowers one tile.kernel into a gpu.func of `gpuModule` and returns its
/// manifest entry.
///
/// The tile ops are lowered in program order, each once, by a
/// PatternApplicator rather than by the greedy or the dialect-conversion
/// driver: the patterns emit into the function as they go and read what the
/// earlier ones recorded (a buffer's storage, the async groups committed so
/// far, the prefetch registers of an accumulator), so the order is part of
/// the output; and a lowered op stays in place, its results unreplaced, until
/// finish() erases them all.
FailureOr<LaunchAttr> lowerKernel(KernelOp kernel, gpu::GPUModuleOp gpuModule) {
  lowering::KernelLowering lowering(kernel, gpuModule);
  if (failed(lowering.begin()))
    return failure();
  RewritePatternSet patterns(kernel.getContext());
  populateTileToGPUPatterns(lowering, patterns);
  FrozenRewritePatternSet frozen(std::move(patterns));
  PatternApplicator applicator(frozen);
  applicator.applyDefaultCostModel();

  // Tile ops outside tile.parallel, in program order (tile.parallel lowers
  // its own body).
  SmallVector<Operation *> tileOps;
  lowering.func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<ParallelOp>(op)) {
      tileOps.push_back(op);
      return WalkResult::skip();
    }
    if (isa_and_nonnull<TileDialect>(op->getDialect()))
      tileOps.push_back(op);
    return WalkResult::advance();
  });
  for (Operation *op : tileOps) {
    // Already lowered, chunk by chunk, inside the tile.parallel before it.
    if (lowering.isLowered(op))
      continue;
    lowering.builder.setInsertionPoint(op);
    // A pattern that fails has said why on the op.
    bool patternFailed = false;
    if (succeeded(applicator.matchAndRewrite(
            op, lowering.builder, /*canApply=*/{},
            /*onFailure=*/[&](const Pattern &) { patternFailed = true; })))
      continue;
    if (!patternFailed)
      op->emitOpError("cannot be lowered outside tile.parallel");
    return failure();
  }
  return lowering.finish(tileOps);
}

struct ConvertTileToGPUPass
    : public tile::impl::ConvertTileToGPUBase<ConvertTileToGPUPass> {
  using ConvertTileToGPUBase::ConvertTileToGPUBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<KernelOp> kernels(module.getOps<KernelOp>());
    if (kernels.empty())
      return;
    OpBuilder builder(module.getContext());
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    builder.getUnitAttr());
    builder.setInsertionPointToEnd(module.getBody());
    auto gpuModule =
        gpu::GPUModuleOp::create(builder, module.getLoc(), "tile_kernels");
    SmallVector<Attribute> manifests;
    for (KernelOp kernel : kernels) {
      FailureOr<LaunchAttr> manifest = lowerKernel(kernel, gpuModule);
      if (failed(manifest))
        return signalPassFailure();
      manifests.push_back(*manifest);
      kernel.erase();
    }
    gpuModule->setAttr("tile.kernels", builder.getArrayAttr(manifests));
    if (flushDenormals) {
      // libdevice reads this flag (NVVMReflect): exp2f becomes one
      // ex2.approx.ftz (MUFU.EX2) instead of the IEEE form's four
      // instructions, the inner step of every softmax.
      builder.setInsertionPointToStart(gpuModule.getBody());
      MLIRContext *ctx = module.getContext();
      LLVM::ModuleFlagsOp::create(
          builder, module.getLoc(),
          builder.getArrayAttr({LLVM::ModuleFlagAttr::get(
              ctx, LLVM::ModFlagBehavior::Override,
              builder.getStringAttr("nvvm-reflect-ftz"),
              builder.getI32IntegerAttr(1))}));
    }
  }
};

} // namespace
