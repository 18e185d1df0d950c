//===- TileOpsHelpers.h - Verifier helpers of the tile ops ------*- C++ -*-===//
//
// What the verifiers of several op groups share, defined once: private to
// lib/Dialect/Tile/IR (the op files include it instead of Tile.h). The
// definitions are in TileOps.cpp, the contract's in TileKernelContract.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_DIALECT_TILE_IR_TILEOPSHELPERS_H
#define LIB_DIALECT_TILE_IR_TILEOPSHELPERS_H

#include "tile/Dialect/Tile/IR/Tile.h"

#include <string>

namespace mlir::tile::detail {

/// Prints a shape as `128x32` (`?` for a dynamic dimension), for messages.
std::string formatShape(ArrayRef<int64_t> shape);

/// The count of a cp.async.wait_group (tile.async_wait, a gemm's `then wait
/// N`): at most as many groups as a pipeline has in flight.
LogicalResult verifyPendingGroups(Operation *op, int64_t pending);

/// An mbarrier operand: a 1-D shared tile of i64, one mbarrier each.
LogicalResult verifyMbarriers(Operation *op, Type type);
/// TMA copies, wgmma and the mbarrier ops run in a warp_specialized kernel
/// (the sm_90a lowering's).
LogicalResult verifyInWarpSpecializedKernel(Operation *op);
/// Multicast copies and cluster-wide arrivals: in a kernel with a cluster.
LogicalResult verifyInClusterKernel(Operation *op, StringRef what);
/// TMA stores and their wait run in a group that shares shared tiles: not
/// in the producer role of a tile.warp_specialize.
LogicalResult verifyNotInProducerRole(Operation *op);

/// Checks the launch contract (`requires`) of a kernel whose parameters
/// are verified: each relation, repeats, and relations that never hold.
LogicalResult verifyKernelContract(KernelOp op);

} // namespace mlir::tile::detail

#endif // LIB_DIALECT_TILE_IR_TILEOPSHELPERS_H
