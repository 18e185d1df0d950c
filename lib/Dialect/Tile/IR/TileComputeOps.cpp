//===- TileComputeOps.cpp - Tile compute operations -----------------------===//
//
// Verifiers of the ops that compute on whole tiles: tile.gemm (with its
// operand prefetch) and tile.gemm_prefetch on tensor cores, and the
// reductions (thread_reduce, reduce).
//
//===----------------------------------------------------------------------===//

#include "TileOpsHelpers.h"

#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;
using namespace mlir::tile;

using mlir::tile::detail::formatShape;

//===----------------------------------------------------------------------===//
// GemmOp
//===----------------------------------------------------------------------===//

/// The operand checks shared by tile.gemm and tile.gemm_prefetch.
static LogicalResult verifyGemmOperands(Operation *op, BufferType a,
                                        BufferType b, BufferType c,
                                        bool transposeA, bool transposeB,
                                        bool registerA = false) {
  if (registerA && a.isFragment()) {
    if (transposeA)
      return op->emitOpError("expected an A fragment without transpose_a");
    // Each lane holds the A operand of its rows only when the warps split
    // the rows alone, the same way for A and C.
    auto aLayout = dyn_cast_or_null<MmaLayoutAttr>(a.getLayout());
    auto cLayout = dyn_cast_or_null<MmaLayoutAttr>(c.getLayout());
    if ((a.getLayout() && (!aLayout || aLayout.getWarpsN() != 1)) ||
        (aLayout && cLayout && aLayout != cLayout))
      return op->emitOpError("expected an A fragment with the accumulator's "
                             "#tile.mma layout of one warp column, but got ")
             << a.getLayout() << " and " << c.getLayout();
  } else if (!a.isShared() || !b.isShared()) {
    return op->emitOpError(registerA ? "expected A in shared memory or a "
                                       "fragment and B in shared memory, but "
                                       "got a "
                                     : "expected A and B in shared memory, "
                                       "but got a ")
           << stringifyMemoryScope(a.getScope()) << " A and a "
           << stringifyMemoryScope(b.getScope()) << " B";
  }
  if (!b.isShared())
    return op->emitOpError("expected B in shared memory, but got a ")
           << stringifyMemoryScope(b.getScope()) << " B";
  if (!c.isFragment())
    return op->emitOpError(
               "expected the accumulator C to be a fragment, but got a ")
           << stringifyMemoryScope(c.getScope()) << " buffer";
  if (a.getRank() != 2 || b.getRank() != 2 || c.getRank() != 2)
    return op->emitOpError("expected rank-2 A, B and C");
  if (!(a.getElementType().isF16() || a.getElementType().isBF16()) ||
      b.getElementType() != a.getElementType())
    return op->emitOpError("expected f16 or bf16 A and B of one type, but got ")
           << a.getElementType() << " and " << b.getElementType();
  if (!c.getElementType().isF32())
    return op->emitOpError("expected an f32 accumulator, but got ")
           << c.getElementType();
  int64_t m = transposeA ? a.getDimSize(1) : a.getDimSize(0);
  int64_t k = transposeA ? a.getDimSize(0) : a.getDimSize(1);
  int64_t bk = transposeB ? b.getDimSize(1) : b.getDimSize(0);
  int64_t n = transposeB ? b.getDimSize(0) : b.getDimSize(1);
  if (bk != k)
    return op->emitOpError("expected B to have K = ")
           << k << " (the K of A), but got " << bk
           << (transposeB ? " columns (transpose_b)" : " rows");
  if (c.getDimSize(0) != m || c.getDimSize(1) != n)
    return op->emitOpError("expected C of shape ")
           << m << "x" << n << ", but got " << formatShape(c.getShape());
  if (m % 16 != 0 || n % 8 != 0 || k % 16 != 0)
    return op->emitOpError("expected M, N, K multiples of 16, 8, 16 (one "
                           "m16n8k16 MMA), but got ")
           << m << ", " << n << ", " << k;
  if (c.getLayout() && !isa<MmaLayoutAttr, WgmmaLayoutAttr>(c.getLayout()))
    return op->emitOpError("expected the accumulator to have a #tile.mma or "
                           "#tile.wgmma layout, but got ")
           << c.getLayout();
  return success();
}

/// The warpgroup MMA form: a #tile.wgmma accumulator of A and B tiles in
/// #tile.nvmma panels that wgmma descriptors can address.
static LogicalResult verifyWarpgroupGemm(GemmOp op) {
  if (failed(tile::detail::verifyInWarpSpecializedKernel(op)))
    return failure();
  BufferType a = op.getAType(), b = op.getBType(), c = op.getCType();
  if (!isa_and_nonnull<WgmmaLayoutAttr>(c.getLayout()))
    return op.emitOpError("expected an async gemm's accumulator to have a "
                          "#tile.wgmma layout, but got ")
           << c;
  if (!a.isShared() || !isa_and_nonnull<NvmmaLayoutAttr>(a.getLayout()) ||
      !isa_and_nonnull<NvmmaLayoutAttr>(b.getLayout()))
    return op.emitOpError("expected an async gemm's A and B to be shared "
                          "tiles with a #tile.nvmma layout, but got ")
           << a << " and " << b;
  if (op.getPrefetched() || op.getNextA())
    return op.emitOpError("expected no operand prefetch on an async gemm "
                          "(wgmma reads shared memory itself)");
  // A K-major operand is read in 16-element K steps within a panel, so its
  // panels must hold whole steps; an MN-major B's panel rows are its N.
  for (BufferType operand : {a, b}) {
    auto nvmma = cast<NvmmaLayoutAttr>(operand.getLayout());
    if (nvmma.getSwizzle() != 128)
      return op.emitOpError("expected #tile.nvmma<swizzle = 128> operands "
                            "(the only swizzle the wgmma lowering emits "
                            "yet), but got ")
             << nvmma;
  }
  // An MN-major B is split between warpgroups along N by whole 64-column
  // panels (the lowering's descriptor steps panels, not columns).
  auto wgmma = cast<WgmmaLayoutAttr>(c.getLayout());
  int64_t cols = c.getDimSize(1) / wgmma.getWarpgroupsN();
  int64_t panelColumns = 128 / getElementByteWidth(b.getElementType());
  if (!op.getTransposeB() && wgmma.getWarpgroupsN() > 1 &&
      cols % panelColumns != 0)
    return op.emitOpError("expected each warpgroup's columns to be a "
                          "multiple of ")
           << panelColumns << " (a 128-byte panel of the N-major B) for "
           << wgmma << ", but got " << cols;
  return success();
}

/// Whether `op` loads the prefetch registers of accumulator `acc`.
static bool prefetchesFor(Operation *op, Value acc) {
  if (auto prefetch = dyn_cast<GemmPrefetchOp>(op))
    return prefetch.getC() == acc;
  auto gemm = dyn_cast<GemmOp>(op);
  return gemm && gemm.getC() == acc && gemm.getNextA();
}

/// The last op (program order) in or under `op` that prefetches for `acc`.
static Operation *lastPrefetchIn(Operation *op, Value acc) {
  Operation *last = nullptr;
  op->walk([&](Operation *nested) {
    if (prefetchesFor(nested, acc))
      last = nested;
  });
  return last;
}

/// "transpose_a, transpose_b", ..., "no transpose".
static std::string transposeFlags(bool a, bool b) {
  return a && b ? "transpose_a, transpose_b"
         : a    ? "transpose_a"
         : b    ? "transpose_b"
                : "no transpose";
}

/// A `prefetched` gemm reads registers that the last prefetch on its
/// accumulator loaded: on the way to it (its block, then the blocks around
/// it), and, for each loop it is in, at the end of the loop's previous
/// iteration. Each of those must exist and match the gemm.
static LogicalResult verifyPrefetchSources(GemmOp gemm) {
  Value acc = gemm.getC();
  SmallVector<Operation *> sources;
  bool reached = false;
  for (Operation *at = gemm; at && !isa<KernelOp>(at); at = at->getParentOp()) {
    Operation *before = nullptr;
    for (Operation *prev = at->getPrevNode(); prev && !before;
         prev = prev->getPrevNode())
      before = lastPrefetchIn(prev, acc);
    if (before) {
      sources.push_back(before);
      reached = true;
      break;
    }
    // Nothing before it in this block: a loop's body is also entered from
    // its previous iteration.
    Operation *parent = at->getParentOp();
    if (!isa_and_nonnull<LoopLikeOpInterface>(parent))
      continue;
    Operation *last = nullptr;
    for (Operation &op : *at->getBlock())
      if (Operation *found = lastPrefetchIn(&op, acc))
        last = found;
    if (!last) {
      InFlightDiagnostic diag = gemm.emitOpError(
          "is `prefetched` in a loop whose body loads no prefetch on its "
          "accumulator for the next iteration (`then wait N prefetch`)");
      diag.attachNote(parent->getLoc()) << "the loop";
      return diag;
    }
    sources.push_back(last);
  }
  if (!reached)
    return gemm.emitOpError(
        "is `prefetched`, but no tile.gemm_prefetch or `then wait N "
        "prefetch` on its accumulator comes before it");
  for (Operation *source : sources) {
    auto prefetch = dyn_cast<GemmPrefetchOp>(source);
    auto producer = dyn_cast<GemmOp>(source);
    bool transposeA =
        prefetch ? prefetch.getTransposeA() : producer.getTransposeA();
    bool transposeB =
        prefetch ? prefetch.getTransposeB() : producer.getTransposeB();
    Type element =
        (prefetch ? prefetch.getAType() : producer.getAType()).getElementType();
    if (transposeA != gemm.getTransposeA() ||
        transposeB != gemm.getTransposeB()) {
      InFlightDiagnostic diag =
          gemm.emitOpError("expected the prefetch of its operands to have "
                           "its transposes (")
          << transposeFlags(gemm.getTransposeA(), gemm.getTransposeB())
          << "), but got " << transposeFlags(transposeA, transposeB);
      diag.attachNote(source->getLoc()) << "the prefetch";
      return diag;
    }
    if (element != gemm.getAType().getElementType()) {
      InFlightDiagnostic diag =
          gemm.emitOpError("expected the prefetch of its operands to be of "
                           "its element type ")
          << gemm.getAType().getElementType() << ", but got " << element;
      diag.attachNote(source->getLoc()) << "the prefetch";
      return diag;
    }
  }
  return success();
}

LogicalResult GemmOp::verify() {
  if (failed(verifyGemmOperands(*this, getAType(), getBType(), getCType(),
                                getTransposeA(), getTransposeB(),
                                /*registerA=*/true)))
    return failure();
  if (getAsync())
    return verifyWarpgroupGemm(*this);
  if (!getNextA() != !getNextB() || !getNextA() != !getWaitPending())
    return emitOpError("expected `then wait N prefetch %a, %b` with both "
                       "next operands and the wait count, or none of them");
  if (getAType().isFragment() && (getPrefetched() || getNextA()))
    return emitOpError("expected no operand prefetch with an A fragment");
  if (std::optional<int64_t> pending = getWaitPending())
    if (failed(detail::verifyPendingGroups(*this, *pending)))
      return failure();
  if (getPrefetched())
    return verifyPrefetchSources(*this);
  return success();
}

LogicalResult GemmPrefetchOp::verify() {
  return verifyGemmOperands(*this, getAType(), getBType(), getCType(),
                            getTransposeA(), getTransposeB());
}

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

LogicalResult ThreadReduceOp::verify() {
  BufferType src = getSrcType();
  if (!src.isFragment())
    return emitOpError("expected a fragment, but got a ")
           << stringifyMemoryScope(src.getScope()) << " tile";
  if (!src.getElementType().isF32())
    return emitOpError("expected an f32 fragment, but got ")
           << src.getElementType();
  return success();
}

LogicalResult ReduceOp::verify() {
  BufferType src = getSrcType(), dst = getDstType();
  if (!src.isFragment() || !dst.isFragment())
    return emitOpError("expected fragments, but got a ")
           << stringifyMemoryScope(src.getScope()) << " source and a "
           << stringifyMemoryScope(dst.getScope()) << " destination";
  if (src.getRank() != 2)
    return emitOpError("expected a rank-2 source, but got rank ")
           << src.getRank();
  if (getDim() != 1)
    return emitOpError("expected dim(1) (reducing each row); reducing "
                       "dimension ")
           << getDim() << " is not supported";
  if (dst.getShape() != ArrayRef<int64_t>{src.getDimSize(0)})
    return emitOpError("expected a destination of shape ")
           << src.getDimSize(0) << " (the source "
           << formatShape(src.getShape()) << " without dimension 1), but got "
           << formatShape(dst.getShape());
  if (!src.getElementType().isF32() ||
      dst.getElementType() != src.getElementType())
    return emitOpError("expected f32 source and destination, but got ")
           << src.getElementType() << " and " << dst.getElementType();
  auto slice = dyn_cast_or_null<SliceLayoutAttr>(dst.getLayout());
  if (dst.getLayout() && !slice)
    return emitOpError("expected the destination to have a #tile.slice "
                       "layout, but got ")
           << dst.getLayout();
  if (slice && src.getLayout() &&
      (slice.getDim() != getDim() || slice.getParent() != src.getLayout() ||
       slice.getDimSize() != src.getDimSize(getDim())))
    return emitOpError("expected the destination layout to be the source "
                       "layout ")
           << src.getLayout() << " sliced along dimension " << getDim()
           << " of size " << src.getDimSize(getDim()) << ", but got " << slice;
  return success();
}
