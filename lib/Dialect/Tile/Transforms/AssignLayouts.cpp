//===- AssignLayouts.cpp - Default layouts for fragments ---------------------===//
//
// Implements -tile-assign-layouts: every fragment without a layout gets the
// widest row-major layout that its shape and the kernel's threads allow.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEASSIGNLAYOUTS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

/// The widest vector (in elements) of at most 16 bytes such that the
/// fragment's last dimension and its element count per thread both divide.
unsigned chooseVectorWidth(BufferType type, int64_t threads) {
  unsigned maxVec = 16 / getElementByteWidth(type.getElementType());
  int64_t numElements = type.getNumElements();
  for (unsigned vec = maxVec; vec > 1; vec /= 2)
    if (type.getShape().back() % vec == 0 && numElements % (vec * threads) == 0)
      return vec;
  return 1;
}

struct TileAssignLayoutsPass
    : public tile::impl::TileAssignLayoutsBase<TileAssignLayoutsPass> {
  void runOnOperation() override {
    getOperation().walk([&](AllocFragmentOp alloc) {
      BufferType type = alloc.getResult().getType();
      if (type.getLayout())
        return;
      auto kernel = alloc->getParentOfType<KernelOp>();
      unsigned vec = chooseVectorWidth(type, kernel.getThreads());
      auto layout = RowMajorLayoutAttr::get(&getContext(), vec);
      // Uses are tile ops, whose verifiers accept any fragment layout, so the
      // type can change in place.
      alloc.getResult().setType(type.withLayout(layout));
    });
  }
};

} // namespace
