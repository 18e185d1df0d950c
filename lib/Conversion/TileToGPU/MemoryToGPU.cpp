//===- MemoryToGPU.cpp - Tile memory ops to GPU ---------------------------===//
//
// Patterns for the memory ops: shared and fragment allocation, copies
// (plain, cp.async, row values of #tile.slice fragments), atomic adds, async
// groups, pipeline stages, fill/clear, dim and subview.
//
//===----------------------------------------------------------------------===//

#include "LoweringState.h"
#include "tile/Conversion/TileToGPU/TileToGPU.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Dominance.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

namespace mlir::tile::lowering {

//===----------------------------------------------------------------------===//
// Allocation
//===----------------------------------------------------------------------===//

LogicalResult KernelLowering::readSharedMemoryPlan() {
  if (auto total =
          kernel->getAttrOfType<IntegerAttr>(kSharedMemoryBytesAttrName)) {
    // Bounded before any arithmetic on it.
    if (total.getInt() < 0 || total.getInt() > kMaxSharedMemoryBytes)
      return kernel.emitOpError("expected ")
             << kSharedMemoryBytesAttrName << " from 0 to "
             << kMaxSharedMemoryBytes << ", but got " << total.getInt();
    sharedBytes = total.getInt();
  }
  WalkResult walk = func.walk([&](AllocSharedOp alloc) {
    if (!alloc.getOffsetAttr()) {
      alloc.emitOpError("expected an offset in shared memory; run "
                        "-tile-plan-shared-memory first");
      return WalkResult::interrupt();
    }
    // A tile nobody uses takes no bytes, wherever it was placed (stage
    // views are uses).
    if (alloc->use_empty())
      return WalkResult::advance();
    // The total covers every tile, whoever placed them.
    BufferType type = alloc.getResult().getType();
    sharedBytes = std::max(sharedBytes,
                           alloc.getOffsetAttr().getInt() +
                               type.getNumElements() *
                                   getElementByteWidth(type.getElementType()));
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  // The reductions' scratch (ReduceToGPU.cpp checks its size against the
  // op): aligned like a tile, inside a block's shared memory, counted in
  // the total.
  walk = func.walk([&](ReduceOp reduce) {
    std::optional<uint64_t> offset = reduce.getScratchOffset();
    if (!offset)
      return WalkResult::advance();
    int64_t bytes = *reduce.getScratchBytes();
    if (*offset % kSharedAlignment != 0) {
      reduce.emitOpError("expected a scratch offset that is a multiple of ")
          << kSharedAlignment << " bytes, but got " << *offset;
      return WalkResult::interrupt();
    }
    if (bytes > kMaxSharedMemoryBytes ||
        static_cast<int64_t>(*offset) > kMaxSharedMemoryBytes - bytes) {
      reduce.emitOpError("expected the scratch to end within ")
          << kMaxSharedMemoryBytes << " bytes of shared memory, but its offset "
          << *offset << " and its " << bytes << " bytes end at "
          << *offset + bytes;
      return WalkResult::interrupt();
    }
    sharedBytes = std::max<int64_t>(sharedBytes, *offset + bytes);
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

LogicalResult KernelLowering::lowerAllocShared(AllocSharedOp op) {
  BufferType type = op.getResult().getType();
  Location loc = op.getLoc();
  int64_t offset = op.getOffsetAttr().getInt();
  Value base = getDynamicSharedMemory();
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(prologueEnd);
  Value view = memref::ViewOp::create(
      builder, loc, typeConverter.convertType<MemRefType>(op.getResult()), base,
      constant(loc, offset), ValueRange{});
  BufferStorage tile{type, view, {}};
  for (int64_t dim : type.getShape())
    tile.sizes.push_back(constant(loc, dim));
  setConvertedBuffer(op.getResult(), tile);
  return success();
}

LogicalResult KernelLowering::lowerAllocFragment(AllocFragmentOp op) {
  BufferType type = op.getResult().getType();
  Location loc = op.getLoc();
  if (!isa_and_nonnull<RowMajorLayoutAttr, MmaLayoutAttr, WgmmaLayoutAttr,
                       SliceLayoutAttr>(type.getLayout()))
    return op.emitOpError("expected a fragment with a layout; run "
                          "-tile-assign-layouts first");
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(prologueEnd);
  // The diagnostic when the layout gives the fragment no registers.
  if (failed(registersPerThread(op, op.getResult())))
    return failure();
  Value registers = memref::AllocaOp::create(
      builder, loc, typeConverter.convertType<MemRefType>(op.getResult()));
  BufferStorage fragment{type, registers, {}};
  for (int64_t dim : type.getShape())
    fragment.sizes.push_back(constant(loc, dim));
  setConvertedBuffer(op.getResult(), fragment);
  return success();
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

LogicalResult KernelLowering::lowerRowValueStore(CopyOp op,
                                                 SliceLayoutAttr slice) {
  // Row values (a reduction's result, e.g. a log-sum-exp) to a rank-1
  // global buffer: each row is held by several threads; the first of them
  // stores it, rows past the buffer's end are not written.
  Location loc = op.getLoc();
  const BufferStorage &src = *getConvertedBuffer(op.getSource());
  const BufferStorage &dst = *getConvertedBuffer(op.getDest());
  if (!dst.type.isGlobal() || dst.type.getRank() != 1)
    return op.emitOpError("can copy row values (#tile.slice) only to a "
                          "rank-1 global buffer, but got ")
           << dst.type;
  FailureOr<RowMap> rows = getRowMap(
      op, slice.getParentShape(src.type.getShape()), slice.getParent());
  if (failed(rows))
    return failure();
  Value first = rows->isFirstHolder();
  Value offset = op.getDestOffsets().empty() ? constant(loc, 0)
                                             : op.getDestOffsets().front();
  Type elementType = dst.type.getElementType();
  for (int64_t k = 0; k < rows->slots; ++k) {
    Value index = arith::AddIOp::create(builder, loc, offset, rows->rowOf(k));
    Value inside = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::ult, index, dst.sizes.front());
    auto guard = scf::IfOp::create(
        builder, loc, arith::AndIOp::create(builder, loc, first, inside));
    OpBuilder::InsertionGuard insertion(builder);
    builder.setInsertionPointToStart(&guard.getThenRegion().front());
    Value value =
        memref::LoadOp::create(builder, loc, src.memref, constant(loc, k));
    Value converted = vector::ExtractOp::create(
        builder, loc,
        convertVector(loc,
                      vector::BroadcastOp::create(
                          builder, loc,
                          VectorType::get({1}, src.type.getElementType()),
                          value),
                      elementType),
        0);
    memref::StoreOp::create(builder, loc, converted, dst.memref, index);
  }
  return success();
}

LogicalResult KernelLowering::lowerFragmentWindowCopy(CopyOp op) {
  // A window of a fragment to a shared tile: each thread writes the
  // window's elements it holds, in the window's own layout, reading them
  // from the fragment's registers the layout maps them to (the verifier
  // has checked that they are the thread's own).
  const BufferStorage &src = *getConvertedBuffer(op.getSource());
  auto layout =
      dyn_cast_or_null<FragmentLayoutAttrInterface>(src.type.getLayout());
  if (!layout)
    return op.emitOpError("expected a fragment with a layout; run "
                          "-tile-assign-layouts first");
  SmallVector<int64_t> offsets(src.type.getRank(), 0);
  for (auto [d, offset] : llvm::enumerate(op.getSourceOffsets()))
    offsets[d] = *getConstantIntValue(offset); // verified
  ArrayRef<int64_t> window = op.getTileShape();
  std::string whyNot;
  FailureOr<SmallVector<int64_t>> parentSlots = getFragmentWindowSlots(
      layout, src.type.getShape(), offsets, window, numThreads, whyNot);
  if (failed(parentSlots))
    return op.emitOpError("expected a window that every thread holds in its "
                          "own registers, but ")
           << whyNot;
  if (auto wgmma = dyn_cast<WgmmaLayoutAttr>(src.type.getLayout()))
    if (storeWgmmaMatrices(op, wgmma, *parentSlots))
      return success();
  Location loc = op.getLoc();
  const BufferStorage &dst = *getConvertedBuffer(op.getDest());
  FailureOr<int64_t> fragmentVec = fragmentVector(op, layout);
  if (failed(fragmentVec))
    return failure();
  int64_t vec = *fragmentVec;
  auto vectorType = VectorType::get({vec}, src.type.getElementType());
  forEachThreadChunk(
      loc, window, layout, vec, [&](int64_t slot, ArrayRef<Value> coords) {
        SmallVector<Value> elements;
        for (int64_t lane = 0; lane < vec; ++lane)
          elements.push_back(memref::LoadOp::create(
              builder, loc, src.memref,
              constant(loc, (*parentSlots)[slot + lane])));
        Value chunk =
            vector::FromElementsOp::create(builder, loc, vectorType, elements);
        writeChunk(loc, dst, ValueRange{}, coords, slot, vec,
                   convertVector(loc, chunk, dst.type.getElementType()));
      });
  return success();
}

LogicalResult KernelLowering::lowerCopy(CopyOp op) {
  if (op.isTmaLoad())
    return lowerTmaCopy(op);
  if (op.isTmaStore())
    return lowerTmaStore(op);
  const BufferStorage *source = getConvertedBuffer(op.getSource());
  const BufferStorage *dest = getConvertedBuffer(op.getDest());
  if (!source || !dest)
    return op.emitOpError("operand has no storage");
  const BufferStorage &src = *source, &dst = *dest;
  ArrayRef<int64_t> shape = op.getTileShape();
  if (auto slice = dyn_cast_or_null<SliceLayoutAttr>(src.type.getLayout()))
    return lowerRowValueStore(op, slice);
  // A window of a fragment; also the whole of a #tile.wgmma accumulator
  // into a 16-bit #tile.nvmma tile, which stmatrix stores.
  if (src.type.isFragment() &&
      (!op.getSourceOffsets().empty() ||
       (isa_and_nonnull<WgmmaLayoutAttr>(src.type.getLayout()) &&
        dst.type.isShared() &&
        isa_and_nonnull<NvmmaLayoutAttr>(dst.type.getLayout()) &&
        getElementByteWidth(dst.type.getElementType()) == 2)))
    return lowerFragmentWindowCopy(op);

  // Follow the fragment's layout; otherwise the widest 16-byte chunks.
  int64_t vec = 0;
  Attribute layout;
  for (const BufferStorage *side : {&src, &dst}) {
    if (!side->type.isFragment())
      continue;
    FailureOr<int64_t> fragmentVec = fragmentVector(op, side->type.getLayout());
    if (failed(fragmentVec))
      return failure();
    if (layout && layout != side->type.getLayout())
      return op.emitOpError("expected source and dest fragments with the same "
                            "layout, but got ")
             << src.type.getLayout() << " and " << dst.type.getLayout();
    vec = *fragmentVec;
    layout = side->type.getLayout();
  }
  if (!vec)
    vec = std::min(getWidestVector(shape.back(), src.type.getElementType()),
                   getWidestVector(shape.back(), dst.type.getElementType()));

  if (op.getAsync())
    return lowerAsyncCopy(op);
  copyChunks(op, shape, layout, vec);
  return success();
}

LogicalResult KernelLowering::lowerAtomicAdd(AtomicAddOp op) {
  const BufferStorage *source = getConvertedBuffer(op.getSource());
  const BufferStorage *dest = getConvertedBuffer(op.getDest());
  if (!source || !dest)
    return op.emitOpError("operand has no storage");
  Attribute layout = source->type.getLayout();
  FailureOr<int64_t> vec = fragmentVector(op, layout);
  if (failed(vec))
    return failure();
  Location loc = op.getLoc();
  forEachThreadChunk(
      loc, source->type.getShape(), layout, *vec,
      [&](int64_t slot, ArrayRef<Value> coords) {
        Value vector =
            readChunk(loc, *source, ValueRange{}, coords, slot, *vec);
        vector = convertVector(loc, vector, dest->type.getElementType());
        addChunk(loc, *dest, op.getDestOffsets(), coords, *vec, vector);
      });
  return success();
}

void KernelLowering::copyChunks(CopyOp op, ArrayRef<int64_t> shape,
                                Attribute layout, int64_t vec) {
  forEachThreadChunk(op.getLoc(), shape, layout, vec,
                     [&](int64_t slot, ArrayRef<Value> coords) {
                       copyChunk(op, slot, coords, vec);
                     });
}

void KernelLowering::copyChunk(CopyOp op, int64_t slot, ArrayRef<Value> coords,
                               int64_t vec) {
  Location loc = op.getLoc();
  const BufferStorage &src = *getConvertedBuffer(op.getSource());
  const BufferStorage &dst = *getConvertedBuffer(op.getDest());
  Value vector = readChunk(loc, src, op.getSourceOffsets(), coords, slot, vec);
  vector = convertVector(loc, vector, dst.type.getElementType());
  writeChunk(loc, dst, op.getDestOffsets(), coords, slot, vec, vector);
}

LogicalResult KernelLowering::lowerAsyncCopy(CopyOp op) {
  Location loc = op.getLoc();
  const BufferStorage &src = *getConvertedBuffer(op.getSource());
  const BufferStorage &dst = *getConvertedBuffer(op.getDest());
  ArrayRef<int64_t> shape = op.getTileShape();
  Type elementType = dst.type.getElementType();
  int64_t vec = getWidestVector(shape.back(), elementType);
  int64_t bytes = vec * getElementByteWidth(elementType);
  // cp.async moves 4, 8 or 16 bytes.
  if (bytes < 4) {
    copyChunks(op, shape, Attribute(), vec);
    return success();
  }
  int64_t rank = shape.size();
  SmallVector<Value> offsets(op.getSourceOffsets());
  if (offsets.empty())
    offsets.assign(rank, constant(loc, 0));
  Value zero = constant(loc, 0), vecValue = constant(loc, vec);
  auto isMultiple = [&](Value v) {
    return arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::eq,
        arith::RemUIOp::create(builder, loc, v, vecValue), zero);
  };
  // Every chunk starts at a multiple of vec within the tile, so the chunks
  // are aligned exactly when the column offset and the row length are (a
  // row length promised to be a multiple needs no test; the offset test
  // folds away in LLVM when the offset is a multiple of the tile width).
  Value aligned = isMultiple(offsets.back());
  if (rank > 1 && src.divisor(rank - 1) % vec != 0)
    aligned = arith::AndIOp::create(builder, loc, aligned,
                                    isMultiple(src.sizes.back()));
  // The chunk tests below (coordinate < size - offset) hold for offsets of
  // 0 or more; a tile at a negative offset (rows or columns before the
  // tensor) takes the synchronous copy, masked element by element. One
  // test per offset and copy, none where the offset is known to be
  // non-negative (block and loop indices, their sums and products).
  for (Value offset : offsets)
    if (!knownNonNegative(offset))
      aligned = arith::AndIOp::create(
          builder, loc, aligned,
          arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sge, offset,
                                zero));
  auto tokenType = nvgpu::DeviceAsyncTokenType::get(builder.getContext());
  UnitAttr bypassL1 = bytes == 16 ? builder.getUnitAttr() : UnitAttr();
  auto branch = scf::IfOp::create(builder, loc, aligned, /*withElse=*/true);
  {
    // Aligned: every chunk lies wholly inside or wholly outside the tensor
    // (chunks start at multiples of vec, and so do the row lengths), so a
    // chunk is one cp.async whose source size is vec or 0 (zero-fill). The
    // chunks address a view of the tile: their offsets are loop-invariant,
    // and there is no branch, so the copies schedule among the MMAs.
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(&branch.getThenRegion().front());
    SmallVector<OpFoldResult> viewOffsets(offsets.begin(), offsets.end());
    SmallVector<OpFoldResult> sizes, strides;
    SmallVector<Value> remaining;
    for (int64_t d = 0; d < rank; ++d) {
      sizes.push_back(builder.getIndexAttr(shape[d]));
      strides.push_back(builder.getIndexAttr(1));
      remaining.push_back(
          arith::SubIOp::create(builder, loc, src.sizes[d], offsets[d]));
    }
    Value tileView = memref::SubViewOp::create(builder, loc, src.memref,
                                               viewOffsets, sizes, strides);
    forEachThreadChunk(
        loc, shape, Attribute(), vec, [&](int64_t, ArrayRef<Value> coords) {
          // Signed: a tile past the end has a negative remainder.
          Value inside;
          for (int64_t d = 0; d < rank; ++d) {
            Value in =
                arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt,
                                      coords[d], remaining[d]);
            inside =
                inside ? Value(arith::AndIOp::create(builder, loc, inside, in))
                       : in;
          }
          Value valid =
              arith::SelectOp::create(builder, loc, inside, vecValue, zero);
          nvgpu::DeviceAsyncCopyOp::create(
              builder, loc, tokenType, dst.memref, physical(loc, dst, coords),
              tileView, coords, builder.getIndexAttr(vec), valid, bypassL1);
        });
  }
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(&branch.getElseRegion().front());
  copyChunks(op, shape, Attribute(), vec);
  return success();
}

/// An nvgpu.device_async_create_group without tokens (the hardware counts
/// groups; the copies' tokens live in branches that do not dominate the
/// commit), numbered: the attribute is also what ends the op's empty
/// operand list when printed, which otherwise swallows the next line's
/// result when the IR is parsed again (`tile-opt --tile-to-gpu | tile-opt`).
static Value createAsyncGroup(OpBuilder &builder, Location loc,
                              int64_t number) {
  auto group = nvgpu::DeviceAsyncCreateGroupOp::create(
      builder, loc, nvgpu::DeviceAsyncTokenType::get(builder.getContext()),
      ValueRange{});
  group->setAttr("tile.group", builder.getI64IntegerAttr(number));
  return group;
}

LogicalResult KernelLowering::lowerAsyncCommit(AsyncCommitOp op) {
  asyncGroups.push_back(
      createAsyncGroup(builder, op.getLoc(), asyncGroups.size()));
  return success();
}

void KernelLowering::waitForAsyncGroups(Operation *op, int64_t pending) {
  Location loc = op->getLoc();
  DominanceInfo dominance(func);
  Value group;
  for (Value candidate : llvm::reverse(asyncGroups))
    if (dominance.properlyDominates(candidate, op)) {
      group = candidate;
      break;
    }
  // No commit before: an empty group completes at once, so it changes no
  // count that matters.
  if (!group)
    group = createAsyncGroup(builder, loc, -1);
  nvgpu::DeviceAsyncWaitOp::create(builder, loc, group,
                                   builder.getI32IntegerAttr(pending));
  emitGroupBarrier(loc);
}

LogicalResult KernelLowering::lowerAsyncWait(AsyncWaitOp op) {
  waitForAsyncGroups(op, op.getPending());
  return success();
}

LogicalResult KernelLowering::lowerStage(StageOp op) {
  Location loc = op.getLoc();
  const BufferStorage *staged = getConvertedBuffer(op.getSource());
  if (!staged)
    return op.emitOpError("buffer has no storage");
  auto sourceType = cast<MemRefType>(staged->memref.getType());
  int64_t rank = sourceType.getRank();
  SmallVector<OpFoldResult> offsets(rank, builder.getIndexAttr(0));
  offsets[0] = op.getIndex();
  SmallVector<OpFoldResult> sizes = {builder.getIndexAttr(1)};
  for (int64_t d = 1; d < rank; ++d)
    sizes.push_back(builder.getIndexAttr(sourceType.getDimSize(d)));
  SmallVector<OpFoldResult> strides(rank, builder.getIndexAttr(1));
  Value view = memref::SubViewOp::create(
      builder, loc, typeConverter.convertType<MemRefType>(op.getResult()),
      staged->memref, offsets, sizes, strides);
  BufferType type = op.getResult().getType();
  BufferStorage tile{type, view, {}};
  for (int64_t dim : type.getShape())
    tile.sizes.push_back(constant(loc, dim));
  setConvertedBuffer(op.getResult(), tile);
  return success();
}

LogicalResult KernelLowering::lowerFill(Operation *op, Value dest,
                                        Value value) {
  Location loc = op->getLoc();
  const BufferStorage *converted = getConvertedBuffer(dest);
  if (!converted)
    return op->emitOpError("operand has no storage");
  const BufferStorage &dst = *converted;
  if (dst.type.isFragment()) {
    FailureOr<int64_t> perThread = registersPerThread(op, dest);
    if (failed(perThread))
      return failure();
    for (int64_t slot = 0; slot < *perThread; ++slot)
      memref::StoreOp::create(builder, loc, value, dst.memref,
                              constant(loc, slot));
    return success();
  }
  ArrayRef<int64_t> shape = dst.type.getShape();
  int64_t vec = getWidestVector(shape.back(), dst.type.getElementType());
  Value splat = vector::BroadcastOp::create(
      builder, loc, VectorType::get({vec}, dst.type.getElementType()), value);
  forEachThreadChunk(loc, shape, Attribute(), vec,
                     [&](int64_t slot, ArrayRef<Value> coords) {
                       writeChunk(loc, dst, {}, coords, slot, vec, splat);
                     });
  return success();
}

LogicalResult KernelLowering::lowerDim(DimOp op) {
  const BufferStorage *source = getConvertedBuffer(op.getSource());
  if (!source)
    return op.emitOpError("buffer has no storage");
  op.getResult().replaceAllUsesWith(source->sizes[op.getDim()]);
  return success();
}

LogicalResult KernelLowering::lowerSubview(SubviewOp op) {
  const BufferStorage *converted = getConvertedBuffer(op.getSource());
  if (!converted)
    return op.emitOpError("buffer has no storage");
  const BufferStorage &source = *converted;
  Location loc = op.getLoc();
  auto sourceType = cast<MemRefType>(source.memref.getType());
  int64_t rank = sourceType.getRank(), fixed = op.getIndices().size();
  SmallVector<OpFoldResult> offsets, sizes,
      strides(rank, builder.getIndexAttr(1));
  for (int64_t d = 0; d < rank; ++d) {
    offsets.push_back(d < fixed ? OpFoldResult(op.getIndices()[d])
                                : OpFoldResult(builder.getIndexAttr(0)));
    // Static sizes as attributes, so that the view's type keeps them.
    sizes.push_back(
        d < fixed ? OpFoldResult(builder.getIndexAttr(1))
        : sourceType.isDynamicDim(d)
            ? OpFoldResult(source.sizes[d])
            : OpFoldResult(builder.getIndexAttr(sourceType.getDimSize(d))));
  }
  Value view = memref::SubViewOp::create(
      builder, loc, typeConverter.convertType<MemRefType>(op.getResult()),
      source.memref, offsets, sizes, strides);
  BufferStorage result{cast<BufferType>(op.getType()), view, {}};
  result.sizes.assign(source.sizes.begin() + fixed, source.sizes.end());
  for (int64_t d = fixed; d < rank; ++d)
    result.divisors.push_back(source.divisor(d));
  setConvertedBuffer(op.getResult(), result);
  return success();
}

} // namespace mlir::tile::lowering

namespace {

/// tile.alloc_shared: a view of the dynamic shared memory at its planned
/// offset.
struct AllocSharedOpLowering : public TileToGPUPattern<AllocSharedOp> {
  using TileToGPUPattern::TileToGPUPattern;
  LogicalResult matchAndRewrite(AllocSharedOp op,
                                PatternRewriter &) const override {
    return lowering.lowerAllocShared(op);
  }
};

/// tile.alloc_fragment: the thread's registers, a private array.
struct AllocFragmentOpLowering : public TileToGPUPattern<AllocFragmentOp> {
  using TileToGPUPattern::TileToGPUPattern;
  LogicalResult matchAndRewrite(AllocFragmentOp op,
                                PatternRewriter &) const override {
    return lowering.lowerAllocFragment(op);
  }
};

/// tile.copy: chunk by chunk, synchronously or with cp.async.
struct CopyOpLowering : public TileToGPUPattern<CopyOp> {
  using TileToGPUPattern::TileToGPUPattern;
  LogicalResult matchAndRewrite(CopyOp op, PatternRewriter &) const override {
    return lowering.lowerCopy(op);
  }
};

/// tile.atomic_add: the thread's chunks added element by element.
struct AtomicAddOpLowering : public TileToGPUPattern<AtomicAddOp> {
  using TileToGPUPattern::TileToGPUPattern;
  LogicalResult matchAndRewrite(AtomicAddOp op,
                                PatternRewriter &) const override {
    return lowering.lowerAtomicAdd(op);
  }
};

/// tile.fill: the value stored into every element the thread owns.
struct FillOpLowering : public TileToGPUPattern<FillOp> {
  using TileToGPUPattern::TileToGPUPattern;
  LogicalResult matchAndRewrite(FillOp op, PatternRewriter &) const override {
    return lowering.lowerFill(op, op.getDest(), op.getValue());
  }
};

/// tile.clear: a fill with zero.
struct ClearOpLowering : public TileToGPUPattern<ClearOp> {
  using TileToGPUPattern::TileToGPUPattern;
  LogicalResult matchAndRewrite(ClearOp op,
                                PatternRewriter &rewriter) const override {
    Type elementType =
        cast<BufferType>(op.getDest().getType()).getElementType();
    Value zero = arith::ConstantOp::create(rewriter, op.getLoc(),
                                           rewriter.getZeroAttr(elementType));
    return lowering.lowerFill(op, op.getDest(), zero);
  }
};

/// tile.stage: a view of one stage of a multi-buffered shared tile.
struct StageOpLowering : public TileToGPUPattern<StageOp> {
  using TileToGPUPattern::TileToGPUPattern;
  LogicalResult matchAndRewrite(StageOp op, PatternRewriter &) const override {
    return lowering.lowerStage(op);
  }
};

/// tile.async_commit: cp.async.commit_group.
struct AsyncCommitOpLowering : public TileToGPUPattern<AsyncCommitOp> {
  using TileToGPUPattern::TileToGPUPattern;
  LogicalResult matchAndRewrite(AsyncCommitOp op,
                                PatternRewriter &) const override {
    return lowering.lowerAsyncCommit(op);
  }
};

/// tile.async_wait: cp.async.wait_group, then a barrier.
struct AsyncWaitOpLowering : public TileToGPUPattern<AsyncWaitOp> {
  using TileToGPUPattern::TileToGPUPattern;
  LogicalResult matchAndRewrite(AsyncWaitOp op,
                                PatternRewriter &) const override {
    return lowering.lowerAsyncWait(op);
  }
};

/// tile.dim: the size the buffer's storage holds.
struct DimOpLowering : public TileToGPUPattern<DimOp> {
  using TileToGPUPattern::TileToGPUPattern;
  LogicalResult matchAndRewrite(DimOp op, PatternRewriter &) const override {
    return lowering.lowerDim(op);
  }
};

/// tile.subview: a memref.subview of the buffer's storage.
struct SubviewOpLowering : public TileToGPUPattern<SubviewOp> {
  using TileToGPUPattern::TileToGPUPattern;
  LogicalResult matchAndRewrite(SubviewOp op,
                                PatternRewriter &) const override {
    return lowering.lowerSubview(op);
  }
};

} // namespace

void mlir::tile::populateTileMemoryToGPUPatterns(
    lowering::KernelLowering &lowering, RewritePatternSet &patterns) {
  patterns.add<AllocSharedOpLowering, AllocFragmentOpLowering, CopyOpLowering,
               AtomicAddOpLowering, FillOpLowering, ClearOpLowering,
               StageOpLowering, AsyncCommitOpLowering, AsyncWaitOpLowering,
               DimOpLowering, SubviewOpLowering>(lowering);
}
