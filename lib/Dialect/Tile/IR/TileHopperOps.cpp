//===- TileHopperOps.cpp - Hopper (sm_90a) operations ---------------------===//
//
// Verifiers of the mbarrier ops, tile.gemm_wait, tile.tma_store_wait and
// tile.warp_specialize (TileHopperOps.td).
//
//===----------------------------------------------------------------------===//

#include "TileOpsHelpers.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::tile;

LogicalResult mlir::tile::detail::verifyMbarriers(Operation *op, Type type) {
  auto bars = cast<BufferType>(type);
  if (!bars.isShared() || bars.getRank() != 1 ||
      !bars.getElementType().isInteger(64) || bars.getLayout())
    return op->emitOpError("expected mbarriers as a 1-D shared tile of i64 "
                           "without a layout, but got ")
           << type;
  return success();
}

LogicalResult mlir::tile::detail::verifyInWarpSpecializedKernel(Operation *op) {
  auto kernel = op->getParentOfType<KernelOp>();
  if (kernel && !kernel.getWarpSpecialized())
    return op->emitOpError("expected to be in a warp_specialized kernel "
                           "(mbarriers, TMA and wgmma are the sm_90a "
                           "lowering's)");
  return success();
}

LogicalResult mlir::tile::detail::verifyInClusterKernel(Operation *op,
                                                        StringRef what) {
  auto kernel = op->getParentOfType<KernelOp>();
  if (kernel && !kernel.getCluster())
    return op->emitOpError("expected ")
           << what << " to be in a kernel with a cluster (its blocks share "
           << "the stage)";
  return success();
}

LogicalResult mlir::tile::detail::verifyNotInProducerRole(Operation *op) {
  auto roles = op->getParentOfType<WarpSpecializeOp>();
  if (roles && roles.getProducer().isAncestor(op->getParentRegion()))
    return op->emitOpError("expected to be outside the producer role (its "
                           "one thread does not share the compute role's "
                           "shared tiles)");
  return success();
}

LogicalResult MbarrierInitOp::verify() {
  if (failed(detail::verifyMbarriers(*this, getBarriers().getType())) ||
      failed(detail::verifyInWarpSpecializedKernel(*this)))
    return failure();
  if ((*this)->getParentOp() != (*this)->getParentOfType<KernelOp>())
    return emitOpError("expected to be in the kernel body itself (every "
                       "thread initializes, then synchronizes the block)");
  // The arrival count is 20 bits wide in an mbarrier.
  if (getCount() >= (1 << 20))
    return emitOpError("expected an arrival count below 2^20, but got ")
           << getCount();
  return success();
}

LogicalResult MbarrierArriveOp::verify() {
  if (failed(detail::verifyMbarriers(*this, getBarriers().getType())) ||
      failed(detail::verifyInWarpSpecializedKernel(*this)))
    return failure();
  // The transaction count of a phase is 20 bits wide.
  if (std::optional<int64_t> bytes = getExpectTx();
      bytes && *bytes >= (1 << 20))
    return emitOpError("expected expect_tx below 2^20 bytes, but got ")
           << *bytes;
  if (getCluster()) {
    if (getExpectTx())
      return emitOpError("expected no expect_tx on a cluster arrival (each "
                         "block announces its own bytes)");
    return detail::verifyInClusterKernel(*this, "a cluster arrival");
  }
  return success();
}

LogicalResult MbarrierWaitOp::verify() {
  if (failed(detail::verifyMbarriers(*this, getBarriers().getType())))
    return failure();
  return detail::verifyInWarpSpecializedKernel(*this);
}

LogicalResult GemmWaitOp::verify() {
  BufferType acc = getAcc().getType();
  if (!acc.isFragment() || !isa_and_nonnull<WgmmaLayoutAttr>(acc.getLayout()))
    return emitOpError("expected a fragment in the #tile.wgmma layout, but "
                       "got ")
           << getAcc().getType();
  // wgmma.wait_group takes 0-7 in practice; more never helps one warpgroup.
  if (getPending() > 7)
    return emitOpError("expected at most 7 pending groups, but got ")
           << getPending();
  return success();
}

LogicalResult StreamKFixupOp::verify() {
  BufferType acc = getAcc().getType();
  if (!acc.isFragment() || !isa_and_nonnull<WgmmaLayoutAttr>(acc.getLayout()) ||
      !acc.getElementType().isF32())
    return emitOpError("expected an f32 fragment in the #tile.wgmma layout, "
                       "but got ")
           << acc;
  auto kernel = (*this)->getParentOfType<KernelOp>();
  if (kernel && !kernel.getStreamK())
    return emitOpError("expected to be in a stream_k kernel (its workspace "
                       "holds the split tiles' chunks)");
  return detail::verifyNotInProducerRole(*this);
}

LogicalResult TmaStoreWaitOp::verify() {
  BufferType tile = getTile().getType();
  if (!tile.isShared() || !isa_and_nonnull<NvmmaLayoutAttr>(tile.getLayout()))
    return emitOpError("expected a shared tile in a #tile.nvmma layout (the "
                       "source of TMA stores), but got ")
           << tile;
  if (failed(detail::verifyNotInProducerRole(*this)))
    return failure();
  int64_t pending = getPending();
  if (pending < 0 || pending > kMaxPendingTmaStores)
    return emitOpError("expected 0 to ")
           << kMaxPendingTmaStores << " pending TMA stores, but got "
           << pending;
  // The stores before the wait in its block, newest first: the `pending`
  // newest may not read the tile.
  int64_t newer = 0;
  for (Operation *op = (*this)->getPrevNode(); op && newer < pending;
       op = op->getPrevNode()) {
    auto copy = dyn_cast<CopyOp>(op);
    if (!copy || !copy.isTmaStore())
      continue;
    if (copy.getSource() == getTile())
      return emitOpError("expected the ")
             << pending << " newest TMA stores not to read the tile, but "
             << "store " << newer + 1
             << " of them (counting back from the wait) reads it";
    ++newer;
  }
  return detail::verifyInWarpSpecializedKernel(*this);
}

void WarpSpecializeOp::build(OpBuilder &builder, OperationState &state,
                             std::optional<int64_t> producerRegisters,
                             std::optional<int64_t> computeRegisters) {
  if (producerRegisters)
    state.addAttribute(getProducerRegistersAttrName(state.name),
                       builder.getI64IntegerAttr(*producerRegisters));
  if (computeRegisters)
    state.addAttribute(getComputeRegistersAttrName(state.name),
                       builder.getI64IntegerAttr(*computeRegisters));
  for (int i = 0; i < 2; ++i)
    state.addRegion()->emplaceBlock();
}

/// The roles' setmaxnreg budgets: both or neither, multiples of 8, the
/// producer's at most the compute role's, together within what the block
/// holds at entry.
static LogicalResult verifyRoleRegisters(WarpSpecializeOp op, KernelOp kernel) {
  std::optional<int64_t> producer = op.getProducerRegisters();
  std::optional<int64_t> compute = op.getComputeRegisters();
  if (producer.has_value() != compute.has_value())
    return op.emitOpError("expected registers for both roles or for neither, "
                          "but got them for the ")
           << (producer ? "producer" : "compute role") << " alone";
  if (!producer)
    return success();
  for (int64_t registers : {*producer, *compute})
    if (registers % 8 != 0)
      return op.emitOpError("expected register counts that are multiples of 8 "
                            "(setmaxnreg), but got ")
             << registers;
  if (*producer > *compute)
    return op.emitOpError("expected the producer to keep at most as many "
                          "registers as the compute warpgroups, but got ")
           << *producer << " and " << *compute;
  // Both roles' budgets must fit the registers the block holds at entry:
  // setmaxnreg moves them between warpgroups, and an increase that finds
  // none free waits forever.
  if (kernel) {
    int64_t computeThreads = kernel.getBlockThreads() - kWarpgroupThreads;
    int64_t total = kWarpgroupThreads * *producer + computeThreads * *compute;
    if (total > kernel.getBlockRegisters())
      return op.emitOpError("expected the roles' registers to fit the ")
             << kernel.getBlockRegisters() << " that "
             << kernel.getBlockThreads() << " threads hold at entry ("
             << kernel.getRegistersAtEntry() << " each), but 128 x "
             << *producer << " + " << computeThreads << " x " << *compute
             << " = " << total;
  }
  return success();
}

LogicalResult WarpSpecializeOp::verify() {
  auto kernel = (*this)->getParentOfType<KernelOp>();
  if (kernel && !kernel.getWarpSpecialized())
    return emitOpError("expected to be in a warp_specialized kernel");
  if ((*this)->getParentOp() != kernel)
    return emitOpError("expected to be in the kernel body itself (the roles "
                       "branch on the warpgroup index once)");
  if (failed(verifyRoleRegisters(*this, kernel)))
    return failure();
  // A barrier in the compute role synchronizes its threads alone (a named
  // barrier); the producer runs on one thread.
  WalkResult barrier = getProducerBlock().walk([](BarrierOp op) {
    op.emitOpError("expected no tile.barrier in the producer role (one "
                   "thread issues its copies; the roles meet through "
                   "mbarriers)");
    return WalkResult::interrupt();
  });
  return failure(barrier.wasInterrupted());
}

/// A persistent kernel's tile ops: in one, in its body or a region of it.
static LogicalResult verifyInPersistentKernel(Operation *op) {
  auto kernel = op->getParentOfType<KernelOp>();
  if (kernel && !kernel.getPersistent())
    return op->emitOpError("expected to be in a persistent kernel (a "
                           "non-persistent one runs one tile per block: its "
                           "block indices)");
  return success();
}

LogicalResult TileRangeOp::verify() { return verifyInPersistentKernel(*this); }

LogicalResult TileCoordsOp::verify() {
  if (failed(verifyInPersistentKernel(*this)))
    return failure();
  auto kernel = (*this)->getParentOfType<KernelOp>();
  if (kernel && getCoords().size() != kernel.getGridRank())
    return emitOpError("expected one index per grid dimension (")
           << kernel.getGridRank() << "), but got " << getCoords().size();
  return success();
}

LogicalResult ConsumerIndexOp::verify() {
  auto split = (*this)->getParentOfType<WarpSpecializeOp>();
  if (!split || !split.getCompute().isAncestor((*this)->getParentRegion()))
    return emitOpError("expected to be in the compute role of a "
                       "tile.warp_specialize (the producer belongs to no "
                       "compute set)");
  return success();
}
