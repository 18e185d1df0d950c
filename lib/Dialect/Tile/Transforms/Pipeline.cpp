//===- Pipeline.cpp - Software pipelining of tile loops -------------------===//
//
// Implements -tile-pipeline: the global -> shared copies of a loop marked
// with tile.num_stages = S run S - 1 iterations ahead of the computation,
// as asynchronous copies into S-stage shared tiles.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEPIPELINE
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

/// Pipelines one loop; see the pass description.
class LoopPipeliner {
public:
  LoopPipeliner(scf::ForOp loop, int64_t stages)
      : loop(loop), stages(stages), builder(loop) {}

  LogicalResult run();

private:
  LogicalResult findProducers();
  /// Whether every producer's source rows are a whole number of its copy
  /// chunks (null when that holds statically: static row lengths, or the
  /// kernel's `divisible` promise).
  Value rowsAligned();
  /// Puts the loop under `if (rowsAligned)`, with a synchronous copy of it
  /// on stage 0 of the tiles as the else branch.
  void versionOnAlignment(Value aligned);
  /// Adds the ops of the loop body that `value` depends on, in order.
  LogicalResult collectSlice(Value value, llvm::SetVector<Operation *> &slice);
  /// The loop's one tile.gemm when it is the only reader of the tiles (A
  /// and B are two of them): its operands are then prefetched across
  /// iterations.
  GemmOp findPrefetchableGemm();
  /// Issues the producers' copies of iteration `iv` into stage `stage`.
  void issue(Value iv, Value stage);
  Value index(int64_t value) {
    return arith::ConstantIndexOp::create(builder, loop.getLoc(), value);
  }

  scf::ForOp loop;
  int64_t stages;
  OpBuilder builder;
  SmallVector<CopyOp> producers;
  /// Shared tiles the producers write, and their staged replacements.
  llvm::SetVector<Value> tiles;
  DenseMap<Value, Value> staged;
  /// Ops of the body that compute the producers' offsets.
  llvm::SetVector<Operation *> slice;
};

LogicalResult LoopPipeliner::collectSlice(Value value,
                                          llvm::SetVector<Operation *> &out) {
  Operation *def = value.getDefiningOp();
  if (!def || !loop->isProperAncestor(def))
    return success();
  if (def->getBlock() != loop.getBody() || def->getNumRegions() != 0)
    return def->emitOpError("computes a pipelined copy's offset inside a "
                            "nested region, which tile-pipeline cannot "
                            "replay");
  if (!isPure(def))
    return def->emitOpError("computes a pipelined copy's offset but has side "
                            "effects, so tile-pipeline cannot replay it");
  for (Value operand : def->getOperands())
    if (failed(collectSlice(operand, out)))
      return failure();
  out.insert(def);
  return success();
}

LogicalResult LoopPipeliner::findProducers() {
  Block *body = loop.getBody();
  Operation *lastProducer = nullptr;
  for (Operation &op : body->without_terminator()) {
    auto copy = dyn_cast<CopyOp>(&op);
    if (!copy || !copy.getSourceType().isGlobal() ||
        !copy.getDestType().isShared())
      continue;
    auto alloc = copy.getDest().getDefiningOp<AllocSharedOp>();
    if (!alloc || loop->isAncestor(alloc))
      return copy.emitOpError("writes a shared tile that is not allocated "
                              "outside the pipelined loop");
    if (!copy.getDestOffsets().empty() ||
        copy.getSourceType().getElementType() !=
            copy.getDestType().getElementType())
      return copy.emitOpError("cannot be pipelined: expected a whole-tile "
                              "copy without element conversion");
    if (tiles.contains(copy.getDest()))
      return copy.emitOpError("writes a shared tile that another copy of "
                              "the pipelined loop writes too");
    producers.push_back(copy);
    tiles.insert(copy.getDest());
    lastProducer = copy;
  }
  if (producers.empty())
    return loop.emitOpError("has tile.num_stages but no global -> shared "
                            "tile.copy to run ahead");

  // The computation reads the tiles after the copies and writes none of
  // them; nothing outside the loop touches them.
  for (Value tile : tiles)
    for (OpOperand &use : tile.getUses()) {
      Operation *user = use.getOwner();
      if (llvm::is_contained(producers, user))
        continue;
      if (!loop->isProperAncestor(user))
        return user->emitOpError("uses a shared tile that a pipelined loop "
                                 "fills; only the loop may use it");
      Operation *inBody = body->findAncestorOpInBlock(*user);
      if (inBody->isBeforeInBlock(lastProducer))
        return user->emitOpError("reads a pipelined shared tile before the "
                                 "loop's copies into it");
      bool writes =
          (isa<CopyOp>(user) && cast<CopyOp>(user).getDest() == tile) ||
          (isa<StoreOp>(user) && cast<StoreOp>(user).getBuffer() == tile) ||
          isa<FillOp, ClearOp>(user);
      if (writes)
        return user->emitOpError("writes a shared tile that the pipelined "
                                 "loop's copies fill");
    }

  for (CopyOp copy : producers)
    for (Value offset : copy.getSourceOffsets())
      if (failed(collectSlice(offset, slice)))
        return failure();
  return success();
}

Value LoopPipeliner::rowsAligned() {
  Location loc = loop.getLoc();
  Value all;
  for (CopyOp copy : producers) {
    auto sourceType = copy.getSourceType();
    int64_t rank = sourceType.getRank();
    int64_t vec = getWidestVector(copy.getTileShape().back(),
                                  sourceType.getElementType());
    if (rank < 2 || vec == 1 ||
        getSizeDivisor(copy.getSource(), rank - 1) % vec == 0)
      continue;
    // The same expression as the copy's lowering tests, so that it folds
    // to true inside the branch.
    Value length = DimOp::create(builder, loc, builder.getIndexType(),
                                 copy.getSource(), rank - 1);
    Value multiple = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::eq,
        arith::RemUIOp::create(builder, loc, length, index(vec)), index(0));
    all = all ? Value(arith::AndIOp::create(builder, loc, all, multiple))
              : multiple;
  }
  return all;
}

void LoopPipeliner::versionOnAlignment(Value aligned) {
  Location loc = loop.getLoc();
  auto branch = scf::IfOp::create(builder, loc, aligned, /*withElse=*/true);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(&branch.getElseRegion().front());
  IRMapping mapping;
  for (Value tile : tiles)
    mapping.map(tile, StageOp::create(builder, loc, tile.getType(),
                                      staged[tile], index(0)));
  // The fallback runs one iteration at a time on stage 0: wait until every
  // thread is done with the previous iteration's tiles, copy, wait for the
  // copies, compute. (Stages are written by async copies only; on unaligned
  // rows those copy synchronously.)
  auto fallback = cast<scf::ForOp>(builder.clone(*loop, mapping));
  builder.setInsertionPointToStart(fallback.getBody());
  AsyncWaitOp::create(builder, loc, 0);
  for (CopyOp copy : producers)
    cast<CopyOp>(mapping.lookup(copy.getOperation())).setAsync(true);
  builder.setInsertionPointAfter(
      mapping.lookup(producers.back().getOperation()));
  AsyncCommitOp::create(builder, loc);
  AsyncWaitOp::create(builder, loc, 0);
  loop->moveBefore(branch.getThenRegion().front().getTerminator());
}

GemmOp LoopPipeliner::findPrefetchableGemm() {
  GemmOp gemm;
  for (Value tile : tiles)
    for (Operation *user : tile.getUsers()) {
      if (llvm::is_contained(producers, user))
        continue;
      auto candidate = dyn_cast<GemmOp>(user);
      if (!candidate || candidate->getBlock() != loop.getBody() ||
          (gemm && candidate != gemm) || candidate.getPrefetched() ||
          candidate.getNextA())
        return nullptr;
      gemm = candidate;
    }
  if (!gemm || gemm.getA() == gemm.getB() || !tiles.contains(gemm.getA()) ||
      !tiles.contains(gemm.getB()))
    return nullptr;
  return gemm;
}

void LoopPipeliner::issue(Value iv, Value stage) {
  Location loc = loop.getLoc();
  IRMapping mapping;
  mapping.map(loop.getInductionVar(), iv);
  for (Operation &op : loop.getBody()->without_terminator())
    if (slice.contains(&op))
      builder.clone(op, mapping);
  for (CopyOp copy : producers) {
    Value view = StageOp::create(builder, loc, copy.getDestType(),
                                 staged[copy.getDest()], stage);
    SmallVector<Value> offsets;
    for (Value offset : copy.getSourceOffsets())
      offsets.push_back(mapping.lookupOrDefault(offset));
    CopyOp::create(builder, copy.getLoc(), copy.getSource(), offsets, view,
                   ValueRange{}, /*async=*/true);
  }
}

LogicalResult LoopPipeliner::run() {
  if (!loop.getInitArgs().empty())
    return loop.emitOpError("is pipelined but has iter_args, which "
                            "tile-pipeline does not support");
  if (failed(findProducers()))
    return failure();
  Location loc = loop.getLoc();

  // The stages must fit in shared memory (checked before any is built; the
  // kernel's total, with its other tiles, is checked by the lowering).
  int64_t tileBytes = 0;
  for (Value tile : tiles) {
    auto type = cast<BufferType>(tile.getType());
    tileBytes += *getByteSize(type.getShape(), type.getElementType());
  }
  if (stages * tileBytes > kMaxSharedMemoryBytes)
    return loop.emitOpError("expected the ")
           << stages << " stages of its shared tiles to fit in "
           << kMaxSharedMemoryBytes
           << " bytes (227 KiB, the shared memory of a block on the largest "
              "GPU), but they take "
           << stages << " x " << tileBytes << " = " << stages * tileBytes
           << " bytes";

  // S stages of each tile the copies fill, in the tile's layout (a
  // #tile.swizzle applies to each stage: tile.stage keeps the layout).
  for (Value tile : tiles) {
    auto alloc = tile.getDefiningOp<AllocSharedOp>();
    auto type = cast<BufferType>(tile.getType());
    SmallVector<int64_t> shape = {stages};
    llvm::append_range(shape, type.getShape());
    builder.setInsertionPoint(alloc);
    staged[tile] = AllocSharedOp::create(
        builder, alloc.getLoc(),
        BufferType::get(shape, type.getElementType(), MemoryScope::Shared,
                        type.getLayout()));
  }

  // Rows whose length is not a multiple of the copy chunk (an odd K in a
  // GEMM) cannot use 16-byte cp.async; rather than a branch around every
  // copy in the loop, such tensors take a synchronous copy of the loop.
  builder.setInsertionPoint(loop);
  if (Value aligned = rowsAligned())
    versionOnAlignment(aligned);

  Value lower = loop.getLowerBound(), upper = loop.getUpperBound();
  Value step = loop.getStep();
  auto inRange = [&](Value iv) -> Value {
    return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt, iv,
                                 upper);
  };
  auto guarded = [&](Value condition, function_ref<void()> body) {
    auto branch = scf::IfOp::create(builder, loc, condition);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(&branch.getThenRegion().front());
    body();
  };

  // A lone gemm reading the tiles loads the first K step of its next
  // stage before its own last MMAs (see tile.gemm), so the wait for that
  // stage moves from the top of the loop into the gemm.
  GemmOp gemm = findPrefetchableGemm();

  // Prologue: the copies of the first S - 1 iterations, one group each.
  builder.setInsertionPoint(loop);
  for (int64_t s = 0; s < stages - 1; ++s) {
    Value iv = arith::AddIOp::create(
        builder, loc, lower,
        arith::MulIOp::create(builder, loc, step, index(s)));
    guarded(inRange(iv), [&] { issue(iv, index(s)); });
    AsyncCommitOp::create(builder, loc);
  }
  auto stageView = [&](Value tile, Value stage) -> Value {
    return StageOp::create(builder, loc, tile.getType(), staged[tile], stage);
  };
  if (gemm) {
    // Stage 0 is ready after the prologue's first group; its first K step
    // goes to registers.
    AsyncWaitOp::create(builder, loc, stages - 2);
    Value a = stageView(gemm.getA(), index(0));
    Value b = stageView(gemm.getB(), index(0));
    GemmPrefetchOp::create(builder, gemm.getLoc(), a, b, gemm.getC(),
                           gemm.getTransposeB(), gemm.getTransposeA());
  }

  // Steady state: wait for this iteration's stage, refill the stage the
  // previous iteration used with iteration i + S - 1, compute on stage i.
  // The refill is not guarded by i + S - 1 < trip count: past the end it
  // fills a stage that no later iteration reads (and tile copies never read
  // outside the tensor; a GEMM's K tiles past the end read nothing at all).
  // Without that branch the copies share a basic block with the
  // computation, so they schedule among its MMAs.
  builder.setInsertionPointToStart(loop.getBody());
  Value iv = loop.getInductionVar();
  if (!gemm)
    AsyncWaitOp::create(builder, loc, stages - 2);
  Value iteration = arith::DivUIOp::create(
      builder, loc, arith::SubIOp::create(builder, loc, iv, lower), step);
  Value ahead = arith::AddIOp::create(
      builder, loc, iv,
      arith::MulIOp::create(builder, loc, step, index(stages - 1)));
  // Stage numbers in 32 bits: a 64-bit remainder is a long multiply.
  auto stageOf = [&](int64_t distance) -> Value {
    Type i32 = builder.getI32Type();
    Value narrow = arith::IndexCastUIOp::create(builder, loc, i32, iteration);
    Value shifted = arith::AddIOp::create(
        builder, loc, narrow,
        arith::ConstantIntOp::create(builder, loc, i32, distance));
    Value stage = arith::RemUIOp::create(
        builder, loc, shifted,
        arith::ConstantIntOp::create(builder, loc, i32, stages));
    return arith::IndexCastUIOp::create(builder, loc, builder.getIndexType(),
                                        stage);
  };
  issue(ahead, stageOf(stages - 1));
  AsyncCommitOp::create(builder, loc);
  Value current = stageOf(0);
  if (gemm) {
    // Before its last K step, the gemm waits for stage i + 1 (the same
    // count as the loop-top wait it replaces: that stage's group and all
    // before it) and prefetches that stage's first K step.
    builder.setInsertionPoint(gemm);
    Value next = stageOf(1);
    Value a = stageView(gemm.getA(), current);
    Value b = stageView(gemm.getB(), current);
    Value nextA = stageView(gemm.getA(), next);
    Value nextB = stageView(gemm.getB(), next);
    GemmOp::create(builder, gemm.getLoc(), a, b, gemm.getC(),
                   gemm.getTransposeB(), gemm.getTransposeA(),
                   gemm.getClearAccum(), /*prefetched=*/true, /*async=*/false,
                   builder.getI64IntegerAttr(stages - 2), nextA, nextB);
    gemm.erase();
  } else {
    for (Value tile : tiles) {
      Value view = stageView(tile, current);
      tile.replaceUsesWithIf(view, [&](OpOperand &use) {
        return !llvm::is_contained(producers, use.getOwner());
      });
    }
  }
  for (CopyOp copy : producers)
    copy.erase();

  // Epilogue: no copy may still be in flight when the kernel moves on.
  builder.setInsertionPointAfter(loop);
  AsyncWaitOp::create(builder, loc, 0);
  for (Value tile : tiles)
    tile.getDefiningOp()->erase();
  return success();
}

struct TilePipelinePass
    : public tile::impl::TilePipelineBase<TilePipelinePass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) {
      // A warp-specialized kernel's loops get their mbarrier pipeline from
      // tile-warp-specialize, after tile-assign-layouts.
      auto kernel = loop->getParentOfType<KernelOp>();
      if (loop->hasAttr(kNumStagesAttrName) &&
          !(kernel && kernel.getWarpSpecialized()))
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops) {
      Attribute attr = loop->getAttr(kNumStagesAttrName);
      loop->removeAttr(kNumStagesAttrName);
      // Read as any integer attribute, wide ones included.
      auto integer = dyn_cast<IntegerAttr>(attr);
      std::optional<int64_t> stages =
          integer && isa<IntegerType>(integer.getType())
              ? integer.getValue().trySExtValue()
              : std::nullopt;
      if (!stages || *stages < 1 || *stages > kMaxPipelineStages) {
        loop.emitOpError("expected tile.num_stages to be an integer from 1 "
                         "to ")
            << kMaxPipelineStages << ", but got " << attr;
        return signalPassFailure();
      }
      if (!loop->getParentOfType<KernelOp>()) {
        loop.emitOpError("has tile.num_stages but is not inside a "
                         "tile.kernel");
        return signalPassFailure();
      }
      // One stage: the copies stay synchronous.
      if (*stages == 1)
        continue;
      if (failed(LoopPipeliner(loop, *stages).run()))
        return signalPassFailure();
    }
  }
};

} // namespace
