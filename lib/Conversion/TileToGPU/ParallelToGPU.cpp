//===- ParallelToGPU.cpp - tile.parallel to per-thread loops --------------===//
//
// Pattern for tile.parallel: the loop unrolled (or rolled) over the chunks
// of its layout that the calling thread owns, with its body's element
// accesses turned into register and memory accesses, and fused stores.
//
//===----------------------------------------------------------------------===//

#include "LoweringState.h"
#include "tile/Conversion/TileToGPU/TileToGPU.h"
#include "tile/Dialect/Tile/Transforms/StoreFusion.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

namespace mlir::tile::lowering {

//===----------------------------------------------------------------------===//
// Element-wise loops
//===----------------------------------------------------------------------===//

LogicalResult KernelLowering::lowerElementAccess(Operation *op, Value slotValue,
                                                 int64_t slot,
                                                 const RowMap *rows) {
  Location loc = op->getLoc();
  auto access = [&](Value buffer, ValueRange indices,
                    SmallVectorImpl<Value> &address) -> const BufferStorage * {
    const BufferStorage *converted = getConvertedBuffer(buffer);
    if (!converted)
      return nullptr;
    if (converted->type.isFragment()) {
      bool rowValue =
          isa_and_nonnull<SliceLayoutAttr>(converted->type.getLayout());
      address.assign(
          {rowValue && rows ? constant(loc, rows->slotOf(slot)) : slotValue});
    } else {
      SmallVector<Value> coords(indices.begin(), indices.end());
      address = physical(loc, *converted, coords);
    }
    return converted;
  };
  SmallVector<Value> address;
  builder.setInsertionPoint(op);
  if (auto load = dyn_cast<LoadOp>(op)) {
    const BufferStorage *buffer =
        access(load.getBuffer(), load.getIndices(), address);
    if (!buffer)
      return load.emitOpError("buffer has no storage (or is a row value "
                              "read outside a loop over its parent's shape)");
    load.getResult().replaceAllUsesWith(
        memref::LoadOp::create(builder, loc, buffer->memref, address));
  } else {
    auto store = cast<StoreOp>(op);
    const BufferStorage *buffer =
        access(store.getBuffer(), store.getIndices(), address);
    if (!buffer)
      return store.emitOpError("buffer has no storage");
    memref::StoreOp::create(builder, loc, store.getValue(), buffer->memref,
                            address);
  }
  op->erase();
  return success();
}

LogicalResult KernelLowering::lowerParallel(ParallelOp op) {
  Location loc = op.getLoc();
  ArrayRef<int64_t> shape = op.getExtents();

  // The loop follows the layout of the fragments it touches; they must agree.
  Operation *layoutSource = nullptr;
  SmallVector<Operation *> rowValues;
  Attribute layout;
  WalkResult walk = op.getBody().walk([&](Operation *inner) {
    BufferType type = getAccessedFragment(inner);
    if (!type)
      return WalkResult::advance();
    // Row values read at every column follow the loop's layout by
    // construction (their #tile.slice parent).
    if (isRowValueOf(type, shape.size())) {
      rowValues.push_back(inner);
      return WalkResult::advance();
    }
    if (!layoutSource) {
      layoutSource = inner;
      layout = type.getLayout();
      return WalkResult::advance();
    }
    if (type.getLayout() != layout) {
      InFlightDiagnostic diag =
          op.emitOpError("accesses fragments with different layouts: ")
          << layout << " and " << type.getLayout();
      diag.attachNote(layoutSource->getLoc()) << "first layout used here";
      diag.attachNote(inner->getLoc()) << "second layout used here";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();

  // A loop over row values alone (#tile.slice fragments, e.g. a running
  // maximum): each thread computes the rows it holds.
  std::optional<RowMap> ownRows;
  if (auto slice = dyn_cast_or_null<SliceLayoutAttr>(layout)) {
    auto type = cast<BufferType>(
        layoutSource->getOperand(isa<StoreOp>(layoutSource) ? 1 : 0).getType());
    FailureOr<RowMap> map = getRowMap(
        layoutSource, slice.getParentShape(type.getShape()), slice.getParent());
    if (failed(map))
      return failure();
    ownRows = *map;
  }

  int64_t vec = 1;
  if (layoutSource && !ownRows) {
    if (!layout)
      return layoutSource->emitOpError("expected a fragment with a layout; "
                                       "run -tile-assign-layouts first");
    FailureOr<int64_t> fragmentVec = fragmentVector(layoutSource, layout);
    if (failed(fragmentVec))
      return failure();
    vec = *fragmentVec;
  }

  std::optional<RowMap> rows;
  if (!rowValues.empty()) {
    for (Operation *access : rowValues) {
      auto slice = cast<SliceLayoutAttr>(
          cast<BufferType>(access->getOperand(0).getType()).getLayout());
      if (slice.getParent() != layout)
        return access->emitOpError("reads row values whose #tile.slice "
                                   "parent ")
               << slice.getParent() << " is not the loop's layout " << layout;
    }
    FailureOr<RowMap> map = getRowMap(rowValues.front(), shape, layout);
    if (failed(map))
      return failure();
    rows = *map;
  }

  Block &body = op.getBodyBlock();
  LogicalResult result = success();
  // The copy after the loop that -tile-fuse-stores marked for it: the loop
  // stores each chunk as soon as it is computed (an epilogue's values die
  // chunk by chunk instead of all staying live until the copy).
  CopyOp store = rows ? CopyOp() : getFusedStore(op);
  // A rolled loop fused with the copy of the shared tile it rewrites: each
  // lane's own element of that tile comes from `ownElements` (read per
  // chunk) and its new value goes to `ownResults` instead of the tile.
  Value ownTile;
  SmallVector<Value> ownElements, ownResults;
  // One iteration of the body at `coords`, on register `slot` (and lane
  // `lane` of the chunk, for a fused rolled loop).
  auto emitIteration = [&](int64_t slot, ArrayRef<Value> coords,
                           int64_t lane = 0) {
    Value slotValue = constant(loc, slot);
    IRMapping mapping;
    mapping.map(body.getArguments(), coords);
    SmallVector<Operation *> accesses;
    for (Operation &inner : body.without_terminator()) {
      Operation *clone = builder.clone(inner, mapping);
      clone->walk([&](Operation *nested) {
        if (isa<LoadOp, StoreOp, DimOp>(nested))
          accesses.push_back(nested);
      });
    }
    OpBuilder::InsertionGuard guard(builder);
    for (Operation *access : accesses) {
      // A tile.dim in the body is cloned with it; its sizes are defined in
      // the prologue, so it is replaced here like one outside the loop.
      if (auto dim = dyn_cast<DimOp>(access)) {
        if (failed(lowerDim(dim)))
          result = failure();
        else
          dim->erase();
        continue;
      }
      if (ownTile &&
          access->getOperand(isa<StoreOp>(access) ? 1 : 0) == ownTile) {
        if (auto load = dyn_cast<LoadOp>(access))
          load.replaceAllUsesWith(ownElements[lane]);
        else
          ownResults[lane] = cast<StoreOp>(access).getValue();
        access->erase();
        continue;
      }
      if (failed(lowerElementAccess(access, slotValue, slot,
                                    rows ? &*rows : nullptr)))
        result = failure();
    }
  };
  if (ownRows) {
    for (int64_t k = 0; k < ownRows->slots && succeeded(result); ++k)
      emitIteration(k, {ownRows->rowOf(k)});
    return result;
  }
  if (op.getRolled()) {
    // One chunk per iteration of an scf.for over the thread's chunks (chunk
    // c of thread t is t + c * threads, row-major): single elements, or the
    // fused copy's chunks.
    // A rolled loop fused with the copy of the shared tile it rewrites in
    // place (-tile-fuse-stores) runs over the copy's chunks, reads each
    // chunk of the tile as one vector and stores its results straight to
    // global memory, never back to the tile.
    CopyOp fused = getFusedStore(op);
    if (fused && (!getConvertedBuffer(fused.getSource()) ||
                  !getConvertedBuffer(fused.getDest())))
      return fused.emitOpError("operand has no storage");
    int64_t chunkVec = 1;
    if (fused) {
      ownTile = fused.getSource();
      chunkVec =
          getWidestVector(shape.back(), fused.getDestType().getElementType());
      ownResults.resize(chunkVec);
    }
    Distribution dist = distribute(shape, chunkVec, group.threads);
    // A fused loop computes several chunks per iteration (up to 32 values
    // of a thread, all before their stores): independent work for the
    // long latency of each value (an erf is ~20 dependent instructions),
    // where a kernel with one block per SM has no other block to overlap.
    int64_t unroll = 1;
    if (fused && !dist.needsGuard)
      while (unroll * 2 * chunkVec <= 32 &&
             dist.chunksPerThread % (unroll * 2) == 0)
        unroll *= 2;
    auto loop = scf::ForOp::create(builder, loc, constant(loc, 0),
                                   constant(loc, dist.chunksPerThread / unroll),
                                   constant(loc, 1));
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(loop.getBody()->getTerminator());
    SmallVector<std::pair<SmallVector<Value>, Value>> computed;
    for (int64_t u = 0; u < unroll && succeeded(result); ++u) {
      Value chunk = arith::AddIOp::create(
          builder, loc,
          arith::MulIOp::create(
              builder, loc,
              arith::AddIOp::create(
                  builder, loc,
                  arith::MulIOp::create(builder, loc, loop.getInductionVar(),
                                        constant(loc, unroll)),
                  constant(loc, u)),
              constant(loc, group.threads)),
          getGroupThreadId());
      if (dist.needsGuard) {
        auto inRange = scf::IfOp::create(
            builder, loc,
            arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult,
                                  chunk, constant(loc, dist.numChunks)));
        builder.setInsertionPointToStart(&inRange.getThenRegion().front());
      }
      SmallVector<Value> first = delinearize(
          loc,
          arith::MulIOp::create(builder, loc, chunk, constant(loc, chunkVec)),
          shape);
      if (fused) {
        // In 16-byte pieces: a #tile.swizzle moves each piece on its own.
        const BufferStorage &tile = *getConvertedBuffer(ownTile);
        int64_t piece =
            std::min(chunkVec,
                     getWidestVector(shape.back(), tile.type.getElementType()));
        ownElements.clear();
        for (int64_t start = 0; start < chunkVec; start += piece) {
          SmallVector<Value> coords(first);
          if (start)
            coords.back() = arith::AddIOp::create(builder, loc, coords.back(),
                                                  constant(loc, start));
          Value loaded = readChunk(loc, tile, {}, coords, 0, piece);
          for (int64_t lane = 0; lane < piece; ++lane)
            ownElements.push_back(
                vector::ExtractOp::create(builder, loc, loaded, lane));
        }
      }
      for (int64_t lane = 0; lane < chunkVec && succeeded(result); ++lane) {
        SmallVector<Value> coords(first);
        if (lane)
          coords.back() = arith::AddIOp::create(builder, loc, coords.back(),
                                                constant(loc, lane));
        emitIteration(0, coords, lane);
      }
      if (fused)
        computed.emplace_back(
            first,
            vector::FromElementsOp::create(
                builder, loc,
                VectorType::get(
                    {chunkVec},
                    cast<BufferType>(ownTile.getType()).getElementType()),
                ownResults));
    }
    if (!fused || failed(result))
      return result;
    // After the computations of the iteration; with a partial last round
    // (unroll 1) still inside its guard.
    const BufferStorage &dst = *getConvertedBuffer(fused.getDest());
    for (auto &[first, results] : computed)
      writeChunk(loc, dst, fused.getDestOffsets(), first, 0, chunkVec,
                 convertVector(loc, results, dst.type.getElementType()));
    storesFusedIntoParallel.insert(fused);
    return result;
  }
  if (store && (!getConvertedBuffer(store.getSource()) ||
                !getConvertedBuffer(store.getDest())))
    return store.emitOpError("operand has no storage");
  forEachThreadChunk(
      loc, shape, layout, vec, [&](int64_t firstSlot, ArrayRef<Value> first) {
        for (int64_t lane = 0; lane < vec && succeeded(result); ++lane) {
          SmallVector<Value> coords(first);
          if (lane)
            coords.back() = arith::AddIOp::create(builder, loc, coords.back(),
                                                  constant(loc, lane));
          emitIteration(firstSlot + lane, coords);
        }
        // The copy's chunk with these slots and coordinates (the same
        // layout and width as the copy's own lowering).
        if (store)
          copyChunk(store, firstSlot, first, vec);
      });
  if (store)
    storesFusedIntoParallel.insert(store);
  return result;
}

} // namespace mlir::tile::lowering

namespace {

/// tile.parallel: the loop over the thread's chunks, with its body.
struct ParallelOpLowering : public TileToGPUPattern<ParallelOp> {
  using TileToGPUPattern::TileToGPUPattern;
  LogicalResult matchAndRewrite(ParallelOp op,
                                PatternRewriter &) const override {
    return lowering.lowerParallel(op);
  }
};

} // namespace

void mlir::tile::populateTileParallelToGPUPatterns(
    lowering::KernelLowering &lowering, RewritePatternSet &patterns) {
  patterns.add<ParallelOpLowering>(lowering);
}
