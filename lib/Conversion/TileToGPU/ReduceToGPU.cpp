//===- ReduceToGPU.cpp - Tile reductions to shuffles ----------------------===//
//
// Patterns for tile.reduce (within threads, across lanes with shuffles,
// across warps through the shared scratch -tile-plan-shared-memory placed)
// and tile.thread_reduce.
//
//===----------------------------------------------------------------------===//

#include "LoweringState.h"
#include "tile/Conversion/TileToGPU/TileToGPU.h"
#include "tile/Dialect/Tile/Transforms/ReductionScratch.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

namespace mlir::tile::lowering {

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

LogicalResult KernelLowering::verifyReduceScratch(ReduceOp op,
                                                  int64_t elements) {
  std::optional<uint64_t> offset = op.getScratchOffset();
  std::optional<uint64_t> bytes = op.getScratchBytes();
  if (elements == 0) {
    if (offset)
      return op.emitOpError("expected no scratch (the rows of its source "
                            "lie within warps), but got ")
             << *bytes << " bytes at offset " << *offset;
    return success();
  }
  if (!offset)
    return op.emitOpError("expected a scratch in shared memory for its "
                          "cross-warp step; run -tile-plan-shared-memory "
                          "first");
  // Where it lies was checked with the plan (readSharedMemoryPlan).
  if (static_cast<int64_t>(*bytes) != elements * 4)
    return op.emitOpError("expected a scratch of ")
           << elements * 4 << " bytes (" << elements
           << " f32 partial values) for its cross-warp step, but got "
           << *bytes;
  return success();
}

Value KernelLowering::allocateScratch(Location loc, int64_t offset,
                                      int64_t elements) {
  Value base = getDynamicSharedMemory();
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(prologueEnd);
  return memref::ViewOp::create(builder, loc,
                                typeConverter.getScratchType(elements), base,
                                constant(loc, offset), ValueRange{});
}

/// a (+ | max | min) b for tile.reduce and tile.thread_reduce.
static Value combineReduction(OpBuilder &builder, Location loc, ReduceKind kind,
                              Value a, Value b) {
  switch (kind) {
  case ReduceKind::sum:
    return arith::AddFOp::create(builder, loc, a, b);
  case ReduceKind::max:
    return arith::MaximumFOp::create(builder, loc, a, b);
  case ReduceKind::min:
    return arith::MinimumFOp::create(builder, loc, a, b);
  }
  llvm_unreachable("unknown reduction");
}

LogicalResult KernelLowering::lowerThreadReduce(ThreadReduceOp op) {
  Location loc = op.getLoc();
  const BufferStorage *converted = getConvertedBuffer(op.getSrc());
  if (!converted)
    return op.emitOpError("operand has no storage");
  const BufferStorage &src = *converted;
  // The fragment's registers are the thread's elements: combine them all.
  int64_t slots = cast<MemRefType>(src.memref.getType()).getNumElements();
  Value result;
  for (int64_t s = 0; s < slots; ++s) {
    Value value =
        memref::LoadOp::create(builder, loc, src.memref, constant(loc, s));
    result = result
                 ? combineReduction(builder, loc, op.getKind(), result, value)
                 : value;
  }
  op.getResult().replaceAllUsesWith(result);
  return success();
}

LogicalResult KernelLowering::lowerReduce(ReduceOp op) {
  Location loc = op.getLoc();
  const BufferStorage *source = getConvertedBuffer(op.getSrc());
  const BufferStorage *dest = getConvertedBuffer(op.getDst());
  if (!source || !dest)
    return op.emitOpError("operand has no storage");
  const BufferStorage &src = *source, &dst = *dest;
  FailureOr<RowMap> map =
      getRowMap(op, src.type.getShape(), src.type.getLayout());
  if (failed(map))
    return failure();
  // The cross-warp scratch: what the plan gave the op (none where the rows
  // lie within warps).
  int64_t scratchElements = getReduceScratchElements(op, numThreads);
  if (failed(verifyReduceScratch(op, scratchElements)))
    return failure();
  auto combine = [&](Value a, Value b) {
    return combineReduction(builder, loc, op.getKind(), a, b);
  };

  // In-thread: each register into its row slot.
  int64_t perThread = cast<MemRefType>(src.memref.getType()).getNumElements();
  SmallVector<Value> partial(map->slots);
  for (int64_t s = 0; s < perThread; ++s) {
    Value value =
        memref::LoadOp::create(builder, loc, src.memref, constant(loc, s));
    Value &slot = partial[map->slotOf(s)];
    slot = slot ? combine(slot, value) : value;
  }
  // Across the lanes of a row (butterfly: every lane gets the result).
  Value width = arith::ConstantIntOp::create(builder, loc, 32, 32);
  for (int64_t offset = 1; offset < map->lanesPerRow; offset *= 2)
    for (Value &value : partial) {
      Value mask = arith::ConstantIntOp::create(builder, loc, offset, 32);
      Value other = gpu::ShuffleOp::create(builder, loc, value, mask, width,
                                           gpu::ShuffleMode::XOR)
                        .getShuffleResult();
      value = combine(value, other);
    }
  // Across the warps of a row, through shared memory: each warp leaves its
  // value at [slot][row in warp][warp]; every thread combines its row's.
  if (map->warpsPerRow > 1) {
    int64_t numWarps = numThreads / 32;
    Value scratch =
        allocateScratch(loc, *op.getScratchOffset(), scratchElements);
    auto [warp, lane] = getWarpAndLane(loc);
    Value rowInWarp = arith::DivUIOp::create(
        builder, loc, lane, constant(loc, 32 / map->rowsPerWarp));
    Value firstWarp = arith::MulIOp::create(
        builder, loc,
        arith::DivUIOp::create(builder, loc, warp,
                               constant(loc, map->warpsPerRow)),
        constant(loc, map->warpsPerRow));
    auto index = [&](int64_t slot, Value w) -> Value {
      Value row = arith::AddIOp::create(
          builder, loc, constant(loc, slot * map->rowsPerWarp), rowInWarp);
      return arith::AddIOp::create(
          builder, loc,
          arith::MulIOp::create(builder, loc, row, constant(loc, numWarps)), w);
    };
    // The first barrier: a previous use of the scratch (this reduction in
    // a loop) is done.
    gpu::BarrierOp::create(builder, loc);
    for (auto [slot, value] : llvm::enumerate(partial))
      memref::StoreOp::create(builder, loc, value, scratch, index(slot, warp));
    gpu::BarrierOp::create(builder, loc);
    for (auto [slot, value] : llvm::enumerate(partial)) {
      Value total;
      for (int64_t j = 0; j < map->warpsPerRow; ++j) {
        Value w =
            arith::AddIOp::create(builder, loc, firstWarp, constant(loc, j));
        Value v = memref::LoadOp::create(builder, loc, scratch, index(slot, w));
        total = total ? combine(total, v) : v;
      }
      value = total;
    }
  }
  for (auto [slot, value] : llvm::enumerate(partial)) {
    Value index = constant(loc, slot);
    if (op.getAccumulate())
      value = combine(memref::LoadOp::create(builder, loc, dst.memref, index),
                      value);
    memref::StoreOp::create(builder, loc, value, dst.memref, index);
  }
  return success();
}

} // namespace mlir::tile::lowering

namespace {

/// tile.reduce along dim 1 of a fragment.
struct ReduceOpLowering : public TileToGPUPattern<ReduceOp> {
  using TileToGPUPattern::TileToGPUPattern;
  LogicalResult matchAndRewrite(ReduceOp op, PatternRewriter &) const override {
    return lowering.lowerReduce(op);
  }
};

/// tile.thread_reduce: over the thread's own registers.
struct ThreadReduceOpLowering : public TileToGPUPattern<ThreadReduceOp> {
  using TileToGPUPattern::TileToGPUPattern;
  LogicalResult matchAndRewrite(ThreadReduceOp op,
                                PatternRewriter &) const override {
    return lowering.lowerThreadReduce(op);
  }
};

} // namespace

void mlir::tile::populateTileReduceToGPUPatterns(
    lowering::KernelLowering &lowering, RewritePatternSet &patterns) {
  patterns.add<ReduceOpLowering, ThreadReduceOpLowering>(lowering);
}
