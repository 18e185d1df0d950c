//===- TileLayouts.h - What layout attributes answer ------------*- C++ -*-===//
//
// The values that the layout attribute interfaces (TileLayoutInterfaces.td)
// return, and the row distribution of the fragments tile.reduce reduces.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_TILELAYOUTS_H
#define TILE_DIALECT_TILE_IR_TILELAYOUTS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Support/LLVM.h"

#include <cstdint>

namespace mlir::tile {

/// A warpgroup: the 4 warps (128 threads) that issue one wgmma together, and
/// the producer role of a warp_specialized kernel.
constexpr int64_t kWarpgroupThreads = 128;

/// The holder of one element of a fragment: a thread, as warp and lane, and
/// the thread's register slot.
struct LayoutOwner {
  int64_t warp = 0;
  int64_t lane = 0;
  int64_t slot = 0;
  int64_t getThread() const { return warp * 32 + lane; }
  bool operator==(const LayoutOwner &other) const {
    return warp == other.warp && lane == other.lane && slot == other.slot;
  }
};

/// The #tile.swizzle geometry of a shared tile: 16-byte chunks of
/// `perChunk` elements, whose index is XORed with (row / patternRows) mod
/// columns, or for #tile.swizzle<staging> with (2 * row) mod 8 + (chunk / 8)
/// mod 2.
struct SwizzleGeometry {
  int64_t perChunk = 1;
  int64_t patternRows = 1;
  int64_t columns = 1;
  bool staging = false;
  /// Chunk offsets that are a multiple of this leave the pattern unchanged.
  int64_t chunkPeriod() const { return staging ? 2 * columns : columns; }
  /// The pattern XORed into chunk `chunk` of row `row`.
  int64_t pattern(int64_t row, int64_t chunk) const {
    if (staging)
      return ((2 * row) & ((columns - 1) & ~int64_t(1))) |
             ((chunk / columns) & 1);
    return (row / patternRows) % columns;
  }
};

/// How the rows (dim-0 coordinates) of a rank-2 fragment lie over the
/// threads, for tile.reduce along dim 1 and the #tile.slice layout of its
/// result: each thread keeps `slots` row slots; lanes [l & ~(lanesPerRow-1),
/// + lanesPerRow) of a warp share a row; `warpsPerRow` consecutive warps
/// share it; `rowsPerWarp` rows of one slot share a warp (#tile.mma: the 8
/// lane quads).
struct RowDistribution {
  enum class Kind {
    /// #tile.mma: a lane holds rows l/4 and l/4 + 8 of each 16-row MMA tile.
    Mma,
    /// #tile.row_major whose rounds of chunks cover whole rows.
    RowsPerRound,
    /// #tile.row_major whose rows span whole rounds.
    RoundsPerRow,
  };
  Kind kind = Kind::Mma;
  int64_t slots = 0;
  int64_t lanesPerRow = 1;
  int64_t warpsPerRow = 1;
  int64_t rowsPerWarp = 1;
  /// Mma: the MMA tile columns of a warp; RowsPerRound: the chunks of a
  /// row; RoundsPerRow: the rounds of a row.
  int64_t perRow = 1;
  /// Mma: the rows of a warp's sub-tile, RowsPerRound: the rows of one round
  /// of the threads.
  int64_t rowStride = 1;
  /// Elements per chunk of the parent (row_major), or warp columns (mma).
  int64_t vec = 1;

  /// The row slot of the parent fragment's register `slot`.
  int64_t getRowSlot(int64_t slot) const;
  /// The row of row slot `rowSlot` of thread `thread` minus that of row slot
  /// 0 (the same for every thread).
  int64_t getRowOffset(int64_t rowSlot) const;
  /// The row of row slot `rowSlot` of thread `thread`.
  int64_t getRow(int64_t thread, int64_t rowSlot) const;
  /// The first thread holding row `row`, and its row slot.
  std::pair<int64_t, int64_t> getFirstHolder(int64_t row) const;
};

/// The row distribution of a rank-2 fragment of `shape` with `layout` over
/// `numThreads`; failure, reported through `emitError` unless it is null,
/// for layouts the reduction does not support.
FailureOr<RowDistribution>
getRowDistribution(Attribute layout, ArrayRef<int64_t> shape,
                   int64_t numThreads,
                   function_ref<InFlightDiagnostic()> emitError);

} // namespace mlir::tile

#endif // TILE_DIALECT_TILE_IR_TILELAYOUTS_H
