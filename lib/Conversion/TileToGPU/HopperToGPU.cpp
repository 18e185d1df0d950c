//===- HopperToGPU.cpp - The sm_90a op family: TMA, mbarrier, wgmma -------===//
//
// The Hopper lowering beside the mma.sync one (GemmToGPU.cpp), for the IR
// that tile-warp-specialize writes: TMA copies into and out of #tile.nvmma
// panels (cp.async.bulk.tensor through a tensor-map parameter; the stores
// in bulk groups), mbarriers, the asynchronous warpgroup MMA on #tile.wgmma
// accumulators with its wait, stmatrix stores of them into 16-bit shared
// tiles, and the producer/compute split with setmaxnreg. NVVM ops throughout;
// inline asm only for the wait that threads the accumulators, which NVVM's
// operand-less wgmma.wait_group cannot express (../shared/HOPPER.md §3.5).
//
//===----------------------------------------------------------------------===//

#include "LoweringState.h"
#include "tile/Conversion/TileToGPU/TileToGPU.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

/// A thread's phase wait gives up its slot after this many nanoseconds and
/// retries (CUTLASS's suspend hint): SYNCS.PHASECHK with a NANOSLEEP slow
/// path instead of a hot spin.
static constexpr int64_t kMbarrierSuspendNs = 10000000;

namespace mlir::tile::lowering {

//===----------------------------------------------------------------------===//
// Addresses and tensor maps
//===----------------------------------------------------------------------===//

Value KernelLowering::getSharedAddress(Location loc, Value tile) {
  // A stage of a multi-buffered tile lies `index` stages after its first.
  Value extra;
  while (auto stage = tile.getDefiningOp<StageOp>()) {
    BufferType type = stage.getResult().getType();
    int64_t bytes =
        type.getNumElements() * getElementByteWidth(type.getElementType());
    Value offset = arith::MulIOp::create(builder, loc, stage.getIndex(),
                                         constant(loc, bytes));
    extra = extra ? arith::AddIOp::create(builder, loc, extra, offset) : offset;
    tile = stage.getSource();
  }
  auto alloc = tile.getDefiningOp<AllocSharedOp>();
  int64_t offset = alloc && alloc.getOffset() ? *alloc.getOffset() : 0;
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(
      builder, loc, getDynamicSharedMemory());
  Value address =
      arith::AddIOp::create(builder, loc, base, constant(loc, offset));
  if (extra)
    address = arith::AddIOp::create(builder, loc, address, extra);
  return arith::IndexCastUIOp::create(builder, loc, builder.getI64Type(),
                                      address);
}

Value KernelLowering::getSharedPointer(Location loc, Value tile,
                                       int64_t byteOffset) {
  Value address = getSharedAddress(loc, tile);
  if (byteOffset)
    address = arith::AddIOp::create(
        builder, loc, address,
        arith::ConstantIntOp::create(builder, loc, byteOffset, 64));
  return LLVM::IntToPtrOp::create(
      builder, loc, LLVM::LLVMPointerType::get(getContext(), 3), address);
}

void KernelLowering::emitGroupBarrier(Location loc) {
  if (group.wholeBlock) {
    gpu::BarrierOp::create(builder, loc);
    return;
  }
  // Barrier 0 is the block's (__syncthreads); 1 is the compute role's, or
  // with `consumers`, 1 + c that of compute set c.
  auto i32 = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(builder, loc,
                                     builder.getI32IntegerAttr(v));
  };
  // (The count first: the order the IR has always had.)
  Value count = i32(group.threads);
  Value id = i32(1);
  if (consumerIndex)
    id = arith::AddIOp::create(
        builder, loc, id,
        arith::IndexCastUIOp::create(builder, loc, builder.getI32Type(),
                                     consumerIndex));
  NVVM::BarrierOp::create(builder, loc, Type(), id, count,
                          NVVM::BarrierReductionAttr(), Value());
}

/// The pointer to mbarrier `index` of the mbarrier tile `bars`.
static Value getMbarrier(KernelLowering &lowering, Location loc, Value bars,
                         Value index) {
  OpBuilder &b = lowering.builder;
  Value address = lowering.getSharedAddress(loc, bars);
  Value offset = arith::IndexCastUIOp::create(
      b, loc, b.getI64Type(),
      arith::MulIOp::create(b, loc, index, lowering.constant(loc, 8)));
  address = arith::AddIOp::create(b, loc, address, offset);
  return LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), 3), address);
}

static Value toI32(OpBuilder &b, Location loc, Value index) {
  return arith::IndexCastOp::create(b, loc, b.getI32Type(), index);
}

std::pair<SmallVector<int64_t>, int64_t>
KernelLowering::getTmaBox(CopyOp copy) {
  auto tile = cast<BufferType>(copy.getTmaTile().getType());
  auto nvmma = cast<NvmmaLayoutAttr>(tile.getLayout());
  SmallVector<int64_t> box(tile.getShape());
  box.back() = nvmma.getPanelWidth(tile.getElementType());
  return {box, nvmma.getSwizzle()};
}

Value KernelLowering::getTensorMap(Value global, ArrayRef<int64_t> box) {
  unsigned param = cast<BlockArgument>(global).getArgNumber();
  for (const TensorMap &map : tensorMaps)
    if (map.param == param && ArrayRef<int64_t>(map.box) == box)
      return func.getArgument(map.argument);
  return nullptr;
}

//===----------------------------------------------------------------------===//
// TMA copies
//===----------------------------------------------------------------------===//

LogicalResult KernelLowering::lowerTmaCopy(CopyOp op) {
  Location loc = op.getLoc();
  BufferType dest = op.getDestType();
  if (dest.getRank() != 2)
    return op.emitOpError("expected a rank-2 TMA destination, but got rank ")
           << dest.getRank();
  auto [box, swizzle] = getTmaBox(op);
  Value map = getTensorMap(op.getSource(), box);
  if (!map)
    return op.emitOpError("has no tensor map parameter");
  Value barrier =
      getMbarrier(*this, loc, op.getBarriers(), op.getBarrierIndex());
  // Offsets: all zero when omitted.
  SmallVector<Value> offsets(op.getSourceOffsets());
  if (offsets.empty())
    offsets.assign(dest.getRank(), constant(loc, 0));
  // One box per panel; TMA takes the coordinates innermost first.
  int64_t width = box.back();
  int64_t panelBytes =
      dest.getDimSize(0) * width * getElementByteWidth(dest.getElementType());
  auto cluster = LLVM::LLVMPointerType::get(getContext(), 7);
  // A multicast copy: block r of the cluster issues panels r, r + blocks,
  // ..., each to every block (mask: all of them).
  int64_t blocks = op.getMulticast() ? kernel.getClusterBlocks() : 1;
  Value mask, rank;
  if (blocks > 1) {
    mask = arith::ConstantIntOp::create(builder, loc, (1 << blocks) - 1, 16);
    // %cluster_ctarank: a block's bit in the mask (the tile walk's
    // %cluster_ctaid.x is the same number in a cluster that is 1-D in x).
    rank = NVVM::ClusterId::create(builder, loc, builder.getI32Type());
  }
  for (int64_t panel = 0; panel < dest.getDimSize(1) / width; ++panel) {
    OpBuilder::InsertionGuard insertion(builder);
    if (blocks > 1) {
      Value mine = arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::eq, rank,
          arith::ConstantIntOp::create(builder, loc, panel % blocks, 32));
      auto guard = scf::IfOp::create(builder, loc, mine);
      builder.setInsertionPointToStart(&guard.getThenRegion().front());
    }
    Value column = arith::AddIOp::create(builder, loc, offsets[1],
                                         constant(loc, panel * width));
    SmallVector<Value> coords = {toI32(builder, loc, column),
                                 toI32(builder, loc, offsets[0])};
    Value target = LLVM::AddrSpaceCastOp::create(
        builder, loc, cluster,
        getSharedPointer(loc, op.getDest(), panel * panelBytes));
    NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
        builder, loc, target, map, coords, barrier, ValueRange{},
        /*multicastMask=*/mask, /*l2CacheHint=*/Value(),
        NVVM::TMALoadMode::TILE, /*isCTAOnly=*/false,
        /*group=*/NVVM::CTAGroupKindAttr(), /*predicate=*/Value());
  }
  return success();
}

LogicalResult KernelLowering::lowerTmaStore(CopyOp op) {
  Location loc = op.getLoc();
  BufferType source = op.getSourceType();
  auto [box, swizzle] = getTmaBox(op);
  Value map = getTensorMap(op.getDest(), box);
  if (!map)
    return op.emitOpError("has no tensor map parameter");
  SmallVector<Value> offsets(op.getDestOffsets());
  if (offsets.empty())
    offsets.assign(source.getRank(), constant(loc, 0));
  // The group's writes of the tile (generic proxy) before TMA (the async
  // proxy) reads it: each thread fences its own, then all meet.
  NVVM::FenceProxyOp::create(
      builder, loc, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(getContext(), NVVM::SharedSpace::shared_cta));
  emitGroupBarrier(loc);
  Value first = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                      getGroupThreadId(), constant(loc, 0));
  auto guard = scf::IfOp::create(builder, loc, first);
  OpBuilder::InsertionGuard insertion(builder);
  builder.setInsertionPointToStart(&guard.getThenRegion().front());
  // One box per panel, coordinates innermost first, as for the loads.
  int64_t width = box.back();
  int64_t panelBytes = source.getDimSize(0) * width *
                       getElementByteWidth(source.getElementType());
  for (int64_t panel = 0; panel < source.getDimSize(1) / width; ++panel) {
    Value column = arith::AddIOp::create(builder, loc, offsets[1],
                                         constant(loc, panel * width));
    SmallVector<Value> coords = {toI32(builder, loc, column),
                                 toI32(builder, loc, offsets[0])};
    NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp::create(
        builder, loc, map,
        getSharedPointer(loc, op.getSource(), panel * panelBytes), coords,
        /*l2CacheHint=*/Value(), NVVM::TMAStoreMode::TILE,
        /*predicate=*/Value());
  }
  NVVM::CpAsyncBulkCommitGroupOp::create(builder, loc);
  return success();
}

LogicalResult KernelLowering::lowerTmaStoreWait(TmaStoreWaitOp op) {
  Location loc = op.getLoc();
  Value first = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                      getGroupThreadId(), constant(loc, 0));
  auto guard = scf::IfOp::create(builder, loc, first);
  {
    OpBuilder::InsertionGuard insertion(builder);
    builder.setInsertionPointToStart(&guard.getThenRegion().front());
    NVVM::CpAsyncBulkWaitGroupOp::create(builder, loc, op.getPending(),
                                         /*read=*/builder.getUnitAttr());
  }
  emitGroupBarrier(loc);
  return success();
}

//===----------------------------------------------------------------------===//
// Accumulators to shared memory
//===----------------------------------------------------------------------===//

bool KernelLowering::storeWgmmaMatrices(CopyOp op, WgmmaLayoutAttr wgmma,
                                        ArrayRef<int64_t> registers) {
  const BufferStorage &dst = *getConvertedBuffer(op.getDest());
  ArrayRef<int64_t> shape = op.getTileShape();
  auto [rows, cols] = wgmma.getWarpgroupTile(shape);
  if (!isa_and_nonnull<NvmmaLayoutAttr>(dst.type.getLayout()) ||
      getElementByteWidth(dst.type.getElementType()) != 2 ||
      shape.size() != 2 || rows % 64 != 0 || cols % 16 != 0)
    return false;
  // stmatrix.x4 stores four 8x8 matrices of 16-bit elements, each thread
  // giving one 32-bit register of each: the pair of its row l/4, columns
  // 2 (l mod 4) and + 1, as the accumulator holds them. The four are the
  // row halves (+0, +8) of two 8-column groups of the warp's 16 rows; lane
  // l gives the address of row l mod 8 of matrix l / 8 (16 bytes, one
  // swizzle chunk). A thread's four addresses of one 64-row block differ
  // only in their chunk: four base registers for the whole copy.
  Location loc = op.getLoc();
  auto [warp, lane] = getWarpAndLane(loc);
  Value group = getComputeWarpgroup(loc, wgmma);
  Value groupsN = constant(loc, wgmma.getWarpgroupsN());
  auto add = [&](Value a, Value b) {
    return arith::AddIOp::create(builder, loc, a, b).getResult();
  };
  auto mul = [&](Value a, int64_t b) {
    return arith::MulIOp::create(builder, loc, a, constant(loc, b)).getResult();
  };
  auto div = [&](Value a, int64_t b) {
    return arith::DivUIOp::create(builder, loc, a, constant(loc, b))
        .getResult();
  };
  auto rem = [&](Value a, int64_t b) {
    return arith::RemUIOp::create(builder, loc, a, constant(loc, b))
        .getResult();
  };
  Value matrix = div(lane, 8);
  Value laneRow =
      add(add(mul(arith::DivUIOp::create(builder, loc, group, groupsN), rows),
              mul(rem(warp, 4), 16)),
          add(mul(rem(matrix, 2), 8), rem(lane, 8)));
  Value laneCol =
      add(mul(arith::RemUIOp::create(builder, loc, group, groupsN), cols),
          mul(div(matrix, 2), 8));
  // Addresses from the start of shared memory, the tile's offset added to
  // the lane's: LLVM folds the constant into the instruction, so tiles at
  // different offsets (the bands' two) share the lanes' base registers.
  Value start = memref::ExtractAlignedPointerAsIndexOp::create(
      builder, loc, getDynamicSharedMemory());
  Value startAddress =
      arith::IndexCastUIOp::create(builder, loc, builder.getI64Type(), start);
  Value tileOffset = arith::SubIOp::create(
      builder, loc, getSharedAddress(loc, op.getDest()), startAddress);
  Value base = LLVM::IntToPtrOp::create(
      builder, loc, LLVM::LLVMPointerType::get(getContext(), 3), startAddress);
  int64_t tileCols = dst.type.getShape().back();
  const BufferStorage &src = *getConvertedBuffer(op.getSource());
  auto i32 = builder.getI32Type();
  auto pair = VectorType::get({2}, src.type.getElementType());
  for (int64_t block = 0; block < rows / 64; ++block)
    for (int64_t i = 0; i < cols / 8; i += 2) {
      SmallVector<Value> position =
          physical(loc, dst,
                   {add(laneRow, constant(loc, block * 64)),
                    add(laneCol, constant(loc, i * 8))});
      Value element = add(mul(position[0], tileCols), position[1]);
      Value bytes = arith::AddIOp::create(
          builder, loc,
          arith::IndexCastUIOp::create(builder, loc, builder.getI64Type(),
                                       mul(element, 2)),
          tileOffset);
      Value address =
          LLVM::GEPOp::create(builder, loc, base.getType(), builder.getI8Type(),
                              base, ValueRange{bytes});
      SmallVector<Value> sources;
      for (int64_t m = 0; m < 4; ++m) {
        int64_t slot = block * (cols / 2) + (i + m / 2) * 4 + (m % 2) * 2;
        SmallVector<Value> values;
        for (int64_t j = 0; j < 2; ++j)
          values.push_back(memref::LoadOp::create(
              builder, loc, src.memref, constant(loc, registers[slot + j])));
        Value packed = convertVector(
            loc, vector::FromElementsOp::create(builder, loc, pair, values),
            dst.type.getElementType());
        sources.push_back(vector::ExtractOp::create(
            builder, loc,
            vector::BitCastOp::create(builder, loc, VectorType::get({1}, i32),
                                      packed),
            0));
      }
      NVVM::StMatrixOp::create(
          builder, loc, address, sources, NVVM::MMALayout::row,
          NVVM::LdStMatrixShapeAttr::get(getContext(), /*m=*/8, /*n=*/8),
          NVVM::LdStMatrixEltType::B16);
    }
  return true;
}

//===----------------------------------------------------------------------===//
// Warpgroup MMA
//===----------------------------------------------------------------------===//

/// The high bits of a wgmma shared-memory descriptor: 128-byte swizzle
/// (mode 1, bits 62-63), the stride byte offset (bits 32-45) and the leading
/// byte offset (bits 16-29), both in 16-byte units.
static int64_t descriptorHighBits(int64_t leadingBytes, int64_t strideBytes) {
  return (int64_t(1) << 62) | ((strideBytes >> 4) << 32) |
         ((leadingBytes >> 4) << 16);
}

LogicalResult KernelLowering::lowerWarpgroupGemm(GemmOp op) {
  Location loc = op.getLoc();
  const BufferStorage *c = getConvertedBuffer(op.getC());
  if (!c)
    return op.emitOpError("operand has no storage");
  BufferType aType = op.getAType(), bType = op.getBType();
  auto wgmma = cast<WgmmaLayoutAttr>(op.getCType().getLayout());
  auto [rows, cols] = wgmma.getWarpgroupTile(op.getCType().getShape());
  // K-major operands are A (M x K) and B with transpose_b (N x K); the
  // others are MN-major: A with transpose_a (K x M) and B (K x N).
  bool kMajorA = !op.getTransposeA(), kMajorB = op.getTransposeB();
  int64_t aRows = aType.getDimSize(0); // M, or K with transpose_a
  int64_t bRows = bType.getDimSize(0); // K, or N with transpose_b
  int64_t k = kMajorA ? aType.getDimSize(1) : aRows;
  Type element = aType.getElementType();
  int64_t panel = 128; // bytes of a swizzled row

  // The calling warpgroup's place in the accumulator.
  Value group = getComputeWarpgroup(loc, wgmma);
  Value groupsN = constant(loc, wgmma.getWarpgroupsN());
  auto toI64 = [&](Value index) {
    return arith::IndexCastUIOp::create(builder, loc, builder.getI64Type(),
                                        index);
  };
  // The byte offset of an operand's `first` row of C (A) or column (B): a
  // row of a K-major operand, a 64-element panel (of `tileRows` K rows) of
  // an MN-major one.
  auto operandOffset = [&](bool kMajor, int64_t first, int64_t tileRows) {
    return kMajor ? first * panel : (first / 64) * tileRows * panel;
  };
  // The warpgroup's first A row and B column.
  Value aFirst = toI64(arith::MulIOp::create(
      builder, loc, arith::DivUIOp::create(builder, loc, group, groupsN),
      constant(loc, operandOffset(kMajorA, rows, aRows))));
  Value bFirst = toI64(arith::MulIOp::create(
      builder, loc, arith::RemUIOp::create(builder, loc, group, groupsN),
      constant(loc, operandOffset(kMajorB, cols, bRows))));
  Value aBase = arith::AddIOp::create(builder, loc,
                                      getSharedAddress(loc, op.getA()), aFirst);
  Value bBase = arith::AddIOp::create(builder, loc,
                                      getSharedAddress(loc, op.getB()), bFirst);
  auto descriptor = [&](Value base, int64_t offset, int64_t high) -> Value {
    Value address = arith::AddIOp::create(
        builder, loc, base,
        arith::ConstantIntOp::create(builder, loc, offset, 64));
    Value field = arith::AndIOp::create(
        builder, loc,
        arith::ShRUIOp::create(
            builder, loc, address,
            arith::ConstantIntOp::create(builder, loc, 4, 64)),
        arith::ConstantIntOp::create(builder, loc, 0x3FFF, 64));
    return arith::OrIOp::create(
        builder, loc, field,
        arith::ConstantIntOp::create(builder, loc, high, 64));
  };
  // K-major: 8-row groups 1024 bytes apart (SBO; LBO unused when
  // swizzled); a K step of 16 moves 32 bytes within a 64-element panel, the
  // next panel holds the tile's next 64 K. MN-major: 64-element panels K x
  // 128 bytes apart (LBO), 8 K rows 1024 apart (SBO); a K step moves 16
  // rows.
  int64_t kMajorHigh = descriptorHighBits(16, 1024);
  auto stepDescriptor = [&](Value base, bool kMajor, int64_t offset,
                            int64_t tileRows, int64_t step) {
    if (!kMajor)
      return descriptor(base, offset + step * 16 * panel,
                        descriptorHighBits(tileRows * panel, 1024));
    int64_t kk = step * 16;
    return descriptor(base,
                      offset + (kk / 64) * tileRows * panel + (kk % 64) * 2,
                      kMajorHigh);
  };

  Type f32 = builder.getF32Type();
  int64_t perBlock = cols / 2;
  auto accType = LLVM::LLVMStructType::getLiteral(
      getContext(), SmallVector<Type>(perBlock, f32));
  auto wgmmaType =
      element.isBF16() ? NVVM::WGMMATypes::bf16 : NVVM::WGMMATypes::f16;
  NVVM::WgmmaFenceAlignedOp::create(builder, loc);
  for (int64_t block = 0; block < rows / 64; ++block) {
    Value acc;
    if (op.getClearAccum()) {
      acc = LLVM::PoisonOp::create(builder, loc, accType);
    } else {
      acc = LLVM::PoisonOp::create(builder, loc, accType);
      for (int64_t i = 0; i < perBlock; ++i) {
        Value value = memref::LoadOp::create(
            builder, loc, c->memref, constant(loc, block * perBlock + i));
        acc = LLVM::InsertValueOp::create(builder, loc, acc, value, i);
      }
    }
    for (int64_t step = 0; step < k / 16; ++step) {
      Value descA = stepDescriptor(aBase, kMajorA,
                                   operandOffset(kMajorA, block * 64, aRows),
                                   aRows, step);
      Value descB = stepDescriptor(bBase, kMajorB, 0, bRows, step);
      bool zero = op.getClearAccum() && step == 0;
      acc = NVVM::WgmmaMmaAsyncOp::create(
          builder, loc, accType, acc, descA, descB,
          NVVM::MMAShapeAttr::get(getContext(), 64, cols, 16), wgmmaType,
          wgmmaType, NVVM::WGMMATypes::f32,
          zero ? NVVM::WGMMAScaleOut::zero : NVVM::WGMMAScaleOut::one,
          NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one,
          kMajorA ? NVVM::MMALayout::row : NVVM::MMALayout::col,
          kMajorB ? NVVM::MMALayout::col : NVVM::MMALayout::row,
          /*satfinite=*/NVVM::MMAIntOverflowAttr());
    }
    for (int64_t i = 0; i < perBlock; ++i)
      memref::StoreOp::create(
          builder, loc, LLVM::ExtractValueOp::create(builder, loc, acc, i),
          c->memref, constant(loc, block * perBlock + i));
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(builder, loc);
  return success();
}

} // namespace mlir::tile::lowering

namespace {

/// tile.gemm_wait: wgmma.wait_group; with nothing pending, as inline asm
/// whose operands are the accumulator registers (tied), so that no
/// arithmetic on them is scheduled above it.
struct GemmWaitOpLowering : public TileToGPUPattern<GemmWaitOp> {
  using TileToGPUPattern::TileToGPUPattern;
  LogicalResult matchAndRewrite(GemmWaitOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (op.getPending() != 0) {
      NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc, op.getPending());
      return success();
    }
    const BufferStorage *acc = lowering.getConvertedBuffer(op.getAcc());
    if (!acc)
      return op.emitOpError("operand has no storage");
    int64_t count = cast<MemRefType>(acc->memref.getType()).getDimSize(0);
    SmallVector<Value> values;
    std::string constraints;
    for (int64_t i = 0; i < count; ++i) {
      values.push_back(memref::LoadOp::create(rewriter, loc, acc->memref,
                                              lowering.constant(loc, i)));
      constraints += (i ? ",=f" : "=f");
    }
    for (int64_t i = 0; i < count; ++i)
      constraints += "," + std::to_string(i);
    auto type = LLVM::LLVMStructType::getLiteral(
        getContext(), SmallVector<Type>(count, rewriter.getF32Type()));
    auto wait = LLVM::InlineAsmOp::create(
        rewriter, loc, type, values,
        rewriter.getStringAttr("wgmma.wait_group.sync.aligned 0;"),
        rewriter.getStringAttr(constraints), rewriter.getUnitAttr(),
        /*is_align_stack=*/UnitAttr(),
        LLVM::TailCallKindAttr::get(getContext(), LLVM::TailCallKind::None),
        /*asm_dialect=*/LLVM::AsmDialectAttr(), /*operand_attrs=*/ArrayAttr());
    for (int64_t i = 0; i < count; ++i)
      memref::StoreOp::create(
          rewriter, loc,
          LLVM::ExtractValueOp::create(rewriter, loc, wait.getResult(0), i),
          acc->memref, lowering.constant(loc, i));
    return success();
  }
};

/// tile.tma_store_wait: cp.async.bulk.wait_group.read <pending>, then a
/// barrier.
struct TmaStoreWaitOpLowering : public TileToGPUPattern<TmaStoreWaitOp> {
  using TileToGPUPattern::TileToGPUPattern;
  LogicalResult matchAndRewrite(TmaStoreWaitOp op,
                                PatternRewriter &) const override {
    return lowering.lowerTmaStoreWait(op);
  }
};

/// tile.mbarrier_init: thread 0 initializes, then fence.mbarrier_init and a
/// block barrier.
struct MbarrierInitOpLowering : public TileToGPUPattern<MbarrierInitOp> {
  using TileToGPUPattern::TileToGPUPattern;
  LogicalResult matchAndRewrite(MbarrierInitOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value first = lowering.isFirstThread(loc);
    auto guard = scf::IfOp::create(rewriter, loc, first);
    {
      OpBuilder::InsertionGuard insertion(rewriter);
      rewriter.setInsertionPointToStart(&guard.getThenRegion().front());
      Value count =
          arith::ConstantIntOp::create(rewriter, loc, op.getCount(), 32);
      int64_t bars = op.getBarriers().getType().getDimSize(0);
      for (int64_t i = 0; i < bars; ++i)
        NVVM::MBarrierInitOp::create(
            rewriter, loc,
            lowering.getSharedPointer(loc, op.getBarriers(), 8 * i), count,
            /*predicate=*/Value());
    }
    NVVM::FenceMbarrierInitOp::create(rewriter, loc);
    // With a cluster, the other blocks' copies and arrivals reach these
    // barriers too: the whole cluster meets before any thread uses them.
    if (lowering.kernel.getCluster()) {
      NVVM::ClusterArriveOp::create(rewriter, loc, /*aligned=*/UnitAttr());
      NVVM::ClusterWaitOp::create(rewriter, loc, /*aligned=*/UnitAttr());
      return success();
    }
    gpu::BarrierOp::create(rewriter, loc);
    return success();
  }
};

/// tile.mbarrier_arrive: mbarrier.arrive(.expect_tx).
struct MbarrierArriveOpLowering : public TileToGPUPattern<MbarrierArriveOp> {
  using TileToGPUPattern::TileToGPUPattern;
  LogicalResult matchAndRewrite(MbarrierArriveOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value barrier = getMbarrier(lowering, loc, op.getBarriers(), op.getIndex());
    if (std::optional<int64_t> bytes = op.getExpectTx()) {
      NVVM::MBarrierArriveExpectTxOp::create(
          rewriter, loc, /*res=*/Type(), barrier,
          arith::ConstantIntOp::create(rewriter, loc, *bytes, 32),
          NVVM::MemScopeKind::CTA, /*relaxed=*/false, /*predicate=*/Value());
      return success();
    }
    if (op.getCluster()) {
      // Lane r of the warp arrives on block r's barrier of the cluster.
      auto [warp, lane] = lowering.getWarpAndLane(loc);
      int64_t blocks = lowering.kernel.getClusterBlocks();
      auto guard = scf::IfOp::create(
          rewriter, loc,
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult, lane,
                                lowering.constant(loc, blocks)));
      OpBuilder::InsertionGuard insertion(rewriter);
      rewriter.setInsertionPointToStart(&guard.getThenRegion().front());
      Value remote = NVVM::MapaOp::create(
          rewriter, loc, LLVM::LLVMPointerType::get(getContext(), 7), barrier,
          toI32(rewriter, loc, lane));
      // Release at CTA scope, as CUTLASS's ClusterBarrier::arrive: the
      // stage's readers are the warp's own wgmma, already waited for, and
      // a cluster-scope release fences every memory access of the thread
      // (MEMBAR), which stalled the compute warps 45% of their cycles.
      NVVM::MBarrierArriveOp::create(rewriter, loc, Type(), remote,
                                     /*count=*/Value(), NVVM::MemScopeKind::CTA,
                                     /*relaxed=*/false);
      return success();
    }
    NVVM::MBarrierArriveOp::create(rewriter, loc, rewriter.getI64Type(),
                                   barrier, /*count=*/Value());
    return success();
  }
};

/// tile.mbarrier_wait: mbarrier.try_wait.parity in a retry loop.
struct MbarrierWaitOpLowering : public TileToGPUPattern<MbarrierWaitOp> {
  using TileToGPUPattern::TileToGPUPattern;
  LogicalResult matchAndRewrite(MbarrierWaitOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value barrier = getMbarrier(lowering, loc, op.getBarriers(), op.getIndex());
    Value parity = arith::AndIOp::create(
        rewriter, loc, toI32(rewriter, loc, op.getParity()),
        arith::ConstantIntOp::create(rewriter, loc, 1, 32));
    NVVM::MBarrierTryWaitParityOp::create(
        rewriter, loc, barrier, parity,
        arith::ConstantIntOp::create(rewriter, loc, kMbarrierSuspendNs, 32));
    return success();
  }
};

/// tile.warp_specialize: one if/else on the warpgroup index, each branch
/// starting with its setmaxnreg; the producer's body runs on thread 0. The
/// regions' ops move into the branches and are lowered there afterwards.
struct WarpSpecializeOpLowering : public TileToGPUPattern<WarpSpecializeOp> {
  using TileToGPUPattern::TileToGPUPattern;
  LogicalResult matchAndRewrite(WarpSpecializeOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value producer = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ult, lowering.threadId,
        lowering.constant(loc, kWarpgroupThreads));
    auto roles = scf::IfOp::create(rewriter, loc, producer,
                                   /*withElseRegion=*/true);
    OpBuilder::InsertionGuard insertion(rewriter);
    rewriter.setInsertionPointToStart(&roles.getThenRegion().front());
    if (std::optional<int64_t> registers = op.getProducerRegisters())
      NVVM::SetMaxRegisterOp::create(rewriter, loc, *registers,
                                     NVVM::SetMaxRegisterAction::decrease);
    Value first = lowering.isFirstThread(loc);
    auto single = scf::IfOp::create(rewriter, loc, first);
    Block &producerBody = single.getThenRegion().front();
    producerBody.getOperations().splice(
        producerBody.getTerminator()->getIterator(),
        op.getProducerBlock().getOperations());
    rewriter.setInsertionPointToStart(&roles.getElseRegion().front());
    lowering.computeRole = &roles.getElseRegion().front();
    if (std::optional<int64_t> registers = op.getComputeRegisters())
      lowering.computeRoleStart = NVVM::SetMaxRegisterOp::create(
          rewriter, loc, *registers, NVVM::SetMaxRegisterAction::increase);
    lowering.computeGroup = {Value(), lowering.kernel.getComputeThreads(),
                             /*wholeBlock=*/false};
    Block &computeBody = roles.getElseRegion().front();
    computeBody.getOperations().splice(
        computeBody.getTerminator()->getIterator(),
        op.getComputeBlock().getOperations());
    return success();
  }
};

/// tile.consumer_index: the compute set of the thread, made at the
/// function's entry (0 without `consumers`).
struct ConsumerIndexOpLowering : public TileToGPUPattern<ConsumerIndexOp> {
  using TileToGPUPattern::TileToGPUPattern;
  LogicalResult matchAndRewrite(ConsumerIndexOp op,
                                PatternRewriter &rewriter) const override {
    op.getResult().replaceAllUsesWith(lowering.consumerIndex
                                          ? lowering.consumerIndex
                                          : lowering.constant(op.getLoc(), 0));
    return success();
  }
};

} // namespace

void mlir::tile::populateTileHopperToGPUPatterns(
    lowering::KernelLowering &lowering, RewritePatternSet &patterns) {
  patterns
      .add<ConsumerIndexOpLowering, GemmWaitOpLowering, MbarrierInitOpLowering,
           MbarrierArriveOpLowering, MbarrierWaitOpLowering,
           TmaStoreWaitOpLowering, WarpSpecializeOpLowering>(lowering);
}
