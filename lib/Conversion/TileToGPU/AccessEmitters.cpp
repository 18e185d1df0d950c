//===- AccessEmitters.cpp - Chunk reads and writes ------------------------===//
//
// Reads and writes of one thread's `vec`-element chunk of a global, shared
// or fragment buffer: vector accesses where the chunk is inside the tensor
// and aligned, masked scalar ones at its edge.
//
//===----------------------------------------------------------------------===//

#include "LoweringState.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tile;

namespace mlir::tile::lowering {

KernelLowering::GlobalAccess
KernelLowering::globalAccessChecks(Location loc, const BufferStorage &global,
                                   ValueRange offsets, ArrayRef<Value> g,
                                   int64_t vec) {
  auto band = [&](Value a, Value b) -> Value {
    return a ? Value(arith::AndIOp::create(builder, loc, a, b)) : b;
  };
  Value rowsInBounds;
  int64_t last = g.size() - 1;
  for (int64_t d = 0; d < last; ++d)
    rowsInBounds =
        band(rowsInBounds,
             arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult,
                                   g[d], global.sizes[d]));
  if (!rowsInBounds)
    rowsInBounds =
        arith::ConstantOp::create(builder, loc, builder.getBoolAttr(true));
  // The chunk's first element g = offset + a coordinate of 0 or more. When
  // the offset is known to be non-negative (block and loop indices, their
  // sums and products), so is g, and one value per chunk decides both the
  // vector and each masked lane (size - g >= vec; lane < size - g): few
  // values stay live between a copy in and the copy out of the same
  // fragment, and LLVM derives the lanes' tests from the vector's. Any
  // other offset may put g below 0: indices are then compared unsigned, one
  // compare excluding both ends (a negative index is a huge unsigned one),
  // the vector when g < max(size - vec + 1, 0) (the limit once per copy), a
  // lane when g + lane < size.
  Value remaining, fast;
  if (offsets.empty() || knownNonNegative(offsets.back())) {
    remaining =
        arith::SubIOp::create(builder, loc, global.sizes[last], g[last]);
    fast = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sge,
                                 remaining, constant(loc, vec));
  } else {
    Value limit = global.sizes[last];
    if (vec > 1)
      limit = arith::MaxSIOp::create(
          builder, loc,
          arith::SubIOp::create(builder, loc, limit, constant(loc, vec - 1)),
          constant(loc, 0));
    fast = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult,
                                 g[last], limit);
  }
  fast = band(rowsInBounds, fast);
  bool wholeChunks = false;
  if (vec > 1) {
    // The chunk is 16-byte aligned when its first element and every row
    // start are multiples of vec (the tensor itself is 16-byte aligned);
    // chunk coordinates are multiples of vec, so the first element is when
    // the copy's column offset is: one test per copy, not per chunk. A row
    // length promised to be a multiple (`divisible`) needs no test.
    Value vecConst = constant(loc, vec);
    Value zero = constant(loc, 0);
    auto isMultiple = [&](Value v) {
      return arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::eq,
          arith::RemUIOp::create(builder, loc, v, vecConst), zero);
    };
    if (!offsets.empty())
      fast = band(fast, isMultiple(offsets.back()));
    bool rowsMultiple = global.divisor(last) % vec == 0;
    if (last > 0 && !rowsMultiple)
      fast = band(fast, isMultiple(global.sizes[last]));
    wholeChunks = rowsMultiple &&
                  (offsets.empty() || knownMultiple(offsets.back()) % vec == 0);
  }
  return {rowsInBounds, remaining, fast, wholeChunks};
}

Value KernelLowering::laneInBounds(Location loc, const GlobalAccess &checks,
                                   const BufferStorage &global, Value index,
                                   int64_t lane) {
  Value inRow =
      checks.remaining
          ? arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt,
                                  constant(loc, lane), checks.remaining)
          : arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult,
                                  index, global.sizes.back());
  return arith::AndIOp::create(builder, loc, checks.rowsInBounds, inRow);
}

Value KernelLowering::readChunk(Location loc, const BufferStorage &src,
                                ValueRange offsets, ArrayRef<Value> coords,
                                int64_t slot, int64_t vec) {
  Type elementType = src.type.getElementType();
  auto vectorType = VectorType::get({vec}, elementType);
  int64_t bytes = vec * getElementByteWidth(elementType);

  if (src.type.isFragment()) {
    SmallVector<Value> elements;
    for (int64_t lane = 0; lane < vec; ++lane)
      elements.push_back(memref::LoadOp::create(builder, loc, src.memref,
                                                constant(loc, slot + lane)));
    return vector::FromElementsOp::create(builder, loc, vectorType, elements);
  }
  if (src.type.isShared())
    return vector::LoadOp::create(builder, loc, vectorType, src.memref,
                                  physical(loc, src, coords),
                                  /*nontemporal=*/false, accessAlign(bytes));

  // Global: one aligned vector load inside the tensor, masked scalars at the
  // edges (out-of-bounds elements read as zero).
  SmallVector<Value> g(coords);
  for (auto [d, offset] : llvm::enumerate(offsets))
    g[d] = arith::AddIOp::create(builder, loc, offset, coords[d]);
  GlobalAccess checks = globalAccessChecks(loc, src, offsets, g, vec);
  auto branch =
      scf::IfOp::create(builder, loc, TypeRange{vectorType}, checks.fast,
                        /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(&branch.getThenRegion().front());
  Value loaded =
      vector::LoadOp::create(builder, loc, vectorType, src.memref, g,
                             /*nontemporal=*/false, accessAlign(bytes));
  scf::YieldOp::create(builder, loc, loaded);

  builder.setInsertionPointToStart(&branch.getElseRegion().front());
  if (checks.wholeChunks) {
    // Past the end of the tensor: zeros.
    scf::YieldOp::create(builder, loc,
                         ValueRange{arith::ConstantOp::create(
                             builder, loc, builder.getZeroAttr(vectorType))});
    return branch.getResult(0);
  }
  Value zero =
      arith::ConstantOp::create(builder, loc, builder.getZeroAttr(elementType));
  SmallVector<Value> elements;
  int64_t last = g.size() - 1;
  for (int64_t lane = 0; lane < vec; ++lane) {
    SmallVector<Value> index(g);
    index[last] =
        arith::AddIOp::create(builder, loc, g[last], constant(loc, lane));
    Value valid = laneInBounds(loc, checks, src, index[last], lane);
    auto masked = scf::IfOp::create(builder, loc, TypeRange{elementType}, valid,
                                    /*withElseRegion=*/true);
    OpBuilder::InsertionGuard inner(builder);
    builder.setInsertionPointToStart(&masked.getThenRegion().front());
    scf::YieldOp::create(
        builder, loc,
        ValueRange{memref::LoadOp::create(builder, loc, src.memref, index)});
    builder.setInsertionPointToStart(&masked.getElseRegion().front());
    scf::YieldOp::create(builder, loc, zero);
    elements.push_back(masked.getResult(0));
  }
  scf::YieldOp::create(builder, loc,
                       ValueRange{vector::FromElementsOp::create(
                           builder, loc, vectorType, elements)});
  return branch.getResult(0);
}

void KernelLowering::writeChunk(Location loc, const BufferStorage &dst,
                                ValueRange offsets, ArrayRef<Value> coords,
                                int64_t slot, int64_t vec, Value vector) {
  Type elementType = dst.type.getElementType();
  int64_t bytes = vec * getElementByteWidth(elementType);

  if (dst.type.isFragment()) {
    for (int64_t lane = 0; lane < vec; ++lane)
      memref::StoreOp::create(
          builder, loc, vector::ExtractOp::create(builder, loc, vector, lane),
          dst.memref, constant(loc, slot + lane));
    return;
  }
  if (dst.type.isShared()) {
    vector::StoreOp::create(builder, loc, vector, dst.memref,
                            physical(loc, dst, coords),
                            /*nontemporal=*/false, accessAlign(bytes));
    return;
  }

  // Global: elements outside the tensor are not written.
  SmallVector<Value> g(coords);
  for (auto [d, offset] : llvm::enumerate(offsets))
    g[d] = arith::AddIOp::create(builder, loc, offset, coords[d]);
  GlobalAccess checks = globalAccessChecks(loc, dst, offsets, g, vec);
  auto branch = scf::IfOp::create(builder, loc, checks.fast,
                                  /*withElseRegion=*/!checks.wholeChunks);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(&branch.getThenRegion().front());
  vector::StoreOp::create(builder, loc, vector, dst.memref, g,
                          /*nontemporal=*/false, accessAlign(bytes));
  // A whole chunk past the end of the tensor is not written.
  if (checks.wholeChunks)
    return;
  builder.setInsertionPointToStart(&branch.getElseRegion().front());
  forEachLaneInBounds(
      loc, checks, dst, g, vec, [&](int64_t lane, ArrayRef<Value> index) {
        memref::StoreOp::create(
            builder, loc, vector::ExtractOp::create(builder, loc, vector, lane),
            dst.memref, index);
      });
}

void KernelLowering::forEachLaneInBounds(
    Location loc, const GlobalAccess &checks, const BufferStorage &global,
    ArrayRef<Value> g, int64_t vec,
    function_ref<void(int64_t, ArrayRef<Value>)> body) {
  int64_t last = g.size() - 1;
  for (int64_t lane = 0; lane < vec; ++lane) {
    SmallVector<Value> index(g);
    index[last] =
        arith::AddIOp::create(builder, loc, g[last], constant(loc, lane));
    Value valid = laneInBounds(loc, checks, global, index[last], lane);
    auto masked = scf::IfOp::create(builder, loc, valid);
    OpBuilder::InsertionGuard inner(builder);
    builder.setInsertionPointToStart(&masked.getThenRegion().front());
    body(lane, index);
  }
}

void KernelLowering::addChunk(Location loc, const BufferStorage &dst,
                              ValueRange offsets, ArrayRef<Value> coords,
                              int64_t vec, Value vector) {
  // One relaxed atomic add per element inside the tensor; the mask is a
  // predicate on it, so there is no vector fast path to gain.
  SmallVector<Value> g(coords);
  for (auto [d, offset] : llvm::enumerate(offsets))
    g[d] = arith::AddIOp::create(builder, loc, offset, coords[d]);
  GlobalAccess checks = globalAccessChecks(loc, dst, offsets, g, /*vec=*/1);
  forEachLaneInBounds(
      loc, checks, dst, g, vec, [&](int64_t lane, ArrayRef<Value> index) {
        memref::AtomicRMWOp::create(
            builder, loc, arith::AtomicRMWKind::addf,
            vector::ExtractOp::create(builder, loc, vector, lane), dst.memref,
            index);
      });
}

Value KernelLowering::convertVector(Location loc, Value vector,
                                    Type elementType) {
  auto type = cast<VectorType>(vector.getType());
  if (type.getElementType() == elementType)
    return vector;
  auto target = type.clone(elementType);
  unsigned sourceWidth = type.getElementType().getIntOrFloatBitWidth();
  unsigned targetWidth = elementType.getIntOrFloatBitWidth();
  // f16 <-> bf16: neither extf nor truncf casts between types of the same
  // width, so go through f32.
  if (sourceWidth == targetWidth) {
    Value wide = arith::ExtFOp::create(
        builder, loc, type.clone(builder.getF32Type()), vector);
    return arith::TruncFOp::create(builder, loc, target, wide);
  }
  if (targetWidth > sourceWidth)
    return arith::ExtFOp::create(builder, loc, target, vector);
  return arith::TruncFOp::create(builder, loc, target, vector);
}

} // namespace mlir::tile::lowering
