//===- TileToGPU.cpp - Lower tile kernels to gpu.func ---------------------===//
//
// Implements -convert-tile-to-gpu: each tile.kernel becomes a gpu.func kernel
// whose tile operations are unrolled per thread into scf, vector, memref and
// arith operations.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/Passes.h"
#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/Tile/Transforms/StoreFusion.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/TypeSwitch.h"

#include <numeric>

namespace mlir::tile {
#define GEN_PASS_DEF_CONVERTTILETOGPU
#include "tile/Conversion/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

/// Widest global/shared access of one thread, in bytes.

/// Where a tile buffer lives after lowering.
struct BufferStorage {
  BufferType type;
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

Distribution distribute(ArrayRef<int64_t> shape, int64_t vec,
                        int64_t numThreads) {
  Distribution d;
  d.vec = vec;
  d.numChunks = ShapedType::getNumElements(shape) / vec;
  d.chunksPerThread = llvm::divideCeil(d.numChunks, numThreads);
  d.needsGuard = d.numChunks % numThreads != 0;
  return d;
}

/// The alignment a `bytes`-wide chunk access may claim: its own width up to
/// 16 bytes (the widest access; wider chunks, e.g. eight f32 elements of a
/// fragment copied to f16, split into 16-byte ones).
llvm::MaybeAlign accessAlign(int64_t bytes) {
  return llvm::MaybeAlign(std::min<int64_t>(bytes, 16));
}

/// A number that `value` (index arithmetic) is known to be a multiple of:
/// constants, and sums and products of them, e.g. a block's first row
/// `by * 128`; 1 when nothing is known.
int64_t knownMultiple(Value value) {
  constexpr int64_t any = int64_t(1) << 30; // 0 is a multiple of anything
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant))) {
    // |c| as unsigned (-2^63 too), at most `any`: no overflow below.
    int64_t v = constant.abs().getLimitedValue(any);
    return v == 0 ? any : v;
  }
  Operation *def = value.getDefiningOp();
  if (!def)
    return 1;
  if (isa<arith::MulIOp>(def))
    return std::min(any, knownMultiple(def->getOperand(0)) *
                             knownMultiple(def->getOperand(1)));
  if (isa<arith::AddIOp, arith::SubIOp>(def))
    return std::gcd(knownMultiple(def->getOperand(0)),
                    knownMultiple(def->getOperand(1)));
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(def))
    return knownMultiple(def->getOperand(0));
  return 1;
}

/// What is known of an index or integer value: bounds lo <= value <= hi
/// (signed), each possibly unknown, of magnitude below 2^62 so that sums
/// and products of two cannot overflow.
struct KnownRange {
  std::optional<int64_t> lo, hi;
  bool nonNegative() const { return lo && *lo >= 0; }
};

/// The range of `value` from constants, thread and block ids (CUDA's
/// limits), the kernel's dynamic sizes (at most 2^48 elements: a buffer
/// lies in the 48-bit virtual address space that CUDA shares with the host;
/// every bounds check assumes sizes of real memory), loop counters (lower
/// <= iv < upper), and what +, -, *, unsigned division and remainder,
/// minima, maxima, selects and casts make of them.
KnownRange knownRange(Value value, unsigned depth = 0) {
  constexpr int64_t cap = int64_t(1) << 62;
  auto bound = [&](std::optional<int64_t> b) -> std::optional<int64_t> {
    if (!b || *b >= cap || *b <= -cap)
      return std::nullopt;
    return b;
  };
  auto range = [&](std::optional<int64_t> lo, std::optional<int64_t> hi) {
    return KnownRange{bound(lo), bound(hi)};
  };
  auto add = [](std::optional<int64_t> a, std::optional<int64_t> b) {
    return a && b ? std::optional<int64_t>(*a + *b) : std::nullopt;
  };
  auto negate = [](std::optional<int64_t> a) {
    return a ? std::optional<int64_t>(-*a) : std::nullopt;
  };
  if (depth > 16)
    return {};
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant))) {
    if (constant.getSignificantBits() > 63)
      return {};
    return range(constant.getSExtValue(), constant.getSExtValue());
  }
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (auto loop = dyn_cast_or_null<scf::ForOp>(owner)) {
      if (arg != loop.getInductionVar())
        return {};
      KnownRange lower = knownRange(loop.getLowerBound(), depth + 1);
      KnownRange upper = knownRange(loop.getUpperBound(), depth + 1);
      return range(lower.lo, add(upper.hi, -1));
    }
    // The dynamic sizes of a kernel's buffers are its only index arguments.
    if (isa_and_nonnull<gpu::GPUFuncOp>(owner) && arg.getType().isIndex())
      return range(0, int64_t(1) << 48);
    return {};
  }
  Operation *def = value.getDefiningOp();
  if (!def)
    return {};
  // CUDA's limits: 1024 threads per block, grids of up to 2^31 - 1 x
  // 65535 x 65535 blocks.
  if (isa<gpu::ThreadIdOp, gpu::BlockDimOp>(def))
    return range(0, 1024);
  auto gridLimit = [](gpu::Dimension dim) -> int64_t {
    return dim == gpu::Dimension::x ? (int64_t(1) << 31) - 1 : 65535;
  };
  if (auto id = dyn_cast<gpu::BlockIdOp>(def))
    return range(0, gridLimit(id.getDimension()));
  if (auto size = dyn_cast<gpu::GridDimOp>(def))
    return range(1, gridLimit(size.getDimension()));
  auto operand = [&](unsigned i) {
    return knownRange(def->getOperand(i), depth + 1);
  };
  if (isa<arith::AddIOp>(def)) {
    KnownRange a = operand(0), b = operand(1);
    return range(add(a.lo, b.lo), add(a.hi, b.hi));
  }
  if (isa<arith::SubIOp>(def)) {
    KnownRange a = operand(0), b = operand(1);
    return range(add(a.lo, negate(b.hi)), add(a.hi, negate(b.lo)));
  }
  if (isa<arith::MulIOp>(def)) {
    // Of two ranges of non-negative bounds below 2^31 each, or one of them.
    KnownRange a = operand(0), b = operand(1);
    if (!a.nonNegative() || !b.nonNegative() || !a.hi || !b.hi ||
        (*b.hi != 0 && *a.hi >= cap / *b.hi))
      return {};
    return range(*a.lo * *b.lo, *a.hi * *b.hi);
  }
  if (isa<arith::DivUIOp, arith::CeilDivUIOp, arith::ShRUIOp>(def)) {
    // Unsigned: a negative dividend is a huge one.
    KnownRange a = operand(0);
    return a.nonNegative() ? range(0, a.hi) : KnownRange{};
  }
  if (isa<arith::RemUIOp>(def)) {
    // x mod y < y (unsigned), and <= x.
    KnownRange x = operand(0), y = operand(1);
    std::optional<int64_t> hi =
        y.nonNegative() && y.hi ? add(y.hi, -1) : std::nullopt;
    if (x.nonNegative() && x.hi)
      hi = hi ? std::min(*hi, *x.hi) : x.hi;
    return hi ? range(0, hi) : KnownRange{};
  }
  if (isa<arith::MinUIOp, arith::MaxUIOp, arith::AndIOp>(def)) {
    KnownRange a = operand(0), b = operand(1);
    if (isa<arith::MaxUIOp>(def))
      return a.nonNegative() && b.nonNegative() && a.hi && b.hi
                 ? range(std::max(*a.lo, *b.lo), std::max(*a.hi, *b.hi))
                 : KnownRange{};
    // Unsigned minimum, and: at most a non-negative operand.
    std::optional<int64_t> hi;
    for (const KnownRange &r : {a, b})
      if (r.nonNegative() && r.hi)
        hi = hi ? std::min(*hi, *r.hi) : r.hi;
    return hi ? range(0, hi) : KnownRange{};
  }
  if (isa<arith::MinSIOp, arith::MaxSIOp>(def)) {
    KnownRange a = operand(0), b = operand(1);
    auto both = [](std::optional<int64_t> x, std::optional<int64_t> y,
                   bool takeMax) -> std::optional<int64_t> {
      if (!x || !y)
        return std::nullopt;
      return takeMax ? std::max(*x, *y) : std::min(*x, *y);
    };
    auto either = [](std::optional<int64_t> x, std::optional<int64_t> y,
                     bool takeMax) -> std::optional<int64_t> {
      if (!x || !y)
        return x ? x : y;
      return takeMax ? std::max(*x, *y) : std::min(*x, *y);
    };
    // min(a, b) <= each of a and b, >= the smaller of their lower bounds.
    if (isa<arith::MinSIOp>(def))
      return range(both(a.lo, b.lo, false), either(a.hi, b.hi, false));
    return range(either(a.lo, b.lo, true), both(a.hi, b.hi, true));
  }
  if (isa<arith::SelectOp>(def)) {
    KnownRange a = operand(1), b = operand(2);
    if (!a.lo || !b.lo || !a.hi || !b.hi)
      return {};
    return range(std::min(*a.lo, *b.lo), std::max(*a.hi, *b.hi));
  }
  if (isa<arith::IndexCastUIOp, arith::IndexCastOp>(def)) {
    Type source = def->getOperand(0).getType();
    if (isa<arith::IndexCastUIOp>(def) && source.isInteger(32))
      return range(0, (int64_t(1) << 32) - 1);
    return operand(0);
  }
  return {};
}

/// Whether `value` is known to be 0 or more.
bool knownNonNegative(Value value) { return knownRange(value).nonNegative(); }

int64_t alignTo(int64_t value, int64_t alignment) {
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

/// Lowers one tile.kernel into a gpu.func.
class KernelLowering {
public:
  KernelLowering(KernelOp kernel, gpu::GPUModuleOp gpuModule)
      : kernel(kernel), gpuModule(gpuModule), builder(kernel.getContext()),
        numThreads(kernel.getThreads()) {}

  /// Builds the gpu.func and returns the manifest entry of the kernel.
  FailureOr<DictionaryAttr> run();

private:
  // Structure.
  void createFunction();
  LogicalResult lowerOp(Operation *op);
  Value getDynamicSharedMemory();

  // Tile operations.
  LogicalResult lowerAllocShared(AllocSharedOp op);
  /// Reads the placement of the kernel's shared tiles that
  /// -tile-plan-shared-memory recorded: each tile.alloc_shared's offset and
  /// the kernel's total.
  LogicalResult readSharedMemoryPlan();
  LogicalResult lowerAllocFragment(AllocFragmentOp op);
  LogicalResult lowerCopy(CopyOp op);
  LogicalResult lowerRowValueStore(CopyOp op, SliceLayoutAttr slice);
  LogicalResult lowerFill(Operation *op, Value dest, Value value);
  LogicalResult lowerParallel(ParallelOp op);
  /// tile.print: gpu.printf from the chosen block and thread or warp.
  LogicalResult lowerPrint(PrintOp op);
  /// `slot` is the register of the loop's layout; `rows`, when the loop
  /// reads row values (#tile.slice fragments), maps it to their row slot.
  LogicalResult lowerElementAccess(Operation *op, Value slotValue, int64_t slot,
                                   const RowMap *rows = nullptr);
  LogicalResult lowerDim(DimOp op);
  LogicalResult lowerSubview(SubviewOp op);

  // Helpers.
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
  /// A private array of f32 in shared memory for cross-warp reductions.
  Value allocateScratch(Location loc, int64_t elements);
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

  /// Copies of a fragment to global memory that the tile.parallel computing
  /// the fragment lowered with itself ({tile.fused}, getFusedStore).
  llvm::SmallPtrSet<Operation *, 4> storesFusedIntoParallel;

  KernelOp kernel;
  gpu::GPUModuleOp gpuModule;
  OpBuilder builder;
  int64_t numThreads;
  gpu::GPUFuncOp func;
  Value threadId;
  Value dynamicSharedMemory;
  Value warpId, laneId;
  /// Groups committed so far (cp.async.commit_group); a wait names one that
  /// dominates it (the token is bookkeeping: the hardware counts groups).
  SmallVector<Value> asyncGroups;
  int64_t sharedBytes = 0;
  /// Insertion point for allocations: the end of the function prologue.
  Operation *prologueEnd = nullptr;
  DenseMap<Value, std::pair<Value, Value>> prefetchRegisters;
  DenseMap<Value, BufferStorage> storage;
};

//===----------------------------------------------------------------------===//
// Kernel structure
//===----------------------------------------------------------------------===//

void KernelLowering::createFunction() {
  MLIRContext *ctx = kernel.getContext();
  Location loc = kernel.getLoc();
  auto globalSpace = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Global);

  // Parameters: buffers as bare pointers, scalars as they are, then one index
  // per dynamic dimension of each buffer.
  SmallVector<Type> argTypes;
  for (unsigned i = 0; i < kernel.getNumParams(); ++i) {
    Type type = kernel.getFunctionType().getInput(i);
    if (auto buffer = dyn_cast<BufferType>(type))
      argTypes.push_back(MemRefType::get({}, buffer.getElementType(),
                                         MemRefLayoutAttrInterface(),
                                         globalSpace));
    else
      argTypes.push_back(type);
  }
  for (unsigned i = 0; i < kernel.getNumParams(); ++i)
    if (auto buffer = dyn_cast<BufferType>(kernel.getParam(i).getType()))
      for (unsigned d = 0; d < buffer.getRank(); ++d)
        if (buffer.isDynamicDim(d))
          argTypes.push_back(builder.getIndexType());

  builder.setInsertionPointToEnd(gpuModule.getBody());
  func = gpu::GPUFuncOp::create(builder, loc, kernel.getSymName(),
                                builder.getFunctionType(argTypes, {}));
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                builder.getUnitAttr());
  func.setKnownBlockSizeAttr(
      builder.getDenseI32ArrayAttr({static_cast<int32_t>(numThreads), 1, 1}));

  Block &entry = func.getBody().front();
  builder.setInsertionPointToStart(&entry);
  threadId = gpu::ThreadIdOp::create(builder, loc, gpu::Dimension::x);

  // Rebuild each global tensor from its pointer and sizes.
  unsigned nextDynamic = kernel.getNumParams();
  for (unsigned i = 0; i < kernel.getNumParams(); ++i) {
    BlockArgument param = kernel.getParam(i);
    auto buffer = dyn_cast<BufferType>(param.getType());
    if (!buffer) {
      param.replaceAllUsesWith(entry.getArgument(i));
      continue;
    }
    BufferStorage global{buffer, {}, {}};
    for (int64_t d = 0; d < buffer.getRank(); ++d) {
      global.sizes.push_back(buffer.isDynamicDim(d)
                                 ? Value(entry.getArgument(nextDynamic++))
                                 : constant(loc, buffer.getDimSize(d)));
      global.divisors.push_back(getSizeDivisor(param, d));
    }
    // Row-major strides.
    SmallVector<OpFoldResult> strides(buffer.getRank());
    SmallVector<int64_t> staticStrides(buffer.getRank());
    Value stride = constant(loc, 1);
    int64_t staticStride = 1;
    for (int64_t d = buffer.getRank() - 1; d >= 0; --d) {
      strides[d] = stride;
      staticStrides[d] = staticStride;
      if (d > 0) {
        stride = arith::MulIOp::create(builder, loc, stride, global.sizes[d]);
        staticStride =
            ShapedType::isDynamic(staticStride) || buffer.isDynamicDim(d)
                ? ShapedType::kDynamic
                : staticStride * buffer.getDimSize(d);
      }
    }
    // Static sizes and strides stay attributes so the memref type keeps them.
    SmallVector<OpFoldResult> sizes;
    for (int64_t d = 0; d < buffer.getRank(); ++d) {
      sizes.push_back(
          buffer.isDynamicDim(d)
              ? OpFoldResult(global.sizes[d])
              : OpFoldResult(builder.getIndexAttr(buffer.getDimSize(d))));
      if (!ShapedType::isDynamic(staticStrides[d]))
        strides[d] = builder.getIndexAttr(staticStrides[d]);
    }
    auto layout = StridedLayoutAttr::get(ctx, 0, staticStrides);
    auto type = MemRefType::get(buffer.getShape(), buffer.getElementType(),
                                layout, globalSpace);
    global.memref = memref::ReinterpretCastOp::create(
        builder, loc, type, entry.getArgument(i), builder.getIndexAttr(0),
        sizes, strides);
    storage[param] = global;
  }

  static const gpu::Dimension dims[] = {gpu::Dimension::x, gpu::Dimension::y,
                                        gpu::Dimension::z};
  SmallVector<Value> blockIds;
  for (unsigned d = 0; d < kernel.getGridRank(); ++d)
    blockIds.push_back(gpu::BlockIdOp::create(builder, loc, dims[d]));
  if (std::optional<int64_t> panel = kernel.getRasterPanel()) {
    // Rasterization: the linear block id walks panels of `panel` grid rows,
    // down a column of the panel first (the last panel may be shorter).
    Value gridX = gpu::GridDimOp::create(builder, loc, gpu::Dimension::x);
    Value gridY = gpu::GridDimOp::create(builder, loc, gpu::Dimension::y);
    Value linear = arith::AddIOp::create(
        builder, loc, arith::MulIOp::create(builder, loc, blockIds[1], gridX),
        blockIds[0]);
    Value panelSize = constant(loc, *panel);
    Value perPanel = arith::MulIOp::create(builder, loc, panelSize, gridX);
    Value firstRow = arith::MulIOp::create(
        builder, loc, arith::DivUIOp::create(builder, loc, linear, perPanel),
        panelSize);
    Value rows = arith::MinUIOp::create(
        builder, loc, arith::SubIOp::create(builder, loc, gridY, firstRow),
        panelSize);
    Value inPanel = arith::RemUIOp::create(builder, loc, linear, perPanel);
    blockIds[1] = arith::AddIOp::create(
        builder, loc, firstRow,
        arith::RemUIOp::create(builder, loc, inPanel, rows));
    blockIds[0] = arith::DivUIOp::create(builder, loc, inPanel, rows);
  }
  for (unsigned d = 0; d < kernel.getGridRank(); ++d)
    kernel.getBlockIndex(d).replaceAllUsesWith(blockIds[d]);

  // Move the body after the prologue and terminate it. Allocations are
  // later placed before the first operation of the body.
  Operation *terminator = gpu::ReturnOp::create(builder, loc);
  Block &body = kernel.getEntryBlock();
  prologueEnd = body.empty() ? terminator : &body.front();
  entry.getOperations().splice(terminator->getIterator(), body.getOperations());
}

Value KernelLowering::getDynamicSharedMemory() {
  if (!dynamicSharedMemory) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(&func.getBody().front());
    auto type = MemRefType::get(
        {ShapedType::kDynamic}, builder.getI8Type(),
        MemRefLayoutAttrInterface(),
        gpu::AddressSpaceAttr::get(builder.getContext(),
                                   gpu::AddressSpace::Workgroup));
    dynamicSharedMemory =
        gpu::DynamicSharedMemoryOp::create(builder, kernel.getLoc(), type);
  }
  return dynamicSharedMemory;
}

/// What the kernel does with each buffer parameter, for the manifest:
/// "read", "write" or "readwrite", from the memory effects of the tile ops
/// on it and on its tile.subview views. A use whose effects are not known
/// counts as both; a buffer whose sizes alone are used is "read".
static SmallVector<StringRef> getBufferAccess(KernelOp kernel) {
  SmallVector<StringRef> access;
  for (unsigned i = 0; i < kernel.getNumParams(); ++i) {
    bool reads = false, writes = false;
    SmallVector<Value> views = {kernel.getParam(i)};
    while (!views.empty()) {
      Value view = views.pop_back_val();
      for (Operation *user : view.getUsers()) {
        if (auto subview = dyn_cast<SubviewOp>(user)) {
          views.push_back(subview.getResult());
          continue;
        }
        auto interface = dyn_cast<MemoryEffectOpInterface>(user);
        if (!interface) {
          reads = writes = true;
          continue;
        }
        SmallVector<MemoryEffects::EffectInstance> effects;
        interface.getEffectsOnValue(view, effects);
        for (const MemoryEffects::EffectInstance &effect : effects) {
          reads |= isa<MemoryEffects::Read>(effect.getEffect());
          writes |= isa<MemoryEffects::Write>(effect.getEffect());
        }
      }
    }
    access.push_back(!writes ? "read" : reads ? "readwrite" : "write");
  }
  return access;
}

FailureOr<DictionaryAttr> KernelLowering::run() {
  // Before the lowering replaces the tile ops that use the buffers.
  SmallVector<StringRef> access = getBufferAccess(kernel);
  createFunction();
  if (failed(readSharedMemoryPlan()))
    return failure();

  // Tile ops outside tile.parallel, in program order (tile.parallel lowers
  // its own body).
  SmallVector<Operation *> tileOps;
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<ParallelOp>(op)) {
      tileOps.push_back(op);
      return WalkResult::skip();
    }
    if (isa_and_nonnull<TileDialect>(op->getDialect()))
      tileOps.push_back(op);
    return WalkResult::advance();
  });
  for (Operation *op : tileOps) {
    // Already lowered, chunk by chunk, inside the tile.parallel before it.
    if (storesFusedIntoParallel.contains(op))
      continue;
    builder.setInsertionPoint(op);
    if (failed(lowerOp(op)))
      return failure();
  }
  for (Operation *op : llvm::reverse(tileOps)) {
    if (!op->use_empty())
      return op->emitOpError("result is used by an operation that is not a "
                             "tile op, which cannot be lowered");
    op->erase();
  }
  for (BlockArgument param : kernel.getEntryBlock().getArguments())
    if (!param.use_empty())
      return kernel.emitOpError("parameter is used by an operation that is "
                                "not a tile op, which cannot be lowered");
  // Each tile fits (its type says so), but all of them together, with the
  // stages and the reductions' scratch, must too.
  if (sharedBytes > kMaxSharedMemoryBytes)
    return kernel.emitOpError("expected at most ")
           << kMaxSharedMemoryBytes
           << " bytes of shared memory (227 KiB, a block's on the largest "
              "GPU), but its tiles take "
           << sharedBytes << " bytes";

  // The launch description for the manifest.
  MLIRContext *ctx = kernel.getContext();
  auto str = [&](StringRef s) { return StringAttr::get(ctx, s); };
  auto i64 = [&](int64_t v) { return builder.getI64IntegerAttr(v); };
  auto dict = [&](ArrayRef<NamedAttribute> entries) {
    return DictionaryAttr::get(ctx, entries);
  };
  SmallVector<Attribute> params, dimParams;
  for (unsigned i = 0; i < kernel.getNumParams(); ++i) {
    StringRef name = kernel.getParamName(i);
    Type type = kernel.getFunctionType().getInput(i);
    auto buffer = dyn_cast<BufferType>(type);
    if (!buffer) {
      params.push_back(dict({{str("name"), str(name)},
                             {str("kind"), str("scalar")},
                             {str("type"), str(getDTypeName(type))}}));
      continue;
    }
    SmallVector<Attribute> shape, divisibility;
    bool promised = false;
    for (int64_t d = 0; d < buffer.getRank(); ++d) {
      shape.push_back(i64(buffer.isDynamicDim(d) ? -1 : buffer.getDimSize(d)));
      int64_t divisor = buffer.isDynamicDim(d) ? kernel.getDivisor(i, d) : 1;
      divisibility.push_back(i64(divisor));
      promised |= divisor > 1;
      if (buffer.isDynamicDim(d))
        dimParams.push_back(
            dict({{str("name"), str(KernelOp::getDimParamName(name, d))},
                  {str("kind"), str("dim")},
                  {str("type"), str("i64")},
                  {str("buffer"), str(name)},
                  {str("dim"), i64(d)}}));
    }
    SmallVector<NamedAttribute> entries = {
        {str("name"), str(name)},
        {str("kind"), str("buffer")},
        {str("dtype"), str(getDTypeName(buffer.getElementType()))},
        {str("shape"), builder.getArrayAttr(shape)},
        {str("access"), str(access[i])}};
    // The sizes the runtime must check at launch (`divisible`).
    if (promised)
      entries.push_back(
          {str("divisibility"), builder.getArrayAttr(divisibility)});
    params.push_back(dict(entries));
  }
  llvm::append_range(params, dimParams);

  SmallVector<Attribute> grid;
  for (auto extent : kernel.getGrid().getAsRange<GridExtentAttr>()) {
    if (extent.isConstant()) {
      grid.push_back(dict({{str("kind"), str("const")},
                           {str("value"), i64(extent.getDivisor())}}));
      continue;
    }
    grid.push_back(
        dict({{str("kind"), str("ceildiv")},
              {str("param"), str(kernel.getParamName(extent.getParam()))},
              {str("dim"), i64(extent.getDim())},
              {str("divisor"), i64(extent.getDivisor())}}));
  }
  // The launch contract: {"lhs": {"param": "A", "dim": 1}, "op": "==",
  // "rhs": {"param": "B", "dim": 0}} or {..., "op": "<=", "value": 4096}.
  SmallVector<Attribute> contract;
  auto size = [&](int64_t param, int64_t dim) {
    return dict({{str("param"), str(kernel.getParamName(param))},
                 {str("dim"), i64(dim)}});
  };
  for (ShapeRelationAttr relation : kernel.getContract()) {
    SmallVector<NamedAttribute> entries = {
        {str("lhs"), size(relation.getLhsParam(), relation.getLhsDim())},
        {str("op"), str(relation.getPredicateSymbol())}};
    if (relation.isConstant())
      entries.push_back({str("value"), i64(relation.getValue())});
    else
      entries.push_back(
          {str("rhs"), size(relation.getRhsParam(), relation.getRhsDim())});
    contract.push_back(dict(entries));
  }
  SmallVector<NamedAttribute> description = {
      {str("name"), str(kernel.getSymName())},
      {str("block"), builder.getArrayAttr({i64(numThreads), i64(1), i64(1)})},
      {str("grid"), builder.getArrayAttr(grid)},
      {str("dynamic_shared_memory"), i64(sharedBytes)},
      {str("params"), builder.getArrayAttr(params)}};
  if (!contract.empty())
    description.push_back({str("requires"), builder.getArrayAttr(contract)});
  return dict(description);
}

LogicalResult KernelLowering::lowerOp(Operation *op) {
  return TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](AllocSharedOp alloc) { return lowerAllocShared(alloc); })
      .Case([&](AllocFragmentOp alloc) { return lowerAllocFragment(alloc); })
      .Case([&](CopyOp copy) { return lowerCopy(copy); })
      .Case([&](FillOp fill) {
        return lowerFill(fill, fill.getDest(), fill.getValue());
      })
      .Case([&](ClearOp clear) {
        Type elementType =
            cast<BufferType>(clear.getDest().getType()).getElementType();
        Value zero = arith::ConstantOp::create(
            builder, clear.getLoc(), builder.getZeroAttr(elementType));
        return lowerFill(clear, clear.getDest(), zero);
      })
      .Case([&](ParallelOp parallel) { return lowerParallel(parallel); })
      .Case([&](GemmOp gemm) {
        return lowerGemm(gemm, gemm.getA(), gemm.getB(), gemm.getC(),
                         gemm.getTransposeA(), gemm.getTransposeB(),
                         gemm.getClearAccum(), gemm.getPrefetched(),
                         gemm.getNextA(), gemm.getNextB(),
                         gemm.getWaitPending(), /*prefetchOnly=*/false);
      })
      .Case([&](GemmPrefetchOp prefetch) {
        return lowerGemm(prefetch, prefetch.getA(), prefetch.getB(),
                         prefetch.getC(), prefetch.getTransposeA(),
                         prefetch.getTransposeB(), /*clearAccum=*/false,
                         /*prefetched=*/false, Value(), Value(), std::nullopt,
                         /*prefetchOnly=*/true);
      })
      .Case([&](StageOp stage) { return lowerStage(stage); })
      .Case([&](ReduceOp reduce) { return lowerReduce(reduce); })
      .Case([&](ThreadReduceOp reduce) { return lowerThreadReduce(reduce); })
      .Case([&](AsyncCommitOp commit) { return lowerAsyncCommit(commit); })
      .Case([&](AsyncWaitOp wait) { return lowerAsyncWait(wait); })
      .Case([&](BarrierOp barrier) {
        gpu::BarrierOp::create(builder, barrier.getLoc());
        return success();
      })
      .Case([&](DimOp dim) { return lowerDim(dim); })
      .Case([&](SubviewOp subview) { return lowerSubview(subview); })
      .Case([&](PrintOp print) { return lowerPrint(print); })
      .Default([&](Operation *other) {
        return other->emitOpError("cannot be lowered outside tile.parallel");
      });
}

//===----------------------------------------------------------------------===//
// Allocation
//===----------------------------------------------------------------------===//

LogicalResult KernelLowering::readSharedMemoryPlan() {
  if (auto total =
          kernel->getAttrOfType<IntegerAttr>(kSharedMemoryBytesAttrName)) {
    // Bounded before any arithmetic on it (the scratch goes on top).
    if (total.getInt() < 0 || total.getInt() > kMaxSharedMemoryBytes)
      return kernel.emitOpError("expected ")
             << kSharedMemoryBytesAttrName << " from 0 to "
             << kMaxSharedMemoryBytes << ", but got " << total.getInt();
    sharedBytes = total.getInt();
  }
  WalkResult walk = func.walk([&](AllocSharedOp alloc) {
    if (!alloc.getOffsetAttr()) {
      alloc.emitOpError("expected an offset in shared memory; run "
                        "-tile-plan-shared-memory first");
      return WalkResult::interrupt();
    }
    // A tile nobody uses takes no bytes, wherever it was placed (stage
    // views are uses).
    if (alloc->use_empty())
      return WalkResult::advance();
    // The total covers every tile, whoever placed them.
    BufferType type = alloc.getResult().getType();
    sharedBytes = std::max(sharedBytes,
                           alloc.getOffsetAttr().getInt() +
                               type.getNumElements() *
                                   getElementByteWidth(type.getElementType()));
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

LogicalResult KernelLowering::lowerAllocShared(AllocSharedOp op) {
  BufferType type = op.getResult().getType();
  Location loc = op.getLoc();
  int64_t offset = op.getOffsetAttr().getInt();
  Value base = getDynamicSharedMemory();
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(prologueEnd);
  auto memrefType = MemRefType::get(
      type.getShape(), type.getElementType(), MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(builder.getContext(),
                                 gpu::AddressSpace::Workgroup));
  Value view = memref::ViewOp::create(builder, loc, memrefType, base,
                                      constant(loc, offset), ValueRange{});
  BufferStorage tile{type, view, {}};
  for (int64_t dim : type.getShape())
    tile.sizes.push_back(constant(loc, dim));
  storage[op.getResult()] = tile;
  return success();
}

LogicalResult KernelLowering::lowerAllocFragment(AllocFragmentOp op) {
  BufferType type = op.getResult().getType();
  Location loc = op.getLoc();
  if (!isa_and_nonnull<RowMajorLayoutAttr, MmaLayoutAttr, SliceLayoutAttr>(
          type.getLayout()))
    return op.emitOpError("expected a fragment with a layout; run "
                          "-tile-assign-layouts first");
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(prologueEnd);
  FailureOr<int64_t> slots = registersPerThread(op, op.getResult());
  if (failed(slots))
    return failure();
  int64_t perThread = *slots;
  Value registers = memref::AllocaOp::create(
      builder, loc, MemRefType::get({perThread}, type.getElementType()));
  BufferStorage fragment{type, registers, {}};
  for (int64_t dim : type.getShape())
    fragment.sizes.push_back(constant(loc, dim));
  storage[op.getResult()] = fragment;
  return success();
}

//===----------------------------------------------------------------------===//
// Thread mapping helpers
//===----------------------------------------------------------------------===//

SmallVector<Value> KernelLowering::delinearize(Location loc, Value linear,
                                               ArrayRef<int64_t> shape) {
  SmallVector<Value> coords(shape.size());
  for (int64_t d = shape.size() - 1; d >= 0; --d) {
    if (d == 0) {
      coords[d] = linear;
      break;
    }
    Value size = constant(loc, shape[d]);
    coords[d] = arith::RemUIOp::create(builder, loc, linear, size);
    linear = arith::DivUIOp::create(builder, loc, linear, size);
  }
  return coords;
}

/// Consecutive elements per chunk of a distributed fragment layout; none
/// for a #tile.slice (row values are replicated, not cut in chunks) or no
/// layout.
static std::optional<int64_t> chunkWidth(Attribute layout) {
  auto fragment = dyn_cast_or_null<FragmentLayoutAttrInterface>(layout);
  if (!fragment || isa<SliceLayoutAttr>(layout))
    return std::nullopt;
  return fragment.getVectorWidth();
}

FailureOr<int64_t> KernelLowering::fragmentVector(Operation *user,
                                                  Attribute layout) {
  if (std::optional<int64_t> vec = chunkWidth(layout))
    return *vec;
  return user->emitOpError("expected fragment operands with a layout; run "
                           "-tile-assign-layouts first");
}

void KernelLowering::forEachChunk(Location loc, const Distribution &dist,
                                  function_ref<void(int64_t, Value)> body) {
  for (int64_t round = 0; round < dist.chunksPerThread; ++round) {
    Value chunk = arith::AddIOp::create(
        builder, loc, constant(loc, round * numThreads), threadId);
    bool partial = dist.needsGuard && round == dist.chunksPerThread - 1;
    if (!partial) {
      body(round, chunk);
      continue;
    }
    Value inRange =
        arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult, chunk,
                              constant(loc, dist.numChunks));
    auto guard = scf::IfOp::create(builder, loc, inRange);
    OpBuilder::InsertionGuard insertion(builder);
    builder.setInsertionPointToStart(&guard.getThenRegion().front());
    body(round, chunk);
  }
}

KernelLowering::GlobalAccess
KernelLowering::globalAccessChecks(Location loc, const BufferStorage &global,
                                   ValueRange offsets, ArrayRef<Value> g,
                                   int64_t vec) {
  auto band = [&](Value a, Value b) -> Value {
    return a ? Value(arith::AndIOp::create(builder, loc, a, b)) : b;
  };
  Value rowsInBounds;
  int64_t last = g.size() - 1;
  for (int64_t d = 0; d < last; ++d)
    rowsInBounds =
        band(rowsInBounds,
             arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult,
                                   g[d], global.sizes[d]));
  if (!rowsInBounds)
    rowsInBounds =
        arith::ConstantOp::create(builder, loc, builder.getBoolAttr(true));
  // The chunk's first element g = offset + a coordinate of 0 or more. When
  // the offset is known to be non-negative (block and loop indices, their
  // sums and products), so is g, and one value per chunk decides both the
  // vector and each masked lane (size - g >= vec; lane < size - g): few
  // values stay live between a copy in and the copy out of the same
  // fragment, and LLVM derives the lanes' tests from the vector's. Any
  // other offset may put g below 0: indices are then compared unsigned, one
  // compare excluding both ends (a negative index is a huge unsigned one),
  // the vector when g < max(size - vec + 1, 0) (the limit once per copy), a
  // lane when g + lane < size.
  Value remaining, fast;
  if (offsets.empty() || knownNonNegative(offsets.back())) {
    remaining =
        arith::SubIOp::create(builder, loc, global.sizes[last], g[last]);
    fast = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sge,
                                 remaining, constant(loc, vec));
  } else {
    Value limit = global.sizes[last];
    if (vec > 1)
      limit = arith::MaxSIOp::create(
          builder, loc,
          arith::SubIOp::create(builder, loc, limit, constant(loc, vec - 1)),
          constant(loc, 0));
    fast = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult,
                                 g[last], limit);
  }
  fast = band(rowsInBounds, fast);
  bool wholeChunks = false;
  if (vec > 1) {
    // The chunk is 16-byte aligned when its first element and every row
    // start are multiples of vec (the tensor itself is 16-byte aligned);
    // chunk coordinates are multiples of vec, so the first element is when
    // the copy's column offset is: one test per copy, not per chunk. A row
    // length promised to be a multiple (`divisible`) needs no test.
    Value vecConst = constant(loc, vec);
    Value zero = constant(loc, 0);
    auto isMultiple = [&](Value v) {
      return arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::eq,
          arith::RemUIOp::create(builder, loc, v, vecConst), zero);
    };
    if (!offsets.empty())
      fast = band(fast, isMultiple(offsets.back()));
    bool rowsMultiple = global.divisor(last) % vec == 0;
    if (last > 0 && !rowsMultiple)
      fast = band(fast, isMultiple(global.sizes[last]));
    wholeChunks = rowsMultiple &&
                  (offsets.empty() || knownMultiple(offsets.back()) % vec == 0);
  }
  return {rowsInBounds, remaining, fast, wholeChunks};
}

Value KernelLowering::laneInBounds(Location loc, const GlobalAccess &checks,
                                   const BufferStorage &global, Value index,
                                   int64_t lane) {
  Value inRow =
      checks.remaining
          ? arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt,
                                  constant(loc, lane), checks.remaining)
          : arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult,
                                  index, global.sizes.back());
  return arith::AndIOp::create(builder, loc, checks.rowsInBounds, inRow);
}

Value KernelLowering::readChunk(Location loc, const BufferStorage &src,
                                ValueRange offsets, ArrayRef<Value> coords,
                                int64_t slot, int64_t vec) {
  Type elementType = src.type.getElementType();
  auto vectorType = VectorType::get({vec}, elementType);
  int64_t bytes = vec * getElementByteWidth(elementType);

  if (src.type.isFragment()) {
    SmallVector<Value> elements;
    for (int64_t lane = 0; lane < vec; ++lane)
      elements.push_back(memref::LoadOp::create(builder, loc, src.memref,
                                                constant(loc, slot + lane)));
    return vector::FromElementsOp::create(builder, loc, vectorType, elements);
  }
  if (src.type.isShared())
    return vector::LoadOp::create(builder, loc, vectorType, src.memref,
                                  physical(loc, src, coords),
                                  /*nontemporal=*/false, accessAlign(bytes));

  // Global: one aligned vector load inside the tensor, masked scalars at the
  // edges (out-of-bounds elements read as zero).
  SmallVector<Value> g(coords);
  for (auto [d, offset] : llvm::enumerate(offsets))
    g[d] = arith::AddIOp::create(builder, loc, offset, coords[d]);
  GlobalAccess checks = globalAccessChecks(loc, src, offsets, g, vec);
  auto branch =
      scf::IfOp::create(builder, loc, TypeRange{vectorType}, checks.fast,
                        /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(&branch.getThenRegion().front());
  Value loaded =
      vector::LoadOp::create(builder, loc, vectorType, src.memref, g,
                             /*nontemporal=*/false, accessAlign(bytes));
  scf::YieldOp::create(builder, loc, loaded);

  builder.setInsertionPointToStart(&branch.getElseRegion().front());
  if (checks.wholeChunks) {
    // Past the end of the tensor: zeros.
    scf::YieldOp::create(builder, loc,
                         ValueRange{arith::ConstantOp::create(
                             builder, loc, builder.getZeroAttr(vectorType))});
    return branch.getResult(0);
  }
  Value zero =
      arith::ConstantOp::create(builder, loc, builder.getZeroAttr(elementType));
  SmallVector<Value> elements;
  int64_t last = g.size() - 1;
  for (int64_t lane = 0; lane < vec; ++lane) {
    SmallVector<Value> index(g);
    index[last] =
        arith::AddIOp::create(builder, loc, g[last], constant(loc, lane));
    Value valid = laneInBounds(loc, checks, src, index[last], lane);
    auto masked = scf::IfOp::create(builder, loc, TypeRange{elementType}, valid,
                                    /*withElseRegion=*/true);
    OpBuilder::InsertionGuard inner(builder);
    builder.setInsertionPointToStart(&masked.getThenRegion().front());
    scf::YieldOp::create(
        builder, loc,
        ValueRange{memref::LoadOp::create(builder, loc, src.memref, index)});
    builder.setInsertionPointToStart(&masked.getElseRegion().front());
    scf::YieldOp::create(builder, loc, zero);
    elements.push_back(masked.getResult(0));
  }
  scf::YieldOp::create(builder, loc,
                       ValueRange{vector::FromElementsOp::create(
                           builder, loc, vectorType, elements)});
  return branch.getResult(0);
}

void KernelLowering::writeChunk(Location loc, const BufferStorage &dst,
                                ValueRange offsets, ArrayRef<Value> coords,
                                int64_t slot, int64_t vec, Value vector) {
  Type elementType = dst.type.getElementType();
  int64_t bytes = vec * getElementByteWidth(elementType);

  if (dst.type.isFragment()) {
    for (int64_t lane = 0; lane < vec; ++lane)
      memref::StoreOp::create(
          builder, loc, vector::ExtractOp::create(builder, loc, vector, lane),
          dst.memref, constant(loc, slot + lane));
    return;
  }
  if (dst.type.isShared()) {
    vector::StoreOp::create(builder, loc, vector, dst.memref,
                            physical(loc, dst, coords),
                            /*nontemporal=*/false, accessAlign(bytes));
    return;
  }

  // Global: elements outside the tensor are not written.
  SmallVector<Value> g(coords);
  for (auto [d, offset] : llvm::enumerate(offsets))
    g[d] = arith::AddIOp::create(builder, loc, offset, coords[d]);
  GlobalAccess checks = globalAccessChecks(loc, dst, offsets, g, vec);
  auto branch = scf::IfOp::create(builder, loc, checks.fast,
                                  /*withElseRegion=*/!checks.wholeChunks);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(&branch.getThenRegion().front());
  vector::StoreOp::create(builder, loc, vector, dst.memref, g,
                          /*nontemporal=*/false, accessAlign(bytes));
  // A whole chunk past the end of the tensor is not written.
  if (checks.wholeChunks)
    return;
  builder.setInsertionPointToStart(&branch.getElseRegion().front());
  int64_t last = g.size() - 1;
  for (int64_t lane = 0; lane < vec; ++lane) {
    SmallVector<Value> index(g);
    index[last] =
        arith::AddIOp::create(builder, loc, g[last], constant(loc, lane));
    Value valid = laneInBounds(loc, checks, dst, index[last], lane);
    auto masked = scf::IfOp::create(builder, loc, valid);
    OpBuilder::InsertionGuard inner(builder);
    builder.setInsertionPointToStart(&masked.getThenRegion().front());
    memref::StoreOp::create(
        builder, loc, vector::ExtractOp::create(builder, loc, vector, lane),
        dst.memref, index);
  }
}

/// The #tile.swizzle geometry of a shared tile (that of the plain pattern
/// when it has none).
static SwizzleGeometry swizzleGeometry(BufferType type) {
  auto swizzle = dyn_cast_or_null<SwizzleLayoutAttr>(type.getLayout());
  return SwizzleLayoutAttr::getGeometry(type.getShape(), type.getElementType(),
                                        swizzle && swizzle.getStaging());
}

Value KernelLowering::swizzledColumn(Location loc, BufferType type, Value row,
                                     Value col, int64_t chunkLow) {
  SwizzleGeometry g = swizzleGeometry(type);
  Value perChunkValue = constant(loc, g.perChunk);
  Value chunk = arith::DivUIOp::create(builder, loc, col, perChunkValue);
  if (chunkLow != 0)
    chunk = arith::AddIOp::create(builder, loc, chunk, constant(loc, chunkLow));
  Value within = arith::RemUIOp::create(builder, loc, col, perChunkValue);
  Value pattern;
  if (g.staging) {
    // ((2 * row) mod 8) | ((chunk / 8) mod 2), within the row's `columns`.
    Value rowPart = arith::AndIOp::create(
        builder, loc,
        arith::MulIOp::create(builder, loc, row, constant(loc, 2)),
        constant(loc, (g.columns - 1) & ~int64_t(1)));
    Value chunkPart = arith::AndIOp::create(
        builder, loc,
        arith::DivUIOp::create(builder, loc, chunk, constant(loc, g.columns)),
        constant(loc, 1));
    pattern = arith::OrIOp::create(builder, loc, rowPart, chunkPart);
  } else {
    pattern = arith::RemUIOp::create(
        builder, loc,
        arith::DivUIOp::create(builder, loc, row, constant(loc, g.patternRows)),
        constant(loc, g.columns));
  }
  Value swizzled = arith::XOrIOp::create(builder, loc, chunk, pattern);
  return arith::AddIOp::create(
      builder, loc,
      arith::MulIOp::create(builder, loc, swizzled, perChunkValue), within);
}

SmallVector<Value> KernelLowering::physical(Location loc,
                                            const BufferStorage &tile,
                                            ArrayRef<Value> coords) {
  SmallVector<Value> result(coords);
  if (!isa_and_nonnull<SwizzleLayoutAttr>(tile.type.getLayout()))
    return result;
  result.back() = swizzledColumn(loc, tile.type, coords[coords.size() - 2],
                                 coords.back(), /*chunkLow=*/0);
  return result;
}

SmallVector<Value> KernelLowering::physicalAt(Location loc,
                                              const BufferStorage &tile,
                                              Value row, int64_t rowOffset,
                                              Value col, int64_t colOffset) {
  auto addConstant = [&](Value v, int64_t offset) -> Value {
    if (offset == 0)
      return v;
    return arith::AddIOp::create(builder, loc, v, constant(loc, offset));
  };
  SwizzleGeometry g = swizzleGeometry(tile.type);
  if (!isa_and_nonnull<SwizzleLayoutAttr>(tile.type.getLayout()) ||
      colOffset % g.perChunk != 0 || tile.type.getShape().size() != 2)
    return physical(loc, tile,
                    {addConstant(row, rowOffset), addConstant(col, colOffset)});
  // Rows: a multiple of patternRows * columns leaves the pattern unchanged.
  int64_t period = g.patternRows * g.columns;
  int64_t rowInPeriod = rowOffset % period, rowHigh = rowOffset - rowInPeriod;
  Value patternRow = addConstant(row, rowInPeriod);
  // Columns: ((c + low + high) xor p) = ((c + low) xor p) + high when high is
  // a multiple of the pattern's chunk period (p < columns touches the low
  // bits only; the staging pattern also reads chunk / columns mod 2).
  int64_t chunkOffset = colOffset / g.perChunk;
  int64_t chunkLow = chunkOffset % g.chunkPeriod(),
          chunkHigh = chunkOffset - chunkLow;
  Value physicalCol = swizzledColumn(loc, tile.type, patternRow, col, chunkLow);
  return {addConstant(patternRow, rowHigh),
          addConstant(physicalCol, chunkHigh * g.perChunk)};
}

Value KernelLowering::convertVector(Location loc, Value vector,
                                    Type elementType) {
  auto type = cast<VectorType>(vector.getType());
  if (type.getElementType() == elementType)
    return vector;
  auto target = type.clone(elementType);
  unsigned sourceWidth = type.getElementType().getIntOrFloatBitWidth();
  unsigned targetWidth = elementType.getIntOrFloatBitWidth();
  // f16 <-> bf16: neither extf nor truncf casts between types of the same
  // width, so go through f32.
  if (sourceWidth == targetWidth) {
    Value wide = arith::ExtFOp::create(
        builder, loc, type.clone(builder.getF32Type()), vector);
    return arith::TruncFOp::create(builder, loc, target, wide);
  }
  if (targetWidth > sourceWidth)
    return arith::ExtFOp::create(builder, loc, target, vector);
  return arith::TruncFOp::create(builder, loc, target, vector);
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

LogicalResult KernelLowering::lowerRowValueStore(CopyOp op,
                                                 SliceLayoutAttr slice) {
  // Row values (a reduction's result, e.g. a log-sum-exp) to a rank-1
  // global buffer: each row is held by several threads; the first of them
  // stores it, rows past the buffer's end are not written.
  Location loc = op.getLoc();
  const BufferStorage &src = storage[op.getSource()];
  const BufferStorage &dst = storage[op.getDest()];
  if (!dst.type.isGlobal() || dst.type.getRank() != 1)
    return op.emitOpError("can copy row values (#tile.slice) only to a "
                          "rank-1 global buffer, but got ")
           << dst.type;
  FailureOr<RowMap> rows = getRowMap(
      op, slice.getParentShape(src.type.getShape()), slice.getParent());
  if (failed(rows))
    return failure();
  Value first = rows->isFirstHolder();
  Value offset = op.getDestOffsets().empty() ? constant(loc, 0)
                                             : op.getDestOffsets().front();
  Type elementType = dst.type.getElementType();
  for (int64_t k = 0; k < rows->slots; ++k) {
    Value index = arith::AddIOp::create(builder, loc, offset, rows->rowOf(k));
    Value inside = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::ult, index, dst.sizes.front());
    auto guard = scf::IfOp::create(
        builder, loc, arith::AndIOp::create(builder, loc, first, inside));
    OpBuilder::InsertionGuard insertion(builder);
    builder.setInsertionPointToStart(&guard.getThenRegion().front());
    Value value =
        memref::LoadOp::create(builder, loc, src.memref, constant(loc, k));
    Value converted = vector::ExtractOp::create(
        builder, loc,
        convertVector(loc,
                      vector::BroadcastOp::create(
                          builder, loc,
                          VectorType::get({1}, src.type.getElementType()),
                          value),
                      elementType),
        0);
    memref::StoreOp::create(builder, loc, converted, dst.memref, index);
  }
  return success();
}

LogicalResult KernelLowering::lowerCopy(CopyOp op) {
  const BufferStorage &src = storage[op.getSource()];
  const BufferStorage &dst = storage[op.getDest()];
  if (!src.memref || !dst.memref)
    return op.emitOpError("operand has no storage");
  ArrayRef<int64_t> shape = op.getTileShape();
  if (auto slice = dyn_cast_or_null<SliceLayoutAttr>(src.type.getLayout()))
    return lowerRowValueStore(op, slice);

  // Follow the fragment's layout; otherwise the widest 16-byte chunks.
  int64_t vec = 0;
  Attribute layout;
  for (const BufferStorage *side : {&src, &dst}) {
    if (!side->type.isFragment())
      continue;
    FailureOr<int64_t> fragmentVec = fragmentVector(op, side->type.getLayout());
    if (failed(fragmentVec))
      return failure();
    if (layout && layout != side->type.getLayout())
      return op.emitOpError("expected source and dest fragments with the same "
                            "layout, but got ")
             << src.type.getLayout() << " and " << dst.type.getLayout();
    vec = *fragmentVec;
    layout = side->type.getLayout();
  }
  if (!vec)
    vec = std::min(getWidestVector(shape.back(), src.type.getElementType()),
                   getWidestVector(shape.back(), dst.type.getElementType()));

  if (op.getAsync())
    return lowerAsyncCopy(op);
  copyChunks(op, shape, layout, vec);
  return success();
}

void KernelLowering::copyChunks(CopyOp op, ArrayRef<int64_t> shape,
                                Attribute layout, int64_t vec) {
  forEachThreadChunk(op.getLoc(), shape, layout, vec,
                     [&](int64_t slot, ArrayRef<Value> coords) {
                       copyChunk(op, slot, coords, vec);
                     });
}

void KernelLowering::copyChunk(CopyOp op, int64_t slot, ArrayRef<Value> coords,
                               int64_t vec) {
  Location loc = op.getLoc();
  const BufferStorage &src = storage[op.getSource()];
  const BufferStorage &dst = storage[op.getDest()];
  Value vector = readChunk(loc, src, op.getSourceOffsets(), coords, slot, vec);
  vector = convertVector(loc, vector, dst.type.getElementType());
  writeChunk(loc, dst, op.getDestOffsets(), coords, slot, vec, vector);
}

LogicalResult KernelLowering::lowerAsyncCopy(CopyOp op) {
  Location loc = op.getLoc();
  const BufferStorage &src = storage[op.getSource()];
  const BufferStorage &dst = storage[op.getDest()];
  ArrayRef<int64_t> shape = op.getTileShape();
  Type elementType = dst.type.getElementType();
  int64_t vec = getWidestVector(shape.back(), elementType);
  int64_t bytes = vec * getElementByteWidth(elementType);
  // cp.async moves 4, 8 or 16 bytes.
  if (bytes < 4) {
    copyChunks(op, shape, Attribute(), vec);
    return success();
  }
  int64_t rank = shape.size();
  SmallVector<Value> offsets(op.getSourceOffsets());
  if (offsets.empty())
    offsets.assign(rank, constant(loc, 0));
  Value zero = constant(loc, 0), vecValue = constant(loc, vec);
  auto isMultiple = [&](Value v) {
    return arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::eq,
        arith::RemUIOp::create(builder, loc, v, vecValue), zero);
  };
  // Every chunk starts at a multiple of vec within the tile, so the chunks
  // are aligned exactly when the column offset and the row length are (a
  // row length promised to be a multiple needs no test; the offset test
  // folds away in LLVM when the offset is a multiple of the tile width).
  Value aligned = isMultiple(offsets.back());
  if (rank > 1 && src.divisor(rank - 1) % vec != 0)
    aligned = arith::AndIOp::create(builder, loc, aligned,
                                    isMultiple(src.sizes.back()));
  // The chunk tests below (coordinate < size - offset) hold for offsets of
  // 0 or more; a tile at a negative offset (rows or columns before the
  // tensor) takes the synchronous copy, masked element by element. One
  // test per offset and copy, none where the offset is known to be
  // non-negative (block and loop indices, their sums and products).
  for (Value offset : offsets)
    if (!knownNonNegative(offset))
      aligned = arith::AndIOp::create(
          builder, loc, aligned,
          arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sge, offset,
                                zero));
  auto tokenType = nvgpu::DeviceAsyncTokenType::get(builder.getContext());
  UnitAttr bypassL1 = bytes == 16 ? builder.getUnitAttr() : UnitAttr();
  auto branch = scf::IfOp::create(builder, loc, aligned, /*withElse=*/true);
  {
    // Aligned: every chunk lies wholly inside or wholly outside the tensor
    // (chunks start at multiples of vec, and so do the row lengths), so a
    // chunk is one cp.async whose source size is vec or 0 (zero-fill). The
    // chunks address a view of the tile: their offsets are loop-invariant,
    // and there is no branch, so the copies schedule among the MMAs.
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(&branch.getThenRegion().front());
    SmallVector<OpFoldResult> viewOffsets(offsets.begin(), offsets.end());
    SmallVector<OpFoldResult> sizes, strides;
    SmallVector<Value> remaining;
    for (int64_t d = 0; d < rank; ++d) {
      sizes.push_back(builder.getIndexAttr(shape[d]));
      strides.push_back(builder.getIndexAttr(1));
      remaining.push_back(
          arith::SubIOp::create(builder, loc, src.sizes[d], offsets[d]));
    }
    Value tileView = memref::SubViewOp::create(builder, loc, src.memref,
                                               viewOffsets, sizes, strides);
    forEachThreadChunk(
        loc, shape, Attribute(), vec, [&](int64_t, ArrayRef<Value> coords) {
          // Signed: a tile past the end has a negative remainder.
          Value inside;
          for (int64_t d = 0; d < rank; ++d) {
            Value in =
                arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt,
                                      coords[d], remaining[d]);
            inside =
                inside ? Value(arith::AndIOp::create(builder, loc, inside, in))
                       : in;
          }
          Value valid =
              arith::SelectOp::create(builder, loc, inside, vecValue, zero);
          nvgpu::DeviceAsyncCopyOp::create(
              builder, loc, tokenType, dst.memref, physical(loc, dst, coords),
              tileView, coords, builder.getIndexAttr(vec), valid, bypassL1);
        });
  }
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(&branch.getElseRegion().front());
  copyChunks(op, shape, Attribute(), vec);
  return success();
}

/// An nvgpu.device_async_create_group without tokens (the hardware counts
/// groups; the copies' tokens live in branches that do not dominate the
/// commit), numbered: the attribute is also what ends the op's empty
/// operand list when printed, which otherwise swallows the next line's
/// result when the IR is parsed again (`tile-opt --tile-to-gpu | tile-opt`).
static Value createAsyncGroup(OpBuilder &builder, Location loc,
                              int64_t number) {
  auto group = nvgpu::DeviceAsyncCreateGroupOp::create(
      builder, loc, nvgpu::DeviceAsyncTokenType::get(builder.getContext()),
      ValueRange{});
  group->setAttr("tile.group", builder.getI64IntegerAttr(number));
  return group;
}

LogicalResult KernelLowering::lowerAsyncCommit(AsyncCommitOp op) {
  asyncGroups.push_back(
      createAsyncGroup(builder, op.getLoc(), asyncGroups.size()));
  return success();
}

void KernelLowering::waitForAsyncGroups(Operation *op, int64_t pending) {
  Location loc = op->getLoc();
  DominanceInfo dominance(func);
  Value group;
  for (Value candidate : llvm::reverse(asyncGroups))
    if (dominance.properlyDominates(candidate, op)) {
      group = candidate;
      break;
    }
  // No commit before: an empty group completes at once, so it changes no
  // count that matters.
  if (!group)
    group = createAsyncGroup(builder, loc, -1);
  nvgpu::DeviceAsyncWaitOp::create(builder, loc, group,
                                   builder.getI32IntegerAttr(pending));
  gpu::BarrierOp::create(builder, loc);
}

LogicalResult KernelLowering::lowerAsyncWait(AsyncWaitOp op) {
  waitForAsyncGroups(op, op.getPending());
  return success();
}

LogicalResult KernelLowering::lowerStage(StageOp op) {
  Location loc = op.getLoc();
  auto it = storage.find(op.getSource());
  if (it == storage.end())
    return op.emitOpError("buffer has no storage");
  const BufferStorage &staged = it->second;
  auto sourceType = cast<MemRefType>(staged.memref.getType());
  int64_t rank = sourceType.getRank();
  SmallVector<OpFoldResult> offsets(rank, builder.getIndexAttr(0));
  offsets[0] = op.getIndex();
  SmallVector<OpFoldResult> sizes = {builder.getIndexAttr(1)};
  for (int64_t d = 1; d < rank; ++d)
    sizes.push_back(builder.getIndexAttr(sourceType.getDimSize(d)));
  SmallVector<OpFoldResult> strides(rank, builder.getIndexAttr(1));
  auto resultType = memref::SubViewOp::inferRankReducedResultType(
      sourceType.getShape().drop_front(), sourceType, offsets, sizes, strides);
  Value view =
      memref::SubViewOp::create(builder, loc, cast<MemRefType>(resultType),
                                staged.memref, offsets, sizes, strides);
  BufferType type = op.getResult().getType();
  BufferStorage tile{type, view, {}};
  for (int64_t dim : type.getShape())
    tile.sizes.push_back(constant(loc, dim));
  storage[op.getResult()] = tile;
  return success();
}

LogicalResult KernelLowering::lowerFill(Operation *op, Value dest,
                                        Value value) {
  Location loc = op->getLoc();
  const BufferStorage &dst = storage[dest];
  if (!dst.memref)
    return op->emitOpError("operand has no storage");
  if (dst.type.isFragment()) {
    FailureOr<int64_t> perThread = registersPerThread(op, dest);
    if (failed(perThread))
      return failure();
    for (int64_t slot = 0; slot < *perThread; ++slot)
      memref::StoreOp::create(builder, loc, value, dst.memref,
                              constant(loc, slot));
    return success();
  }
  ArrayRef<int64_t> shape = dst.type.getShape();
  int64_t vec = getWidestVector(shape.back(), dst.type.getElementType());
  Value splat = vector::BroadcastOp::create(
      builder, loc, VectorType::get({vec}, dst.type.getElementType()), value);
  forEachThreadChunk(loc, shape, Attribute(), vec,
                     [&](int64_t slot, ArrayRef<Value> coords) {
                       writeChunk(loc, dst, {}, coords, slot, vec, splat);
                     });
  return success();
}

//===----------------------------------------------------------------------===//
// Element-wise loops
//===----------------------------------------------------------------------===//

LogicalResult KernelLowering::lowerElementAccess(Operation *op, Value slotValue,
                                                 int64_t slot,
                                                 const RowMap *rows) {
  Location loc = op->getLoc();
  auto access = [&](Value buffer, ValueRange indices,
                    SmallVectorImpl<Value> &address) -> const BufferStorage * {
    auto it = storage.find(buffer);
    if (it == storage.end())
      return nullptr;
    if (it->second.type.isFragment()) {
      bool rowValue =
          isa_and_nonnull<SliceLayoutAttr>(it->second.type.getLayout());
      address.assign(
          {rowValue && rows ? constant(loc, rows->slotOf(slot)) : slotValue});
    } else {
      SmallVector<Value> coords(indices.begin(), indices.end());
      address = physical(loc, it->second, coords);
    }
    return &it->second;
  };
  SmallVector<Value> address;
  builder.setInsertionPoint(op);
  if (auto load = dyn_cast<LoadOp>(op)) {
    const BufferStorage *buffer =
        access(load.getBuffer(), load.getIndices(), address);
    if (!buffer)
      return load.emitOpError("buffer has no storage (or is a row value "
                              "read outside a loop over its parent's shape)");
    load.getResult().replaceAllUsesWith(
        memref::LoadOp::create(builder, loc, buffer->memref, address));
  } else {
    auto store = cast<StoreOp>(op);
    const BufferStorage *buffer =
        access(store.getBuffer(), store.getIndices(), address);
    if (!buffer)
      return store.emitOpError("buffer has no storage");
    memref::StoreOp::create(builder, loc, store.getValue(), buffer->memref,
                            address);
  }
  op->erase();
  return success();
}

LogicalResult KernelLowering::lowerDim(DimOp op) {
  auto it = storage.find(op.getSource());
  if (it == storage.end())
    return op.emitOpError("buffer has no storage");
  op.getResult().replaceAllUsesWith(it->second.sizes[op.getDim()]);
  return success();
}

LogicalResult KernelLowering::lowerSubview(SubviewOp op) {
  auto it = storage.find(op.getSource());
  if (it == storage.end())
    return op.emitOpError("buffer has no storage");
  const BufferStorage &source = it->second;
  Location loc = op.getLoc();
  auto sourceType = cast<MemRefType>(source.memref.getType());
  int64_t rank = sourceType.getRank(), fixed = op.getIndices().size();
  SmallVector<OpFoldResult> offsets, sizes,
      strides(rank, builder.getIndexAttr(1));
  for (int64_t d = 0; d < rank; ++d) {
    offsets.push_back(d < fixed ? OpFoldResult(op.getIndices()[d])
                                : OpFoldResult(builder.getIndexAttr(0)));
    // Static sizes as attributes, so that the view's type keeps them.
    sizes.push_back(
        d < fixed ? OpFoldResult(builder.getIndexAttr(1))
        : sourceType.isDynamicDim(d)
            ? OpFoldResult(source.sizes[d])
            : OpFoldResult(builder.getIndexAttr(sourceType.getDimSize(d))));
  }
  auto resultType = memref::SubViewOp::inferRankReducedResultType(
      cast<BufferType>(op.getType()).getShape(), sourceType, offsets, sizes,
      strides);
  Value view =
      memref::SubViewOp::create(builder, loc, cast<MemRefType>(resultType),
                                source.memref, offsets, sizes, strides);
  BufferStorage result{cast<BufferType>(op.getType()), view, {}};
  result.sizes.assign(source.sizes.begin() + fixed, source.sizes.end());
  for (int64_t d = fixed; d < rank; ++d)
    result.divisors.push_back(source.divisor(d));
  storage[op.getResult()] = result;
  return success();
}

/// A printf argument for `value` and its conversion: floats as f32 ("%g"),
/// index and 64-bit integers as i64 ("%lld"), narrower integers as i32.
static std::pair<Value, StringRef> printfArgument(OpBuilder &builder,
                                                  Location loc, Value value) {
  Type type = value.getType();
  if (auto floatType = dyn_cast<FloatType>(type)) {
    if (floatType.getWidth() < 32)
      value = arith::ExtFOp::create(builder, loc, builder.getF32Type(), value);
    return {value, "%g"};
  }
  if (type.isIndex())
    return {
        arith::IndexCastOp::create(builder, loc, builder.getI64Type(), value),
        "%lld"};
  if (type.getIntOrFloatBitWidth() == 64)
    return {value, "%lld"};
  if (type.getIntOrFloatBitWidth() < 32)
    value = arith::ExtSIOp::create(builder, loc, builder.getI32Type(), value);
  return {value, "%d"};
}

LogicalResult KernelLowering::lowerPrint(PrintOp op) {
  Location loc = op.getLoc();
  Value value = op.getValue();
  auto buffer = dyn_cast<BufferType>(value.getType());
  // Earlier writes to a shared tile become visible (every thread takes this
  // barrier; the printing thread is chosen below).
  if (buffer && buffer.isShared())
    gpu::BarrierOp::create(builder, loc);

  auto equals = [&](Value v, int64_t c) {
    return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, v,
                                 constant(loc, c));
  };
  SmallVector<int64_t> block(3, 0);
  if (std::optional<ArrayRef<int64_t>> chosen = op.getBlock())
    block.assign(chosen->begin(), chosen->end());
  static const gpu::Dimension dims[] = {gpu::Dimension::x, gpu::Dimension::y,
                                        gpu::Dimension::z};
  Value chosen = op.getThread()
                     ? equals(threadId, *op.getThread())
                     : equals(arith::DivUIOp::create(builder, loc, threadId,
                                                     constant(loc, 32)),
                              *op.getWarp());
  for (int d = 0; d < 3; ++d)
    chosen = arith::AndIOp::create(
        builder, loc, chosen,
        equals(gpu::BlockIdOp::create(builder, loc, dims[d]), block[d]));
  auto guard = scf::IfOp::create(builder, loc, chosen);
  OpBuilder::InsertionGuard insertion(builder);
  builder.setInsertionPoint(guard.thenBlock()->getTerminator());
  // printf "label[i][j] = value<suffix>" for `element` at `indices`, with
  // `extra` values after it.
  auto printElement = [&](ValueRange indices, Value element, StringRef suffix,
                          ValueRange extra) {
    // The label is text, not format: its '%' print as themselves.
    std::string format;
    for (char c : op.getLabel()) {
      format += c;
      if (c == '%')
        format += '%';
    }
    SmallVector<Value> args;
    for (Value index : indices) {
      format += "[%lld]";
      args.push_back(printfArgument(builder, loc, index).first);
    }
    auto [arg, valueFormat] = printfArgument(builder, loc, element);
    args.push_back(arg);
    for (Value value : extra)
      args.push_back(printfArgument(builder, loc, value).first);
    format += (" = " + valueFormat + suffix + "\n").str();
    gpu::PrintfOp::create(builder, loc, builder.getStringAttr(format), args);
  };

  if (!buffer) {
    printElement({}, value, "", {});
    return success();
  }

  ArrayRef<int64_t> shape = buffer.getShape();
  if (buffer.isShared()) {
    // One thread walks the whole tile (runtime loops: any size).
    const BufferStorage &tile = storage[value];
    if (!tile.memref)
      return op.emitOpError("shared tile has no storage");
    SmallVector<Value> ivs;
    for (int64_t extent : shape) {
      auto loop = scf::ForOp::create(builder, loc, constant(loc, 0),
                                     constant(loc, extent), constant(loc, 1));
      builder.setInsertionPoint(loop.getBody()->getTerminator());
      ivs.push_back(loop.getInductionVar());
    }
    Value element = memref::LoadOp::create(
        builder, loc, tile.memref,
        shape.size() == 2 ? physical(loc, tile, ivs) : SmallVector<Value>(ivs));
    printElement(ivs, element, "", {});
    return success();
  }

  // A fragment: the chosen threads print the elements they hold, through a
  // tile.parallel over the tile (which follows the fragment's layout).
  auto loop = ParallelOp::create(builder, loc, shape);
  {
    OpBuilder::InsertionGuard inBody(builder);
    builder.setInsertionPoint(loop.getBodyBlock().getTerminator());
    ValueRange ivs = loop.getInductionVars();
    Value element =
        LoadOp::create(builder, loc, buffer.getElementType(), value, ivs);
    printElement(ivs, element, " (thread %lld)",
                 {gpu::ThreadIdOp::create(builder, loc, gpu::Dimension::x)});
  }
  builder.setInsertionPoint(loop);
  LogicalResult lowered = lowerParallel(loop);
  loop.erase();
  return lowered;
}

LogicalResult KernelLowering::lowerParallel(ParallelOp op) {
  Location loc = op.getLoc();
  ArrayRef<int64_t> shape = op.getExtents();

  // The loop follows the layout of the fragments it touches; they must agree.
  Operation *layoutSource = nullptr;
  SmallVector<Operation *> rowValues;
  Attribute layout;
  WalkResult walk = op.getBody().walk([&](Operation *inner) {
    Value buffer;
    if (auto load = dyn_cast<LoadOp>(inner))
      buffer = load.getBuffer();
    else if (auto store = dyn_cast<StoreOp>(inner))
      buffer = store.getBuffer();
    auto type = buffer ? dyn_cast<BufferType>(buffer.getType()) : BufferType();
    if (!type || !type.isFragment())
      return WalkResult::advance();
    // Row values read at every column follow the loop's layout by
    // construction (their #tile.slice parent).
    if (isa_and_nonnull<SliceLayoutAttr>(type.getLayout()) &&
        type.getRank() + 1 == static_cast<int64_t>(shape.size())) {
      rowValues.push_back(inner);
      return WalkResult::advance();
    }
    if (!layoutSource) {
      layoutSource = inner;
      layout = type.getLayout();
      return WalkResult::advance();
    }
    if (type.getLayout() != layout) {
      InFlightDiagnostic diag =
          op.emitOpError("accesses fragments with different layouts: ")
          << layout << " and " << type.getLayout();
      diag.attachNote(layoutSource->getLoc()) << "first layout used here";
      diag.attachNote(inner->getLoc()) << "second layout used here";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();

  // A loop over row values alone (#tile.slice fragments, e.g. a running
  // maximum): each thread computes the rows it holds.
  std::optional<RowMap> ownRows;
  if (auto slice = dyn_cast_or_null<SliceLayoutAttr>(layout)) {
    auto type = cast<BufferType>(
        layoutSource->getOperand(isa<StoreOp>(layoutSource) ? 1 : 0).getType());
    FailureOr<RowMap> map = getRowMap(
        layoutSource, slice.getParentShape(type.getShape()), slice.getParent());
    if (failed(map))
      return failure();
    ownRows = *map;
  }

  int64_t vec = 1;
  if (layoutSource && !ownRows) {
    if (!layout)
      return layoutSource->emitOpError("expected a fragment with a layout; "
                                       "run -tile-assign-layouts first");
    FailureOr<int64_t> fragmentVec = fragmentVector(layoutSource, layout);
    if (failed(fragmentVec))
      return failure();
    vec = *fragmentVec;
  }

  std::optional<RowMap> rows;
  if (!rowValues.empty()) {
    for (Operation *access : rowValues) {
      auto slice = cast<SliceLayoutAttr>(
          cast<BufferType>(access->getOperand(0).getType()).getLayout());
      if (slice.getParent() != layout)
        return access->emitOpError("reads row values whose #tile.slice "
                                   "parent ")
               << slice.getParent() << " is not the loop's layout " << layout;
    }
    FailureOr<RowMap> map = getRowMap(rowValues.front(), shape, layout);
    if (failed(map))
      return failure();
    rows = *map;
  }

  Block &body = op.getBodyBlock();
  LogicalResult result = success();
  // The copy after the loop that -tile-fuse-stores marked for it: the loop
  // stores each chunk as soon as it is computed (an epilogue's values die
  // chunk by chunk instead of all staying live until the copy).
  CopyOp store = rows ? CopyOp() : getFusedStore(op);
  // A rolled loop fused with the copy of the shared tile it rewrites: each
  // lane's own element of that tile comes from `ownElements` (read per
  // chunk) and its new value goes to `ownResults` instead of the tile.
  Value ownTile;
  SmallVector<Value> ownElements, ownResults;
  // One iteration of the body at `coords`, on register `slot` (and lane
  // `lane` of the chunk, for a fused rolled loop).
  auto emitIteration = [&](int64_t slot, ArrayRef<Value> coords,
                           int64_t lane = 0) {
    Value slotValue = constant(loc, slot);
    IRMapping mapping;
    mapping.map(body.getArguments(), coords);
    SmallVector<Operation *> accesses;
    for (Operation &inner : body.without_terminator()) {
      Operation *clone = builder.clone(inner, mapping);
      clone->walk([&](Operation *nested) {
        if (isa<LoadOp, StoreOp, DimOp>(nested))
          accesses.push_back(nested);
      });
    }
    OpBuilder::InsertionGuard guard(builder);
    for (Operation *access : accesses) {
      // A tile.dim in the body is cloned with it; its sizes are defined in
      // the prologue, so it is replaced here like one outside the loop.
      if (auto dim = dyn_cast<DimOp>(access)) {
        if (failed(lowerDim(dim)))
          result = failure();
        else
          dim->erase();
        continue;
      }
      if (ownTile &&
          access->getOperand(isa<StoreOp>(access) ? 1 : 0) == ownTile) {
        if (auto load = dyn_cast<LoadOp>(access))
          load.replaceAllUsesWith(ownElements[lane]);
        else
          ownResults[lane] = cast<StoreOp>(access).getValue();
        access->erase();
        continue;
      }
      if (failed(lowerElementAccess(access, slotValue, slot,
                                    rows ? &*rows : nullptr)))
        result = failure();
    }
  };
  if (ownRows) {
    for (int64_t k = 0; k < ownRows->slots && succeeded(result); ++k)
      emitIteration(k, {ownRows->rowOf(k)});
    return result;
  }
  if (op.getRolled()) {
    // One chunk per iteration of an scf.for over the thread's chunks (chunk
    // c of thread t is t + c * threads, row-major): single elements, or the
    // fused copy's chunks.
    // A rolled loop fused with the copy of the shared tile it rewrites in
    // place (-tile-fuse-stores) runs over the copy's chunks, reads each
    // chunk of the tile as one vector and stores its results straight to
    // global memory, never back to the tile.
    CopyOp fused = getFusedStore(op);
    int64_t chunkVec = 1;
    if (fused) {
      ownTile = fused.getSource();
      chunkVec =
          getWidestVector(shape.back(), fused.getDestType().getElementType());
      ownResults.resize(chunkVec);
    }
    Distribution dist = distribute(shape, chunkVec, numThreads);
    // A fused loop computes several chunks per iteration (up to 32 values
    // of a thread, all before their stores): independent work for the
    // long latency of each value (an erf is ~20 dependent instructions),
    // where a kernel with one block per SM has no other block to overlap.
    int64_t unroll = 1;
    if (fused && !dist.needsGuard)
      while (unroll * 2 * chunkVec <= 32 &&
             dist.chunksPerThread % (unroll * 2) == 0)
        unroll *= 2;
    auto loop = scf::ForOp::create(builder, loc, constant(loc, 0),
                                   constant(loc, dist.chunksPerThread / unroll),
                                   constant(loc, 1));
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(loop.getBody()->getTerminator());
    SmallVector<std::pair<SmallVector<Value>, Value>> computed;
    for (int64_t u = 0; u < unroll && succeeded(result); ++u) {
      Value chunk = arith::AddIOp::create(
          builder, loc,
          arith::MulIOp::create(
              builder, loc,
              arith::AddIOp::create(
                  builder, loc,
                  arith::MulIOp::create(builder, loc, loop.getInductionVar(),
                                        constant(loc, unroll)),
                  constant(loc, u)),
              constant(loc, numThreads)),
          threadId);
      if (dist.needsGuard) {
        auto inRange = scf::IfOp::create(
            builder, loc,
            arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult,
                                  chunk, constant(loc, dist.numChunks)));
        builder.setInsertionPointToStart(&inRange.getThenRegion().front());
      }
      SmallVector<Value> first = delinearize(
          loc,
          arith::MulIOp::create(builder, loc, chunk, constant(loc, chunkVec)),
          shape);
      if (fused) {
        // In 16-byte pieces: a #tile.swizzle moves each piece on its own.
        const BufferStorage &tile = storage[ownTile];
        int64_t piece =
            std::min(chunkVec,
                     getWidestVector(shape.back(), tile.type.getElementType()));
        ownElements.clear();
        for (int64_t start = 0; start < chunkVec; start += piece) {
          SmallVector<Value> coords(first);
          if (start)
            coords.back() = arith::AddIOp::create(builder, loc, coords.back(),
                                                  constant(loc, start));
          Value loaded = readChunk(loc, tile, {}, coords, 0, piece);
          for (int64_t lane = 0; lane < piece; ++lane)
            ownElements.push_back(
                vector::ExtractOp::create(builder, loc, loaded, lane));
        }
      }
      for (int64_t lane = 0; lane < chunkVec && succeeded(result); ++lane) {
        SmallVector<Value> coords(first);
        if (lane)
          coords.back() = arith::AddIOp::create(builder, loc, coords.back(),
                                                constant(loc, lane));
        emitIteration(0, coords, lane);
      }
      if (fused)
        computed.emplace_back(
            first, vector::FromElementsOp::create(
                       builder, loc,
                       VectorType::get({chunkVec},
                                       storage[ownTile].type.getElementType()),
                       ownResults));
    }
    if (!fused || failed(result))
      return result;
    // After the computations of the iteration; with a partial last round
    // (unroll 1) still inside its guard.
    const BufferStorage &dst = storage[fused.getDest()];
    for (auto &[first, results] : computed)
      writeChunk(loc, dst, fused.getDestOffsets(), first, 0, chunkVec,
                 convertVector(loc, results, dst.type.getElementType()));
    storesFusedIntoParallel.insert(fused);
    return result;
  }
  forEachThreadChunk(
      loc, shape, layout, vec, [&](int64_t firstSlot, ArrayRef<Value> first) {
        for (int64_t lane = 0; lane < vec && succeeded(result); ++lane) {
          SmallVector<Value> coords(first);
          if (lane)
            coords.back() = arith::AddIOp::create(builder, loc, coords.back(),
                                                  constant(loc, lane));
          emitIteration(firstSlot + lane, coords);
        }
        // The copy's chunk with these slots and coordinates (the same
        // layout and width as the copy's own lowering).
        if (store)
          copyChunk(store, firstSlot, first, vec);
      });
  if (store)
    storesFusedIntoParallel.insert(store);
  return result;
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

FailureOr<RowMap> KernelLowering::getRowMap(Operation *op,
                                            ArrayRef<int64_t> shape,
                                            Attribute layout) {
  // The layout says where the rows are (TileLayouts.cpp); the lambdas build
  // the calling thread's part of that in IR.
  FailureOr<RowDistribution> dist = getRowDistribution(
      layout, shape, numThreads, [op] { return op->emitOpError(); });
  if (failed(dist))
    return failure();
  RowMap map;
  map.slots = dist->slots;
  map.lanesPerRow = dist->lanesPerRow;
  map.warpsPerRow = dist->warpsPerRow;
  map.rowsPerWarp = dist->rowsPerWarp;
  map.slotOf = [dist = *dist](int64_t s) { return dist.getRowSlot(s); };
  if (auto mma = dyn_cast_or_null<MmaLayoutAttr>(layout)) {
    // A lane holds rows l/4 and l/4 + 8 of each 16-row MMA tile; the four
    // lanes of a quad share them, as do the warps of one warp row.
    int64_t warpRows = mma.getWarpTile(shape).first;
    int64_t warpsN = mma.getWarpsN();
    map.rowOf = [this, warpRows, warpsN, dist = *dist](int64_t k) -> Value {
      Location loc = builder.getUnknownLoc();
      auto [warp, lane] = getWarpAndLane(loc);
      Value base = arith::AddIOp::create(
          builder, loc,
          arith::MulIOp::create(
              builder, loc,
              arith::DivUIOp::create(builder, loc, warp, constant(loc, warpsN)),
              constant(loc, warpRows)),
          arith::DivUIOp::create(builder, loc, lane, constant(loc, 4)));
      return arith::AddIOp::create(builder, loc, base,
                                   constant(loc, dist.getRowOffset(k)));
    };
    map.isFirstHolder = [this, warpsN]() -> Value {
      Location loc = builder.getUnknownLoc();
      auto [warp, lane] = getWarpAndLane(loc);
      auto isZero = [&](Value v, int64_t modulus) -> Value {
        return arith::CmpIOp::create(
            builder, loc, arith::CmpIPredicate::eq,
            arith::RemUIOp::create(builder, loc, v, constant(loc, modulus)),
            constant(loc, 0));
      };
      return arith::AndIOp::create(builder, loc, isZero(lane, 4),
                                   isZero(warp, warpsN));
    };
    return map;
  }
  if (dist->kind == RowDistribution::Kind::RowsPerRound) {
    // A round of chunks covers whole rows: chunksPerRow consecutive threads
    // share each row, one chunk each.
    int64_t chunksPerRow = dist->perRow;
    map.rowOf = [this, dist = *dist, chunksPerRow](int64_t k) -> Value {
      Location loc = builder.getUnknownLoc();
      return arith::AddIOp::create(
          builder, loc, constant(loc, dist.getRowOffset(k)),
          arith::DivUIOp::create(builder, loc, threadId,
                                 constant(loc, chunksPerRow)));
    };
    map.isFirstHolder = [this, chunksPerRow]() -> Value {
      Location loc = builder.getUnknownLoc();
      return arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::eq,
          arith::RemUIOp::create(builder, loc, threadId,
                                 constant(loc, chunksPerRow)),
          constant(loc, 0));
    };
    return map;
  }
  // A row spans whole rounds: every thread holds part of every row.
  map.rowOf = [this, dist = *dist](int64_t k) -> Value {
    return constant(builder.getUnknownLoc(), dist.getRowOffset(k));
  };
  map.isFirstHolder = [this]() -> Value {
    Location loc = builder.getUnknownLoc();
    return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                 threadId, constant(loc, 0));
  };
  return map;
}

FailureOr<int64_t> KernelLowering::registersPerThread(Operation *op,
                                                      Value buffer) {
  auto type = cast<BufferType>(buffer.getType());
  auto layout = dyn_cast_or_null<FragmentLayoutAttrInterface>(type.getLayout());
  if (!layout)
    return op->emitOpError("expected a fragment with a layout; run "
                           "-tile-assign-layouts first");
  // A #tile.slice the reduction cannot lay out has no registers: say why.
  if (auto slice = dyn_cast<SliceLayoutAttr>(layout))
    if (failed(getRowDistribution(
            slice.getParent(), slice.getParentShape(type.getShape()),
            numThreads, [op] { return op->emitOpError(); })))
      return failure();
  return layout.getRegistersPerThread(type.getShape(), numThreads);
}

Value KernelLowering::allocateScratch(Location loc, int64_t elements) {
  int64_t offset = alignTo(sharedBytes, kSharedAlignment);
  sharedBytes = offset + elements * 4;
  Value base = getDynamicSharedMemory();
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(prologueEnd);
  auto type = MemRefType::get(
      {elements}, builder.getF32Type(), MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(builder.getContext(),
                                 gpu::AddressSpace::Workgroup));
  return memref::ViewOp::create(builder, loc, type, base, constant(loc, offset),
                                ValueRange{});
}

/// a (+ | max | min) b for tile.reduce and tile.thread_reduce.
static Value combineReduction(OpBuilder &builder, Location loc, ReduceKind kind,
                              Value a, Value b) {
  switch (kind) {
  case ReduceKind::sum:
    return arith::AddFOp::create(builder, loc, a, b);
  case ReduceKind::max:
    return arith::MaximumFOp::create(builder, loc, a, b);
  case ReduceKind::min:
    return arith::MinimumFOp::create(builder, loc, a, b);
  }
  llvm_unreachable("unknown reduction");
}

LogicalResult KernelLowering::lowerThreadReduce(ThreadReduceOp op) {
  Location loc = op.getLoc();
  const BufferStorage &src = storage[op.getSrc()];
  if (!src.memref)
    return op.emitOpError("operand has no storage");
  // The fragment's registers are the thread's elements: combine them all.
  int64_t slots = cast<MemRefType>(src.memref.getType()).getNumElements();
  Value result;
  for (int64_t s = 0; s < slots; ++s) {
    Value value =
        memref::LoadOp::create(builder, loc, src.memref, constant(loc, s));
    result = result
                 ? combineReduction(builder, loc, op.getKind(), result, value)
                 : value;
  }
  op.getResult().replaceAllUsesWith(result);
  return success();
}

LogicalResult KernelLowering::lowerReduce(ReduceOp op) {
  Location loc = op.getLoc();
  const BufferStorage &src = storage[op.getSrc()];
  const BufferStorage &dst = storage[op.getDst()];
  if (!src.memref || !dst.memref)
    return op.emitOpError("operand has no storage");
  FailureOr<RowMap> map =
      getRowMap(op, src.type.getShape(), src.type.getLayout());
  if (failed(map))
    return failure();
  auto combine = [&](Value a, Value b) {
    return combineReduction(builder, loc, op.getKind(), a, b);
  };

  // In-thread: each register into its row slot.
  int64_t perThread =
      cast<FragmentLayoutAttrInterface>(src.type.getLayout())
          .getRegistersPerThread(src.type.getShape(), numThreads);
  SmallVector<Value> partial(map->slots);
  for (int64_t s = 0; s < perThread; ++s) {
    Value value =
        memref::LoadOp::create(builder, loc, src.memref, constant(loc, s));
    Value &slot = partial[map->slotOf(s)];
    slot = slot ? combine(slot, value) : value;
  }
  // Across the lanes of a row (butterfly: every lane gets the result).
  Value width = arith::ConstantIntOp::create(builder, loc, 32, 32);
  for (int64_t offset = 1; offset < map->lanesPerRow; offset *= 2)
    for (Value &value : partial) {
      Value mask = arith::ConstantIntOp::create(builder, loc, offset, 32);
      Value other = gpu::ShuffleOp::create(builder, loc, value, mask, width,
                                           gpu::ShuffleMode::XOR)
                        .getShuffleResult();
      value = combine(value, other);
    }
  // Across the warps of a row, through shared memory: each warp leaves its
  // value at [slot][row in warp][warp]; every thread combines its row's.
  if (map->warpsPerRow > 1) {
    int64_t numWarps = numThreads / 32;
    Value scratch =
        allocateScratch(loc, map->slots * map->rowsPerWarp * numWarps);
    auto [warp, lane] = getWarpAndLane(loc);
    Value rowInWarp = arith::DivUIOp::create(
        builder, loc, lane, constant(loc, 32 / map->rowsPerWarp));
    Value firstWarp = arith::MulIOp::create(
        builder, loc,
        arith::DivUIOp::create(builder, loc, warp,
                               constant(loc, map->warpsPerRow)),
        constant(loc, map->warpsPerRow));
    auto index = [&](int64_t slot, Value w) -> Value {
      Value row = arith::AddIOp::create(
          builder, loc, constant(loc, slot * map->rowsPerWarp), rowInWarp);
      return arith::AddIOp::create(
          builder, loc,
          arith::MulIOp::create(builder, loc, row, constant(loc, numWarps)), w);
    };
    // The first barrier: a previous use of the scratch (this reduction in
    // a loop) is done.
    gpu::BarrierOp::create(builder, loc);
    for (auto [slot, value] : llvm::enumerate(partial))
      memref::StoreOp::create(builder, loc, value, scratch, index(slot, warp));
    gpu::BarrierOp::create(builder, loc);
    for (auto [slot, value] : llvm::enumerate(partial)) {
      Value total;
      for (int64_t j = 0; j < map->warpsPerRow; ++j) {
        Value w =
            arith::AddIOp::create(builder, loc, firstWarp, constant(loc, j));
        Value v = memref::LoadOp::create(builder, loc, scratch, index(slot, w));
        total = total ? combine(total, v) : v;
      }
      value = total;
    }
  }
  for (auto [slot, value] : llvm::enumerate(partial)) {
    Value index = constant(loc, slot);
    if (op.getAccumulate())
      value = combine(memref::LoadOp::create(builder, loc, dst.memref, index),
                      value);
    memref::StoreOp::create(builder, loc, value, dst.memref, index);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Thread chunks of a layout
//===----------------------------------------------------------------------===//

std::pair<Value, Value> KernelLowering::getWarpAndLane(Location loc) {
  if (!warpId) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointAfterValue(threadId);
    Value warpSize = constant(loc, 32);
    warpId = arith::DivUIOp::create(builder, loc, threadId, warpSize);
    laneId = arith::RemUIOp::create(builder, loc, threadId, warpSize);
  }
  return {warpId, laneId};
}

void KernelLowering::forEachThreadChunk(
    Location loc, ArrayRef<int64_t> shape, Attribute layout, int64_t vec,
    function_ref<void(int64_t, ArrayRef<Value>)> body) {
  auto mma = dyn_cast_or_null<MmaLayoutAttr>(layout);
  if (!mma) {
    forEachChunk(loc, distribute(shape, vec, numThreads),
                 [&](int64_t round, Value chunk) {
                   Value first = arith::MulIOp::create(builder, loc, chunk,
                                                       constant(loc, vec));
                   body(round * vec, delinearize(loc, first, shape));
                 });
    return;
  }
  // #tile.mma: warp (w / wn, w mod wn) owns a (M/wm) x (N/wn) sub-tile of
  // 16x8 MMA tiles; in each, the lane holds rows l/4 and l/4 + 8 at columns
  // 2 (l mod 4) and 2 (l mod 4) + 1.
  auto [warp, lane] = getWarpAndLane(loc);
  auto [warpRows, warpCols] = mma.getWarpTile(shape);
  auto [tilesM, tilesN] = mma.getMmaTiles(shape);
  Value warpsN = constant(loc, mma.getWarpsN());
  Value rowBase = arith::AddIOp::create(
      builder, loc,
      arith::MulIOp::create(builder, loc,
                            arith::DivUIOp::create(builder, loc, warp, warpsN),
                            constant(loc, warpRows)),
      arith::DivUIOp::create(builder, loc, lane, constant(loc, 4)));
  Value colBase = arith::AddIOp::create(
      builder, loc,
      arith::MulIOp::create(builder, loc,
                            arith::RemUIOp::create(builder, loc, warp, warpsN),
                            constant(loc, warpCols)),
      arith::MulIOp::create(
          builder, loc,
          arith::RemUIOp::create(builder, loc, lane, constant(loc, 4)),
          constant(loc, 2)));
  for (int64_t mt = 0; mt < tilesM; ++mt)
    for (int64_t nt = 0; nt < tilesN; ++nt)
      for (int64_t half = 0; half < 2; ++half) {
        Value row = arith::AddIOp::create(builder, loc, rowBase,
                                          constant(loc, mt * 16 + half * 8));
        Value col =
            arith::AddIOp::create(builder, loc, colBase, constant(loc, nt * 8));
        body(mma.getSlot(shape, mt, nt, half), {row, col});
      }
}

//===----------------------------------------------------------------------===//
// Tensor cores
//===----------------------------------------------------------------------===//

SmallVector<Value> KernelLowering::multiplyAccumulate(Location loc, Value a,
                                                      Value b,
                                                      ArrayRef<Value> c) {
  auto aType = cast<VectorType>(a.getType());
  Type f32 = builder.getF32Type();
  SmallVector<Value> result;
  if (aType.getElementType().isF16()) {
    Value acc = vector::FromElementsOp::create(builder, loc,
                                               VectorType::get({2, 2}, f32), c);
    Value d = nvgpu::MmaSyncOp::create(builder, loc, a, b, acc,
                                       ArrayRef<int64_t>{16, 8, 16});
    for (int64_t i = 0; i < 4; ++i)
      result.push_back(vector::ExtractOp::create(
          builder, loc, d, ArrayRef<int64_t>{i / 2, i % 2}));
    return result;
  }
  // bf16: nvgpu.mma.sync cannot lower it, so use nvvm.mma.sync on the
  // operands' packed 32-bit registers.
  auto packed = [&](Value fragment) {
    SmallVector<Value> registers;
    int64_t rows = cast<VectorType>(fragment.getType()).getDimSize(0);
    for (int64_t r = 0; r < rows; ++r) {
      Value pair = vector::ExtractOp::create(builder, loc, fragment,
                                             ArrayRef<int64_t>{r});
      Value word = vector::BitCastOp::create(
          builder, loc, VectorType::get({1}, builder.getI32Type()), pair);
      registers.push_back(
          vector::ExtractOp::create(builder, loc, word, ArrayRef<int64_t>{0}));
    }
    return registers;
  };
  auto structType = LLVM::LLVMStructType::getLiteral(builder.getContext(),
                                                     SmallVector<Type>(4, f32));
  Value d = NVVM::MmaOp::create(
      builder, loc, structType, packed(a), packed(b), c,
      ArrayRef<int64_t>{16, 8, 16}, std::nullopt, std::nullopt,
      std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16, NVVM::MMATypes::bf16},
      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                     NVVM::MMALayout::col});
  for (int64_t i = 0; i < 4; ++i)
    result.push_back(LLVM::ExtractValueOp::create(builder, loc, d, i));
  return result;
}

std::pair<Value, Value> KernelLowering::getPrefetchRegisters(Value acc,
                                                             VectorType aType,
                                                             int64_t aCount,
                                                             VectorType bType,
                                                             int64_t bCount) {
  auto [it, inserted] = prefetchRegisters.try_emplace(acc);
  if (inserted) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(prologueEnd);
    Location loc = acc.getLoc();
    it->second = {memref::AllocaOp::create(builder, loc,
                                           MemRefType::get({aCount}, aType)),
                  memref::AllocaOp::create(builder, loc,
                                           MemRefType::get({bCount}, bType))};
  }
  return it->second;
}

LogicalResult KernelLowering::lowerGemm(
    Operation *op, Value aTile, Value bTile, Value cTile, bool transposeA,
    bool transposeB, bool clearAccum, bool prefetched, Value nextA, Value nextB,
    std::optional<int64_t> waitPending, bool prefetchOnly) {
  Location loc = op->getLoc();
  const BufferStorage &a = storage[aTile];
  const BufferStorage &b = storage[bTile];
  const BufferStorage &c = storage[cTile];
  if (!a.memref || !b.memref || !c.memref ||
      (nextA && (!storage[nextA].memref || !storage[nextB].memref)))
    return op->emitOpError("operand has no storage");
  auto mma = dyn_cast_or_null<MmaLayoutAttr>(c.type.getLayout());
  if (!mma)
    return op->emitOpError("expected the accumulator to have a #tile.mma "
                           "layout; run -tile-assign-layouts first");
  if (a.type.isFragment() && a.type.getLayout() != c.type.getLayout())
    return op->emitOpError("expected the A fragment to have the "
                           "accumulator's layout ")
           << c.type.getLayout() << "; run -tile-assign-layouts first";
  int64_t k = a.type.getDimSize(transposeA ? 0 : 1);
  ArrayRef<int64_t> cShape = c.type.getShape();
  // Plain variables: the lambdas below capture them.
  int64_t warpRows, warpCols, tilesM, tilesN;
  std::tie(warpRows, warpCols) = mma.getWarpTile(cShape);
  std::tie(tilesM, tilesN) = mma.getMmaTiles(cShape);
  Type input = a.type.getElementType(), f32 = builder.getF32Type();
  auto aType = VectorType::get({4, 2}, input);
  auto bType = VectorType::get({2, 2}, input);

  auto [warp, lane] = getWarpAndLane(loc);
  Value warpsN = constant(loc, mma.getWarpsN());
  Value warpRow = arith::MulIOp::create(
      builder, loc, arith::DivUIOp::create(builder, loc, warp, warpsN),
      constant(loc, warpRows));
  Value warpCol = arith::MulIOp::create(
      builder, loc, arith::RemUIOp::create(builder, loc, warp, warpsN),
      constant(loc, warpCols));
  // ldmatrix row addresses: lane l supplies row l of the 8x8 matrices.
  Value lane16 = arith::RemUIOp::create(builder, loc, lane, constant(loc, 16));
  Value laneHalf = arith::MulIOp::create(
      builder, loc,
      arith::DivUIOp::create(builder, loc, lane, constant(loc, 16)),
      constant(loc, 8));
  Value lane8 = arith::RemUIOp::create(builder, loc, lane, constant(loc, 8));
  Value laneQuarter = arith::MulIOp::create(
      builder, loc,
      arith::RemUIOp::create(
          builder, loc,
          arith::DivUIOp::create(builder, loc, lane, constant(loc, 8)),
          constant(loc, 2)),
      constant(loc, 8));
  // An A fragment in the accumulator layout: for M tile `mt` and K step
  // `kk`, the lane's values of the 16x8 tiles kk/8 and kk/8 + 1 (rows l/4
  // and l/4 + 8, columns 2 (l mod 4) + {0, 1}) are a0-a7 of the m16n8k16 A
  // operand.
  auto registerOperandA = [&](int64_t mt, int64_t kk) {
    Value operand =
        arith::ConstantOp::create(builder, loc, builder.getZeroAttr(aType));
    for (int64_t reg = 0; reg < 4; ++reg) {
      int64_t tile = kk / 8 + reg / 2, half = reg % 2;
      int64_t slot = mma.getSlot(a.type.getShape(), mt, tile, half);
      SmallVector<Value> pair;
      for (int64_t i = 0; i < 2; ++i)
        pair.push_back(memref::LoadOp::create(builder, loc, a.memref,
                                              constant(loc, slot + i)));
      operand = vector::InsertOp::create(
          builder, loc,
          vector::FromElementsOp::create(builder, loc,
                                         VectorType::get({2}, input), pair),
          operand, ArrayRef<int64_t>{reg});
    }
    return operand;
  };

  // The lane's part of the ldmatrix coordinates; loadOperands adds the M/N
  // tile and K step offsets (constants) through physicalAt.
  Value aRows = arith::AddIOp::create(builder, loc, warpRow, lane16);
  Value aCols = laneHalf;
  Value aRowsT = arith::AddIOp::create(builder, loc, lane8, laneHalf);
  Value aColsT = arith::AddIOp::create(builder, loc, warpRow, laneQuarter);
  Value bPairCols = arith::AddIOp::create(builder, loc, warpCol, laneHalf);
  Value bRowsT = arith::AddIOp::create(builder, loc, warpCol, lane8);
  Value bPairRowsT = arith::AddIOp::create(builder, loc, bPairCols, lane8);

  // The A and B operands of one 16-wide K step of tiles `aMem` x `bMem`.
  using Operands = std::pair<SmallVector<Value>, SmallVector<Value>>;
  auto loadOperands = [&](int64_t kk, Value aMem, Value bMem) -> Operands {
    // A: x4 ldmatrix per 16x16 tile. M x K: lanes 0-15 address rows m at
    // k, lanes 16-31 at k + 8. K x M (.trans): lane l addresses row
    // k + l mod 8 (+8 for lanes 16-31) at column m (+8 for lanes 8-15 and
    // 24-31), giving the four 8x8 matrices in the order mma expects.
    SmallVector<Value> aFrags;
    for (int64_t mt = 0; mt < tilesM; ++mt) {
      if (a.type.isFragment()) {
        aFrags.push_back(registerOperandA(mt, kk));
        continue;
      }
      SmallVector<Value> index =
          transposeA ? physicalAt(loc, a, aRowsT, kk, aColsT, mt * 16)
                     : physicalAt(loc, a, aRows, mt * 16, aCols, kk);
      aFrags.push_back(nvgpu::LdMatrixOp::create(builder, loc, aType, aMem,
                                                 index, transposeA,
                                                 /*numTiles=*/4));
    }
    // B: one x4 ldmatrix per pair of 16x8 tiles (x2 for an odd last one);
    // transposed when B is stored K x N. Lanes 16-31 address the second
    // tile of the pair.
    SmallVector<Value> bFrags;
    for (int64_t nt = 0; nt < tilesN; nt += 2) {
      bool pair = nt + 1 < tilesN;
      Value nLane = pair ? bPairCols : warpCol;
      SmallVector<Value> index =
          transposeB ? physicalAt(loc, b, pair ? bPairRowsT : bRowsT, nt * 8,
                                  laneQuarter, kk)
                     : physicalAt(loc, b, lane16, kk, nLane, nt * 8);
      Value loaded = nvgpu::LdMatrixOp::create(
          builder, loc, pair ? aType : bType, bMem, index, !transposeB,
          /*numTiles=*/pair ? 4 : 2);
      if (!pair) {
        bFrags.push_back(loaded);
        continue;
      }
      // Rows 0-1 are the first tile's operand, rows 2-3 the second's.
      Value zero =
          arith::ConstantOp::create(builder, loc, builder.getZeroAttr(bType));
      for (int64_t half = 0; half < 2; ++half) {
        Value fragment = zero;
        for (int64_t row = 0; row < 2; ++row)
          fragment = vector::InsertOp::create(
              builder, loc,
              vector::ExtractOp::create(builder, loc, loaded,
                                        ArrayRef<int64_t>{half * 2 + row}),
              fragment, ArrayRef<int64_t>{row});
        bFrags.push_back(fragment);
      }
    }
    return {aFrags, bFrags};
  };

  // Prefetched operands live in registers between the gemms: a private
  // array per accumulator, which LLVM promotes like the accumulator.
  auto [aSaved, bSaved] =
      getPrefetchRegisters(c.memref, aType, tilesM, bType, tilesN);
  auto save = [&](const Operands &operands) {
    for (auto [i, frag] : llvm::enumerate(operands.first))
      memref::StoreOp::create(builder, loc, frag, aSaved, constant(loc, i));
    for (auto [i, frag] : llvm::enumerate(operands.second))
      memref::StoreOp::create(builder, loc, frag, bSaved, constant(loc, i));
  };
  if (prefetchOnly) {
    save(loadOperands(0, a.memref, b.memref));
    return success();
  }
  auto restore = [&]() {
    Operands operands;
    for (int64_t i = 0; i < tilesM; ++i)
      operands.first.push_back(
          memref::LoadOp::create(builder, loc, aSaved, constant(loc, i)));
    for (int64_t i = 0; i < tilesN; ++i)
      operands.second.push_back(
          memref::LoadOp::create(builder, loc, bSaved, constant(loc, i)));
    return operands;
  };

  // clear_accum: C = A x B, so the accumulator starts from zero.
  if (clearAccum) {
    Value zero =
        arith::ConstantOp::create(builder, loc, builder.getZeroAttr(f32));
    for (int64_t slot = 0; slot < tilesM * tilesN * 4; ++slot)
      memref::StoreOp::create(builder, loc, zero, c.memref,
                              constant(loc, slot));
  }
  // Registers double-buffer the operands: step kk + 16's ldmatrix are
  // issued before step kk's MMAs, so shared-memory latency overlaps them.
  // With a next stage, its first step is loaded before the last step's
  // MMAs, behind the barrier that makes the stage visible: the next
  // iteration then starts with MMAs instead of waiting for shared memory.
  // A shared operand that is not a pipeline stage has the same addresses in
  // every iteration of the loop around the gemm (attention's Q; the A/B
  // tiles of an unpipelined K loop). It is read through a view rebased in
  // the loop by a value LLVM cannot prove zero (iv >> 48): otherwise LICM
  // hoists each of its ldmatrix addresses out of the loop into its own
  // 64-bit register (16 at D=128), where the rebased view keeps one base per
  // swizzle pattern and folds the tile offsets into the instructions'
  // immediates.
  auto inLoopView = [&](Value tile, Value memref) -> Value {
    auto loop = op->getParentOfType<scf::ForOp>();
    auto view = memref.getDefiningOp<memref::ViewOp>();
    if (!loop || !view || storage[tile].type.isFragment() ||
        tile.getDefiningOp<StageOp>())
      return memref;
    Value opaqueZero = arith::ShRUIOp::create(
        builder, loc, loop.getInductionVar(), constant(loc, 48));
    return memref::ViewOp::create(
        builder, loc, view.getType(), view.getSource(),
        arith::AddIOp::create(builder, loc, view.getByteShift(), opaqueZero),
        ValueRange{});
  };
  Value aMemref = inLoopView(aTile, a.memref);
  Value bMemref = inLoopView(bTile, b.memref);
  Operands current = prefetched ? restore() : loadOperands(0, aMemref, bMemref);
  for (int64_t kk = 0; kk < k; kk += 16) {
    Operands next;
    if (kk + 16 < k) {
      next = loadOperands(kk + 16, aMemref, bMemref);
    } else if (nextA) {
      waitForAsyncGroups(op, *waitPending);
      save(loadOperands(0, storage[nextA].memref, storage[nextB].memref));
    }
    auto &[aFrags, bFrags] = current;
    for (int64_t mt = 0; mt < tilesM; ++mt)
      for (int64_t nt = 0; nt < tilesN; ++nt) {
        int64_t slot = mma.getSlot(cShape, mt, nt, /*half=*/0);
        SmallVector<Value> acc;
        for (int64_t i = 0; i < 4; ++i)
          acc.push_back(memref::LoadOp::create(builder, loc, c.memref,
                                               constant(loc, slot + i)));
        SmallVector<Value> sums =
            multiplyAccumulate(loc, aFrags[mt], bFrags[nt], acc);
        for (int64_t i = 0; i < 4; ++i)
          memref::StoreOp::create(builder, loc, sums[i], c.memref,
                                  constant(loc, slot + i));
      }
    current = std::move(next);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

struct ConvertTileToGPUPass
    : public tile::impl::ConvertTileToGPUBase<ConvertTileToGPUPass> {
  using ConvertTileToGPUBase::ConvertTileToGPUBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<KernelOp> kernels(module.getOps<KernelOp>());
    if (kernels.empty())
      return;
    OpBuilder builder(module.getContext());
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    builder.getUnitAttr());
    builder.setInsertionPointToEnd(module.getBody());
    auto gpuModule =
        gpu::GPUModuleOp::create(builder, module.getLoc(), "tile_kernels");
    SmallVector<Attribute> manifests;
    for (KernelOp kernel : kernels) {
      FailureOr<DictionaryAttr> manifest =
          KernelLowering(kernel, gpuModule).run();
      if (failed(manifest))
        return signalPassFailure();
      manifests.push_back(*manifest);
      kernel.erase();
    }
    gpuModule->setAttr("tile.kernels", builder.getArrayAttr(manifests));
    if (flushDenormals) {
      // libdevice reads this flag (NVVMReflect): exp2f becomes one
      // ex2.approx.ftz (MUFU.EX2) instead of the IEEE form's four
      // instructions, the inner step of every softmax.
      builder.setInsertionPointToStart(gpuModule.getBody());
      MLIRContext *ctx = module.getContext();
      LLVM::ModuleFlagsOp::create(
          builder, module.getLoc(),
          builder.getArrayAttr({LLVM::ModuleFlagAttr::get(
              ctx, LLVM::ModFlagBehavior::Override,
              builder.getStringAttr("nvvm-reflect-ftz"),
              builder.getI32IntegerAttr(1))}));
    }
  }
};

} // namespace
