//===- WarpSpecialize.cpp - Producer/compute split of Hopper loops -------===//
//
// Implements -tile-warp-specialize: the pipelined GEMM loop of a
// warp_specialized kernel becomes an mbarrier pipeline whose TMA copies run
// in a producer role and whose wgmma products run in the compute role
// (Passes.td shows the IR before and after).
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEWARPSPECIALIZE
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

/// The register budgets of the roles (CUTLASS's and the reference kernel's
/// for one producer and two compute warpgroups): 128 x 40 + 256 x 232 =
/// 64,512, all that 384 threads hold at entry (168 each). The compute role
/// takes what the producer gives up, at most 232 (one compute warpgroup
/// could address more, but needs no more); with four compute warpgroups
/// (640 threads, 96 each at entry) that is 104, not the 112 that would fit
/// the SM's 65,536 but not the block's 61,440: setmaxnreg.inc would wait
/// forever for registers that no warpgroup frees.
///
/// One compute warpgroup (256 threads, 248 each at entry) needs no
/// setmaxnreg: every thread may already use what a compute thread would
/// get, and ptxas ignores the instruction (C7508) in a kernel whose tile
/// needs fewer registers than that (64x64, 64x128).
///
/// A ping-pong kernel's producer keeps the fewest setmaxnreg allows, 24
/// (its loop needs no more): each compute set holds a whole tile's
/// accumulator, and the bias + GELU epilogue spilled at 232.
constexpr int64_t kProducerRegisters = 40;
/// stream_k: the most K chunks a tile of the partial round is split into.
/// Each chunk takes a 128 KiB slot per block of the workspace. At 8192^3 in
/// 128x256 tiles on 132 blocks (68 tiles in the partial round) three
/// chunks give two rounds of a third of a tile instead of one whole one.
constexpr int64_t kStreamKMaxChunks = 4;
constexpr int64_t kPingPongProducerRegisters = 24;
/// A stream_k producer walks chunks as well as tiles: its loop keeps more
/// indices than 40 registers hold (ptxas spilled 8 bytes), and the compute
/// role's 224 hold its accumulator and the fixup without spilling.
constexpr int64_t kStreamKProducerRegisters = 56;
int64_t producerRegisters(KernelOp kernel) {
  if (kernel.getConsumerCount() > 1)
    return kPingPongProducerRegisters;
  return kernel.getStreamK() ? kStreamKProducerRegisters : kProducerRegisters;
}
std::optional<int64_t> computeRegisters(KernelOp kernel) {
  int64_t fit = (kernel.getBlockRegisters() -
                 kWarpgroupThreads * producerRegisters(kernel)) /
                (kernel.getBlockThreads() - kWarpgroupThreads) / 8 * 8;
  int64_t budget =
      kernel.getConsumerCount() > 1 ? fit : std::min<int64_t>(fit, 232);
  if (kernel.getRegistersAtEntry() >= budget)
    return std::nullopt;
  return budget;
}

/// Splits one kernel's pipelined loop; see the pass description.
class WarpSpecializer {
public:
  WarpSpecializer(KernelOp kernel, scf::ForOp loop, int64_t stages)
      : kernel(kernel), loop(loop), stages(stages), builder(loop) {}

  LogicalResult run();

private:
  LogicalResult analyze();
  Value index(int64_t value) {
    return arith::ConstantIndexOp::create(builder, loop.getLoc(), value);
  }
  /// `(i / stages + flip) mod 2` and `i mod stages` of iteration `i`.
  std::pair<Value, Value> stageAndParity(Value i, int64_t flip);
  /// The loop's trip count, its bounds looked up in `tile` (a persistent
  /// kernel's per-tile values; empty otherwise).
  Value tripCount(IRMapping &tile);
  /// The original loop's index at trip `i`.
  Value loopIndex(IRMapping &tile, Value i);
  /// The pipeline iteration of trip `i`: `base + i` in a persistent kernel
  /// (the mbarrier phases run on across tiles), `i` otherwise.
  Value iteration(Value base, Value i);
  /// The producer's loop over one tile's `trips` stages.
  void emitProducer(IRMapping &tile, Value trips, Value base);
  /// The compute role's loop over one tile's stages and its final wait;
  /// with `consumers`, between waiting for the turn of the tile at
  /// `position` in the block's walk and passing it on.
  void emitCompute(IRMapping &tile, Value trips, Value base,
                   Value position = Value());
  /// With `consumers`: whether compute set `set` runs the tile at
  /// `position` (`position` mod consumers == `set`).
  Value runsTile(Value set, Value position);
  /// The epilogue's copies of #tile.nvmma shared tiles to global kernel
  /// parameters become TMA stores: before each write of such a tile that
  /// follows a store of it (in `epilogue`, the compute role or a persistent
  /// kernel's tile loop body), and at the end of the compute role, a
  /// tile.tma_store_wait.
  void storeWithTma(Block &compute, Block &epilogue);
  /// The TMA stores that `epilogue` has issued since its last store of
  /// `tile` before `write` (through the tile loop's back edge in a
  /// persistent kernel); none when no store of `tile` comes before.
  std::optional<int64_t> storesSince(Block &epilogue, Operation *write,
                                     Value tile);
  /// A persistent kernel's loop over its tiles in the current role: maps
  /// the block indices to the tile's coordinates and clones the ops before
  /// the pipelined loop that depend on them into `tile`; `body` emits one
  /// tile's work given its trip count and first pipeline iteration.
  scf::ForOp emitTileLoop(IRMapping &tile,
                          function_ref<void(Value trips, Value base)> body);
  /// emitTileLoop of a stream_k kernel: the block's whole tiles, then
  /// every blocks-th K chunk of the partial round's tiles.
  scf::ForOp emitStreamKLoop(IRMapping &tile, TileRangeOp range,
                             function_ref<void(Value trips, Value base)> body);

  KernelOp kernel;
  scf::ForOp loop;
  int64_t stages;
  OpBuilder builder;
  SmallVector<CopyOp> copies;
  GemmOp gemm;
  /// The accumulator's tile.clear right before the loop, if any.
  ClearOp clear;
  /// The copied shared tiles and their staged replacements.
  SmallVector<Value> tiles;
  DenseMap<Value, Value> staged;
  /// The mbarriers of full and empty stages, and the bytes TMA writes
  /// into one stage.
  Value full, empty;
  int64_t stageBytes = 0;
  /// Index constants made before the roles split.
  Value c0, c1;
  /// The ops before the loop computed from the block indices (a persistent
  /// kernel recomputes them per tile), in program order.
  SmallVector<Operation *> perTileOps;
  /// stream_k: the trip count of a whole tile (the same for every tile),
  /// made before the roles split; and, while a role's tile loop body is
  /// emitted, the first trip of the chunk it runs (the original loop runs
  /// from there) and what the chunk's fixup recomputes after the main loop
  /// (so that the compute role keeps no more registers through it): the
  /// work item, the block's whole tiles, the block, the blocks, the shared
  /// tiles and the number of chunks (0 shared tiles: none split).
  Value wholeTileTrips, firstTrip;
  Value workItem, ownWholeTiles, workFirst, workBlocks, sharedTiles, chunks;
  /// Whether the work item is a chunk of a split tile, and which shared
  /// tile and chunk it is, at the builder's insertion point (stream_k,
  /// while emitStreamKLoop has set the values above).
  Value emitIsChunk();
  std::pair<Value, Value> emitChunkOfWorkItem();
  /// With `consumers`: the mbarriers that pass the turn to run a main loop
  /// from one compute set to the next (set c waits on turn c).
  Value turns;
  /// In a kernel with a cluster: the copies whose tile is the same in every
  /// block of the cluster (their offsets do not depend on the clustered
  /// block index), loaded once for the cluster and multicast.
  DenseSet<Operation *> multicastCopies;
};

LogicalResult WarpSpecializer::analyze() {
  if (loop->getParentOp() != kernel)
    return loop.emitOpError("expected the pipelined loop of a "
                            "warp_specialized kernel in the kernel body "
                            "itself");
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (step != 1)
    return loop.emitOpError("expected the pipelined loop of a "
                            "warp_specialized kernel to run in steps of 1");
  if (!loop.getInitArgs().empty())
    return loop.emitOpError("expected no iter_args in the pipelined loop of "
                            "a warp_specialized kernel");
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (auto copy = dyn_cast<CopyOp>(op)) {
      if (!copy.getSourceType().isGlobal() || !copy.getDestType().isShared() ||
          !isa_and_nonnull<NvmmaLayoutAttr>(copy.getDestType().getLayout()))
        return copy.emitOpError(
            "expected the copies of a warp-specialized loop to move global "
            "tiles into #tile.nvmma shared tiles (the operands of its gemm)");
      if (!copy.getDest().getDefiningOp<AllocSharedOp>() ||
          copy.getDest().getDefiningOp()->getBlock() !=
              &kernel.getBody().front())
        return copy.emitOpError("expected the destination to be allocated in "
                                "the kernel body");
      if (llvm::is_contained(tiles, copy.getDest()))
        return copy.emitOpError("expected each shared tile of a "
                                "warp-specialized loop to be filled by one "
                                "copy, but this one fills it again");
      copies.push_back(copy);
      tiles.push_back(copy.getDest());
      continue;
    }
    if (auto product = dyn_cast<GemmOp>(op)) {
      if (gemm)
        return product.emitOpError("expected one tile.gemm in the pipelined "
                                   "loop of a warp_specialized kernel");
      gemm = product;
      continue;
    }
    if (!isPure(&op) || op.getNumRegions() != 0)
      return op.emitOpError("is not allowed in the pipelined loop of a "
                            "warp_specialized kernel (only TMA-able copies, "
                            "one gemm and pure index arithmetic)");
  }
  if (!gemm || copies.empty())
    return loop.emitOpError("expected the pipelined loop of a "
                            "warp_specialized kernel to copy tiles and "
                            "multiply them with one tile.gemm");
  if (!isa_and_nonnull<WgmmaLayoutAttr>(gemm.getCType().getLayout()))
    return gemm.emitOpError("expected a #tile.wgmma accumulator in a "
                            "warp_specialized kernel; run "
                            "-tile-assign-layouts first");
  for (Value operand : {gemm.getA(), gemm.getB()})
    if (!llvm::is_contained(tiles, operand))
      return gemm.emitOpError("expected A and B to be tiles the loop copies");
  // The tiles are used by the loop alone (their stages replace them).
  for (Value tile : tiles)
    for (Operation *user : tile.getUsers())
      if (!loop->isAncestor(user))
        return user->emitOpError("uses a tile that the warp-specialized loop "
                                 "fills, outside the loop");
  // Before the loop, only what every thread may run: no tile work.
  for (Operation &op : kernel.getBody().front()) {
    if (&op == loop.getOperation())
      break;
    if (auto c = dyn_cast<ClearOp>(op)) {
      if (c.getDest() == gemm.getC())
        clear = c;
      continue;
    }
    if (isa<AllocSharedOp, AllocFragmentOp, DimOp>(op) ||
        (isPure(&op) && op.getNumRegions() == 0))
      continue;
    return op.emitOpError("is not allowed before the pipelined loop of a "
                          "warp_specialized kernel (it would run in both "
                          "roles)");
  }
  // What a persistent kernel recomputes per tile: the ops before the loop
  // that read a block index, directly or through each other.
  DenseSet<Value> perTile;
  for (unsigned d = 0; d < kernel.getGridRank(); ++d)
    perTile.insert(kernel.getBlockIndex(d));
  for (Operation &op : kernel.getBody().front()) {
    if (&op == loop.getOperation())
      break;
    if (llvm::any_of(op.getOperands(),
                     [&](Value v) { return perTile.contains(v); })) {
      perTileOps.push_back(&op);
      perTile.insert(op.result_begin(), op.result_end());
    }
  }
  // Stream-K deals out K iterations of tiles: every tile must have as many.
  if (kernel.getStreamK())
    for (Value bound : {loop.getLowerBound(), loop.getUpperBound()})
      if (Operation *def = bound.getDefiningOp();
          def && llvm::is_contained(perTileOps, def))
        return loop.emitOpError("expected the bounds of the pipelined loop "
                                "of a stream_k kernel not to depend on the "
                                "block indices (its K iterations are dealt "
                                "out across tiles)");
  // With a cluster, the copies that every block of it makes alike: their
  // offsets do not read the clustered block index (B's, for a cluster of
  // tiles one above the other).
  if (std::optional<ArrayRef<int64_t>> cluster = kernel.getCluster()) {
    Value clustered;
    for (auto [d, extent] : llvm::enumerate(*cluster))
      if (extent > 1)
        clustered = kernel.getBlockIndex(d);
    SetVector<Operation *> fromClustered;
    getForwardSlice(clustered, &fromClustered);
    for (CopyOp copy : copies)
      if (llvm::none_of(copy.getSourceOffsets(), [&](Value offset) {
            return offset == clustered ||
                   fromClustered.contains(offset.getDefiningOp());
          }))
        multicastCopies.insert(copy);
  }
  // The ops after the loop run in the compute role only: a print from a
  // producer thread would print nothing.
  int64_t threads = kernel.getThreads();
  WalkResult printable = kernel.walk([&](PrintOp print) {
    if (loop->isBeforeInBlock(
            loop->getBlock()->findAncestorOpInBlock(*print)) &&
        ((print.getThread() && *print.getThread() < kWarpgroupThreads) ||
         (print.getWarp() && *print.getWarp() < kWarpgroupThreads / 32))) {
      print.emitOpError("selects a thread of the producer warpgroup, which "
                        "does not run the epilogue of a warp_specialized "
                        "kernel; expected thread(")
          << kWarpgroupThreads << " to " << threads - 1 << ") or warp("
          << kWarpgroupThreads / 32 << " to " << threads / 32 - 1 << ")";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (printable.wasInterrupted())
    return failure();
  // Fragments are spread over the compute threads alone by #tile.wgmma
  // (and row values of it); other layouts count every thread of the block.
  WalkResult fragments = kernel.walk([&](AllocFragmentOp alloc) {
    Attribute layout = cast<BufferType>(alloc.getType()).getLayout();
    if (isa_and_nonnull<WgmmaLayoutAttr, SliceLayoutAttr>(layout))
      return WalkResult::advance();
    alloc.emitOpError("expected a #tile.wgmma fragment in a "
                      "warp_specialized kernel (other layouts spread over "
                      "all threads, the producer's included), but got ")
        << alloc.getType();
    return WalkResult::interrupt();
  });
  if (fragments.wasInterrupted())
    return failure();
  // The epilogue runs in the compute role: shared tiles are shared among
  // its threads and its barriers are named ones of those threads
  // (KernelLowering::ThreadGroup). (Reductions, whose scratch protocol
  // counts the whole block, cannot occur: their row values of a #tile.wgmma
  // fragment have no layout yet.)
  return success();
}

std::pair<Value, Value> WarpSpecializer::stageAndParity(Value i, int64_t flip) {
  Location loc = loop.getLoc();
  Value stage = arith::RemUIOp::create(builder, loc, i, index(stages));
  Value round = arith::DivUIOp::create(builder, loc, i, index(stages));
  if (flip)
    round = arith::AddIOp::create(builder, loc, round, index(flip));
  Value parity = arith::RemUIOp::create(builder, loc, round, index(2));
  return {stage, parity};
}

LogicalResult WarpSpecializer::run() {
  if (failed(analyze()))
    return failure();
  Location loc = loop.getLoc();
  MLIRContext *ctx = kernel.getContext();
  auto i64 = IntegerType::get(ctx, 64);
  // Ping-pong: the shared tiles of the epilogue (all but the loop's), each
  // paired below with its copy per compute set.
  int64_t consumers = kernel.getConsumerCount();
  SmallVector<std::pair<Value, Value>> ownCopies;
  if (consumers > 1)
    for (Operation &op : kernel.getBody().front()) {
      if (&op == loop.getOperation())
        break;
      auto alloc = dyn_cast<AllocSharedOp>(op);
      if (alloc && !alloc.use_empty() &&
          !llvm::is_contained(tiles, alloc.getResult()))
        ownCopies.push_back({alloc.getResult(), Value()});
    }

  // Staged tiles, mbarriers and their initialization, before the loop.
  builder.setInsertionPoint(loop);
  for (Value tile : tiles) {
    auto type = cast<BufferType>(tile.getType());
    SmallVector<int64_t> shape{stages};
    llvm::append_range(shape, type.getShape());
    auto stagedType = BufferType::get(ctx, shape, type.getElementType(),
                                      type.getScope(), type.getLayout());
    staged[tile] = AllocSharedOp::create(builder, loc, stagedType);
    stageBytes +=
        type.getNumElements() * getElementByteWidth(type.getElementType());
  }
  auto barsType =
      BufferType::get(ArrayRef<int64_t>{stages}, i64, MemoryScope::Shared);
  full = AllocSharedOp::create(builder, loc, barsType);
  empty = AllocSharedOp::create(builder, loc, barsType);
  MbarrierInitOp::create(builder, loc, full, 1);
  // A stage that multicast copies fill is empty once every block of the
  // cluster has used it: each compute warp of each block arrives once.
  MbarrierInitOp::create(builder, loc, empty,
                         multicastCopies.empty()
                             ? kernel.getComputeThreads()
                             : kernel.getClusterBlocks() *
                                   kernel.getComputeThreads() / 32);

  // Ping-pong: the epilogue's shared tiles, one per compute set, and the
  // turns. A set waits on its turn before its main loop and passes it on
  // after: the stages are filled tile after tile, and a parity wait is only
  // sound for a phase at most one ahead of the barrier's.
  if (consumers > 1) {
    for (auto &[tile, copies] : ownCopies) {
      auto type = cast<BufferType>(tile.getType());
      SmallVector<int64_t> shape{consumers};
      llvm::append_range(shape, type.getShape());
      copies = AllocSharedOp::create(
          builder, loc,
          BufferType::get(ctx, shape, type.getElementType(), type.getScope(),
                          type.getLayout()));
    }
    turns = AllocSharedOp::create(builder, loc,
                                  BufferType::get(ArrayRef<int64_t>{consumers},
                                                  i64, MemoryScope::Shared));
    MbarrierInitOp::create(builder, loc, turns, kernel.getComputeThreads());
  }

  // Both roles run the loop's trip count, counting stages from 0; with
  // none (K = 0, or an empty slice of a split K loop) the compute role
  // stores the cleared accumulator and nothing waits. A persistent kernel
  // counts them per tile, in each role's tile loop.
  bool persistent = kernel.getPersistent();
  c0 = index(0);
  c1 = index(1);
  IRMapping noTile;
  Value trips = persistent ? Value() : tripCount(noTile);
  if (kernel.getStreamK())
    wholeTileTrips = tripCount(noTile);

  // setmaxnreg for both roles or neither.
  std::optional<int64_t> computeBudget = computeRegisters(kernel);
  std::optional<int64_t> producerBudget;
  if (computeBudget)
    producerBudget = producerRegisters(kernel);
  auto split =
      WarpSpecializeOp::create(builder, loc, producerBudget, computeBudget);

  builder.setInsertionPointToStart(&split.getProducerBlock());
  IRMapping producerTile;
  if (persistent)
    emitTileLoop(producerTile, [&](Value tileTrips, Value base) {
      emitProducer(producerTile, tileTrips, base);
    });
  else
    emitProducer(noTile, trips, Value());

  // The epilogue: everything after the loop, in the compute role (in a
  // persistent kernel, in its tile loop, reading the tile's values).
  builder.setInsertionPointToStart(&split.getComputeBlock());
  Block &body = kernel.getBody().front();
  Block *epilogue = &split.getComputeBlock();
  Block::iterator epilogueAt = epilogue->end();
  IRMapping computeTile;
  if (persistent) {
    Value set;
    if (consumers > 1) {
      set = ConsumerIndexOp::create(builder, loc, builder.getIndexType());
      for (auto [tile, copies] : ownCopies) {
        tile.replaceAllUsesWith(
            StageOp::create(builder, loc, tile.getType(), copies, set));
        tile.getDefiningOp()->erase();
      }
    }
    scf::IfOp mine;
    scf::ForOp tileLoop = emitTileLoop(computeTile, [&](Value tileTrips,
                                                        Value base) {
      if (workItem) {
        // Stream-K: of the blocks that ran a split tile's chunks, the
        // one that finishes it runs the epilogue.
        emitCompute(computeTile, tileTrips, base);
        auto fixup =
            scf::IfOp::create(builder, loc, builder.getI1Type(), emitIsChunk(),
                              /*withElseRegion=*/true);
        builder.setInsertionPointToStart(fixup.thenBlock());
        auto [sharedTile, chunk] = emitChunkOfWorkItem();
        scf::YieldOp::create(builder, loc,
                             StreamKFixupOp::create(
                                 builder, loc, builder.getI1Type(), gemm.getC(),
                                 sharedTile, chunk, chunks, kStreamKMaxChunks)
                                 .getFinishes());
        builder.setInsertionPointToStart(fixup.elseBlock());
        scf::YieldOp::create(
            builder, loc,
            ValueRange{arith::ConstantIntOp::create(builder, loc, 1, 1)});
        builder.setInsertionPointAfter(fixup);
        mine = scf::IfOp::create(builder, loc, fixup.getResult(0));
        builder.setInsertionPointToStart(mine.thenBlock());
        return;
      }
      if (!set) {
        emitCompute(computeTile, tileTrips, base);
        return;
      }
      // The tile's position in the block's walk: (t - first) / step.
      auto tiles = cast<scf::ForOp>(builder.getBlock()->getParentOp());
      Value position = arith::DivUIOp::create(
          builder, loc,
          arith::SubIOp::create(builder, loc, tiles.getInductionVar(),
                                tiles.getLowerBound()),
          tiles.getStep());
      mine = scf::IfOp::create(builder, loc, runsTile(set, position));
      builder.setInsertionPointToStart(mine.thenBlock());
      emitCompute(computeTile, tileTrips, base, position);
    });
    epilogue = mine ? mine.thenBlock() : tileLoop.getBody();
    epilogueAt = epilogue->getTerminator()->getIterator();
  } else {
    emitCompute(noTile, trips, Value());
  }
  Block::iterator first = std::next(loop->getIterator());
  bool any = first != body.end();
  Operation *firstMoved = any ? &*first : nullptr;
  epilogue->getOperations().splice(epilogueAt, body.getOperations(), first,
                                   body.end());
  if (persistent && any) {
    for (Operation *op = firstMoved; op != &*epilogueAt; op = op->getNextNode())
      op->walk([&](Operation *nested) {
        for (OpOperand &operand : nested->getOpOperands())
          if (Value perTile = computeTile.lookupOrNull(operand.get()))
            operand.set(perTile);
      });
  }
  storeWithTma(split.getComputeBlock(), *epilogue);
  if (clear)
    clear.erase();
  loop.erase();
  for (Value tile : tiles)
    tile.getDefiningOp()->erase();
  // The block-index values the tile loops recomputed.
  if (persistent)
    for (Operation *op : llvm::reverse(perTileOps))
      if (op->use_empty())
        op->erase();
  return success();
}

void WarpSpecializer::storeWithTma(Block &compute, Block &epilogue) {
  SmallVector<Value> stored;
  compute.walk([&](CopyOp copy) {
    BufferType source = copy.getSourceType();
    auto param = dyn_cast<BlockArgument>(copy.getDest());
    if (copy.getAsync() || !source.isShared() ||
        !isa_and_nonnull<NvmmaLayoutAttr>(source.getLayout()) ||
        source.getRank() != 2 || !param ||
        param.getOwner()->getParentOp() != kernel.getOperation() ||
        source.getElementType() != copy.getDestType().getElementType())
      return;
    copy.setAsync(true);
    if (!llvm::is_contained(stored, copy.getSource()))
      stored.push_back(copy.getSource());
  });
  OpBuilder b(kernel.getContext());
  // Each write of a stored tile that follows a store of it (earlier in the
  // epilogue, or through the tile loop's back edge) waits for that store,
  // leaving the stores issued since it in flight.
  auto writes = [](Operation *op, Value tile) {
    bool result = false;
    op->walk([&](Operation *nested) {
      auto copy = dyn_cast<CopyOp>(nested);
      if (copy ? copy.getDest() == tile
               : llvm::is_contained(nested->getOperands(), tile) &&
                     !isa<TmaStoreWaitOp>(nested))
        result = true;
    });
    return result;
  };
  for (Value tile : stored) {
    SmallVector<Operation *> tileWrites;
    for (Operation &op : epilogue)
      if (writes(&op, tile))
        tileWrites.push_back(&op);
    for (Operation *write : tileWrites) {
      std::optional<int64_t> pending = storesSince(epilogue, write, tile);
      if (!pending)
        continue;
      b.setInsertionPoint(write);
      TmaStoreWaitOp::create(b, write->getLoc(), tile, *pending);
    }
  }
  // Shared memory must outlive the stores' reads: one wait for them all.
  if (!stored.empty()) {
    b.setInsertionPointToEnd(&compute);
    TmaStoreWaitOp::create(b, loop.getLoc(), stored.front());
  }
}

std::optional<int64_t>
WarpSpecializer::storesSince(Block &epilogue, Operation *write, Value tile) {
  // Back from `write` through the epilogue, then (persistent: the previous
  // tile's epilogue) from its end back to `write`, counting the TMA stores
  // of other tiles until one of `tile`. A store inside a nested region may
  // not run, and then the count would leave too many in flight: wait for
  // all of them.
  bool persistent = kernel.getPersistent();
  int64_t since = 0;
  auto visit = [&](Operation *op) -> std::optional<int64_t> {
    auto copy = dyn_cast<CopyOp>(op);
    if (copy && copy.isTmaStore()) {
      if (copy.getSource() == tile)
        return since;
      ++since;
      return std::nullopt;
    }
    bool nested = false;
    op->walk([&](CopyOp inner) {
      if (inner.isTmaStore())
        nested = true;
    });
    if (nested)
      return 0;
    return std::nullopt;
  };
  for (Operation *op = write->getPrevNode(); op; op = op->getPrevNode())
    if (std::optional<int64_t> found = visit(op))
      return found;
  if (!persistent)
    return std::nullopt; // No store of the tile before its first write.
  for (Operation *op = &epilogue.back(); op != write; op = op->getPrevNode())
    if (std::optional<int64_t> found = visit(op))
      return found;
  return std::nullopt;
}

Value WarpSpecializer::tripCount(IRMapping &tile) {
  Location loc = loop.getLoc();
  Value lower = tile.lookupOrDefault(loop.getLowerBound());
  Value upper = tile.lookupOrDefault(loop.getUpperBound());
  if (getConstantIntValue(loop.getLowerBound()) == 0)
    return upper;
  return arith::MaxSIOp::create(
      builder, loc, arith::SubIOp::create(builder, loc, upper, lower), c0);
}

Value WarpSpecializer::loopIndex(IRMapping &tile, Value i) {
  if (firstTrip)
    i = arith::AddIOp::create(builder, loop.getLoc(), firstTrip, i);
  if (getConstantIntValue(loop.getLowerBound()) == 0)
    return i;
  return arith::AddIOp::create(builder, loop.getLoc(),
                               tile.lookupOrDefault(loop.getLowerBound()), i);
}

Value WarpSpecializer::iteration(Value base, Value i) {
  return base ? arith::AddIOp::create(builder, loop.getLoc(), base, i) : i;
}

scf::ForOp WarpSpecializer::emitTileLoop(
    IRMapping &tile, function_ref<void(Value trips, Value base)> body) {
  Location loc = loop.getLoc();
  Type indexType = builder.getIndexType();
  auto range =
      TileRangeOp::create(builder, loc, indexType, indexType, indexType);
  if (kernel.getStreamK())
    return emitStreamKLoop(tile, range, body);
  auto tiles =
      scf::ForOp::create(builder, loc, range.getFirst(), range.getCount(),
                         range.getStep(), ValueRange{c0});
  builder.setInsertionPointToStart(tiles.getBody());
  SmallVector<Type> indexTypes(kernel.getGridRank(), builder.getIndexType());
  auto coords =
      TileCoordsOp::create(builder, loc, indexTypes, tiles.getInductionVar());
  for (unsigned d = 0; d < kernel.getGridRank(); ++d)
    tile.map(kernel.getBlockIndex(d), coords.getResult(d));
  for (Operation *op : perTileOps)
    builder.clone(*op, tile);
  Value trips = tripCount(tile);
  Value base = tiles.getRegionIterArg(0);
  body(trips, base);
  builder.setInsertionPointToEnd(tiles.getBody());
  scf::YieldOp::create(
      builder, loc,
      ValueRange{arith::AddIOp::create(builder, loc, base, trips)});
  builder.setInsertionPointAfter(tiles);
  return tiles;
}

scf::ForOp WarpSpecializer::emitStreamKLoop(
    IRMapping &tile, TileRangeOp range,
    function_ref<void(Value trips, Value base)> body) {
  // The tiles of whole rounds of the grid run as they are. The S tiles of
  // a partial round are split into p chunks of K iterations, the p from 1
  // to kStreamKMaxChunks (and at most the trip count) with the fewest
  // rounds of chunks per chunk size, ceil(S p / blocks) / p; p = 1 runs
  // them whole. Chunk c of shared tile t is unit c S + t, and each block
  // takes every blocks-th unit from its index, as it takes whole tiles: a
  // round's blocks run at most two chunks of K at once, so their operands
  // meet in L2 as a whole round's do.
  Location loc = loop.getLoc();
  auto add = [&](Value a, Value b) -> Value {
    return arith::AddIOp::create(builder, loc, a, b);
  };
  auto sub = [&](Value a, Value b) -> Value {
    return arith::SubIOp::create(builder, loc, a, b);
  };
  auto mul = [&](Value a, Value b) -> Value {
    return arith::MulIOp::create(builder, loc, a, b);
  };
  auto div = [&](Value a, Value b) -> Value {
    return arith::DivUIOp::create(builder, loc, a, b);
  };
  auto ceilDiv = [&](Value a, Value b) -> Value {
    return arith::CeilDivUIOp::create(builder, loc, a, b);
  };
  auto cmp = [&](arith::CmpIPredicate predicate, Value a, Value b) -> Value {
    return arith::CmpIOp::create(builder, loc, predicate, a, b);
  };
  auto select = [&](Value condition, Value a, Value b) -> Value {
    return arith::SelectOp::create(builder, loc, condition, a, b);
  };
  using Pred = arith::CmpIPredicate;
  Value first = range.getFirst(), blocks = range.getStep(),
        tiles = range.getCount(), k = wholeTileTrips;
  Value partial = arith::RemUIOp::create(builder, loc, tiles, blocks);
  // The best split: p beats the best so far when its rounds per chunk
  // size are fewer, rounds(p) / p < best rounds / best p.
  Value bestChunks = c1, bestRounds = ceilDiv(partial, blocks);
  for (int64_t p = 2; p <= kStreamKMaxChunks; ++p) {
    Value rounds = ceilDiv(mul(partial, index(p)), blocks);
    Value better = arith::AndIOp::create(
        builder, loc,
        cmp(Pred::ult, mul(rounds, bestChunks), mul(bestRounds, index(p))),
        cmp(Pred::uge, k, index(p)));
    bestChunks = select(better, index(p), bestChunks);
    bestRounds = select(better, rounds, bestRounds);
  }
  chunks = bestChunks;
  Value split = cmp(Pred::ugt, chunks, c1);
  Value shared = select(split, partial, c0);
  Value wholeTiles = sub(tiles, shared);
  Value units = mul(shared, chunks);
  Value ownWhole = select(cmp(Pred::ult, first, wholeTiles),
                          ceilDiv(sub(wholeTiles, first), blocks), c0);
  Value ownUnits = select(cmp(Pred::ult, first, units),
                          ceilDiv(sub(units, first), blocks), c0);
  auto work = scf::ForOp::create(builder, loc, c0, add(ownWhole, ownUnits), c1,
                                 ValueRange{c0});
  builder.setInsertionPointToStart(work.getBody());
  Value w = work.getInductionVar();
  workItem = w;
  ownWholeTiles = ownWhole;
  workFirst = first;
  workBlocks = blocks;
  sharedTiles = shared;
  Value whole = cmp(Pred::ult, w, ownWhole);
  // A whole tile's place; a chunk's, with its divisions, only for chunks
  // (the whole tiles are most of the work).
  Type indexType = builder.getIndexType();
  auto place = scf::IfOp::create(builder, loc,
                                 TypeRange{indexType, indexType, indexType},
                                 whole, /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(place.thenBlock());
    scf::YieldOp::create(builder, loc,
                         ValueRange{add(first, mul(w, blocks)), c0, k});
    builder.setInsertionPointToStart(place.elseBlock());
    auto [t, c] = emitChunkOfWorkItem();
    scf::YieldOp::create(builder, loc,
                         ValueRange{add(wholeTiles, t), div(mul(c, k), chunks),
                                    div(mul(add(c, c1), k), chunks)});
  }
  Value linear = place.getResult(0);
  firstTrip = place.getResult(1);
  Value lastTrip = place.getResult(2);
  SmallVector<Type> indexTypes(kernel.getGridRank(), builder.getIndexType());
  auto coords = TileCoordsOp::create(builder, loc, indexTypes, linear);
  for (unsigned d = 0; d < kernel.getGridRank(); ++d)
    tile.map(kernel.getBlockIndex(d), coords.getResult(d));
  for (Operation *op : perTileOps)
    builder.clone(*op, tile);
  Value trips = sub(lastTrip, firstTrip);
  Value base = work.getRegionIterArg(0);
  body(trips, base);
  builder.setInsertionPointToEnd(work.getBody());
  scf::YieldOp::create(builder, loc, ValueRange{add(base, trips)});
  builder.setInsertionPointAfter(work);
  firstTrip = workItem = ownWholeTiles = workFirst = workBlocks = sharedTiles =
      chunks = Value();
  return work;
}

Value WarpSpecializer::emitIsChunk() {
  Location loc = loop.getLoc();
  return arith::AndIOp::create(
      builder, loc,
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne, sharedTiles,
                            c0),
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::uge, workItem,
                            ownWholeTiles));
}

std::pair<Value, Value> WarpSpecializer::emitChunkOfWorkItem() {
  // Unit u = first + (w - whole tiles) x blocks: chunk u / S of shared
  // tile u mod S.
  Location loc = loop.getLoc();
  Value unit = arith::AddIOp::create(
      builder, loc, workFirst,
      arith::MulIOp::create(
          builder, loc,
          arith::SubIOp::create(builder, loc, workItem, ownWholeTiles),
          workBlocks));
  return {arith::RemUIOp::create(builder, loc, unit, sharedTiles),
          arith::DivUIOp::create(builder, loc, unit, sharedTiles)};
}

void WarpSpecializer::emitProducer(IRMapping &tile, Value trips, Value base) {
  // The producer: wait for an empty stage, announce its bytes, fill it.
  Location loc = loop.getLoc();
  auto produce = scf::ForOp::create(builder, loc, c0, trips, c1);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(produce.getBody());
  Value iv = produce.getInductionVar();
  auto [stage, parity] = stageAndParity(iteration(base, iv), /*flip=*/1);
  MbarrierWaitOp::create(builder, loc, empty, stage, parity);
  MbarrierArriveOp::create(builder, loc, full, stage,
                           builder.getI64IntegerAttr(stageBytes));
  IRMapping mapping = tile;
  mapping.map(loop.getInductionVar(), loopIndex(tile, iv));
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (auto copy = dyn_cast<CopyOp>(op)) {
      Value view = StageOp::create(builder, copy.getLoc(), copy.getDestType(),
                                   staged[copy.getDest()], stage);
      SmallVector<Value> offsets =
          llvm::map_to_vector(copy.getSourceOffsets(), [&](Value v) {
            return mapping.lookupOrDefault(v);
          });
      CopyOp::create(builder, copy.getLoc(), copy.getSource(), offsets, view,
                     ValueRange{}, /*async=*/true, full, stage,
                     /*multicast=*/multicastCopies.contains(copy));
      continue;
    }
    if (!isa<GemmOp>(op))
      builder.clone(op, mapping);
  }
}

Value WarpSpecializer::runsTile(Value set, Value position) {
  Location loc = loop.getLoc();
  Value turn = arith::RemUIOp::create(builder, loc, position,
                                      index(kernel.getConsumerCount()));
  return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, turn,
                               set);
}

void WarpSpecializer::emitCompute(IRMapping &tile, Value trips, Value base,
                                  Value position) {
  // The compute role: one gemm group per stage with one in flight; once
  // group i is issued, group i - 1 is done and its stage goes back to the
  // producer. Iteration 0 is peeled so that its gemm writes the accumulator
  // (wgmma scale-d = 0) in place of the loop's tile.clear: zeros written by
  // other instructions make ptxas fence the wgmma (C7519). With no
  // iterations (K = 0) the clear runs instead.
  Location loc = loop.getLoc();
  int64_t consumers = kernel.getConsumerCount();
  // The turn of the tile at position p > 0 is passed by the set that ran
  // the tile at p - 1, on barrier p mod n: its ((p - 1) / n)-th phase.
  auto passTurn = [&] {
    Value next = arith::RemUIOp::create(
        builder, loc, arith::AddIOp::create(builder, loc, position, c1),
        index(consumers));
    MbarrierArriveOp::create(builder, loc, turns, next,
                             /*expect_tx=*/IntegerAttr(), /*cluster=*/false);
  };
  if (position) {
    Value later = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ugt,
                                        position, c0);
    auto wait = scf::IfOp::create(builder, loc, later);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(wait.thenBlock());
    Value previous = arith::SubIOp::create(builder, loc, position, c1);
    Value round =
        arith::DivUIOp::create(builder, loc, previous, index(consumers));
    MbarrierWaitOp::create(
        builder, loc, turns,
        arith::RemUIOp::create(builder, loc, position, index(consumers)),
        arith::RemUIOp::create(builder, loc, round, index(2)));
  }
  auto consumeStage = [&](Value iv, bool first) {
    Value current = iteration(base, iv);
    auto [stage, parity] = stageAndParity(current, /*flip=*/0);
    MbarrierWaitOp::create(builder, loc, full, stage, parity);
    IRMapping mapping = tile;
    mapping.map(loop.getInductionVar(), loopIndex(tile, iv));
    for (Operation &op : loop.getBody()->without_terminator())
      if (!isa<CopyOp, GemmOp>(op))
        builder.clone(op, mapping);
    auto view = [&](Value tile) -> Value {
      return StageOp::create(builder, gemm.getLoc(), tile.getType(),
                             staged[tile], stage);
    };
    bool clearAccum = gemm.getClearAccum() || (first && clear);
    auto product = GemmOp::create(
        builder, gemm.getLoc(), view(gemm.getA()), view(gemm.getB()),
        gemm.getC(), gemm.getTransposeB(), gemm.getTransposeA(), clearAccum);
    product.setAsync(true);
    GemmWaitOp::create(builder, loc, 1, gemm.getC());
    if (first)
      return;
    Value previous = arith::SubIOp::create(builder, loc, current, c1);
    Value previousStage =
        arith::RemUIOp::create(builder, loc, previous, index(stages));
    MbarrierArriveOp::create(builder, loc, empty, previousStage,
                             /*expect_tx=*/IntegerAttr(),
                             /*cluster=*/!multicastCopies.empty());
  };
  Value any =
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sgt, trips, c0);
  auto guard = scf::IfOp::create(builder, loc, any, /*withElseRegion=*/true);
  builder.setInsertionPointToStart(guard.thenBlock());
  consumeStage(c0, /*first=*/true);
  auto consume = scf::ForOp::create(builder, loc, c1, trips, c1);
  builder.setInsertionPointToStart(consume.getBody());
  consumeStage(consume.getInductionVar(), /*first=*/false);
  builder.setInsertionPointAfter(consume);
  // Every stage of the tile has been waited for: the next set may wait
  // for the next tile's.
  if (position)
    passTurn();
  GemmWaitOp::create(builder, loc, 0, gemm.getC());
  // The next tile reuses the stages: the last one goes back too.
  if (base) {
    Value last =
        arith::SubIOp::create(builder, loc, iteration(base, trips), c1);
    MbarrierArriveOp::create(
        builder, loc, empty,
        arith::RemUIOp::create(builder, loc, last, index(stages)),
        /*expect_tx=*/IntegerAttr(), /*cluster=*/!multicastCopies.empty());
  }
  builder.setInsertionPointToStart(guard.elseBlock());
  if (position)
    passTurn();
  if (clear)
    ClearOp::create(builder, clear.getLoc(), clear.getDest());
  builder.setInsertionPointAfter(guard);
}

struct TileWarpSpecializePass
    : public tile::impl::TileWarpSpecializeBase<TileWarpSpecializePass> {
  void runOnOperation() override {
    getOperation().walk([&](KernelOp kernel) {
      if (!kernel.getWarpSpecialized())
        return WalkResult::advance();
      SmallVector<scf::ForOp> loops;
      kernel.walk([&](scf::ForOp loop) {
        if (loop->hasAttr(kNumStagesAttrName))
          loops.push_back(loop);
      });
      if (loops.size() != 1) {
        kernel.emitOpError("expected one loop marked tile.num_stages in a "
                           "warp_specialized kernel, but got ")
            << loops.size();
        signalPassFailure();
        return WalkResult::interrupt();
      }
      scf::ForOp loop = loops.front();
      auto stages = dyn_cast<IntegerAttr>(loop->getAttr(kNumStagesAttrName));
      if (!stages || stages.getInt() < 2 ||
          stages.getInt() > kMaxPipelineStages) {
        loop.emitOpError("expected tile.num_stages from 2 to ")
            << kMaxPipelineStages << " in a warp_specialized kernel, but got "
            << loop->getAttr(kNumStagesAttrName);
        signalPassFailure();
        return WalkResult::interrupt();
      }
      if (failed(WarpSpecializer(kernel, loop, stages.getInt()).run())) {
        signalPassFailure();
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
  }
};

} // namespace
