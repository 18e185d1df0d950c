//===- TileOps.cpp - Tile dialect operations ------------------------------===//
//
// The operation classes (ODS) and the verifier helpers that several op
// groups share (TileOpsHelpers.h). The builders, formats and verifiers of
// each group are in their own file:
//
//   TileKernelOp.cpp       tile.kernel: builder, format, verifier
//   TileKernelContract.cpp tile.kernel's launch contract (`requires`)
//   TileMemoryOps.cpp      views, allocation, copies, fill/clear, pipeline
//                          stages, barriers and async waits
//   TileComputeOps.cpp     gemm, gemm_prefetch and the reductions
//   TileParallelOps.cpp    tile.parallel, its element accesses (load, store)
//                          and tile.print
//   TileHopperOps.cpp      mbarriers, gemm_wait and warp_specialize (sm_90a)
//
//===----------------------------------------------------------------------===//

#include "TileOpsHelpers.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::tile;

/// Prints a shape as `128x32`.
std::string mlir::tile::detail::formatShape(ArrayRef<int64_t> shape) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(
      shape,
      [&](int64_t dim) {
        if (ShapedType::isDynamic(dim))
          os << '?';
        else
          os << dim;
      },
      [&] { os << 'x'; });
  return text;
}

/// The count of a cp.async.wait_group: at most as many groups as a pipeline
/// has in flight.
LogicalResult mlir::tile::detail::verifyPendingGroups(Operation *op,
                                                      int64_t pending) {
  if (pending > kMaxPipelineStages)
    return op->emitOpError("expected at most ")
           << kMaxPipelineStages
           << " pending async copy groups (the deepest pipeline), but got "
           << pending;
  return success();
}

#define GET_OP_CLASSES
#include "tile/Dialect/Tile/IR/TileOps.cpp.inc"
