//===- TypeConverter.h - What tile types become in the gpu.func -*- C++ -*-===//
//
// The one answer of -convert-tile-to-gpu to "what type does this tile type
// become": the kernel's parameters and the memref that holds each tile
// buffer (global view, workgroup tile, per-thread registers), for one
// kernel's thread count.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_TILETOGPU_TYPECONVERTER_H
#define TILE_CONVERSION_TILETOGPU_TYPECONVERTER_H

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Transforms/DialectConversion.h"

#include <optional>

namespace mlir::tile {

/// The types of -convert-tile-to-gpu for a kernel of `numThreads` threads.
/// convertType(Type) maps
///
///   !tile.buffer<MxNxT, global>    memref<MxNxT, strided<[S, 1]>, global>
///                                  (row-major, static strides where the
///                                  sizes are known, offset 0: the view of a
///                                  kernel parameter)
///   !tile.buffer<MxNxT, shared>    memref<MxNxT, workgroup> (a view of the
///                                  dynamic shared memory; a #tile.swizzle
///                                  moves elements within it, the type does
///                                  not show it)
///   !tile.buffer<MxNxT, fragment, L>  memref<R x T>, R = the registers per
///                                  thread of layout L (the layout interface;
///                                  row slots for #tile.slice): the thread's
///                                  private elements
///
/// and leaves every other type (scalars, index) as it is. A fragment without
/// a layout, or a #tile.slice whose parent cannot be distributed, has no
/// conversion (the lowering says why on the op). convertType(Value) also
/// knows the views: a tile.subview or tile.stage result becomes the
/// memref.subview of its source's memref (dynamic offset, the source's
/// strides), which its tile type alone does not say.
///
/// The kernel's own signature is convertKernelType: a global buffer is passed
/// as a bare pointer (rank-0 memref) with its dynamic sizes after all
/// parameters, the view above rebuilt from them in the prologue.
class TileToGPUTypeConverter : public TypeConverter {
public:
  TileToGPUTypeConverter(MLIRContext *context, int64_t numThreads);
  // The conversions capture `this`.
  TileToGPUTypeConverter(const TileToGPUTypeConverter &) = delete;
  TileToGPUTypeConverter &operator=(const TileToGPUTypeConverter &) = delete;

  int64_t getNumThreads() const { return numThreads; }

  /// The gpu.func type of a tile.kernel of type `kernelType`: each buffer a
  /// bare pointer (convertKernelParamType), scalars as they are, then one
  /// index per dynamic dimension of each buffer, in parameter order.
  FunctionType convertKernelType(FunctionType kernelType) const;
  /// The parameter a kernel parameter of `type` becomes: memref<T, global>
  /// (rank 0) for a global buffer, a scalar as it is.
  Type convertKernelParamType(Type type) const;

  /// convertType for each memory space.
  MemRefType getGlobalViewType(BufferType type) const;
  MemRefType getSharedType(BufferType type) const;
  /// Null when the fragment has no registers (see getRegistersPerThread).
  MemRefType getFragmentType(BufferType type) const;
  /// Registers per thread of a fragment from its layout; none without a
  /// layout or for a #tile.slice whose parent the reduction cannot lay out.
  std::optional<int64_t> getRegistersPerThread(BufferType type) const;

  /// The memref.subview that tile.subview `op` becomes, of a source whose
  /// memref is `source`: the leading indices fixed (dropped), the rest whole.
  MemRefType getSubviewType(SubviewOp op, MemRefType source) const;
  /// The memref.subview that a tile.stage of a multi-buffered tile whose
  /// memref is `source` becomes: one stage (a dynamic index), the leading
  /// dimension dropped.
  MemRefType getStageType(MemRefType source) const;

  /// Types that are no tile buffer's: the kernel's dynamic shared memory
  /// (memref<?xi8, workgroup>) and a reduction's cross-warp scratch in it
  /// (memref<N x f32, workgroup>).
  MemRefType getDynamicSharedMemoryType() const;
  MemRefType getScratchType(int64_t elements) const;

private:
  MLIRContext *context;
  int64_t numThreads;
};

} // namespace mlir::tile

#endif // TILE_CONVERSION_TILETOGPU_TYPECONVERTER_H
