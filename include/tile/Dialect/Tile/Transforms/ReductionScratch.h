//===- ReductionScratch.h - Cross-warp scratch of tile.reduce ---*- C++ -*-===//
//
// How much shared memory a tile.reduce needs for its cross-warp step: the
// rule by which -tile-plan-shared-memory places the scratch and
// convert-tile-to-gpu checks and uses what it placed.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_TRANSFORMS_REDUCTIONSCRATCH_H
#define TILE_DIALECT_TILE_TRANSFORMS_REDUCTIONSCRATCH_H

#include "tile/Dialect/Tile/IR/Tile.h"

namespace mlir::tile {

/// The f32 elements of the cross-warp scratch of `op` in a kernel of
/// `numThreads` threads: where a row of its source spans several warps,
/// each warp leaves one partial value per row slot and row of the warp
/// (slots x rowsPerWarp x warps); 0 where the rows stay within a warp, or
/// the source has no layout the reduction supports (the conversion says
/// why).
int64_t getReduceScratchElements(ReduceOp op, int64_t numThreads);

} // namespace mlir::tile

#endif // TILE_DIALECT_TILE_TRANSFORMS_REDUCTIONSCRATCH_H
