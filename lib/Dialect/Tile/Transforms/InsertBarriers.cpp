//===- InsertBarriers.cpp - Block barriers between shared-memory accesses -===//
//
// Implements -tile-insert-barriers: a tile.barrier after each tile op whose
// shared-memory accesses a later op's threads could race with (read after
// write, write after read, through loops), and before the first use of a
// shared tile that takes bytes another tile used before. TMA stores and
// their waits synchronize their group themselves.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"
#include "tile/Dialect/Tile/Transforms/StoreFusion.h"

#include "SharedLiveRange.h"

#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEINSERTBARRIERS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

/// Whether the tile op `user` only reads `tile` (one of its operands).
bool onlyReads(Operation *user, Value tile) {
  if (isa<GemmOp, GemmPrefetchOp, LoadOp>(user))
    return true;
  auto copy = dyn_cast<CopyOp>(user);
  return copy && copy.getSource() == tile && copy.getDest() != tile;
}

/// Whether `user` may run after `op`: it follows `op` in program order, or
/// a loop around `op` also contains it (the next iteration).
bool mayRunAfter(Operation *user, Operation *op) {
  for (Operation *o = op; o && !isa<KernelOp>(o); o = o->getParentOp()) {
    if (Operation *u = o->getBlock()->findAncestorOpInBlock(*user)) {
      if (u != o && o->isBeforeInBlock(u))
        return true;
    }
    Operation *parent = o->getParentOp();
    if (isa_and_nonnull<LoopLikeOpInterface>(parent) &&
        parent->isProperAncestor(user))
      return true;
  }
  return false;
}

/// Whether the block must synchronize after `op` (a copy, fill, gemm or
/// tile.parallel): it writes a shared tile (read after write: the next op's
/// threads read other elements), or reads one that a later op writes again
/// (write after read). A tile written once and then only read, like
/// attention's Q, needs no barrier after each read.
bool needsBarrierAfter(Operation *op) {
  bool needed = false;
  op->walk([&](Operation *nested) {
    if (!isa<CopyOp, FillOp, ClearOp, LoadOp, StoreOp, GemmOp, GemmPrefetchOp>(
            nested))
      return;
    // Async copies become visible through tile.async_wait, which
    // synchronizes the block itself.
    auto copy = dyn_cast<CopyOp>(nested);
    if (copy && copy.getAsync())
      return;
    for (Value operand : nested->getOperands()) {
      auto type = dyn_cast<BufferType>(operand.getType());
      if (!type || !type.isShared())
        continue;
      if (!onlyReads(nested, operand)) {
        needed = true;
        continue;
      }
      // Reading a pipeline stage needs no barrier after it: stages are
      // refilled only after the next tile.async_wait (see tile.stage).
      if (auto stage = operand.getDefiningOp<StageOp>();
          stage && stage.isPipelineStage())
        continue;
      for (Operation *user : operand.getUsers())
        if (!op->isAncestor(user) && !onlyReads(user, operand) &&
            mayRunAfter(user, op))
          needed = true;
    }
  });
  return needed;
}

/// The top-level ops of the kernel body that start using bytes of shared
/// memory that another tile used before (tile.alloc_shared offsets from
/// -tile-plan-shared-memory; a tile without one is not placed yet): every
/// thread must be done with the old tile first.
llvm::SetVector<Operation *> getReuseBarriers(KernelOp kernel) {
  Block &body = kernel.getEntryBlock();
  DenseMap<Operation *, int64_t> position;
  for (auto [i, op] : llvm::enumerate(body))
    position[&op] = i;
  struct Placed {
    int64_t offset, end;
  };
  SmallVector<Placed> placed;
  llvm::SetVector<Operation *> before;
  kernel.walk([&](AllocSharedOp alloc) {
    IntegerAttr offsetAttr = alloc.getOffsetAttr();
    if (!offsetAttr)
      return;
    // The first top-level op that uses the tile, through its stage views;
    // a tile nobody uses takes no bytes.
    std::optional<std::pair<int64_t, int64_t>> range =
        getTopLevelLiveRange(alloc, body, position);
    if (!range)
      return;
    int64_t first = range->first;
    BufferType type = alloc.getResult().getType();
    int64_t offset = offsetAttr.getInt();
    int64_t bytes =
        type.getNumElements() * getElementByteWidth(type.getElementType());
    if (llvm::any_of(placed, [&](const Placed &other) {
          return offset < other.end && other.offset < offset + bytes;
        }))
      before.insert(&*std::next(body.begin(), first));
    placed.push_back({offset, offset + bytes});
  });
  return before;
}

void insertBarriers(KernelOp kernel) {
  llvm::SetVector<Operation *> before = getReuseBarriers(kernel);
  // Where a barrier goes after: the op, or the copy that a tile.parallel
  // stores itself (the pair lowers as one; the copy's own accesses happen
  // inside the loop).
  SmallVector<Operation *> after;
  kernel.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == kernel.getOperation())
      return WalkResult::advance();
    // The roles of a warp-specialized kernel meet through mbarriers, which
    // their initialization makes visible itself. The producer issues TMA
    // alone; the compute role's epilogue shares its shared tiles among its
    // own threads, whose barriers lower to a named barrier of them.
    if (isa<MbarrierInitOp>(op))
      return WalkResult::skip();
    if (isa<WarpSpecializeOp>(op))
      return WalkResult::advance();
    if (auto roles = dyn_cast<WarpSpecializeOp>(op->getParentOp());
        roles && op->getBlock() == &roles.getProducerBlock())
      return WalkResult::skip();
    auto loop = dyn_cast<ParallelOp>(op);
    if (loop) {
      if (needsBarrierAfter(op)) {
        CopyOp fused = getFusedStore(loop);
        after.push_back(fused ? fused.getOperation() : op);
      }
      return WalkResult::skip();
    }
    if (auto copy = dyn_cast<CopyOp>(op))
      if (auto previous = dyn_cast_or_null<ParallelOp>(op->getPrevNode()))
        if (getFusedStore(previous) == copy)
          return WalkResult::advance();
    if (isa_and_nonnull<TileDialect>(op->getDialect()) && needsBarrierAfter(op))
      after.push_back(op);
    return WalkResult::advance();
  });
  // One barrier is enough where two would meet (and a second run adds
  // none).
  OpBuilder builder(kernel.getContext());
  // A TMA store synchronizes its group itself, after fencing the writes
  // before it: a barrier right before one (past the index arithmetic of
  // its offsets) would only repeat that.
  auto isTmaStore = [](Operation *op) {
    while (op && isMemoryEffectFree(op) && op->getNumRegions() == 0)
      op = op->getNextNode();
    auto copy = dyn_cast_or_null<CopyOp>(op);
    return copy && copy.isTmaStore();
  };
  for (Operation *op : after) {
    if (isa_and_nonnull<BarrierOp>(op->getNextNode()) ||
        isTmaStore(op->getNextNode()))
      continue;
    builder.setInsertionPointAfter(op);
    BarrierOp::create(builder, op->getLoc());
  }
  for (Operation *op : before) {
    if (isa_and_nonnull<BarrierOp>(op->getPrevNode()))
      continue;
    builder.setInsertionPoint(op);
    BarrierOp::create(builder, op->getLoc());
  }
}

struct TileInsertBarriersPass
    : public tile::impl::TileInsertBarriersBase<TileInsertBarriersPass> {
  void runOnOperation() override {
    for (KernelOp kernel : getOperation().getOps<KernelOp>())
      insertBarriers(kernel);
  }
};

} // namespace
