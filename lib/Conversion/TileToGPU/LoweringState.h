//===- LoweringState.h - State of -convert-tile-to-gpu ----------*- C++ -*-===//
//
// The lowering state that the op-family patterns of -convert-tile-to-gpu
// share (one per tile.kernel), and the emitters for layouts they have in
// common. Private to lib/Conversion/TileToGPU.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_TILETOGPU_LOWERINGSTATE_H
#define LIB_CONVERSION_TILETOGPU_LOWERINGSTATE_H

#include "tile/Conversion/TileToGPU/TypeConverter.h"
#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <functional>
#include <optional>

namespace mlir::tile::lowering {

/// Where a tile buffer lives after lowering: what the dialect conversion's
/// adaptor would hand a pattern for a tile operand, and what a memref alone
/// cannot carry (TileToGPU.cpp says why the patterns are no
/// ConversionPatterns).
struct BufferStorage {
  BufferType type;
  /// Of the type converter's type for the buffer (TileToGPUTypeConverter):
  /// global: a strided memref over the tensor; shared: a workgroup memref;
  /// fragment: the thread's private elements, memref<N x T>.
  Value memref;
  /// Size of each dimension (index values).
  SmallVector<Value> sizes;
  /// A number each size is known to be a multiple of (getSizeDivisor).
  SmallVector<int64_t> divisors = {};

  int64_t divisor(int64_t dim) const {
    return dim < static_cast<int64_t>(divisors.size()) ? divisors[dim] : 1;
  }
};

/// How the elements of a tile are spread over the threads: the tile is cut in
/// row-major chunks of `vec` elements and chunk c goes to thread c mod T.
struct Distribution {
  int64_t vec = 1;
  int64_t numChunks = 0;
  /// Chunks per thread (rounded up).
  int64_t chunksPerThread = 0;
  /// Whether the last round has fewer chunks than threads.
  bool needsGuard = false;
};

/// The chunks of a `shape` tile cut in `vec`-element pieces over
/// `numThreads` threads.
Distribution distribute(ArrayRef<int64_t> shape, int64_t vec,
                        int64_t numThreads);

/// The alignment a `bytes`-wide chunk access may claim: its own width up to
/// 16 bytes (the widest access; wider chunks, e.g. eight f32 elements of a
/// fragment copied to f16, split into 16-byte ones).
inline llvm::MaybeAlign accessAlign(int64_t bytes) {
  return llvm::MaybeAlign(std::min<int64_t>(bytes, 16));
}

/// What is known of an index or integer value: bounds lo <= value <= hi
/// (signed), each possibly unknown, of magnitude below 2^62 so that sums
/// and products of two cannot overflow.
struct KnownRange {
  std::optional<int64_t> lo, hi;
  bool nonNegative() const { return lo && *lo >= 0; }
};

/// A number that `value` (index arithmetic) is known to be a multiple of:
/// constants, and sums and products of them, e.g. a block's first row
/// `by * 128`; 1 when nothing is known.
int64_t knownMultiple(Value value);

/// The range of `value` from constants, thread and block ids, the kernel's
/// dynamic sizes, loop counters and the arithmetic on them (KnownValues.cpp
/// says what is assumed of each).
KnownRange knownRange(Value value, unsigned depth = 0);

/// Whether `value` is known to be 0 or more.
bool knownNonNegative(Value value);

inline int64_t alignTo(int64_t value, int64_t alignment) {
  return llvm::divideCeil(value, alignment) * alignment;
}

/// Where the rows of a rank-2 fragment (its dim-0 coordinates) live: each
/// thread keeps `slots` row slots; the thread's register `s` of the
/// fragment is in row slot `slotOf(s)`; lanes [l & ~(lanesPerRow-1), +
/// lanesPerRow) of a warp share a row; `warpsPerRow` warps (the row's first
/// warp + j * 1) share it; `rowsPerWarp` rows of one slot share a warp
/// (#tile.mma: the 8 lane quads).
struct RowMap {
  int64_t slots = 0;
  int64_t lanesPerRow = 1;
  int64_t warpsPerRow = 1;
  int64_t rowsPerWarp = 1;
  std::function<int64_t(int64_t)> slotOf;
  /// The row (dim-0 coordinate) of the thread's row slot `k`.
  std::function<Value(int64_t)> rowOf;
  /// Whether this thread is the first of those holding its rows' values
  /// (an i1): the one that stores them.
  std::function<Value()> isFirstHolder;
};

/// The state of lowering one tile.kernel into a gpu.func, shared by the
/// patterns of every op family: the function and its prologue values, the
/// type converter, where each converted buffer lives (getConvertedBuffer),
/// the shared-memory total and the async-copy groups; and the emitters the
/// families share (thread chunks of a layout, row maps, swizzled addresses,
/// bounds-checked chunk accesses). The methods are defined in the file of
/// their family.
class KernelLowering {
public:
  KernelLowering(KernelOp kernel, gpu::GPUModuleOp gpuModule)
      : kernel(kernel), gpuModule(gpuModule), builder(kernel.getContext()),
        numThreads(kernel.getThreads()),
        typeConverter(kernel.getContext(), numThreads) {}

  MLIRContext *getContext() { return kernel.getContext(); }

  /// The converted tile buffer `tile`, as an earlier pattern recorded it
  /// (setConvertedBuffer): the one lookup of every operand, the analogue of
  /// a ConversionPattern's adaptor. Null when nothing converted it (the
  /// caller says so on its op).
  const BufferStorage *getConvertedBuffer(Value tile) const;
  /// Records `converted` as what `tile` became; its memref has the type
  /// converter's type for `tile`.
  void setConvertedBuffer(Value tile, const BufferStorage &converted);

  // Structure (KernelToGPU.cpp).
  /// Builds the gpu.func with the kernel's body moved into it and reads the
  /// shared-memory plan; the tile ops are then lowered by the patterns.
  LogicalResult begin();
  /// Whether the tile.parallel before `op` already lowered it (a fused
  /// store): the driver skips it.
  bool isLowered(Operation *op) const {
    return storesFusedIntoParallel.contains(op);
  }
  /// Erases the lowered tile ops (`tileOps`, in program order), checks that
  /// nothing else used them and returns the kernel's launch description
  /// (#tile.launch, its manifest entry).
  FailureOr<LaunchAttr> finish(ArrayRef<Operation *> tileOps);
  void createFunction();
  Value getDynamicSharedMemory();
  /// The kernel's grid extents (tiles per dimension, from its buffers'
  /// sizes), computed at the insertion point.
  SmallVector<Value> emitGridExtents(Location loc);
  /// Block (or tile) coordinates (x, y) of linear index `linear` over a
  /// tilesX x tilesY grid walked in panels of `panel` rows (raster_panel).
  std::pair<Value, Value> rasterize(Location loc, Value linear, Value tilesX,
                                    Value tilesY, int64_t panel);

  // Tile operations (MemoryToGPU.cpp unless noted).
  LogicalResult lowerAllocShared(AllocSharedOp op);
  /// Reads the placement of the kernel's shared tiles that
  /// -tile-plan-shared-memory recorded: each tile.alloc_shared's offset and
  /// the kernel's total.
  LogicalResult readSharedMemoryPlan();
  LogicalResult lowerAllocFragment(AllocFragmentOp op);
  LogicalResult lowerCopy(CopyOp op);
  LogicalResult lowerRowValueStore(CopyOp op, SliceLayoutAttr slice);
  LogicalResult lowerFragmentWindowCopy(CopyOp op);
  /// The window copy of a #tile.wgmma accumulator into a 16-bit
  /// #tile.nvmma tile with stmatrix (sm_90): `registers` maps each window
  /// slot to the fragment's register. False, with nothing emitted, where
  /// the shapes do not allow it (a warpgroup's columns not in pairs of
  /// 8-column groups).
  bool storeWgmmaMatrices(CopyOp op, WgmmaLayoutAttr wgmma,
                          ArrayRef<int64_t> registers);
  LogicalResult lowerAtomicAdd(AtomicAddOp op);
  LogicalResult lowerFill(Operation *op, Value dest, Value value);
  /// tile.parallel (ParallelToGPU.cpp).
  LogicalResult lowerParallel(ParallelOp op);
  /// tile.print (PrintToGPU.cpp): gpu.printf from the chosen block and thread
  /// or warp.
  LogicalResult lowerPrint(PrintOp op);
  /// An element access in a tile.parallel body (ParallelToGPU.cpp). `slot`
  /// is the register of the loop's layout; `rows`, when the loop
  /// reads row values (#tile.slice fragments), maps it to their row slot.
  LogicalResult lowerElementAccess(Operation *op, Value slotValue, int64_t slot,
                                   const RowMap *rows = nullptr);
  LogicalResult lowerDim(DimOp op);
  LogicalResult lowerSubview(SubviewOp op);

  // Emitters (LayoutEmitters.cpp, AccessEmitters.cpp; those of one family
  // in its file).
  Value constant(Location loc, int64_t value) {
    return arith::ConstantIndexOp::create(builder, loc, value);
  }
  SmallVector<Value> delinearize(Location loc, Value linear,
                                 ArrayRef<int64_t> shape);
  /// Consecutive elements per chunk of a fragment layout.
  FailureOr<int64_t> fragmentVector(Operation *user, Attribute layout);
  /// Calls `body(chunkIndexInThread, linearChunk)` for each chunk of the
  /// calling thread, guarded when the last round is partial.
  void forEachChunk(Location loc, const Distribution &dist,
                    function_ref<void(int64_t, Value)> body);
  /// Calls `body(firstSlot, coords)` for each chunk of `vec` consecutive
  /// elements (along the last dimension) of a `shape` tile that the calling
  /// thread handles: as a fragment `layout` places them, or dealt
  /// round-robin when `layout` is null (guarded when the last round is
  /// partial; slots are then meaningless).
  void forEachThreadChunk(Location loc, ArrayRef<int64_t> shape,
                          Attribute layout, int64_t vec,
                          function_ref<void(int64_t, ArrayRef<Value>)> body);
  /// The warp index and the lane of the calling thread.
  std::pair<Value, Value> getWarpAndLane(Location loc);
  /// Whether the calling thread is thread 0 of the block.
  Value isFirstThread(Location loc);
  /// The calling thread's compute warpgroup of `layout` (0 for the first
  /// compute warpgroup, after the producer's in a warp_specialized kernel).
  Value getComputeWarpgroup(Location loc, WgmmaLayoutAttr layout);
  /// tile.gemm and tile.gemm_prefetch (which only loads the first K step's
  /// operands into the accumulator's prefetch registers).
  LogicalResult lowerGemm(Operation *op, Value aTile, Value bTile, Value cTile,
                          bool transposeA, bool transposeB, bool clearAccum,
                          bool prefetched, Value nextA, Value nextB,
                          std::optional<int64_t> waitPending,
                          bool prefetchOnly);
  /// The registers (private arrays, promoted by LLVM) holding the
  /// prefetched A and B operands of the gemms on accumulator `acc`.
  std::pair<Value, Value> getPrefetchRegisters(Value acc, VectorType aType,
                                               int64_t aCount, VectorType bType,
                                               int64_t bCount);
  /// How the rows of a rank-2 fragment layout lie over the threads, for
  /// tile.reduce along dim 1 and its #tile.slice results; failure (with a
  /// message on `op`) for layouts the reduction does not support.
  FailureOr<struct RowMap> getRowMap(Operation *op, ArrayRef<int64_t> shape,
                                     Attribute layout);
  /// Registers per thread of a fragment (row slots for #tile.slice).
  FailureOr<int64_t> registersPerThread(Operation *op, Value buffer);
  LogicalResult lowerReduce(ReduceOp op);
  LogicalResult lowerThreadReduce(ThreadReduceOp op);
  /// Whether `op` has the cross-warp scratch of `elements` f32 (none for
  /// 0) that -tile-plan-shared-memory gives it (`scratch(offset = N, bytes
  /// = B)`); a message on `op` when not.
  LogicalResult verifyReduceScratch(ReduceOp op, int64_t elements);
  /// The view of `elements` f32 at byte `offset` of the dynamic shared
  /// memory, for a reduction's cross-warp step.
  Value allocateScratch(Location loc, int64_t offset, int64_t elements);
  /// cp.async.wait_group for the last commit before `op`, then a barrier.
  void waitForAsyncGroups(Operation *op, int64_t pending);
  /// One m16n8k16 MMA: D = A x B + C, with the ldmatrix operands and the
  /// four f32 accumulator elements of the calling thread.
  SmallVector<Value> multiplyAccumulate(Location loc, Value a, Value b,
                                        ArrayRef<Value> c);
  LogicalResult lowerStage(StageOp op);
  /// Global -> shared with cp.async (zero-filled at the tensor's edge), or
  /// synchronously when the rows are not aligned to the chunk size.
  LogicalResult lowerAsyncCopy(CopyOp op);
  LogicalResult lowerAsyncCommit(AsyncCommitOp op);
  LogicalResult lowerAsyncWait(AsyncWaitOp op);
  /// The chunks of a copy, moved by plain loads and stores.
  void copyChunks(CopyOp op, ArrayRef<int64_t> shape, Attribute layout,
                  int64_t vec);
  /// One of them: the chunk at `coords` (register `slot` of a fragment).
  void copyChunk(CopyOp op, int64_t slot, ArrayRef<Value> coords, int64_t vec);
  Value readChunk(Location loc, const BufferStorage &src, ValueRange offsets,
                  ArrayRef<Value> coords, int64_t slot, int64_t vec);
  void writeChunk(Location loc, const BufferStorage &dst, ValueRange offsets,
                  ArrayRef<Value> coords, int64_t slot, int64_t vec,
                  Value vector);
  /// Adds the chunk to a global f32 tensor, one atomic add per element
  /// inside it (tile.atomic_add).
  void addChunk(Location loc, const BufferStorage &dst, ValueRange offsets,
                ArrayRef<Value> coords, int64_t vec, Value vector);
  /// Bounds and alignment of a `vec`-wide access of a global tensor at `g`
  /// (= `offsets` + chunk coordinates, which are multiples of vec).
  struct GlobalAccess {
    Value rowsInBounds; // every index but the last is inside
    /// size - g, the elements of the row from g on, where g is known to be
    /// non-negative (null otherwise).
    Value remaining;
    Value fast; // the whole vector is inside and aligned
    /// Statically known: every chunk is wholly inside the row or wholly
    /// past its end and aligned (row length and column offset multiples of
    /// vec), so no chunk needs masked scalar accesses.
    bool wholeChunks = false;
  };
  GlobalAccess globalAccessChecks(Location loc, const BufferStorage &global,
                                  ValueRange offsets, ArrayRef<Value> g,
                                  int64_t vec);
  /// Whether lane `lane` of the chunk, at `index` of the last dimension
  /// (g + lane), is inside the tensor.
  Value laneInBounds(Location loc, const GlobalAccess &checks,
                     const BufferStorage &global, Value index, int64_t lane);
  /// Calls `body(lane, index)` under a guard of its own for each lane of the
  /// `vec`-wide chunk at `g` of a global tensor that lies inside it.
  void forEachLaneInBounds(Location loc, const GlobalAccess &checks,
                           const BufferStorage &global, ArrayRef<Value> g,
                           int64_t vec,
                           function_ref<void(int64_t, ArrayRef<Value>)> body);
  Value convertVector(Location loc, Value vector, Type elementType);
  /// Where the element at `coords` of a shared tile is stored: the same
  /// place, or the #tile.swizzle position.
  SmallVector<Value> physical(Location loc, const BufferStorage &tile,
                              ArrayRef<Value> coords);
  /// physical() of the rank-2 tile element (row + rowOffset, col +
  /// colOffset), with `row`/`col` the lane's part and the offsets constants
  /// (MMA tile and K step): the parts of the offsets that move whole swizzle
  /// periods stay outside the XOR, so that the addresses of one operand
  /// differ by constants that LLVM folds into ldmatrix's immediate offset
  /// (one base register per distinct XOR instead of one per access).
  SmallVector<Value> physicalAt(Location loc, const BufferStorage &tile,
                                Value row, int64_t rowOffset, Value col,
                                int64_t colOffset);
  /// The #tile.swizzle column of (row, col + chunkLow chunks): ((col / E +
  /// chunkLow) xor ((row / P) mod C)) * E + col mod E.
  Value swizzledColumn(Location loc, BufferType type, Value row, Value col,
                       int64_t chunkLow);

  // The Hopper (sm_90a) family (HopperToGPU.cpp).
  /// tile.copy async ... barrier(...): one TMA copy per #tile.nvmma panel.
  LogicalResult lowerTmaCopy(CopyOp op);
  /// tile.copy async shared -> global: the group fences and synchronizes,
  /// its first thread stores each panel with TMA and commits them.
  LogicalResult lowerTmaStore(CopyOp op);
  /// tile.tma_store_wait: the first thread waits for its stores' reads, then
  /// the group synchronizes.
  LogicalResult lowerTmaStoreWait(TmaStoreWaitOp op);
  /// tile.gemm async: wgmma.mma_async per 64-row block and K step.
  LogicalResult lowerWarpgroupGemm(GemmOp op);
  /// The generic pointer of the tensor map of `global` (a kernel parameter)
  /// for boxes of `box` elements: the kernel function's argument that
  /// collectTensorMaps added.
  Value getTensorMap(Value global, ArrayRef<int64_t> box);
  /// The shared-memory address of a tile (a tile.alloc_shared or a
  /// tile.stage of one) plus `byteOffset`, as an !llvm.ptr<3>.
  Value getSharedPointer(Location loc, Value tile, int64_t byteOffset = 0);
  /// The same as an i64 (the shared window's address, for descriptors).
  Value getSharedAddress(Location loc, Value tile);

  /// A tensor map the kernel takes (one per buffer and box its TMA copies
  /// use): its kernel parameter, box (buffer order) and swizzle.
  struct TensorMap {
    unsigned param;
    SmallVector<int64_t> box;
    int64_t swizzle;
    unsigned argument;
  };
  /// The kernel's tensor maps, in parameter order (createFunction).
  SmallVector<TensorMap> tensorMaps;
  /// The box and swizzle of the tensor map a TMA copy (load or store) goes
  /// through.
  static std::pair<SmallVector<int64_t>, int64_t> getTmaBox(CopyOp copy);

  /// A stream_k kernel's workspace (a global pointer, its last parameter;
  /// null in other kernels) and the bytes each launched block needs of it:
  /// a shared tile's arrival count, and the accumulator slots of its chunks
  /// that tile.stream_k_fixup adds (StreamKToGPU.cpp has the layout).
  Value workspace;
  int64_t workspaceBytesPerBlock = 4;
  LogicalResult lowerStreamKFixup(StreamKFixupOp op);

  /// Copies of a fragment to global memory that the tile.parallel computing
  /// the fragment lowered with itself ({tile.fused}, getFusedStore).
  llvm::SmallPtrSet<Operation *, 4> storesFusedIntoParallel;

  KernelOp kernel;
  gpu::GPUModuleOp gpuModule;
  /// What the kernel does with each buffer parameter (for the manifest),
  /// read before the lowering replaces the ops that use them.
  SmallVector<StringRef> bufferAccess;
  /// The builder of every emitter, and the rewriter the patterns are applied
  /// with: one insertion point for the whole lowering.
  PatternRewriter builder;
  int64_t numThreads;
  /// What each tile type becomes; every memref type of a buffer comes from
  /// it.
  TileToGPUTypeConverter typeConverter;
  gpu::GPUFuncOp func;
  /// The thread's index in the block as the body describes it: in a
  /// kernel with `consumers`, each compute set's threads are numbered as
  /// the first set's, and `consumerIndex` says which set it is (null
  /// without `consumers`).
  Value threadId;
  Value consumerIndex;
  /// The threads that share the chunks of a tile without a fragment layout
  /// (shared tiles, their copies and loops) and that a tile.barrier
  /// synchronizes: the whole block, or in the compute role of a
  /// warp-specialized kernel its warpgroups alone, numbered from 0 there
  /// (the producer does not run the epilogue).
  struct ThreadGroup {
    Value threadId;
    int64_t threads = 0;
    bool wholeBlock = true;
  };
  ThreadGroup group;
  /// Where the compute role's ops were moved and its setmaxnreg (none when
  /// the role keeps the registers of its entry), set by the
  /// tile.warp_specialize lowering; its group's thread id is made after the
  /// setmaxnreg, or at the block's start, when first needed.
  Block *computeRole = nullptr;
  Operation *computeRoleStart = nullptr;
  ThreadGroup computeGroup;
  /// Sets `group` to the threads that run `op`.
  void enterGroupOf(Operation *op);
  /// `group`'s thread id (the compute role's is made on first use).
  Value getGroupThreadId();
  /// A barrier of `group`: bar.sync 0 for the block, a named barrier
  /// (bar.sync 1, threads) for the compute role.
  void emitGroupBarrier(Location loc);
  Value dynamicSharedMemory;
  Value warpId, laneId;
  /// Groups committed so far (cp.async.commit_group); a wait names one that
  /// dominates it (the token is bookkeeping: the hardware counts groups).
  SmallVector<Value> asyncGroups;
  int64_t sharedBytes = 0;
  /// Insertion point for allocations: the end of the function prologue.
  Operation *prologueEnd = nullptr;
  DenseMap<Value, std::pair<Value, Value>> prefetchRegisters;

private:
  /// Value -> what it became (getConvertedBuffer, setConvertedBuffer).
  DenseMap<Value, BufferStorage> storage;
};

/// A pattern that lowers one tile op with the lowering state of its kernel:
/// its buffer operands come from KernelLowering::getConvertedBuffer, the
/// types it builds from the state's typeConverter (TileToGPU.cpp says why
/// this is no ConversionPattern).
template <typename OpTy>
class TileToGPUPattern : public OpRewritePattern<OpTy> {
public:
  explicit TileToGPUPattern(KernelLowering &lowering)
      : OpRewritePattern<OpTy>(lowering.getContext()), lowering(lowering) {}

protected:
  KernelLowering &lowering;
};

} // namespace mlir::tile::lowering

#endif // LIB_CONVERSION_TILETOGPU_LOWERINGSTATE_H
