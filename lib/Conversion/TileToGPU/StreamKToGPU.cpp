//===- StreamKToGPU.cpp - The split tiles of a stream-K kernel -----------===//
//
// tile.stream_k_fixup: the blocks that ran the K chunks of one tile sum
// them through the kernel's workspace. Layout of the workspace (i32 words;
// G = blocks launched, P = max_chunks, S = the accumulator's registers per
// thread x compute threads; a shared tile's number is below G):
//
//   [tile 0 chunk 0: S words] ... [tile 0 chunk P-1] ... [tile G-1 ...]
//   [tile 0: arrivals] ... [tile G-1: arrivals]
//
// A chunk's accumulator is stored in fragment order, four registers at a
// time: registers 4q to 4q + 3 of compute thread t at words
// (q * threads + t) * 4 of its slot, so that each quad of registers is one
// coalesced row of 16-byte stores. The arrival counts start at zero (the
// runtime zero-fills a new workspace) and the last block to count leaves
// its tile's zero again.
//
//===----------------------------------------------------------------------===//

#include "LoweringState.h"
#include "tile/Conversion/TileToGPU/TileToGPU.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

/// The counts order the blocks' stores at GPU scope: the blocks run on
/// different multiprocessors.
static constexpr StringLiteral kDeviceScope = "device";

LogicalResult KernelLowering::lowerStreamKFixup(StreamKFixupOp op) {
  Location loc = op.getLoc();
  const BufferStorage *acc = getConvertedBuffer(op.getAcc());
  if (!acc || !workspace)
    return op.emitOpError("expected a lowered accumulator and the kernel's "
                          "workspace");
  auto registersType = cast<MemRefType>(acc->memref.getType());
  int64_t registers = registersType.getDimSize(0);
  if (registers % 4 != 0)
    return op.emitOpError("expected an accumulator of whole register quads "
                          "per thread, but got ")
           << registers << " registers";
  int64_t threads = group.threads;
  int64_t slotWords = registers * threads;
  int64_t maxChunks = op.getMaxChunks();
  workspaceBytesPerBlock =
      std::max(workspaceBytesPerBlock, 4 * slotWords * maxChunks + 4);

  Type i32 = builder.getI32Type(), i64 = builder.getI64Type();
  auto ptrType = LLVM::LLVMPointerType::get(getContext(), 1);
  auto quadType = VectorType::get({4}, builder.getF32Type());
  auto toI64 = [&](Value index) -> Value {
    return arith::IndexCastUIOp::create(builder, loc, i64, index);
  };
  auto i64Constant = [&](int64_t value) -> Value {
    return arith::ConstantIntOp::create(builder, loc, value, 64);
  };
  auto i32Constant = [&](int64_t value) -> Value {
    return arith::ConstantIntOp::create(builder, loc, value, 32);
  };
  auto add = [&](Value a, Value b) -> Value {
    return arith::AddIOp::create(builder, loc, a, b);
  };
  auto mul = [&](Value a, Value b) -> Value {
    return arith::MulIOp::create(builder, loc, a, b);
  };
  auto word = [&](Value offset) -> Value {
    return LLVM::GEPOp::create(builder, loc, ptrType, i32, workspace,
                               ValueRange{offset});
  };
  Value thread = toI64(getGroupThreadId());
  Value tile = toI64(op.getTile());
  Value blocks = toI64(gpu::GridDimOp::create(builder, loc, gpu::Dimension::x));
  Value arrivals = add(mul(blocks, i64Constant(slotWords * maxChunks)), tile);
  // Quad q of this thread in the slot of chunk `chunk` (i64).
  Value threadWords = mul(thread, i64Constant(4));
  auto quadWord = [&](Value chunk, int64_t q) {
    Value slot = add(mul(tile, i64Constant(maxChunks)), chunk);
    return word(add(add(mul(slot, i64Constant(slotWords)), threadWords),
                    i64Constant(q * threads * 4)));
  };

  // Every block stores its chunk's accumulator.
  Value chunk = toI64(op.getChunk());
  for (int64_t q = 0; q < registers / 4; ++q) {
    Value quad = LLVM::PoisonOp::create(builder, loc, quadType);
    for (int64_t i = 0; i < 4; ++i)
      quad = LLVM::InsertElementOp::create(
          builder, loc, quad,
          memref::LoadOp::create(builder, loc, acc->memref,
                                 ValueRange{constant(loc, 4 * q + i)}),
          i32Constant(i));
    LLVM::StoreOp::create(builder, loc, quad, quadWord(chunk, q),
                          /*alignment=*/16);
  }
  // Then its first thread counts it in, after the group's barrier: the
  // acq_rel count releases every thread's stores, and the last to count
  // acquires all the others'. It leaves the count zero for the next
  // launch. A barrier of the group that ORs its predicate tells every
  // thread whether the block was last. (Inline PTX: nvvm.barrier reduces
  // only on barrier 0, the whole block's, which the producer warpgroup
  // does not reach here; the compute role's is named barrier 1.)
  emitGroupBarrier(loc);
  Value first = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                      thread, i64Constant(0));
  Value chunks =
      arith::IndexCastUIOp::create(builder, loc, i32, op.getChunks());
  auto count = scf::IfOp::create(builder, loc, TypeRange{i32}, first,
                                 /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(count.thenBlock());
    // (Fences around a relaxed count: LLVM's NVPTX back end prints the
    // count of an acq_rel atomicrmw without its ordering.)
    LLVM::FenceOp::create(builder, loc, LLVM::AtomicOrdering::acq_rel,
                          kDeviceScope);
    Value before = LLVM::AtomicRMWOp::create(
        builder, loc, LLVM::AtomicBinOp::add, word(arrivals), i32Constant(1),
        LLVM::AtomicOrdering::monotonic, kDeviceScope);
    LLVM::FenceOp::create(builder, loc, LLVM::AtomicOrdering::acq_rel,
                          kDeviceScope);
    Value last = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::eq,
        arith::AddIOp::create(builder, loc, before, i32Constant(1)), chunks);
    auto reset = scf::IfOp::create(builder, loc, last);
    {
      OpBuilder::InsertionGuard inner(builder);
      builder.setInsertionPointToStart(reset.thenBlock());
      LLVM::StoreOp::create(builder, loc, i32Constant(0), word(arrivals),
                            /*alignment=*/4);
    }
    scf::YieldOp::create(
        builder, loc,
        ValueRange{arith::ExtUIOp::create(builder, loc, i32, last)});
    builder.setInsertionPointToStart(count.elseBlock());
    scf::YieldOp::create(builder, loc, ValueRange{i32Constant(0)});
  }
  Value anyLast =
      LLVM::InlineAsmOp::create(
          builder, loc, i32, ValueRange{count.getResult(0)},
          builder.getStringAttr(
              "{ .reg .pred q, p; setp.ne.u32 q, $1, 0; bar.red.or.pred p, "
              "1, " +
              std::to_string(threads) + ", q; selp.u32 $0, 1, 0, p; }"),
          builder.getStringAttr("=r,r"), builder.getUnitAttr(),
          /*is_align_stack=*/UnitAttr(),
          LLVM::TailCallKindAttr::get(getContext(), LLVM::TailCallKind::None),
          /*asm_dialect=*/LLVM::AsmDialectAttr(), /*operand_attrs=*/ArrayAttr())
          .getResult(0);
  Value finishes = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne,
                                         anyLast, i32Constant(0));

  // The last: the chunks' sum in chunk order (its own chunk read back
  // like the others), so that no arrival order changes a bit of it.
  auto sum = scf::IfOp::create(builder, loc, finishes);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(sum.thenBlock());
  for (int64_t q = 0; q < registers / 4; ++q) {
    Value quad = LLVM::LoadOp::create(builder, loc, quadType,
                                      quadWord(i64Constant(0), q),
                                      /*alignment=*/16);
    for (int64_t i = 0; i < 4; ++i)
      memref::StoreOp::create(
          builder, loc,
          LLVM::ExtractElementOp::create(builder, loc, quad, i32Constant(i)),
          acc->memref, ValueRange{constant(loc, 4 * q + i)});
  }
  auto others = scf::ForOp::create(builder, loc, constant(loc, 1),
                                   op.getChunks(), constant(loc, 1));
  builder.setInsertionPointToStart(others.getBody());
  Value other = toI64(others.getInductionVar());
  for (int64_t q = 0; q < registers / 4; ++q) {
    Value quad = LLVM::LoadOp::create(builder, loc, quadType,
                                      quadWord(other, q), /*alignment=*/16);
    for (int64_t i = 0; i < 4; ++i) {
      Value index = constant(loc, 4 * q + i);
      Value mine =
          memref::LoadOp::create(builder, loc, acc->memref, ValueRange{index});
      memref::StoreOp::create(
          builder, loc,
          arith::AddFOp::create(builder, loc, mine,
                                LLVM::ExtractElementOp::create(
                                    builder, loc, quad, i32Constant(i))),
          acc->memref, ValueRange{index});
    }
  }
  op.getFinishes().replaceAllUsesWith(finishes);
  return success();
}

namespace {

/// tile.stream_k_fixup: KernelLowering::lowerStreamKFixup.
struct StreamKFixupOpLowering : public TileToGPUPattern<StreamKFixupOp> {
  using TileToGPUPattern::TileToGPUPattern;
  LogicalResult matchAndRewrite(StreamKFixupOp op,
                                PatternRewriter &) const override {
    return lowering.lowerStreamKFixup(op);
  }
};

} // namespace

void mlir::tile::populateTileStreamKToGPUPatterns(
    lowering::KernelLowering &lowering, RewritePatternSet &patterns) {
  patterns.add<StreamKFixupOpLowering>(lowering);
}
