//===- TileMemoryOps.cpp - Tile memory operations -------------------------===//
//
// Verifiers of the ops that view, allocate, move and fill buffers: dim and
// subview, alloc_shared and alloc_fragment, copy, fill and clear, the
// pipeline's stages, and the synchronization of the block (barrier,
// async_wait).
//
//===----------------------------------------------------------------------===//

#include "TileOpsHelpers.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

using mlir::tile::detail::formatShape;

//===----------------------------------------------------------------------===//
// DimOp
//===----------------------------------------------------------------------===//

LogicalResult DimOp::verify() {
  auto type = cast<BufferType>(getSource().getType());
  // getDim() is unsigned; read the attribute as signed so that a negative
  // dimension is reported as such.
  int64_t dim = getDimAttr().getInt();
  if (dim < 0 || dim >= type.getRank())
    return emitOpError("expected a dimension from 0 to ")
           << type.getRank() - 1 << ", but got " << dim;
  return success();
}

LogicalResult SubviewOp::verify() {
  auto source = cast<BufferType>(getSource().getType());
  auto result = cast<BufferType>(getResult().getType());
  if (failed(verifyBufferType(*this, result)))
    return failure();
  if (!source.isGlobal() || !result.isGlobal())
    return emitOpError("expected a global source and result, but got a ")
           << stringifyMemoryScope(source.getScope()) << " source and a "
           << stringifyMemoryScope(result.getScope()) << " result";
  int64_t fixed = getIndices().size();
  if (fixed < 1 || fixed >= source.getRank())
    return emitOpError("expected 1 to ")
           << source.getRank() - 1 << " leading indices of the rank-"
           << source.getRank() << " source, but got " << fixed;
  ArrayRef<int64_t> trailing = source.getShape().drop_front(fixed);
  if (result.getShape() != trailing ||
      result.getElementType() != source.getElementType())
    return emitOpError("expected a result of shape ")
           << formatShape(trailing) << " and element type "
           << source.getElementType() << " (the source's trailing "
           << "dimensions), but got " << formatShape(result.getShape())
           << " and " << result.getElementType();
  return success();
}

OpFoldResult DimOp::fold(FoldAdaptor) {
  auto type = cast<BufferType>(getSource().getType());
  int64_t dim = getDimAttr().getInt();
  if (dim < 0 || dim >= type.getRank() || type.isDynamicDim(dim))
    return {};
  return IntegerAttr::get(IndexType::get(getContext()), type.getDimSize(dim));
}

//===----------------------------------------------------------------------===//
// Allocation
//===----------------------------------------------------------------------===//

static LogicalResult verifyAllocation(Operation *op, BufferType type,
                                      MemoryScope expected) {
  if (failed(verifyBufferType(op, type)))
    return failure();
  if (type.getScope() != expected)
    return op->emitOpError("expected a ")
           << stringifyMemoryScope(expected) << " buffer, but got a "
           << stringifyMemoryScope(type.getScope()) << " one";
  if (!op->getParentOfType<KernelOp>())
    return op->emitOpError("expected to be inside a tile.kernel");
  return success();
}

LogicalResult AllocSharedOp::verify() {
  auto type = cast<BufferType>(getResult().getType());
  if (failed(verifyAllocation(*this, type, MemoryScope::Shared)))
    return failure();
  IntegerAttr offsetAttr = getOffsetAttr();
  if (!offsetAttr)
    return success();
  std::optional<int64_t> offset = offsetAttr.getInt();
  // The lowering places the tile at base + offset of memory aligned to
  // kSharedAlignment; a tile must start aligned and end inside a block's
  // shared memory.
  if (*offset < 0 || *offset % kSharedAlignment != 0)
    return emitOpError("expected an offset that is a non-negative multiple "
                       "of ")
           << kSharedAlignment << " bytes, but got " << *offset;
  if (isa_and_nonnull<NvmmaLayoutAttr>(type.getLayout()) &&
      *offset % kNvmmaAlignment != 0)
    return emitOpError("expected the offset of a #tile.nvmma tile to be a "
                       "multiple of ")
           << kNvmmaAlignment << " bytes (the swizzle's period), but got "
           << *offset;
  int64_t bytes =
      type.getNumElements() * getElementByteWidth(type.getElementType());
  if (*offset > kMaxSharedMemoryBytes - bytes)
    return emitOpError("expected the tile to end within ")
           << kMaxSharedMemoryBytes
           << " bytes of shared memory, but its offset " << *offset
           << " and its " << bytes << " bytes end at " << *offset + bytes;
  return success();
}

LogicalResult AllocFragmentOp::verify() {
  auto type = cast<BufferType>(getResult().getType());
  if (failed(verifyAllocation(*this, type, MemoryScope::Fragment)))
    return failure();
  // A distributed fragment's share of one thread must fit its registers
  // (a #tile.slice holds row slots, fewer than its parent's registers).
  if (isa_and_nonnull<SliceLayoutAttr>(type.getLayout()))
    return success();
  int64_t threads = (*this)->getParentOfType<KernelOp>().getComputeThreads();
  if (threads < 1)
    return success(); // The kernel reports its thread count.
  int64_t perThread = llvm::divideCeil(type.getNumElements(), threads);
  int64_t registers = llvm::divideCeil(
      perThread * getElementByteWidth(type.getElementType()), int64_t(4));
  if (registers > kMaxRegistersPerThread)
    return emitOpError("expected a fragment of at most ")
           << kMaxRegistersPerThread << " 32-bit registers per thread, but its "
           << type.getNumElements() << " elements over the kernel's " << threads
           << " threads take " << registers;
  return success();
}

//===----------------------------------------------------------------------===//
// CopyOp
//===----------------------------------------------------------------------===//

ArrayRef<int64_t> CopyOp::getTileShape() {
  BufferType dest = getDestType();
  return dest.isGlobal() ? getSourceType().getShape() : dest.getShape();
}

LogicalResult CopyOp::verifyFragmentWindow() {
  BufferType source = getSourceType(), dest = getDestType();
  if (!dest.isShared() || getAsync())
    return emitOpError("expected a window of a fragment (a fragment source "
                       "at offsets) to be copied synchronously to a shared "
                       "tile, but got a ")
           << (getAsync() ? "async copy to a " : "copy to a ")
           << stringifyMemoryScope(dest.getScope()) << " buffer";
  SmallVector<int64_t> offsets;
  for (auto [d, offset] : llvm::enumerate(getSourceOffsets())) {
    std::optional<int64_t> value = getConstantIntValue(offset);
    if (!value)
      return emitOpError("expected constant offsets into a fragment (its "
                         "registers are indexed statically), but source "
                         "offset ")
             << d << " is not a constant";
    if (*value < 0 || *value > source.getDimSize(d) - dest.getDimSize(d))
      return emitOpError("expected the window ")
             << formatShape(dest.getShape()) << " at source offset " << d
             << " = " << *value << " inside the fragment "
             << formatShape(source.getShape()) << ", but it ends at "
             << *value + dest.getDimSize(d);
    offsets.push_back(*value);
  }
  // With a layout (after tile-assign-layouts), the window must keep each
  // element in its thread.
  auto layout =
      dyn_cast_or_null<FragmentLayoutAttrInterface>(source.getLayout());
  auto kernel = (*this)->getParentOfType<KernelOp>();
  if (!layout || !kernel || kernel.getThreads() < 1)
    return success();
  std::string whyNot;
  if (failed(getFragmentWindowSlots(layout, source.getShape(), offsets,
                                    dest.getShape(), kernel.getThreads(),
                                    whyNot)))
    return emitOpError("expected a window that every thread holds in its own "
                       "registers (")
           << source.getLayout() << " over " << kernel.getThreads()
           << " threads), but " << whyNot;
  return success();
}

LogicalResult CopyOp::verify() {
  BufferType source = getSourceType(), dest = getDestType();
  if (source.isGlobal() && dest.isGlobal())
    return emitOpError("expected at most one global operand, but source and "
                       "dest are both global; stage the data through a "
                       "shared or fragment tile");
  if (source.getRank() != dest.getRank())
    return emitOpError("expected source and dest of the same rank, but got ")
           << source.getRank() << " and " << dest.getRank();

  auto checkOffsets = [&](StringRef which, BufferType type,
                          ValueRange offsets) -> LogicalResult {
    if (offsets.empty())
      return success();
    // A fragment source may be read at constant offsets: a window of it.
    bool window = which == "source" && type.isFragment();
    if (!type.isGlobal() && !window)
      return emitOpError("expected offsets only on a global operand or a "
                         "fragment source, but the ")
             << which << " is a " << stringifyMemoryScope(type.getScope())
             << " tile";
    if (static_cast<int64_t>(offsets.size()) != type.getRank())
      return emitOpError("expected ") << type.getRank() << " " << which
                                      << " offsets, but got " << offsets.size();
    return success();
  };
  if (failed(checkOffsets("source", source, getSourceOffsets())) ||
      failed(checkOffsets("dest", dest, getDestOffsets())))
    return failure();

  Type sourceElement = source.getElementType();
  Type destElement = dest.getElementType();
  if (sourceElement != destElement &&
      !(isa<FloatType>(sourceElement) && isa<FloatType>(destElement)))
    return emitOpError("expected the same element type, or two floating-point "
                       "types, but got ")
           << sourceElement << " and " << destElement;

  bool store = getAsync() && source.isShared() && dest.isGlobal();
  if (getAsync() && !store &&
      (!source.isGlobal() || !dest.isShared() || sourceElement != destElement))
    return emitOpError("expected an async copy from a global buffer to a "
                       "shared tile, or from a #tile.nvmma shared tile to a "
                       "global buffer (a TMA store), of the same element "
                       "type");
  if (store) {
    if (sourceElement != destElement)
      return emitOpError("expected a TMA store of the same element type, but "
                         "got ")
             << sourceElement << " and " << destElement;
    if (!isa_and_nonnull<NvmmaLayoutAttr>(source.getLayout()))
      return emitOpError("expected a TMA store's source to have a "
                         "#tile.nvmma layout, but got ")
             << source;
    if (source.getRank() != 2)
      return emitOpError("expected a rank-2 TMA store, but got rank ")
             << source.getRank();
    if (getBarriers())
      return emitOpError("expected no mbarrier on a TMA store (it completes "
                         "through tile.tma_store_wait)");
    if (!isa<BlockArgument>(getDest()) ||
        !isa<KernelOp>(getDest().getParentBlock()->getParentOp()))
      return emitOpError("expected a TMA store to write a kernel parameter "
                         "(its tensor map is encoded at launch)");
    if (failed(detail::verifyInWarpSpecializedKernel(*this)) ||
        failed(detail::verifyNotInProducerRole(*this)))
      return failure();
  }
  if (static_cast<bool>(getBarriers()) != static_cast<bool>(getBarrierIndex()))
    return emitOpError("expected mbarriers and an index into them together "
                       "(barrier(%bars[%i] : type)), but got ")
           << (getBarriers() ? "no index" : "no mbarriers");
  if (getBarriers()) {
    if (!getAsync())
      return emitOpError("expected `async` on a copy that completes on an "
                         "mbarrier (a TMA copy)");
    if (!isa_and_nonnull<NvmmaLayoutAttr>(dest.getLayout()))
      return emitOpError("expected a TMA copy's destination to have a "
                         "#tile.nvmma layout, but got ")
             << dest;
    if (!isa<BlockArgument>(getSource()) ||
        !isa<KernelOp>(getSource().getParentBlock()->getParentOp()))
      return emitOpError("expected a TMA copy to read a kernel parameter "
                         "(its tensor map is encoded at launch)");
    if (failed(detail::verifyMbarriers(*this, getBarriers().getType())) ||
        failed(detail::verifyInWarpSpecializedKernel(*this)))
      return failure();
  }
  if (getMulticast()) {
    if (!getBarriers())
      return emitOpError("expected multicast only on a TMA copy (async, to "
                         "a shared tile, completing on an mbarrier)");
    if (failed(detail::verifyInClusterKernel(*this, "a multicast copy")))
      return failure();
  }

  // A tile operand without offsets is the whole tile.
  ArrayRef<int64_t> tileShape = getTileShape();
  if (source.isFragment() && !getSourceOffsets().empty()) {
    if (failed(verifyFragmentWindow()))
      return failure();
  } else if (!source.isGlobal() && source.getShape() != tileShape)
    return emitOpError("expected the source shape ")
           << formatShape(source.getShape()) << " to match the dest tile "
           << formatShape(tileShape);
  // The code a global copy unrolls per thread: its elements, each a masked
  // access at the tensor's edge.
  auto kernel = (*this)->getParentOfType<KernelOp>();
  if (kernel && kernel.getThreads() >= 1 && !isTma() &&
      (source.isGlobal() || dest.isGlobal())) {
    int64_t perThread = llvm::divideCeil(ShapedType::getNumElements(tileShape),
                                         kernel.getThreads());
    if (perThread > kMaxUnrolledPerThread)
      return emitOpError("expected at most ")
             << kMaxUnrolledPerThread
             << " elements per thread in a copy to or from global memory, "
                "but the "
             << formatShape(tileShape) << " tile over the kernel's "
             << kernel.getThreads() << " threads is " << perThread;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// AtomicAddOp
//===----------------------------------------------------------------------===//

LogicalResult AtomicAddOp::verify() {
  BufferType source = getSourceType(), dest = getDestType();
  if (!source.isFragment())
    return emitOpError("expected a fragment source, but got a ")
           << stringifyMemoryScope(source.getScope()) << " buffer";
  if (isa_and_nonnull<SliceLayoutAttr>(source.getLayout()))
    return emitOpError("expected a fragment of a whole tile, but got row "
                       "values (#tile.slice)");
  if (!dest.isGlobal())
    return emitOpError("expected a global destination, but got a ")
           << stringifyMemoryScope(dest.getScope()) << " tile";
  if (source.getRank() != dest.getRank())
    return emitOpError("expected source and dest of the same rank, but got ")
           << source.getRank() << " and " << dest.getRank();
  if (!getDestOffsets().empty() &&
      static_cast<int64_t>(getDestOffsets().size()) != dest.getRank())
    return emitOpError("expected ")
           << dest.getRank() << " dest offsets, but got "
           << getDestOffsets().size();
  // The one atomic add every sm_80+ GPU has for floats in global memory
  // (f16/bf16 adds would round each partial sum).
  if (!dest.getElementType().isF32())
    return emitOpError("expected an f32 destination, but got ")
           << dest.getElementType();
  if (!isa<FloatType>(source.getElementType()))
    return emitOpError("expected a floating-point source, but got ")
           << source.getElementType();
  return success();
}

//===----------------------------------------------------------------------===//
// FillOp, ClearOp
//===----------------------------------------------------------------------===//

static LogicalResult verifyTileDest(Operation *op, BufferType type) {
  if (type.isGlobal())
    return op->emitOpError("expected a shared or fragment tile, but got a "
                           "global buffer");
  return success();
}

LogicalResult FillOp::verify() {
  auto type = cast<BufferType>(getDest().getType());
  if (failed(verifyTileDest(*this, type)))
    return failure();
  if (getValue().getType() != type.getElementType())
    return emitOpError("expected a value of the element type ")
           << type.getElementType() << ", but got " << getValue().getType();
  return success();
}

LogicalResult ClearOp::verify() {
  return verifyTileDest(*this, cast<BufferType>(getDest().getType()));
}

//===----------------------------------------------------------------------===//
// StageOp
//===----------------------------------------------------------------------===//

bool StageOp::isPipelineStage() {
  return !getIndex().getDefiningOp<ConsumerIndexOp>();
}

LogicalResult StageOp::verify() {
  auto source = cast<BufferType>(getSource().getType());
  auto result = cast<BufferType>(getResult().getType());
  if (failed(verifyBufferType(*this, result)))
    return failure();
  if (!source.isShared() || !result.isShared())
    return emitOpError("expected shared tiles, but got a ")
           << stringifyMemoryScope(source.getScope()) << " source and a "
           << stringifyMemoryScope(result.getScope()) << " result";
  if (source.getRank() < 2 ||
      source.getShape().drop_front() != result.getShape() ||
      source.getElementType() != result.getElementType() ||
      source.getLayout() != result.getLayout())
    return emitOpError("expected the result to be the source without its "
                       "leading (stage) dimension and with its layout, but "
                       "got ")
           << formatShape(source.getShape()) << " -> "
           << formatShape(result.getShape());
  // A constant stage must exist (a computed one is the pipeline's, mod S).
  APInt stage;
  if (matchPattern(getIndex(), m_ConstantInt(&stage)) &&
      (stage.isNegative() || stage.uge(source.getDimSize(0))))
    return emitOpError("expected a stage from 0 to ")
           << source.getDimSize(0) - 1 << ", but got " << stage.getSExtValue();
  // Stages are filled by async copies only: a read of a stage then needs no
  // barrier after it, since the stage is refilled after the next
  // tile.async_wait, which synchronizes the block.
  if (!isPipelineStage())
    return success();
  for (OpOperand &use : getResult().getUses()) {
    Operation *user = use.getOwner();
    auto copy = dyn_cast<CopyOp>(user);
    bool writes = (copy && copy.getDest() == getResult()) ||
                  isa<FillOp, ClearOp, StoreOp>(user);
    if (writes && !(copy && copy.getAsync()))
      return user->emitOpError("writes a pipeline stage; stages are filled "
                               "by async copies only");
  }
  return success();
}

//===----------------------------------------------------------------------===//
// BarrierOp, AsyncWaitOp
//===----------------------------------------------------------------------===//

// (Inside a tile.parallel, whose iterations the threads share, the loop's
// verifier refuses it: its body holds only element accesses.)
LogicalResult BarrierOp::verify() {
  if (!(*this)->getParentOfType<KernelOp>())
    return emitOpError("expected to be inside a tile.kernel");
  return success();
}

LogicalResult AsyncWaitOp::verify() {
  return detail::verifyPendingGroups(*this, getPending());
}
