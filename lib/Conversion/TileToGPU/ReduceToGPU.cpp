//===- ReduceToGPU.cpp - Tile reductions to shuffles ----------------------===//
//
// Patterns for tile.reduce (within threads, across lanes with shuffles,
// across warps through a shared scratch) and tile.thread_reduce.
//
//===----------------------------------------------------------------------===//

#include "LoweringState.h"
#include "tile/Conversion/TileToGPU/TileToGPU.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

namespace mlir::tile::lowering {

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

Value KernelLowering::allocateScratch(Location loc, int64_t elements) {
  int64_t offset = alignTo(sharedBytes, kSharedAlignment);
  sharedBytes = offset + elements * 4;
  Value base = getDynamicSharedMemory();
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(prologueEnd);
  auto type = MemRefType::get(
      {elements}, builder.getF32Type(), MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(builder.getContext(),
                                 gpu::AddressSpace::Workgroup));
  return memref::ViewOp::create(builder, loc, type, base, constant(loc, offset),
                                ValueRange{});
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
  const BufferStorage &src = storage[op.getSrc()];
  if (!src.memref)
    return op.emitOpError("operand has no storage");
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
  const BufferStorage &src = storage[op.getSrc()];
  const BufferStorage &dst = storage[op.getDst()];
  if (!src.memref || !dst.memref)
    return op.emitOpError("operand has no storage");
  FailureOr<RowMap> map =
      getRowMap(op, src.type.getShape(), src.type.getLayout());
  if (failed(map))
    return failure();
  auto combine = [&](Value a, Value b) {
    return combineReduction(builder, loc, op.getKind(), a, b);
  };

  // In-thread: each register into its row slot.
  int64_t perThread =
      cast<FragmentLayoutAttrInterface>(src.type.getLayout())
          .getRegistersPerThread(src.type.getShape(), numThreads);
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
        allocateScratch(loc, map->slots * map->rowsPerWarp * numWarps);
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
