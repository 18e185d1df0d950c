//===- SharedLiveRange.h - Top-level live range of a shared tile -*- C++
//-*-===//
//
// The one liveness rule of shared-memory placement, asked by
// -tile-plan-shared-memory (to place tiles) and -tile-insert-barriers (to
// find where a tile takes over bytes another used): both must agree on it.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_DIALECT_TILE_TRANSFORMS_SHAREDLIVERANGE_H
#define TILE_LIB_DIALECT_TILE_TRANSFORMS_SHAREDLIVERANGE_H

#include "tile/Dialect/Tile/IR/Tile.h"

#include "llvm/ADT/DenseMap.h"

#include <algorithm>
#include <optional>
#include <utility>

namespace mlir::tile {

/// The positions (in `body`'s top-level order, `position`) of the first and
/// last top-level ops that use `alloc`'s tile, directly or through its
/// tile.stage views: a use inside a loop keeps the tile live for the whole
/// loop. std::nullopt for a tile nobody uses.
inline std::optional<std::pair<int64_t, int64_t>>
getTopLevelLiveRange(AllocSharedOp alloc, Block &body,
                     const llvm::DenseMap<Operation *, int64_t> &position) {
  std::optional<int64_t> first, last;
  SmallVector<Value> worklist = {alloc.getResult()};
  while (!worklist.empty()) {
    Value tile = worklist.pop_back_val();
    for (Operation *user : tile.getUsers()) {
      if (auto stage = dyn_cast<StageOp>(user))
        worklist.push_back(stage.getResult());
      int64_t at = position.lookup(body.findAncestorOpInBlock(*user));
      first = std::min(first.value_or(at), at);
      last = std::max(last.value_or(at), at);
    }
  }
  if (!first)
    return std::nullopt;
  return std::make_pair(*first, *last);
}

} // namespace mlir::tile

#endif // TILE_LIB_DIALECT_TILE_TRANSFORMS_SHAREDLIVERANGE_H
