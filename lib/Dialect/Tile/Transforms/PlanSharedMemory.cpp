//===- PlanSharedMemory.cpp - Offsets of shared tiles ---------------------===//
//
// Implements -tile-plan-shared-memory: each tile.alloc_shared gets its byte
// offset in the kernel's dynamic shared memory, tiles whose uses do not
// overlap sharing bytes; each kernel gets the total.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "SharedLiveRange.h"

#include "llvm/ADT/STLExtras.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEPLANSHAREDMEMORY
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

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
int64_t planKernel(KernelOp kernel) {
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
    SmallVector<int64_t> candidates = {0};
    for (const Placed &other : placed)
      candidates.push_back(alignTo(other.end, kSharedAlignment));
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

struct TilePlanSharedMemoryPass
    : public tile::impl::TilePlanSharedMemoryBase<TilePlanSharedMemoryPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    Builder builder(module.getContext());
    for (KernelOp kernel : module.getOps<KernelOp>()) {
      int64_t total = planKernel(kernel);
      // Checked here, where the sum is first known (each tile's type
      // bounds it alone); the reductions' scratch comes on top of it in
      // convert-tile-to-gpu, which checks again.
      if (total > kMaxSharedMemoryBytes) {
        kernel.emitOpError("expected at most ")
            << kMaxSharedMemoryBytes
            << " bytes of shared memory (227 KiB, a block's on the largest "
               "GPU), but its tiles take "
            << total << " bytes";
        return signalPassFailure();
      }
      kernel->setAttr(kSharedMemoryBytesAttrName,
                      builder.getI64IntegerAttr(total));
    }
  }
};

} // namespace
