//===- TileToGPU.h - Patterns of -convert-tile-to-gpu -----------*- C++ -*-===//
//
// The op-family patterns that lower the tile ops of one tile.kernel into the
// body of its gpu.func. They share the kernel's lowering state (the function,
// where each converted buffer lives, the shared-memory plan), which the pass
// creates per kernel; a pattern set is therefore built for one kernel.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_TILETOGPU_TILETOGPU_H
#define TILE_CONVERSION_TILETOGPU_TILETOGPU_H

namespace mlir {
class RewritePatternSet;
namespace tile::lowering {
class KernelLowering;
} // namespace tile::lowering
} // namespace mlir

namespace mlir::tile {

/// tile.barrier (the kernel's function and manifest are built by the state).
void populateTileKernelToGPUPatterns(lowering::KernelLowering &lowering,
                                     RewritePatternSet &patterns);
/// Allocation, copies (synchronous and cp.async), async groups, stages,
/// fill/clear, dim and subview.
void populateTileMemoryToGPUPatterns(lowering::KernelLowering &lowering,
                                     RewritePatternSet &patterns);
/// tile.parallel with the element accesses of its body.
void populateTileParallelToGPUPatterns(lowering::KernelLowering &lowering,
                                       RewritePatternSet &patterns);
/// tile.reduce (shuffles and a shared scratch) and tile.thread_reduce.
void populateTileReduceToGPUPatterns(lowering::KernelLowering &lowering,
                                     RewritePatternSet &patterns);
/// tile.gemm and tile.gemm_prefetch: ldmatrix and mma.sync.
void populateTileGemmToGPUPatterns(lowering::KernelLowering &lowering,
                                   RewritePatternSet &patterns);
/// The sm_90a family: TMA copies, mbarriers, tile.gemm async and
/// tile.gemm_wait (wgmma), tile.warp_specialize (setmaxnreg roles).
void populateTileHopperToGPUPatterns(lowering::KernelLowering &lowering,
                                     RewritePatternSet &patterns);
/// tile.stream_k_fixup: the split tiles of a stream_k kernel.
void populateTileStreamKToGPUPatterns(lowering::KernelLowering &lowering,
                                      RewritePatternSet &patterns);
/// tile.print: gpu.printf from the chosen block and thread or warp.
void populateTilePrintToGPUPatterns(lowering::KernelLowering &lowering,
                                    RewritePatternSet &patterns);
/// All of the above.
void populateTileToGPUPatterns(lowering::KernelLowering &lowering,
                               RewritePatternSet &patterns);

} // namespace mlir::tile

#endif // TILE_CONVERSION_TILETOGPU_TILETOGPU_H
