//===- StoreFusion.h - Stores a tile.parallel lowers itself -----*- C++ -*-===//
//
// The analysis behind -tile-fuse-stores, shared with convert-tile-to-gpu
// (which re-checks each decision, so a hand-written mark cannot make it
// fuse what it cannot).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_TRANSFORMS_STOREFUSION_H
#define TILE_DIALECT_TILE_TRANSFORMS_STOREFUSION_H

#include "tile/Dialect/Tile/IR/Tile.h"

#include <string>

namespace mlir::tile {

/// The discardable unit attribute that -tile-fuse-stores puts on a
/// tile.copy that the tile.parallel right before it stores chunk by chunk.
constexpr const char *kFusedStoreAttrName = "tile.fused";

/// The fragment a tile.load or tile.store in a tile.parallel body accesses;
/// null for other ops and for buffers that are not fragments.
BufferType getAccessedFragment(Operation *access);

/// Whether `fragment` holds row values of a loop over `loopRank` dimensions
/// (a #tile.slice fragment of one rank less, read at every column): such
/// fragments follow the loop's layout by construction.
bool isRowValueOf(BufferType fragment, int64_t loopRank);

/// The tile.copy right after `loop` that the loop can store itself, chunk
/// by chunk, as soon as each chunk is computed, or null. Null with an empty
/// `whyNot` when the next op is no tile.copy (no candidate); otherwise
/// `whyNot` says why that copy cannot be fused.
///
/// - An unrolled loop fuses a copy of the fragment it writes to global
///   memory, in the loop's own layout and chunks (the fragment's layout has
///   chunks: #tile.row_major or #tile.mma; no row values read or computed).
/// - A rolled loop fuses the copy to global memory of a shared tile it
///   rewrites in place (each iteration loads, then stores, only its own
///   element, at the top of the body) right before the tile's last use: the
///   loop then runs over the copy's chunks and never writes the tile.
CopyOp getFusableStore(ParallelOp loop, std::string &whyNot);

/// The copy that `loop` stores itself: the next op, marked by
/// -tile-fuse-stores, when getFusableStore agrees; null otherwise.
CopyOp getFusedStore(ParallelOp loop);

} // namespace mlir::tile

#endif // TILE_DIALECT_TILE_TRANSFORMS_STOREFUSION_H
