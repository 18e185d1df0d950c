//===- TileLayouts.cpp - Layout attributes answer for themselves ----------===//
//
// The layout attribute interfaces of the tile dialect, implemented for
// #tile.row_major, #tile.mma, #tile.slice and #tile.swizzle: the ownership
// math and shape rules that the verifiers, tile-assign-layouts and the
// conversion share. What each layout means is documented, with ownership
// grids, in TileAttrs.td; LayoutTest checks these against those grids.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::tile;

#include "tile/Dialect/Tile/IR/TileLayoutInterfaces.cpp.inc"

bool mlir::tile::fitsShape(FragmentLayoutAttrInterface layout,
                           ArrayRef<int64_t> shape, Type elementType,
                           int64_t numThreads) {
  // The verifier reports through a diagnostic; a question needs none.
  MLIRContext *ctx = elementType.getContext();
  ScopedDiagnosticHandler silence(ctx, [](Diagnostic &) { return success(); });
  return succeeded(layout.verifyShape(
      [ctx] { return mlir::emitError(UnknownLoc::get(ctx)); }, shape,
      elementType, numThreads));
}

bool mlir::tile::fitsShape(SharedLayoutAttrInterface layout,
                           ArrayRef<int64_t> shape, Type elementType) {
  MLIRContext *ctx = elementType.getContext();
  ScopedDiagnosticHandler silence(ctx, [](Diagnostic &) { return success(); });
  return succeeded(layout.verifyShape(
      [ctx] { return mlir::emitError(UnknownLoc::get(ctx)); }, shape,
      elementType));
}

static int64_t getNumElements(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t dim : shape)
    n *= dim;
  return n;
}

static SmallVector<int64_t> delinearize(int64_t linear,
                                        ArrayRef<int64_t> shape) {
  SmallVector<int64_t> coords(shape.size());
  for (int64_t d = shape.size() - 1; d > 0; --d) {
    coords[d] = linear % shape[d];
    linear /= shape[d];
  }
  coords[0] = linear;
  return coords;
}

static int64_t linearize(ArrayRef<int64_t> coords, ArrayRef<int64_t> shape) {
  int64_t linear = 0;
  for (auto [coord, dim] : llvm::zip_equal(coords, shape))
    linear = linear * dim + coord;
  return linear;
}

FailureOr<SmallVector<int64_t>> mlir::tile::getFragmentWindowSlots(
    FragmentLayoutAttrInterface layout, ArrayRef<int64_t> shape,
    ArrayRef<int64_t> offsets, ArrayRef<int64_t> window, int64_t numThreads,
    std::string &whyNot) {
  auto text = [](ArrayRef<int64_t> coords) {
    std::string s = "(";
    for (auto [i, c] : llvm::enumerate(coords))
      s += (i ? ", " : "") + std::to_string(c);
    return s + ")";
  };
  int64_t slots = layout.getRegistersPerThread(window, numThreads);
  if (slots <= 0 || numThreads <= 0) {
    whyNot = "the layout spreads no " + text(window) + " window over " +
             std::to_string(numThreads) + " threads";
    return failure();
  }
  // Ask the layout for every (thread, window slot): a window is at most a
  // fragment, so this is at most the fragment's registers, once per copy.
  SmallVector<int64_t> parentSlots(slots, -1);
  for (int64_t thread = 0; thread < numThreads; ++thread) {
    for (int64_t slot = 0; slot < slots; ++slot) {
      SmallVector<int64_t> coords =
          layout.getElement(window, numThreads, thread, slot);
      if (coords.empty())
        continue; // A thread that holds none (a producer warpgroup).
      SmallVector<int64_t> inParent(coords);
      for (auto [c, offset] : llvm::zip_equal(inParent, offsets))
        c += offset;
      LayoutOwner owner = layout.getOwner(shape, numThreads, inParent);
      if (owner.getThread() != thread) {
        whyNot = "element " + text(coords) +
                 " of the window is held by "
                 "thread " +
                 std::to_string(owner.getThread()) +
                 " in the fragment but by thread " + std::to_string(thread) +
                 " in the window";
        return failure();
      }
      if (parentSlots[slot] >= 0 && parentSlots[slot] != owner.slot) {
        whyNot =
            "register " + std::to_string(slot) + " of the window is register " +
            std::to_string(parentSlots[slot]) +
            " of the fragment in one thread but " + std::to_string(owner.slot) +
            " in thread " + std::to_string(thread);
        return failure();
      }
      parentSlots[slot] = owner.slot;
    }
  }
  return parentSlots;
}

//===----------------------------------------------------------------------===//
// RowMajorLayoutAttr
//===----------------------------------------------------------------------===//

LogicalResult
RowMajorLayoutAttr::verifyShape(function_ref<InFlightDiagnostic()> emitError,
                                ArrayRef<int64_t> shape, Type elementType,
                                int64_t numThreads) const {
  // 16 bytes of the narrowest buffer a fragment is copied with: at most 32
  // of its own type (an f32 fragment of f16 data).
  if (uint64_t(getVec()) * getElementByteWidth(elementType) > 32)
    return emitError() << "expected the layout's vec (" << getVec()
                       << ") to span at most 32 bytes of " << elementType;
  if (shape.back() % getVec() != 0)
    return emitError() << "expected the layout's vec (" << getVec()
                       << ") to divide the last dimension (" << shape.back()
                       << ")";
  if (numThreads <= 0)
    return success();
  int64_t numElements = getNumElements(shape);
  if (numElements % (numThreads * getVec()) != 0)
    return emitError() << "expected the fragment's " << numElements
                       << " elements to be a multiple of threads x vec = "
                       << numThreads << " x " << getVec();
  return success();
}

int64_t RowMajorLayoutAttr::getRegistersPerThread(ArrayRef<int64_t> shape,
                                                  int64_t numThreads) const {
  return getNumElements(shape) / numThreads;
}

int64_t RowMajorLayoutAttr::getVectorWidth() const { return getVec(); }

// Chunk c (of vec elements) is register chunk c / T of thread c mod T.
LayoutOwner RowMajorLayoutAttr::getOwner(ArrayRef<int64_t> shape,
                                         int64_t numThreads,
                                         ArrayRef<int64_t> coords) const {
  int64_t linear = linearize(coords, shape), vec = getVec();
  int64_t chunk = linear / vec, thread = chunk % numThreads;
  return {thread / 32, thread % 32, (chunk / numThreads) * vec + linear % vec};
}

SmallVector<int64_t> RowMajorLayoutAttr::getElement(ArrayRef<int64_t> shape,
                                                    int64_t numThreads,
                                                    int64_t thread,
                                                    int64_t slot) const {
  int64_t vec = getVec();
  int64_t chunk = (slot / vec) * numThreads + thread;
  return delinearize(chunk * vec + slot % vec, shape);
}

//===----------------------------------------------------------------------===//
// MmaLayoutAttr
//===----------------------------------------------------------------------===//

std::pair<int64_t, int64_t>
MmaLayoutAttr::getWarpTile(ArrayRef<int64_t> shape) const {
  return {shape[0] / getWarpsM(), shape[1] / getWarpsN()};
}

std::pair<int64_t, int64_t>
MmaLayoutAttr::getMmaTiles(ArrayRef<int64_t> shape) const {
  auto [warpRows, warpCols] = getWarpTile(shape);
  return {warpRows / 16, warpCols / 8};
}

int64_t MmaLayoutAttr::getSlot(ArrayRef<int64_t> shape, int64_t tileM,
                               int64_t tileN, int64_t half) const {
  // By MMA tile (row-major over the warp's tiles), then row half, then the
  // column pair.
  return ((tileM * getMmaTiles(shape).second + tileN) * 2 + half) * 2;
}

LogicalResult
MmaLayoutAttr::verifyShape(function_ref<InFlightDiagnostic()> emitError,
                           ArrayRef<int64_t> shape, Type elementType,
                           int64_t numThreads) const {
  if (shape.size() != 2)
    return emitError() << "expected a rank-2 fragment for " << *this
                       << ", but got rank " << shape.size();
  // In 64 bits (the warps are at most 32 when the attribute verified, but a
  // C++ builder need not have verified it).
  int64_t rows = 16 * int64_t(getWarpsM());
  int64_t cols = 8 * int64_t(getWarpsN());
  if (rows == 0 || cols == 0 || shape[0] % rows != 0 || shape[1] % cols != 0)
    return emitError() << "expected a fragment shape that is a multiple of "
                       << rows << "x" << cols << " for " << *this
                       << ", but got " << shape[0] << "x" << shape[1];
  if (numThreads > 0 && int64_t(getNumWarps()) * 32 != numThreads)
    return emitError() << "expected " << *this << " to cover the kernel's "
                       << numThreads << " threads, but it has " << getNumWarps()
                       << " warps";
  return success();
}

int64_t MmaLayoutAttr::getRegistersPerThread(ArrayRef<int64_t> shape,
                                             int64_t) const {
  auto [tilesM, tilesN] = getMmaTiles(shape);
  return tilesM * tilesN * 4;
}

int64_t MmaLayoutAttr::getVectorWidth() const {
  // A lane holds pairs of consecutive columns.
  return 2;
}

// Warp (w / wn, w mod wn) owns a (M/wm) x (N/wn) sub-tile of 16x8 MMA
// tiles; in each, lane l holds rows l/4 and l/4 + 8 at columns 2 (l mod 4)
// and 2 (l mod 4) + 1.
LayoutOwner MmaLayoutAttr::getOwner(ArrayRef<int64_t> shape, int64_t,
                                    ArrayRef<int64_t> coords) const {
  auto [warpRows, warpCols] = getWarpTile(shape);
  int64_t row = coords[0] % warpRows, col = coords[1] % warpCols;
  int64_t warp = (coords[0] / warpRows) * getWarpsN() + coords[1] / warpCols;
  int64_t lane = (row % 8) * 4 + (col % 8) / 2;
  int64_t slot = getSlot(shape, row / 16, col / 8, (row % 16) / 8) + col % 2;
  return {warp, lane, slot};
}

SmallVector<int64_t> MmaLayoutAttr::getElement(ArrayRef<int64_t> shape, int64_t,
                                               int64_t thread,
                                               int64_t slot) const {
  auto [warpRows, warpCols] = getWarpTile(shape);
  int64_t tilesN = getMmaTiles(shape).second;
  int64_t warp = thread / 32, lane = thread % 32;
  int64_t pair = slot / 2, half = pair % 2, tile = pair / 2;
  int64_t row = (warp / getWarpsN()) * warpRows + (tile / tilesN) * 16 +
                half * 8 + lane / 4;
  int64_t col = (warp % getWarpsN()) * warpCols + (tile % tilesN) * 8 +
                2 * (lane % 4) + slot % 2;
  return {row, col};
}

//===----------------------------------------------------------------------===//
// Row distributions (tile.reduce along dim 1)
//===----------------------------------------------------------------------===//

FailureOr<RowDistribution>
mlir::tile::getRowDistribution(Attribute layout, ArrayRef<int64_t> shape,
                               int64_t numThreads,
                               function_ref<InFlightDiagnostic()> emitError) {
  RowDistribution map;
  if (auto mma = dyn_cast_or_null<MmaLayoutAttr>(layout)) {
    // A lane holds rows l/4 and l/4 + 8 of each 16-row MMA tile; the four
    // lanes of a quad share them, as do the warps of one warp row.
    auto [tilesM, tilesN] = mma.getMmaTiles(shape);
    map.kind = RowDistribution::Kind::Mma;
    map.slots = 2 * tilesM;
    map.lanesPerRow = 4;
    map.warpsPerRow = mma.getWarpsN();
    map.rowsPerWarp = 8;
    map.perRow = tilesN;
    map.rowStride = mma.getWarpTile(shape).first;
    map.vec = mma.getWarpsN();
    return map;
  }
  auto rowMajor = dyn_cast_or_null<RowMajorLayoutAttr>(layout);
  if (!rowMajor || shape.size() != 2)
    return emitError() << "can reduce rank-2 fragments with a #tile.mma or "
                          "#tile.row_major layout only, but got "
                       << layout;
  int64_t vec = rowMajor.getVec();
  int64_t chunksPerRow = shape[1] / vec;
  map.vec = vec;
  if (numThreads % chunksPerRow == 0) {
    // A round of chunks covers whole rows: chunksPerRow consecutive threads
    // share each row, one chunk each.
    if (chunksPerRow < 32 && 32 % chunksPerRow != 0)
      return emitError() << "cannot reduce rows of " << chunksPerRow
                         << " chunks: the threads of a row must be a power "
                            "of two";
    map.kind = RowDistribution::Kind::RowsPerRound;
    map.slots = shape[0] * chunksPerRow / numThreads;
    map.lanesPerRow = std::min<int64_t>(chunksPerRow, 32);
    map.warpsPerRow = std::max<int64_t>(chunksPerRow / 32, 1);
    map.rowsPerWarp = 32 / map.lanesPerRow;
    map.perRow = chunksPerRow;
    map.rowStride = numThreads / chunksPerRow;
    return map;
  }
  if (chunksPerRow % numThreads == 0) {
    // A row spans whole rounds: every thread holds part of every row.
    map.kind = RowDistribution::Kind::RoundsPerRow;
    map.slots = shape[0];
    map.lanesPerRow = 32;
    map.warpsPerRow = numThreads / 32;
    map.perRow = chunksPerRow / numThreads;
    return map;
  }
  return emitError() << "cannot reduce rows of " << chunksPerRow
                     << " chunks of " << vec << " over " << numThreads
                     << " threads: one must divide the other";
}

int64_t RowDistribution::getRowSlot(int64_t slot) const {
  switch (kind) {
  case Kind::Mma:
    // Four registers per MMA tile, perRow tiles per 16 rows; the second
    // pair is the row half + 8.
    return (slot / (perRow * 4)) * 2 + (slot / 2) % 2;
  case Kind::RowsPerRound:
    return slot / vec;
  case Kind::RoundsPerRow:
    return slot / vec / perRow;
  }
  llvm_unreachable("unknown row distribution");
}

int64_t RowDistribution::getRowOffset(int64_t rowSlot) const {
  switch (kind) {
  case Kind::Mma:
    return (rowSlot / 2) * 16 + (rowSlot % 2) * 8;
  case Kind::RowsPerRound:
    return rowSlot * rowStride;
  case Kind::RoundsPerRow:
    return rowSlot;
  }
  llvm_unreachable("unknown row distribution");
}

int64_t RowDistribution::getRow(int64_t thread, int64_t rowSlot) const {
  switch (kind) {
  case Kind::Mma: {
    // vec: the warp columns; rowStride: the rows of a warp's sub-tile.
    int64_t warp = thread / 32, lane = thread % 32;
    return (warp / vec) * rowStride + lane / 4 + getRowOffset(rowSlot);
  }
  case Kind::RowsPerRound:
    return getRowOffset(rowSlot) + thread / perRow;
  case Kind::RoundsPerRow:
    return getRowOffset(rowSlot);
  }
  llvm_unreachable("unknown row distribution");
}

std::pair<int64_t, int64_t> RowDistribution::getFirstHolder(int64_t row) const {
  switch (kind) {
  case Kind::Mma: {
    int64_t within = row % rowStride;
    int64_t warp = (row / rowStride) * vec, lane = (within % 8) * 4;
    return {warp * 32 + lane, (within / 16) * 2 + (within % 16) / 8};
  }
  case Kind::RowsPerRound:
    return {(row % rowStride) * perRow, row / rowStride};
  case Kind::RoundsPerRow:
    return {0, row};
  }
  llvm_unreachable("unknown row distribution");
}

//===----------------------------------------------------------------------===//
// SliceLayoutAttr
//===----------------------------------------------------------------------===//

SmallVector<int64_t>
SliceLayoutAttr::getParentShape(ArrayRef<int64_t> shape) const {
  SmallVector<int64_t> parent(shape);
  parent.insert(parent.begin() + std::min<size_t>(getDim(), parent.size()),
                getDimSize());
  return parent;
}

LogicalResult
SliceLayoutAttr::verifyShape(function_ref<InFlightDiagnostic()> emitError,
                             ArrayRef<int64_t> shape, Type elementType,
                             int64_t) const {
  if (shape.size() != 1)
    return emitError() << "expected a rank-1 fragment for " << *this
                       << " (its rank-2 parent minus one dimension), but got "
                          "rank "
                       << shape.size();
  // The parent's own rules on the parent's shape (its thread rules are the
  // reduction's: tile.reduce reports them when it is lowered).
  if (auto parent = dyn_cast<FragmentLayoutAttrInterface>(getParent()))
    return parent.verifyShape(emitError, getParentShape(shape), elementType,
                              /*numThreads=*/0);
  return success();
}

int64_t SliceLayoutAttr::getRegistersPerThread(ArrayRef<int64_t> shape,
                                               int64_t numThreads) const {
  // One register per row of the parent a thread touches.
  ScopedDiagnosticHandler silence(getContext(),
                                  [](Diagnostic &) { return success(); });
  FailureOr<RowDistribution> rows =
      getRowDistribution(getParent(), getParentShape(shape), numThreads, [&] {
        return mlir::emitError(UnknownLoc::get(getContext()));
      });
  return succeeded(rows) ? rows->slots : 0;
}

int64_t SliceLayoutAttr::getVectorWidth() const {
  // Row values are replicated, not cut in chunks.
  return 1;
}

LayoutOwner SliceLayoutAttr::getOwner(ArrayRef<int64_t> shape,
                                      int64_t numThreads,
                                      ArrayRef<int64_t> coords) const {
  FailureOr<RowDistribution> rows =
      getRowDistribution(getParent(), getParentShape(shape), numThreads, [&] {
        return mlir::emitError(UnknownLoc::get(getContext()));
      });
  if (failed(rows))
    return {};
  auto [thread, slot] = rows->getFirstHolder(coords[0]);
  return {thread / 32, thread % 32, slot};
}

SmallVector<int64_t> SliceLayoutAttr::getElement(ArrayRef<int64_t> shape,
                                                 int64_t numThreads,
                                                 int64_t thread,
                                                 int64_t slot) const {
  FailureOr<RowDistribution> rows =
      getRowDistribution(getParent(), getParentShape(shape), numThreads, [&] {
        return mlir::emitError(UnknownLoc::get(getContext()));
      });
  if (failed(rows))
    return {};
  return {rows->getRow(thread, slot)};
}

//===----------------------------------------------------------------------===//
// SwizzleLayoutAttr
//===----------------------------------------------------------------------===//

SwizzleGeometry SwizzleLayoutAttr::getGeometry(ArrayRef<int64_t> shape,
                                               Type elementType, bool staging) {
  int64_t perChunk = 16 / getElementByteWidth(elementType);
  int64_t chunksPerRow = shape.back() / perChunk;
  return {perChunk, std::max<int64_t>(1, 8 / chunksPerRow),
          std::min<int64_t>(chunksPerRow, 8), staging};
}

LogicalResult
SwizzleLayoutAttr::verifyShape(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<int64_t> shape,
                               Type elementType) const {
  if (shape.size() < 2 ||
      shape.back() * int64_t(getElementByteWidth(elementType)) % 16 != 0)
    return emitError() << "expected " << *this
                       << " on a tile of rank 2 or more whose rows are a "
                          "multiple of 16 bytes";
  return success();
}

SmallVector<int64_t> SwizzleLayoutAttr::getPhysicalPosition(
    ArrayRef<int64_t> shape, Type elementType, ArrayRef<int64_t> coords) const {
  SwizzleGeometry g = getGeometry(shape, elementType);
  SmallVector<int64_t> result(coords);
  int64_t row = coords[coords.size() - 2], col = coords.back();
  int64_t chunk = col / g.perChunk;
  result.back() =
      (chunk ^ g.pattern(row, chunk)) * g.perChunk + col % g.perChunk;
  return result;
}
