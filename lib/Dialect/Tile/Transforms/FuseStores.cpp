//===- FuseStores.cpp - Stores lowered inside the loop computing them -----===//
//
// Implements -tile-fuse-stores: a tile.copy to global memory right after the
// tile.parallel that computes its source is marked `tile.fused` when the
// loop can store each chunk as soon as it is computed; with remarks=1 each
// decision on such a copy is a remark that says why.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/Transforms/StoreFusion.h"

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEFUSESTORES
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

/// What a loop's body does with fragments, as convert-tile-to-gpu lowers
/// it: the layout of the first fragment it loads or stores (the loop's
/// layout), and whether it reads row values (#tile.slice fragments of one
/// rank less, read at every column).
struct LoopFragments {
  Attribute layout;
  bool found = false;
  bool readsRowValues = false;
  bool mixedLayouts = false;
};

LoopFragments getLoopFragments(ParallelOp loop) {
  LoopFragments result;
  int64_t rank = loop.getExtents().size();
  loop.getBody().walk([&](Operation *inner) {
    BufferType type = getAccessedFragment(inner);
    if (!type)
      return;
    if (isRowValueOf(type, rank)) {
      result.readsRowValues = true;
      return;
    }
    if (!result.found) {
      result.found = true;
      result.layout = type.getLayout();
      return;
    }
    result.mixedLayouts |= type.getLayout() != result.layout;
  });
  return result;
}

std::string formatShape(ArrayRef<int64_t> shape) {
  std::string text;
  for (auto [i, extent] : llvm::enumerate(shape))
    text += (i ? "x" : "") + std::to_string(extent);
  return text;
}

/// Why a rolled loop cannot fuse `copy` (of a shared tile), or "".
std::string whyNotRolled(ParallelOp loop, CopyOp copy) {
  if (!copy.getSourceType().isShared())
    return "the copy's source is not a shared tile (a rolled loop fuses "
           "only the copy of a shared tile it rewrites)";
  // The tile's contents must die with the copy: allocated in the loop's
  // block (a fresh tile per iteration of any enclosing loop) and used there
  // only before the loop, by the loop and by the copy.
  Value tile = copy.getSource();
  Block *block = loop->getBlock();
  auto alloc = tile.getDefiningOp<AllocSharedOp>();
  if (!alloc || alloc->getBlock() != block)
    return "the tile is not allocated in the loop's block, so its contents "
           "may be read after the copy";
  for (Operation *user : tile.getUsers()) {
    if (user == copy.getOperation() || loop->isAncestor(user))
      continue;
    if (isa<SubviewOp>(user))
      return "a view of the tile could be read after the copy";
    Operation *inBlock = block->findAncestorOpInBlock(*user);
    if (!inBlock || !inBlock->isBeforeInBlock(loop))
      return "the tile is used after the loop by another op than the copy";
  }
  // The body touches the tile only at its own element, at the top level,
  // storing once and reading only before it stores.
  Block &body = loop.getBodyBlock();
  for (Operation *user : tile.getUsers())
    if (loop->isAncestor(user) && user->getBlock() != &body)
      return "the loop's body uses the tile inside a nested region";
  bool stored = false;
  for (Operation &op : body) {
    if (!llvm::is_contained(op.getOperands(), tile))
      continue;
    auto load = dyn_cast<LoadOp>(op);
    auto store = dyn_cast<StoreOp>(op);
    if ((!load && !store) || stored)
      return "the loop's body uses the tile other than loading, then "
             "storing once";
    ValueRange indices = load ? load.getIndices() : store.getIndices();
    if (indices != ValueRange(body.getArguments()))
      return "the loop's body accesses the tile at another element than "
             "its own";
    stored = static_cast<bool>(store);
  }
  if (!stored)
    return "the loop does not write the tile";
  return "";
}

/// Why an unrolled loop cannot fuse `copy` (of a fragment), or "".
std::string whyNotUnrolled(ParallelOp loop, CopyOp copy,
                           const LoopFragments &fragments) {
  BufferType source = copy.getSourceType();
  if (!source.isFragment())
    return "the copy's source is not a fragment (an unrolled loop fuses "
           "only the copy of a fragment it writes)";
  // Row values (#tile.slice) are stored once per row, not chunk by chunk,
  // and a loop reading them follows their rows.
  if (fragments.readsRowValues)
    return "the loop reads row values (#tile.slice), which it computes "
           "row by row";
  if (source.getLayout() != fragments.layout)
    return llvm::formatv("the copy's fragment has another layout ({0}) "
                         "than the loop ({1})",
                         source.getLayout(), fragments.layout)
        .str();
  // The copy moves chunks of the fragment's own width; a layout without
  // chunks has none for the loop to store.
  if (!isa_and_nonnull<MmaLayoutAttr, WgmmaLayoutAttr, RowMajorLayoutAttr>(
          fragments.layout))
    return "the fragment's layout has no chunks (expected #tile.row_major, "
           "#tile.mma or #tile.wgmma)";
  // Each iteration stores only its own element of the fragment, so a chunk
  // is final once its iterations ran; the loop must write the fragment
  // (otherwise there is nothing to gain).
  bool writes = false;
  loop.getBody().walk(
      [&](StoreOp s) { writes |= s.getBuffer() == copy.getSource(); });
  if (!writes)
    return "the loop does not write the copied fragment";
  return "";
}

struct TileFuseStoresPass
    : public tile::impl::TileFuseStoresBase<TileFuseStoresPass> {
  using TileFuseStoresBase::TileFuseStoresBase;
  void runOnOperation() override {
    getOperation().walk([&](ParallelOp loop) {
      std::string whyNot;
      CopyOp copy = getFusableStore(loop, whyNot);
      if (copy) {
        copy->setAttr(kFusedStoreAttrName, UnitAttr::get(&getContext()));
        if (remarks)
          copy.emitRemark("fused into the tile.parallel before it: ")
              << (loop.getRolled()
                      ? "the loop stores the copy's chunks instead of "
                        "rewriting the tile"
                      : "each chunk is stored as soon as the loop computed "
                        "it");
        return;
      }
      if (whyNot.empty())
        return;
      // A mark from an earlier run that no longer holds.
      if (auto next = dyn_cast_or_null<CopyOp>(loop->getNextNode()))
        next->removeAttr(kFusedStoreAttrName);
      if (remarks)
        loop->getNextNode()->emitRemark(
            "not fused into the tile.parallel before it: ")
            << whyNot;
    });
  }
};

} // namespace

BufferType tile::getAccessedFragment(Operation *access) {
  Value buffer;
  if (auto load = dyn_cast<LoadOp>(access))
    buffer = load.getBuffer();
  else if (auto store = dyn_cast<StoreOp>(access))
    buffer = store.getBuffer();
  auto type = buffer ? dyn_cast<BufferType>(buffer.getType()) : BufferType();
  return type && type.isFragment() ? type : BufferType();
}

bool tile::isRowValueOf(BufferType fragment, int64_t loopRank) {
  return isa_and_nonnull<SliceLayoutAttr>(fragment.getLayout()) &&
         fragment.getRank() + 1 == loopRank;
}

CopyOp tile::getFusableStore(ParallelOp loop, std::string &whyNot) {
  whyNot.clear();
  auto copy = dyn_cast_or_null<CopyOp>(loop->getNextNode());
  if (!copy)
    return CopyOp();
  auto decline = [&](std::string reason) {
    whyNot = std::move(reason);
    return CopyOp();
  };
  if (copy.getAsync())
    return decline("the copy is asynchronous");
  if (!copy.getSourceOffsets().empty())
    return decline("the copy reads its source at offsets");
  if (!copy.getDestType().isGlobal())
    return decline("the copy does not store to global memory");
  if (copy.getTileShape() != ArrayRef<int64_t>(loop.getExtents()))
    return decline("the copy moves a " + formatShape(copy.getTileShape()) +
                   " tile, but the loop runs over " +
                   formatShape(loop.getExtents()));
  LoopFragments fragments = getLoopFragments(loop);
  if (fragments.mixedLayouts)
    return decline("the loop accesses fragments of different layouts");
  // A loop over row values alone computes the rows each thread holds.
  if (isa_and_nonnull<SliceLayoutAttr>(fragments.layout))
    return decline("the loop computes row values (#tile.slice), row by row");
  std::string reason = loop.getRolled() ? whyNotRolled(loop, copy)
                                        : whyNotUnrolled(loop, copy, fragments);
  if (!reason.empty())
    return decline(std::move(reason));
  return copy;
}

CopyOp tile::getFusedStore(ParallelOp loop) {
  auto copy = dyn_cast_or_null<CopyOp>(loop->getNextNode());
  if (!copy || !copy->hasAttr(kFusedStoreAttrName))
    return CopyOp();
  std::string whyNot;
  return getFusableStore(loop, whyNot);
}
