//===- TileToGPU.cpp - Lower tile kernels to gpu.func ---------------------===//
//
// Implements -convert-tile-to-gpu: each tile.kernel becomes a gpu.func kernel
// whose tile operations are unrolled per thread into scf, vector, memref and
// arith operations. The pass is the driver: per kernel it builds the function
// (KernelLowering::begin), applies the op-family patterns
// (populateTileToGPUPatterns) to the tile ops in program order, and collects
// the manifest entry (KernelLowering::finish).
//
// Types come from TileToGPUTypeConverter (TypeConverter.h), operands from
// KernelLowering::getConvertedBuffer; the patterns are nevertheless
// OpRewritePatterns applied by a PatternApplicator, not ConversionPatterns
// with (1:N, OneToNOpAdaptor) adaptors under applyPartialConversion, which
// would also visit the ops in pre-order program order. What keeps them so:
//
// - A memref is not all that a converted buffer is. The patterns read its
//   sizes as the values the prologue made (a global's dynamic sizes are the
//   kernel's index parameters; a tile's static ones one arith.constant at
//   its allocation), which a 1:N conversion (memref + one index per
//   dimension) could carry; but also the multiples the sizes are known to
//   be (`divisible` promises through tile.subview views), compile-time
//   numbers no type or value carries, and the tile type's layout
//   (#tile.swizzle, fragment layouts, #tile.slice), which the memref type
//   drops. Patterns would have to recompute them from the original values
//   at every use.
// - A view's memref type is not a function of its tile type: a tile.subview
//   or tile.stage result has its source's strides at a dynamic offset (the
//   converter answers it only for a Value). Under the driver, a converted
//   value whose type differs from convertType(its tile type) is reconciled
//   with unrealized_conversion_cast materializations.
// - tile.parallel lowers its body by cloning it per chunk and rewriting the
//   cloned tile.load/tile.store in place with the chunk's register slot and
//   row map, by direct RAUW and erase; under the driver the clones would be
//   new illegal ops legalized on their own, without that context. It also
//   lowers the copy after it (a fused store) before the walk reaches it, and
//   tile.print builds a tile.parallel and lowers it at once. tile.dim and
//   tile.thread_reduce replace their results directly.
// - The lowered tile ops stay in place, their results unreplaced, until
//   finish() erases them and reports a result or parameter that a non-tile
//   op still uses ("... cannot be lowered"); the driver would report those
//   as unresolved materializations instead, changing the diagnostics that
//   convert-tile-to-gpu-invalid.mlir pins.
//
// Each can be overcome, but the changes together (the parallel lowering
// rewritten to emit memref accesses without cloning tile ops, sizes and
// divisors carried or recomputed, materializations kept out of the output,
// the diagnostics moved) would change the IR the lit tests pin and risk the
// PTX of the library's kernels, which must stay byte-identical; so the
// applicator stays, and every operand goes through getConvertedBuffer, the
// one place the dialect conversion's adaptor would be.
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
  populateTileHopperToGPUPatterns(lowering, patterns);
  populateTileStreamKToGPUPatterns(lowering, patterns);
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
    lowering.enterGroupOf(op);
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
