//===- Tile.h - Tile dialect ------------------------------------*- C++ -*-===//
//
// The tile dialect: its types, attributes and operations.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_TILE_H
#define TILE_DIALECT_TILE_IR_TILE_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tile/Dialect/Tile/IR/TileOpsDialect.h.inc"

#include "tile/Dialect/Tile/IR/TileEnums.h.inc"

namespace mlir::tile {
/// A launch contract's predicate as `tile.kernel` and the manifest write
/// it: "==", "<=", ">=" or "divides".
StringRef getShapePredicateSymbol(ShapePredicate predicate);
} // namespace mlir::tile

#include "tile/Dialect/Tile/IR/TileLayouts.h"

#include "tile/Dialect/Tile/IR/TileLayoutInterfaces.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tile/Dialect/Tile/IR/TileAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tile/Dialect/Tile/IR/TileOpsTypes.h.inc"

#define GET_OP_CLASSES
#include "tile/Dialect/Tile/IR/TileOps.h.inc"

namespace mlir::tile {

//===----------------------------------------------------------------------===//
// Limits: what the compiler accepts, so that no input can make it allocate,
// unroll or emit without bound. Each is checked where it can first be
// known, with a message that gives it.
//===----------------------------------------------------------------------===//

/// Shared memory of one block: 227 KiB, the most any supported GPU offers
/// (sm_90, sm_100 with the opt-in). Checked for each shared tile (its type)
/// and for each kernel's total (convert-tile-to-gpu).
constexpr int64_t kMaxSharedMemoryBytes = 227 * 1024;
/// Alignment of each shared tile (and reduction scratch) in the kernel's
/// dynamic shared memory: its offset (tile.alloc_shared's `offset`).
constexpr int64_t kSharedAlignment = 128;
/// The alignment of a #tile.nvmma tile: the 1024-byte period of the
/// 128-byte swizzle, from which TMA and wgmma take the pattern.
constexpr int64_t kNvmmaAlignment = 1024;
/// The kernel's bytes of dynamic shared memory for its tiles, a discardable
/// I64 attribute of tile.kernel that -tile-plan-shared-memory writes.
constexpr const char *kSharedMemoryBytesAttrName = "tile.shared_memory_bytes";
/// 32-bit registers of one thread (PTX).
constexpr int64_t kMaxRegistersPerThread = 255;
/// Threads of one block.
constexpr int64_t kMaxThreadsPerBlock = 1024;
/// Blocks of one thread-block cluster (the portable size; sm_90).
constexpr int64_t kMaxClusterBlocks = 8;
/// The bytes of a fragment: the registers of the largest block. Per thread,
/// a fragment takes at most kMaxRegistersPerThread registers
/// (tile.alloc_fragment).
constexpr int64_t kMaxFragmentBytes =
    kMaxRegistersPerThread * 4 * kMaxThreadsPerBlock;
/// Iterations of a tile.parallel: the elements of the largest tile (an i8
/// fragment of kMaxFragmentBytes).
constexpr int64_t kMaxParallelIterations = kMaxFragmentBytes;
/// What the lowering unrolls for one thread: the iterations of a tile.parallel
/// that is not `rolled` (one copy of the body each), and the elements of a
/// tile.copy to or from global memory (one masked access each at the
/// tensor's edge). 1024 covers the largest fragment (255 registers of four
/// i8 elements) and is 8 times the library's largest (a 128x256 f32
/// epilogue over 256 threads); a loop over shared tiles beyond it may be
/// `rolled`.
constexpr int64_t kMaxUnrolledPerThread = 1024;
/// Stages of a pipelined loop (tile.num_stages), and so the count of a
/// tile.async_wait (at most that many groups are in flight).
constexpr int64_t kMaxPipelineStages = 16;

/// The most TMA store groups tile.tma_store_wait may leave reading (a bound
/// far above any double- or triple-buffered epilogue).
constexpr int64_t kMaxPendingTmaStores = 63;

/// The bytes of `shape` x `elementType` (static dimensions), or none when
/// they do not fit in int64.
std::optional<int64_t> getByteSize(ArrayRef<int64_t> shape, Type elementType);

/// Runs the verifiers of `type` and of its layout, reporting on `op`: a type
/// made with BufferType::get (C++ builders, the frontend) was never
/// verified. The ops that introduce tiles (allocations, tile.stage,
/// tile.subview) and kernels (their parameters) call it.
LogicalResult verifyBufferType(Operation *op, BufferType type);

/// Whether `layout` can spread a `shape` tile of `elementType` (over
/// `numThreads` threads when > 0): FragmentLayoutAttrInterface::verifyShape
/// without a diagnostic, for passes that choose among layouts.
bool fitsShape(FragmentLayoutAttrInterface layout, ArrayRef<int64_t> shape,
               Type elementType, int64_t numThreads);

/// Whether a shared tile of `shape` x `elementType` can take `layout`:
/// SharedLayoutAttrInterface::verifyShape without a diagnostic (an empty
/// InFlightDiagnostic would convert to success).
bool fitsShape(SharedLayoutAttrInterface layout, ArrayRef<int64_t> shape,
               Type elementType);

/// The parent registers of a window of a fragment: for the `window`-shaped
/// tile at `offsets` of a `shape` fragment in `layout` over `numThreads`
/// threads, the parent slot of each window slot, when every element of the
/// window is held by the thread that holds it in the window's own layout
/// and at a parent slot that depends on the window slot alone (a column
/// band of a #tile.wgmma accumulator, e.g.: copying it moves no data
/// between threads and indexes registers statically). Otherwise a reason,
/// e.g. "element (64, 0) of the window is held by thread 128 in the
/// fragment but by thread 0 in the window".
FailureOr<SmallVector<int64_t>>
getFragmentWindowSlots(FragmentLayoutAttrInterface layout,
                       ArrayRef<int64_t> shape, ArrayRef<int64_t> offsets,
                       ArrayRef<int64_t> window, int64_t numThreads,
                       std::string &whyNot);

/// Why `name` cannot be a PTX identifier as LLVM's NVPTX back end prints it
/// ([a-zA-Z][a-zA-Z0-9_$]* or [_$][a-zA-Z0-9_$]+; PTX's leading '%' LLVM
/// cannot print), e.g. "'my kernel' has ' ' at position 2"; std::nullopt
/// when it can be one. The back end aborts on other names and writes no
/// .entry for an empty one. Kernel names (tile.kernel) and the symbols of a
/// gpu.module given to tile-translate are checked with it.
std::optional<std::string> getPTXIdentifierProblem(StringRef name);

/// Whether `type` can be the element type of a tile buffer: f16, bf16, f32,
/// f64 or a signless integer of 8, 16, 32 or 64 bits.
bool isSupportedElementType(Type type);

/// Whether `type` can be a scalar kernel parameter (f32, f64, i32, i64).
bool isSupportedScalarParamType(Type type);

/// Size in bytes of one element of a supported element type.
unsigned getElementByteWidth(Type type);

/// Elements per access when a thread moves a row of `rowLength` elements in
/// the widest chunks (at most 16 bytes) that divide it: the vector width of
/// tile copies.
int64_t getWidestVector(int64_t rowLength, Type elementType);

/// A number that the size of dimension `dim` of global buffer `buffer` is
/// known to be a multiple of: the size itself when static, the enclosing
/// kernel's `divisible` promise for a parameter (through tile.subview
/// views), else 1.
int64_t getSizeDivisor(Value buffer, int64_t dim);

/// The tiles a tile.parallel body loads or stores at the loop's own shape,
/// i.e. element by element in the loop's distribution (a row value read at
/// every column, a broadcast, is not among them). Fragments among them
/// share one layout.
SmallVector<Value> getElementwiseOperands(ParallelOp loop);

/// The short dtype name used in manifests: "f16", "bf16", "f32", "i32", ...
std::string getDTypeName(Type type);

} // namespace mlir::tile

#endif // TILE_DIALECT_TILE_IR_TILE_H
