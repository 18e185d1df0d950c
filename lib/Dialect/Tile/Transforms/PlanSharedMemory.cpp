//===- PlanSharedMemory.cpp - Offsets of shared tiles ---------------------===//
//
// Implements -tile-plan-shared-memory: each tile.alloc_shared gets its byte
// offset in the kernel's dynamic shared memory, tiles whose uses do not
// overlap sharing bytes; each tile.reduce whose rows span warps gets its
// cross-warp scratch after the tiles; each kernel gets the total.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"
#include "tile/Dialect/Tile/Transforms/ReductionScratch.h"

#include "SharedLiveRange.h"

#include "llvm/ADT/STLExtras.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEPLANSHAREDMEMORY
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

int64_t mlir::tile::getReduceScratchElements(ReduceOp op, int64_t numThreads) {
  BufferType src = op.getSrcType();
  FailureOr<RowDistribution> rows =
      getRowDistribution(src.getLayout(), src.getShape(), numThreads,
                         /*emitError=*/nullptr);
  if (failed(rows) || rows->warpsPerRow <= 1)
    return 0;
  return rows->slots * rows->rowsPerWarp * (numThreads / 32);
}

namespace {

int64_t alignTo(int64_t value, int64_t alignment) {
  return llvm::divideCeil(value, alignment) * alignment;
}

/// A tile with bytes [offset, end) used by the top-level ops [firstUse,
/// lastUse] of the kernel body.
struct Placed {
  int64_t offset, end, firstUse, lastUse;
};

/// Places the shared tiles of `kernel` and returns the bytes they take.
/// Liveness is measured in the kernel body's top-level order: a tile's span
/// runs from the first top-level op that uses it (directly, or through its
/// tile.stage views) to the last, so a use inside a loop keeps the tile live
/// for the whole loop. Tiles are placed in allocation order, first fit among
/// offset 0 and the (aligned) ends of the tiles placed before, so tiles that
/// are all live together keep consecutive offsets; a tile may take bytes of
/// one whose span ended before its own begins. A tile nobody uses takes no
/// bytes (offset 0).
int64_t planTiles(KernelOp kernel) {
  Block &body = kernel.getEntryBlock();
  DenseMap<Operation *, int64_t> position;
  for (auto [i, op] : llvm::enumerate(body))
    position[&op] = i;
  Builder builder(kernel.getContext());
  SmallVector<Placed> placed;
  int64_t total = 0;
  kernel.walk([&](AllocSharedOp alloc) {
    std::optional<std::pair<int64_t, int64_t>> range =
        getTopLevelLiveRange(alloc, body, position);
    if (!range) {
      alloc.setOffset(0);
      return;
    }
    auto [first, last] = *range;
    BufferType type = alloc.getResult().getType();
    int64_t bytes =
        type.getNumElements() * getElementByteWidth(type.getElementType());
    auto overlaps = [&](const Placed &other, int64_t offset) {
      return other.firstUse <= last && first <= other.lastUse &&
             offset < other.end && other.offset < offset + bytes;
    };
    // The last candidate is past every placed tile, so one always fits.
    // #tile.nvmma panels start at multiples of the 128-byte swizzle's
    // 1024-byte period (the hardware takes the pattern from the address).
    int64_t alignment = isa_and_nonnull<NvmmaLayoutAttr>(type.getLayout())
                            ? kNvmmaAlignment
                            : kSharedAlignment;
    SmallVector<int64_t> candidates = {0};
    for (const Placed &other : placed)
      candidates.push_back(alignTo(other.end, alignment));
    llvm::sort(candidates);
    int64_t offset = *llvm::find_if(candidates, [&](int64_t candidate) {
      return llvm::none_of(placed, [&](const Placed &other) {
        return overlaps(other, candidate);
      });
    });
    placed.push_back({offset, offset + bytes, first, last});
    alloc.setOffset(offset);
    total = std::max(total, offset + bytes);
  });
  return total;
}

/// Places the cross-warp scratch of the kernel's reductions after its tiles
/// (`tiles` bytes) and returns the total with them. Each tile.reduce that
/// needs one (getReduceScratchElements) gets its own bytes at the next
/// aligned offset, in program order (the order convert-tile-to-gpu lowers
/// them in, skipping tile.parallel bodies as it does); none is shared with
/// a tile or another reduction, so no barrier is needed around it beyond
/// the two of its own lowering. A reduction that needs none loses a stale
/// scratch.
int64_t planReductionScratch(KernelOp kernel, int64_t tiles) {
  int64_t total = tiles;
  Builder builder(kernel.getContext());
  kernel.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<ParallelOp>(op))
      return WalkResult::skip();
    auto reduce = dyn_cast<ReduceOp>(op);
    if (!reduce)
      return WalkResult::advance();
    int64_t elements = getReduceScratchElements(reduce, kernel.getThreads());
    if (elements == 0) {
      reduce.removeScratchOffsetAttr();
      reduce.removeScratchBytesAttr();
      return WalkResult::advance();
    }
    int64_t offset = alignTo(total, kSharedAlignment);
    // Each reduction's bytes are bounded by the thread count and its
    // fragment's registers; the sum of them is checked with the tiles'.
    total = offset + elements * 4;
    reduce.setScratchOffsetAttr(builder.getI64IntegerAttr(offset));
    reduce.setScratchBytesAttr(builder.getI64IntegerAttr(elements * 4));
    return WalkResult::advance();
  });
  return total;
}

struct TilePlanSharedMemoryPass
    : public tile::impl::TilePlanSharedMemoryBase<TilePlanSharedMemoryPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    Builder builder(module.getContext());
    for (KernelOp kernel : module.getOps<KernelOp>()) {
      int64_t tiles = planTiles(kernel);
      int64_t total = planReductionScratch(kernel, tiles);
      // Checked here, where the sum is first known (each tile's type
      // bounds it alone); convert-tile-to-gpu checks again (a hand-written
      // plan).
      if (total > kMaxSharedMemoryBytes) {
        kernel.emitOpError("expected at most ")
            << kMaxSharedMemoryBytes
            << " bytes of shared memory (227 KiB, a block's on the largest "
               "GPU), but its tiles "
            << (total == tiles ? "" : "and its reductions' scratch ") << "take "
            << total << " bytes";
        return signalPassFailure();
      }
      kernel->setAttr(kSharedMemoryBytesAttrName,
                      builder.getI64IntegerAttr(total));
    }
  }
};

} // namespace
