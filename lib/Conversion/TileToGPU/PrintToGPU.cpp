//===- PrintToGPU.cpp - tile.print to gpu.printf --------------------------===//
//
// Pattern for tile.print: gpu.printf from the chosen block and thread or
// warp, of a scalar, a shared tile or a fragment's elements.
//
//===----------------------------------------------------------------------===//

#include "LoweringState.h"
#include "tile/Conversion/TileToGPU/TileToGPU.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

namespace mlir::tile::lowering {

/// A printf argument for `value` and its conversion: floats as f32 ("%g"),
/// index and 64-bit integers as i64 ("%lld"), narrower integers as i32.
static std::pair<Value, StringRef> printfArgument(OpBuilder &builder,
                                                  Location loc, Value value) {
  Type type = value.getType();
  if (auto floatType = dyn_cast<FloatType>(type)) {
    if (floatType.getWidth() < 32)
      value = arith::ExtFOp::create(builder, loc, builder.getF32Type(), value);
    return {value, "%g"};
  }
  if (type.isIndex())
    return {
        arith::IndexCastOp::create(builder, loc, builder.getI64Type(), value),
        "%lld"};
  if (type.getIntOrFloatBitWidth() == 64)
    return {value, "%lld"};
  if (type.getIntOrFloatBitWidth() < 32)
    value = arith::ExtSIOp::create(builder, loc, builder.getI32Type(), value);
  return {value, "%d"};
}

LogicalResult KernelLowering::lowerPrint(PrintOp op) {
  Location loc = op.getLoc();
  Value value = op.getValue();
  auto buffer = dyn_cast<BufferType>(value.getType());
  // Earlier writes to a shared tile become visible (every thread takes this
  // barrier; the printing thread is chosen below).
  if (buffer && buffer.isShared())
    emitGroupBarrier(loc);

  auto equals = [&](Value v, int64_t c) {
    return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, v,
                                 constant(loc, c));
  };
  SmallVector<int64_t> block(3, 0);
  if (std::optional<ArrayRef<int64_t>> chosen = op.getBlock())
    block.assign(chosen->begin(), chosen->end());
  static const gpu::Dimension dims[] = {gpu::Dimension::x, gpu::Dimension::y,
                                        gpu::Dimension::z};
  Value chosen = op.getThread()
                     ? equals(threadId, *op.getThread())
                     : equals(arith::DivUIOp::create(builder, loc, threadId,
                                                     constant(loc, 32)),
                              *op.getWarp());
  for (int d = 0; d < 3; ++d)
    chosen = arith::AndIOp::create(
        builder, loc, chosen,
        equals(gpu::BlockIdOp::create(builder, loc, dims[d]), block[d]));
  auto guard = scf::IfOp::create(builder, loc, chosen);
  OpBuilder::InsertionGuard insertion(builder);
  builder.setInsertionPoint(guard.thenBlock()->getTerminator());
  // printf "label[i][j] = value<suffix>" for `element` at `indices`, with
  // `extra` values after it.
  auto printElement = [&](ValueRange indices, Value element, StringRef suffix,
                          ValueRange extra) {
    // The label is text, not format: its '%' print as themselves.
    std::string format;
    for (char c : op.getLabel()) {
      format += c;
      if (c == '%')
        format += '%';
    }
    SmallVector<Value> args;
    for (Value index : indices) {
      format += "[%lld]";
      args.push_back(printfArgument(builder, loc, index).first);
    }
    auto [arg, valueFormat] = printfArgument(builder, loc, element);
    args.push_back(arg);
    for (Value value : extra)
      args.push_back(printfArgument(builder, loc, value).first);
    format += (" = " + valueFormat + suffix + "\n").str();
    gpu::PrintfOp::create(builder, loc, builder.getStringAttr(format), args);
  };

  if (!buffer) {
    printElement({}, value, "", {});
    return success();
  }

  ArrayRef<int64_t> shape = buffer.getShape();
  if (buffer.isShared()) {
    // One thread walks the whole tile (runtime loops: any size).
    const BufferStorage *converted = getConvertedBuffer(value);
    if (!converted)
      return op.emitOpError("shared tile has no storage");
    const BufferStorage &tile = *converted;
    SmallVector<Value> ivs;
    for (int64_t extent : shape) {
      auto loop = scf::ForOp::create(builder, loc, constant(loc, 0),
                                     constant(loc, extent), constant(loc, 1));
      builder.setInsertionPoint(loop.getBody()->getTerminator());
      ivs.push_back(loop.getInductionVar());
    }
    Value element = memref::LoadOp::create(
        builder, loc, tile.memref,
        shape.size() == 2 ? physical(loc, tile, ivs) : SmallVector<Value>(ivs));
    printElement(ivs, element, "", {});
    return success();
  }

  // A fragment: the chosen threads print the elements they hold, through a
  // tile.parallel over the tile (which follows the fragment's layout).
  auto loop = ParallelOp::create(builder, loc, shape);
  {
    OpBuilder::InsertionGuard inBody(builder);
    builder.setInsertionPoint(loop.getBodyBlock().getTerminator());
    ValueRange ivs = loop.getInductionVars();
    Value element =
        LoadOp::create(builder, loc, buffer.getElementType(), value, ivs);
    printElement(ivs, element, " (thread %lld)",
                 {gpu::ThreadIdOp::create(builder, loc, gpu::Dimension::x)});
  }
  builder.setInsertionPoint(loop);
  LogicalResult lowered = lowerParallel(loop);
  loop.erase();
  return lowered;
}

} // namespace mlir::tile::lowering

namespace {

/// tile.print: gpu.printf from the chosen threads.
struct PrintOpLowering : public TileToGPUPattern<PrintOp> {
  using TileToGPUPattern::TileToGPUPattern;
  LogicalResult matchAndRewrite(PrintOp op, PatternRewriter &) const override {
    return lowering.lowerPrint(op);
  }
};

} // namespace

void mlir::tile::populateTilePrintToGPUPatterns(
    lowering::KernelLowering &lowering, RewritePatternSet &patterns) {
  patterns.add<PrintOpLowering>(lowering);
}
