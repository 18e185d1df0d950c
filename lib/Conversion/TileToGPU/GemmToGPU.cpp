//===- GemmToGPU.cpp - tile.gemm to ldmatrix and mma.sync -----------------===//
//
// Patterns for tile.gemm and tile.gemm_prefetch: per warp, ldmatrix of
// the A and B operands from (swizzled) shared tiles and m16n8k16 mma.sync
// into the accumulator fragment, with operand prefetch across K steps.
//
//===----------------------------------------------------------------------===//

#include "LoweringState.h"
#include "tile/Conversion/TileToGPU/TileToGPU.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

namespace mlir::tile::lowering {

//===----------------------------------------------------------------------===//
// Tensor cores
//===----------------------------------------------------------------------===//

SmallVector<Value> KernelLowering::multiplyAccumulate(Location loc, Value a,
                                                      Value b,
                                                      ArrayRef<Value> c) {
  auto aType = cast<VectorType>(a.getType());
  Type f32 = builder.getF32Type();
  SmallVector<Value> result;
  if (aType.getElementType().isF16()) {
    Value acc = vector::FromElementsOp::create(builder, loc,
                                               VectorType::get({2, 2}, f32), c);
    Value d = nvgpu::MmaSyncOp::create(builder, loc, a, b, acc,
                                       ArrayRef<int64_t>{16, 8, 16});
    for (int64_t i = 0; i < 4; ++i)
      result.push_back(vector::ExtractOp::create(
          builder, loc, d, ArrayRef<int64_t>{i / 2, i % 2}));
    return result;
  }
  // bf16: nvgpu.mma.sync cannot lower it, so use nvvm.mma.sync on the
  // operands' packed 32-bit registers.
  auto packed = [&](Value fragment) {
    SmallVector<Value> registers;
    int64_t rows = cast<VectorType>(fragment.getType()).getDimSize(0);
    for (int64_t r = 0; r < rows; ++r) {
      Value pair = vector::ExtractOp::create(builder, loc, fragment,
                                             ArrayRef<int64_t>{r});
      Value word = vector::BitCastOp::create(
          builder, loc, VectorType::get({1}, builder.getI32Type()), pair);
      registers.push_back(
          vector::ExtractOp::create(builder, loc, word, ArrayRef<int64_t>{0}));
    }
    return registers;
  };
  auto structType = LLVM::LLVMStructType::getLiteral(builder.getContext(),
                                                     SmallVector<Type>(4, f32));
  Value d = NVVM::MmaOp::create(
      builder, loc, structType, packed(a), packed(b), c,
      ArrayRef<int64_t>{16, 8, 16}, std::nullopt, std::nullopt,
      std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16, NVVM::MMATypes::bf16},
      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                     NVVM::MMALayout::col});
  for (int64_t i = 0; i < 4; ++i)
    result.push_back(LLVM::ExtractValueOp::create(builder, loc, d, i));
  return result;
}

std::pair<Value, Value> KernelLowering::getPrefetchRegisters(Value acc,
                                                             VectorType aType,
                                                             int64_t aCount,
                                                             VectorType bType,
                                                             int64_t bCount) {
  auto [it, inserted] = prefetchRegisters.try_emplace(acc);
  if (inserted) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(prologueEnd);
    Location loc = acc.getLoc();
    it->second = {memref::AllocaOp::create(builder, loc,
                                           MemRefType::get({aCount}, aType)),
                  memref::AllocaOp::create(builder, loc,
                                           MemRefType::get({bCount}, bType))};
  }
  return it->second;
}

LogicalResult KernelLowering::lowerGemm(
    Operation *op, Value aTile, Value bTile, Value cTile, bool transposeA,
    bool transposeB, bool clearAccum, bool prefetched, Value nextA, Value nextB,
    std::optional<int64_t> waitPending, bool prefetchOnly) {
  Location loc = op->getLoc();
  const BufferStorage *aBuffer = getConvertedBuffer(aTile);
  const BufferStorage *bBuffer = getConvertedBuffer(bTile);
  const BufferStorage *cBuffer = getConvertedBuffer(cTile);
  const BufferStorage *nextABuffer =
      nextA ? getConvertedBuffer(nextA) : nullptr;
  const BufferStorage *nextBBuffer =
      nextB ? getConvertedBuffer(nextB) : nullptr;
  if (!aBuffer || !bBuffer || !cBuffer ||
      (nextA && (!nextABuffer || !nextBBuffer)))
    return op->emitOpError("operand has no storage");
  const BufferStorage &a = *aBuffer, &b = *bBuffer, &c = *cBuffer;
  auto mma = dyn_cast_or_null<MmaLayoutAttr>(c.type.getLayout());
  if (!mma)
    return op->emitOpError("expected the accumulator to have a #tile.mma "
                           "layout; run -tile-assign-layouts first");
  if (a.type.isFragment() && a.type.getLayout() != c.type.getLayout())
    return op->emitOpError("expected the A fragment to have the "
                           "accumulator's layout ")
           << c.type.getLayout() << "; run -tile-assign-layouts first";
  int64_t k = a.type.getDimSize(transposeA ? 0 : 1);
  ArrayRef<int64_t> cShape = c.type.getShape();
  // Plain variables: the lambdas below capture them.
  int64_t warpRows, warpCols, tilesM, tilesN;
  std::tie(warpRows, warpCols) = mma.getWarpTile(cShape);
  std::tie(tilesM, tilesN) = mma.getMmaTiles(cShape);
  Type input = a.type.getElementType(), f32 = builder.getF32Type();
  auto aType = VectorType::get({4, 2}, input);
  auto bType = VectorType::get({2, 2}, input);

  auto [warp, lane] = getWarpAndLane(loc);
  Value warpsN = constant(loc, mma.getWarpsN());
  Value warpRow = arith::MulIOp::create(
      builder, loc, arith::DivUIOp::create(builder, loc, warp, warpsN),
      constant(loc, warpRows));
  Value warpCol = arith::MulIOp::create(
      builder, loc, arith::RemUIOp::create(builder, loc, warp, warpsN),
      constant(loc, warpCols));
  // ldmatrix row addresses: lane l supplies row l of the 8x8 matrices.
  Value lane16 = arith::RemUIOp::create(builder, loc, lane, constant(loc, 16));
  Value laneHalf = arith::MulIOp::create(
      builder, loc,
      arith::DivUIOp::create(builder, loc, lane, constant(loc, 16)),
      constant(loc, 8));
  Value lane8 = arith::RemUIOp::create(builder, loc, lane, constant(loc, 8));
  Value laneQuarter = arith::MulIOp::create(
      builder, loc,
      arith::RemUIOp::create(
          builder, loc,
          arith::DivUIOp::create(builder, loc, lane, constant(loc, 8)),
          constant(loc, 2)),
      constant(loc, 8));
  // An A fragment in the accumulator layout: for M tile `mt` and K step
  // `kk`, the lane's values of the 16x8 tiles kk/8 and kk/8 + 1 (rows l/4
  // and l/4 + 8, columns 2 (l mod 4) + {0, 1}) are a0-a7 of the m16n8k16 A
  // operand.
  auto registerOperandA = [&](int64_t mt, int64_t kk) {
    Value operand =
        arith::ConstantOp::create(builder, loc, builder.getZeroAttr(aType));
    for (int64_t reg = 0; reg < 4; ++reg) {
      int64_t tile = kk / 8 + reg / 2, half = reg % 2;
      int64_t slot = mma.getSlot(a.type.getShape(), mt, tile, half);
      SmallVector<Value> pair;
      for (int64_t i = 0; i < 2; ++i)
        pair.push_back(memref::LoadOp::create(builder, loc, a.memref,
                                              constant(loc, slot + i)));
      operand = vector::InsertOp::create(
          builder, loc,
          vector::FromElementsOp::create(builder, loc,
                                         VectorType::get({2}, input), pair),
          operand, ArrayRef<int64_t>{reg});
    }
    return operand;
  };

  // The lane's part of the ldmatrix coordinates; loadOperands adds the M/N
  // tile and K step offsets (constants) through physicalAt.
  Value aRows = arith::AddIOp::create(builder, loc, warpRow, lane16);
  Value aCols = laneHalf;
  Value aRowsT = arith::AddIOp::create(builder, loc, lane8, laneHalf);
  Value aColsT = arith::AddIOp::create(builder, loc, warpRow, laneQuarter);
  Value bPairCols = arith::AddIOp::create(builder, loc, warpCol, laneHalf);
  Value bRowsT = arith::AddIOp::create(builder, loc, warpCol, lane8);
  Value bPairRowsT = arith::AddIOp::create(builder, loc, bPairCols, lane8);

  // The A and B operands of one 16-wide K step of tiles `aMem` x `bMem`.
  using Operands = std::pair<SmallVector<Value>, SmallVector<Value>>;
  auto loadOperands = [&](int64_t kk, Value aMem, Value bMem) -> Operands {
    // A: x4 ldmatrix per 16x16 tile. M x K: lanes 0-15 address rows m at
    // k, lanes 16-31 at k + 8. K x M (.trans): lane l addresses row
    // k + l mod 8 (+8 for lanes 16-31) at column m (+8 for lanes 8-15 and
    // 24-31), giving the four 8x8 matrices in the order mma expects.
    SmallVector<Value> aFrags;
    for (int64_t mt = 0; mt < tilesM; ++mt) {
      if (a.type.isFragment()) {
        aFrags.push_back(registerOperandA(mt, kk));
        continue;
      }
      SmallVector<Value> index =
          transposeA ? physicalAt(loc, a, aRowsT, kk, aColsT, mt * 16)
                     : physicalAt(loc, a, aRows, mt * 16, aCols, kk);
      aFrags.push_back(nvgpu::LdMatrixOp::create(builder, loc, aType, aMem,
                                                 index, transposeA,
                                                 /*numTiles=*/4));
    }
    // B: one x4 ldmatrix per pair of 16x8 tiles (x2 for an odd last one);
    // transposed when B is stored K x N. Lanes 16-31 address the second
    // tile of the pair.
    SmallVector<Value> bFrags;
    for (int64_t nt = 0; nt < tilesN; nt += 2) {
      bool pair = nt + 1 < tilesN;
      Value nLane = pair ? bPairCols : warpCol;
      SmallVector<Value> index =
          transposeB ? physicalAt(loc, b, pair ? bPairRowsT : bRowsT, nt * 8,
                                  laneQuarter, kk)
                     : physicalAt(loc, b, lane16, kk, nLane, nt * 8);
      Value loaded = nvgpu::LdMatrixOp::create(
          builder, loc, pair ? aType : bType, bMem, index, !transposeB,
          /*numTiles=*/pair ? 4 : 2);
      if (!pair) {
        bFrags.push_back(loaded);
        continue;
      }
      // Rows 0-1 are the first tile's operand, rows 2-3 the second's.
      Value zero =
          arith::ConstantOp::create(builder, loc, builder.getZeroAttr(bType));
      for (int64_t half = 0; half < 2; ++half) {
        Value fragment = zero;
        for (int64_t row = 0; row < 2; ++row)
          fragment = vector::InsertOp::create(
              builder, loc,
              vector::ExtractOp::create(builder, loc, loaded,
                                        ArrayRef<int64_t>{half * 2 + row}),
              fragment, ArrayRef<int64_t>{row});
        bFrags.push_back(fragment);
      }
    }
    return {aFrags, bFrags};
  };

  // Prefetched operands live in registers between the gemms: a private
  // array per accumulator, which LLVM promotes like the accumulator.
  auto [aSaved, bSaved] =
      getPrefetchRegisters(c.memref, aType, tilesM, bType, tilesN);
  auto save = [&](const Operands &operands) {
    for (auto [i, frag] : llvm::enumerate(operands.first))
      memref::StoreOp::create(builder, loc, frag, aSaved, constant(loc, i));
    for (auto [i, frag] : llvm::enumerate(operands.second))
      memref::StoreOp::create(builder, loc, frag, bSaved, constant(loc, i));
  };
  if (prefetchOnly) {
    save(loadOperands(0, a.memref, b.memref));
    return success();
  }
  auto restore = [&]() {
    Operands operands;
    for (int64_t i = 0; i < tilesM; ++i)
      operands.first.push_back(
          memref::LoadOp::create(builder, loc, aSaved, constant(loc, i)));
    for (int64_t i = 0; i < tilesN; ++i)
      operands.second.push_back(
          memref::LoadOp::create(builder, loc, bSaved, constant(loc, i)));
    return operands;
  };

  // clear_accum: C = A x B, so the accumulator starts from zero.
  if (clearAccum) {
    Value zero =
        arith::ConstantOp::create(builder, loc, builder.getZeroAttr(f32));
    for (int64_t slot = 0; slot < tilesM * tilesN * 4; ++slot)
      memref::StoreOp::create(builder, loc, zero, c.memref,
                              constant(loc, slot));
  }
  // Registers double-buffer the operands: step kk + 16's ldmatrix are
  // issued before step kk's MMAs, so shared-memory latency overlaps them.
  // With a next stage, its first step is loaded before the last step's
  // MMAs, behind the barrier that makes the stage visible: the next
  // iteration then starts with MMAs instead of waiting for shared memory.
  // A shared operand that is not a pipeline stage has the same addresses in
  // every iteration of the loop around the gemm (attention's Q; the A/B
  // tiles of an unpipelined K loop). It is read through a view rebased in
  // the loop by a value LLVM cannot prove zero (iv >> 48): otherwise LICM
  // hoists each of its ldmatrix addresses out of the loop into its own
  // 64-bit register (16 at D=128), where the rebased view keeps one base per
  // swizzle pattern and folds the tile offsets into the instructions'
  // immediates.
  auto inLoopView = [&](Value tile, Value memref) -> Value {
    auto loop = op->getParentOfType<scf::ForOp>();
    auto view = memref.getDefiningOp<memref::ViewOp>();
    if (!loop || !view || cast<BufferType>(tile.getType()).isFragment() ||
        tile.getDefiningOp<StageOp>())
      return memref;
    Value opaqueZero = arith::ShRUIOp::create(
        builder, loc, loop.getInductionVar(), constant(loc, 48));
    return memref::ViewOp::create(
        builder, loc, view.getType(), view.getSource(),
        arith::AddIOp::create(builder, loc, view.getByteShift(), opaqueZero),
        ValueRange{});
  };
  Value aMemref = inLoopView(aTile, a.memref);
  Value bMemref = inLoopView(bTile, b.memref);
  Operands current = prefetched ? restore() : loadOperands(0, aMemref, bMemref);
  for (int64_t kk = 0; kk < k; kk += 16) {
    Operands next;
    if (kk + 16 < k) {
      next = loadOperands(kk + 16, aMemref, bMemref);
    } else if (nextA) {
      waitForAsyncGroups(op, *waitPending);
      save(loadOperands(0, nextABuffer->memref, nextBBuffer->memref));
    }
    auto &[aFrags, bFrags] = current;
    for (int64_t mt = 0; mt < tilesM; ++mt)
      for (int64_t nt = 0; nt < tilesN; ++nt) {
        int64_t slot = mma.getSlot(cShape, mt, nt, /*half=*/0);
        SmallVector<Value> acc;
        for (int64_t i = 0; i < 4; ++i)
          acc.push_back(memref::LoadOp::create(builder, loc, c.memref,
                                               constant(loc, slot + i)));
        SmallVector<Value> sums =
            multiplyAccumulate(loc, aFrags[mt], bFrags[nt], acc);
        for (int64_t i = 0; i < 4; ++i)
          memref::StoreOp::create(builder, loc, sums[i], c.memref,
                                  constant(loc, slot + i));
      }
    current = std::move(next);
  }
  return success();
}

} // namespace mlir::tile::lowering

namespace {

/// tile.gemm: ldmatrix and mma.sync over the K steps.
struct GemmOpLowering : public TileToGPUPattern<GemmOp> {
  using TileToGPUPattern::TileToGPUPattern;
  LogicalResult matchAndRewrite(GemmOp op, PatternRewriter &) const override {
    // The asynchronous form is the Hopper family's (HopperToGPU.cpp).
    if (op.getAsync())
      return lowering.lowerWarpgroupGemm(op);
    return lowering.lowerGemm(op, op.getA(), op.getB(), op.getC(),
                              op.getTransposeA(), op.getTransposeB(),
                              op.getClearAccum(), op.getPrefetched(),
                              op.getNextA(), op.getNextB(), op.getWaitPending(),
                              /*prefetchOnly=*/false);
  }
};

/// tile.gemm_prefetch: the first K step's operands into the prefetch
/// registers of the accumulator.
struct GemmPrefetchOpLowering : public TileToGPUPattern<GemmPrefetchOp> {
  using TileToGPUPattern::TileToGPUPattern;
  LogicalResult matchAndRewrite(GemmPrefetchOp op,
                                PatternRewriter &) const override {
    return lowering.lowerGemm(op, op.getA(), op.getB(), op.getC(),
                              op.getTransposeA(), op.getTransposeB(),
                              /*clearAccum=*/false, /*prefetched=*/false,
                              Value(), Value(), std::nullopt,
                              /*prefetchOnly=*/true);
  }
};

} // namespace

void mlir::tile::populateTileGemmToGPUPatterns(
    lowering::KernelLowering &lowering, RewritePatternSet &patterns) {
  patterns.add<GemmOpLowering, GemmPrefetchOpLowering>(lowering);
}
