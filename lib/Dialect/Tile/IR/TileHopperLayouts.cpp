//===- TileHopperLayouts.cpp - The Hopper layouts answer for themselves ---===//
//
// The layout attribute interfaces for #tile.wgmma (the wgmma accumulator)
// and #tile.nvmma (the shared tiles TMA writes and wgmma reads), and their
// parameter verifiers. What each layout means is documented, with grids, in
// TileHopperAttrs.td; LayoutTest checks these against those grids.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::tile;

//===----------------------------------------------------------------------===//
// WgmmaLayoutAttr
//===----------------------------------------------------------------------===//

/// A block has at most 1024 threads: 8 warpgroups.
static constexpr int64_t kMaxWarpgroups = 8;
/// The widest wgmma: m64n256k16.
static constexpr int64_t kMaxWgmmaN = 256;

LogicalResult
WgmmaLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        unsigned warpgroupsM, unsigned warpgroupsN) {
  uint64_t count = uint64_t(warpgroupsM) * warpgroupsN;
  if (warpgroupsM == 0 || warpgroupsN == 0 || count > kMaxWarpgroups)
    return emitError() << "expected 1 to " << kMaxWarpgroups
                       << " warpgroups (a block has at most 1024 threads), "
                          "but got "
                       << warpgroupsM << " x " << warpgroupsN;
  return success();
}

std::pair<int64_t, int64_t>
WgmmaLayoutAttr::getWarpgroupTile(ArrayRef<int64_t> shape) const {
  return {shape[0] / getWarpgroupsM(), shape[1] / getWarpgroupsN()};
}

int64_t WgmmaLayoutAttr::getFirstComputeWarpgroup(int64_t numThreads) const {
  return numThreads == kWarpgroupThreads * (int64_t(getNumWarpgroups()) + 1)
             ? 1
             : 0;
}

LogicalResult
WgmmaLayoutAttr::verifyShape(function_ref<InFlightDiagnostic()> emitError,
                             ArrayRef<int64_t> shape, Type elementType,
                             int64_t numThreads) const {
  if (shape.size() != 2)
    return emitError() << "expected a rank-2 fragment for " << *this
                       << ", but got rank " << shape.size();
  // In 64 bits: a C++ builder need not have verified the parameters.
  int64_t rows = 64 * int64_t(getWarpgroupsM());
  int64_t groupsN = getWarpgroupsN();
  if (rows == 0 || groupsN == 0 || shape[0] % rows != 0 ||
      shape[1] % groupsN != 0)
    return emitError() << "expected a fragment shape whose rows are a "
                          "multiple of "
                       << rows << " and columns of " << groupsN << " for "
                       << *this << ", but got " << shape[0] << "x" << shape[1];
  int64_t n = shape[1] / groupsN;
  if (n % 8 != 0 || n > kMaxWgmmaN)
    return emitError() << "expected each warpgroup's columns to be a multiple "
                          "of 8 and at most "
                       << kMaxWgmmaN << " (the N of one wgmma) for " << *this
                       << ", but got " << n;
  int64_t compute = kWarpgroupThreads * int64_t(getNumWarpgroups());
  if (numThreads > 0 && numThreads != compute &&
      numThreads != compute + kWarpgroupThreads)
    return emitError() << "expected " << *this << " to cover the kernel's "
                       << numThreads << " threads (" << compute << ", or "
                       << compute + kWarpgroupThreads
                       << " with a producer warpgroup), but it has "
                       << getNumWarpgroups() << " warpgroups";
  return success();
}

int64_t WgmmaLayoutAttr::getRegistersPerThread(ArrayRef<int64_t> shape,
                                               int64_t) const {
  auto [rows, cols] = getWarpgroupTile(shape);
  // Per 64-row block, each of the 128 threads holds 64 * cols / 128.
  return (rows / 64) * (cols / 2);
}

int64_t WgmmaLayoutAttr::getVectorWidth() const {
  // A lane holds pairs of consecutive columns.
  return 2;
}

// Warpgroup (g / wn, g mod wn) owns a (M/wm) x (N/wn) sub-tile of 64-row
// blocks; in each, warp w holds rows 16 w .. 16 w + 15, and lane l rows
// l/4 and l/4 + 8 of those at columns 8 i + 2 (l mod 4) + {0, 1}.
LayoutOwner WgmmaLayoutAttr::getOwner(ArrayRef<int64_t> shape,
                                      int64_t numThreads,
                                      ArrayRef<int64_t> coords) const {
  auto [rows, cols] = getWarpgroupTile(shape);
  int64_t group = (coords[0] / rows) * getWarpgroupsN() + coords[1] / cols;
  int64_t row = coords[0] % rows, col = coords[1] % cols;
  int64_t block = row / 64, inBlock = row % 64;
  int64_t warp =
      (getFirstComputeWarpgroup(numThreads) + group) * 4 + inBlock / 16;
  int64_t lane = (inBlock % 8) * 4 + (col % 8) / 2;
  int64_t half = (inBlock % 16) / 8;
  int64_t slot = block * (cols / 2) + (col / 8) * 4 + half * 2 + col % 2;
  return {warp, lane, slot};
}

SmallVector<int64_t> WgmmaLayoutAttr::getElement(ArrayRef<int64_t> shape,
                                                 int64_t numThreads,
                                                 int64_t thread,
                                                 int64_t slot) const {
  auto [rows, cols] = getWarpgroupTile(shape);
  int64_t group = thread / 128 - getFirstComputeWarpgroup(numThreads);
  if (group < 0)
    return {}; // A producer thread holds nothing.
  int64_t warp = (thread % 128) / 32, lane = thread % 32;
  int64_t perBlock = cols / 2;
  int64_t block = slot / perBlock, inBlock = slot % perBlock;
  int64_t columnGroup = inBlock / 4, half = (inBlock % 4) / 2;
  int64_t row = (group / getWarpgroupsN()) * rows + block * 64 + warp * 16 +
                half * 8 + lane / 4;
  int64_t col = (group % getWarpgroupsN()) * cols + columnGroup * 8 +
                2 * (lane % 4) + slot % 2;
  return {row, col};
}

//===----------------------------------------------------------------------===//
// NvmmaLayoutAttr
//===----------------------------------------------------------------------===//

LogicalResult
NvmmaLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        unsigned swizzle) {
  if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128)
    return emitError() << "expected a swizzle of 0, 32, 64 or 128 bytes, but "
                          "got "
                       << swizzle;
  return success();
}

int64_t NvmmaLayoutAttr::getPanelWidth(Type elementType) const {
  int64_t bytes = getSwizzle() == 0 ? 16 : getSwizzle();
  return bytes / getElementByteWidth(elementType);
}

LogicalResult
NvmmaLayoutAttr::verifyShape(function_ref<InFlightDiagnostic()> emitError,
                             ArrayRef<int64_t> shape, Type elementType) const {
  if (shape.size() < 2)
    return emitError() << "expected " << *this
                       << " on a tile of rank 2 or more, but got rank "
                       << shape.size();
  int64_t bytes = getElementByteWidth(elementType);
  int64_t panel = getSwizzle() == 0 ? 16 : getSwizzle();
  if (bytes == 0 || panel % bytes != 0 ||
      shape.back() % getPanelWidth(elementType) != 0)
    return emitError() << "expected rows of whole " << panel
                       << "-byte panels for " << *this << ", but got "
                       << shape.back() << " x " << elementType;
  // Each panel starts at a multiple of 8 swizzle rows: the pattern's
  // period, which the hardware takes from the address bits.
  int64_t rows = shape[shape.size() - 2];
  if (getSwizzle() != 0 && rows % 8 != 0)
    return emitError() << "expected a multiple of 8 rows for " << *this
                       << " (one period of the swizzle per panel), but got "
                       << rows;
  return success();
}

// Panel p = col / W of the trailing rows x cols block is stored after the
// panels before it; in a panel, chunk c of row r goes to c xor ((r / P) mod
// (S / 16)). The position is returned in the row-major coordinates of the
// tile's own shape.
SmallVector<int64_t>
NvmmaLayoutAttr::getPhysicalPosition(ArrayRef<int64_t> shape, Type elementType,
                                     ArrayRef<int64_t> coords) const {
  int64_t rank = shape.size();
  int64_t rows = shape[rank - 2], cols = shape[rank - 1];
  int64_t row = coords[rank - 2], col = coords[rank - 1];
  int64_t width = getPanelWidth(elementType);
  int64_t perChunk = 16 / getElementByteWidth(elementType);
  int64_t chunk = (col % width) / perChunk;
  if (getSwizzle() != 0) {
    int64_t chunksPerRow = getSwizzle() / 16;
    int64_t period = 128 / getSwizzle();
    chunk ^= (row / period) % chunksPerRow;
  }
  int64_t linear = (col / width) * rows * width + row * width +
                   chunk * perChunk + col % perChunk;
  SmallVector<int64_t> result(coords);
  result[rank - 2] = linear / cols;
  result[rank - 1] = linear % cols;
  return result;
}
