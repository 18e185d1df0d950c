//===- Manifest.h - Kernel manifests of compiled tile modules ---*- C++ -*-===//
//
// The kernel manifest is the JSON file written next to each binary by
// `tile-translate --emit=manifest`. For every kernel it gives the launch
// configuration (block size, grid as a function of the argument shapes,
// dynamic shared memory) and the exact list of kernel parameters:
//
//   buffer  one device pointer, seen by the user as a typed, shaped tensor;
//   dim     one int64 holding the size of one dimension of a buffer, filled in
//           by the runtime from the buffer's shape (hidden from the user);
//   scalar  one f32, f64, i32 or i64 value;
//   tensor_map  one 128-byte CUtensorMap describing a buffer for the Tensor
//           Memory Accelerator (TMA; sm_90a kernels), encoded by the runtime
//           at launch from the buffer's address and shape (hidden from the
//           user; the kernel takes it as a __grid_constant__ parameter).
//
// and the kernel's launch contract: the relations between the buffers'
// dimensions its code relies on ("requires", ShapeRelation) and what it does
// with each buffer ("access": read, write or readwrite), which checkAndPack
// (Launch.h) enforces before anything reaches the driver.
//
// This header only describes kernels and targets; nothing here needs a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_MANIFEST_H
#define TILE_RUNTIME_MANIFEST_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tile::rt {

//===----------------------------------------------------------------------===//
// Element types
//===----------------------------------------------------------------------===//

enum class DType { f16, bf16, f32, f64, i8, i16, i32, i64 };

/// "f16", "bf16", "f32", ... (the spelling used in manifests).
const char *dtypeName(DType type);
/// The inverse of dtypeName; std::nullopt for an unknown name.
std::optional<DType> parseDType(std::string_view name);
/// Size of one element in bytes.
std::size_t dtypeSize(DType type);

//===----------------------------------------------------------------------===//
// Kernel descriptions
//===----------------------------------------------------------------------===//

/// A launch extent in x, y, z. A grid extent of 0 means "nothing to launch".
struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
};

/// Workspace: global memory the runtime allocates for the kernel (a stream-K
/// kernel's split tiles), passed as a pointer; not an argument of a launch.
enum class ParamKind { Buffer, Dim, Scalar, TensorMap, Workspace };

/// What a kernel does with a buffer parameter. A launch may not pass a buffer
/// the kernel writes (Write, ReadWrite or Accumulate) overlapping any other
/// buffer argument; buffers it only reads may overlap each other.
/// Accumulate: the kernel only adds into it, with atomics (split-K); the
/// launch zero-fills it first, so that it ends up holding the sum alone.
enum class Access { Read, Write, ReadWrite, Accumulate };

/// "read", "write", "readwrite" or "accumulate" (the spelling used in
/// manifests).
const char *accessName(Access access);
/// Whether the kernel may store to a buffer with this access.
inline bool isWritten(Access access) { return access != Access::Read; }

/// One kernel parameter, in the order of the binary's kernel signature.
struct ParamInfo {
  std::string name;
  ParamKind kind = ParamKind::Buffer;
  /// Buffer: element type. Scalar: value type (f32, f64, i32, i64). Dim: i64.
  DType dtype = DType::f32;
  /// Buffer only: static sizes, -1 for a dynamic dimension.
  std::vector<int64_t> shape;
  /// Dim: the buffer parameter and the dimension whose size this is.
  /// TensorMap: the buffer parameter the map describes.
  std::string buffer;
  int dim = 0;
  /// Buffer only: what each size must be a multiple of (the kernel was
  /// compiled with `divisible`); empty when nothing is required.
  std::vector<int64_t> divisibility;
  /// Buffer only: what the kernel does with it. Manifests without the field
  /// (older compilers) say nothing, which is read as ReadWrite.
  Access access = Access::ReadWrite;
  // (Last, so that aggregate initializers of the fields above keep their
  // meaning.)
  /// TensorMap only: the box (the tile one TMA copy moves), one extent per
  /// dimension of the buffer in the buffer's order (the last one is the
  /// contiguous one), each in [1, 256].
  std::vector<int64_t> box;
  /// TensorMap only: the shared-memory swizzle of the box in bytes (0 =
  /// none, 32, 64 or 128: CU_TENSOR_MAP_SWIZZLE_*); a box row (the last
  /// extent) spans at most that many bytes when it is not 0.
  int swizzle = 0;
  /// Workspace only: bytes per launched block. The runtime passes at least
  /// that many times the blocks of the launch, zero-filled when first
  /// allocated; the kernel leaves its flags zero again, so one workspace
  /// serves the launches of one stream in turn.
  int64_t bytesPerBlock = 0;
};

/// One dimension of a buffer parameter: `param`[`dim`].
struct DimRef {
  std::string param;
  int dim = 0;
};

/// One relation of a kernel's launch contract, `lhs OP rhs`, where rhs is
/// another buffer dimension or an integer: `A[1] == B[0]` (GEMM: the K of A
/// and B agree), `C[0] == A[0]`, `X[1] <= 4096` (a softmax row must fit on
/// chip), `K[1] divides Q[1]` (grouped-query attention: the K/V heads
/// divide the query heads; the right side of `divides` is a dimension, and
/// 0 divides only 0). The kernel's code relies on every relation of its
/// contract; a launch that breaks one is refused. In the manifest:
///   {"lhs": {"param": "A", "dim": 1}, "op": "==",
///    "rhs": {"param": "B", "dim": 0}}
///   {"lhs": {"param": "X", "dim": 1}, "op": "<=", "value": 4096}
///   {"lhs": {"param": "K", "dim": 1}, "op": "divides",
///    "rhs": {"param": "Q", "dim": 1}}
struct ShapeRelation {
  enum class Op { Eq, Le, Ge, Divides };
  DimRef lhs;
  Op op = Op::Eq;
  /// True: the right-hand side is the dimension `rhs`; false: the integer
  /// `value`.
  bool rhsIsDim = true;
  DimRef rhs;
  int64_t value = 0;

  /// "==", "<=", ">=" or "divides".
  static const char *opName(Op op);
  /// Whether `lhsSize OP rhsSize` holds.
  bool holds(int64_t lhsSize, int64_t rhsSize) const;
  /// The relation as the manifest and the IR spell it: "A[1] == B[0]",
  /// "X[1] <= 4096", "K[1] divides Q[1]".
  std::string str() const;
};

/// One grid extent: a constant, or ceil(size of `dim` of buffer `param` /
/// `divisor`).
struct GridExtent {
  enum class Kind { Const, CeilDiv };
  Kind kind = Kind::Const;
  int64_t value = 1; // Const
  std::string param; // CeilDiv
  int dim = 0;       // CeilDiv
  int64_t divisor = 1;
};

/// A persistent kernel walks the tiles of its grid itself (tile t, then t +
/// gridDim.x, ...), so it is launched with one block per resident slot
/// rather than one per tile: min(tiles, multiprocessors x
/// blocksPerMultiprocessor) blocks in x.
/// Blocks of one thread-block cluster at most (the portable size).
inline constexpr unsigned kMaxClusterBlocks = 8;

struct PersistentGrid {
  unsigned blocksPerMultiprocessor = 1;
  /// Blocks per thread-block cluster along each grid extent (the manifest's
  /// "cluster"; empty: no clusters). The kernel then walks cluster tiles,
  /// the grid's extents divided by these, and is launched in whole
  /// clusters of clusterBlocks() consecutive blocks in x.
  std::vector<unsigned> cluster;
  unsigned clusterBlocks() const {
    unsigned blocks = 1;
    for (unsigned extent : cluster)
      blocks *= extent;
    return blocks;
  }
};

struct KernelInfo {
  std::string name;
  Dim3 block;
  /// 1 to 3 extents (x, y, z); missing ones are 1. For a persistent kernel,
  /// its tiles.
  std::vector<GridExtent> grid;
  /// Set for a persistent kernel (the manifest's "persistent").
  std::optional<PersistentGrid> persistent;
  unsigned dynamicSharedMemory = 0;
  /// All parameters of the binary kernel, in order.
  std::vector<ParamInfo> params;
  /// The launch contract: relations between buffer dimensions that every
  /// launch must satisfy (the manifest's "requires"; empty when absent).
  std::vector<ShapeRelation> relations;

  /// The buffer and scalar parameters: what a caller passes, in order (dim
  /// and tensor_map parameters are filled in by the runtime).
  std::vector<const ParamInfo *> userParams() const;
  /// The parameter called `name`, or nullptr.
  const ParamInfo *findParam(std::string_view name) const;
  /// The grid for buffer arguments of the given shapes, one shape per buffer
  /// parameter in manifest order. Throws Error if the shapes do not fit or the
  /// grid exceeds CUDA's limits.
  Dim3 gridFor(const std::vector<std::vector<int64_t>> &bufferShapes) const;
  /// Checks that the description is consistent, so that a launch packs
  /// exactly the parameters the binary expects: a non-empty name; a block
  /// within CUDA's limits (x, y <= 1024, z <= 64, at most 1024 threads);
  /// 1 to 3 grid extents naming dims of buffers, with divisors >= 1; unique,
  /// non-empty parameter names (and kernel name) of at most kMaxNameLength
  /// bytes; at most kMaxParams parameters, kMaxRank dims per buffer and
  /// kMaxRelations relations; static sizes >= 0 or -1 (dynamic);
  /// divisibility empty or one entry >= 1 per dim; scalar types f32, f64,
  /// i32 or i64; exactly one `dim` parameter for each dynamic dimension of
  /// each buffer, and none for a static one; relations naming dims of
  /// buffers; tensor maps naming a buffer parameter of rank 1 to 5 with one
  /// box extent in [1, 256] per dim, a swizzle of 0, 32, 64 or 128 and a
  /// box row of a multiple of 16 bytes, at most the swizzle; a persistent
  /// grid with blocksPerMultiprocessor in [1, 32].
  /// Throws Error naming the kernel and the field. parseManifest
  /// checks every kernel it reads; checkAndPack the one it is given (it may
  /// be built by hand).
  void validate() const;
};

/// The longest kernel or parameter name a kernel description may have.
inline constexpr std::size_t kMaxNameLength = 1024;
/// The most parameters a kernel may have: CUDA passes at most 32764 bytes of
/// kernel parameters, 4095 8-byte slots.
inline constexpr std::size_t kMaxParams = 4095;
/// The highest rank of a buffer parameter (dims are numbered 0 to 63).
inline constexpr std::size_t kMaxRank = 64;
/// The most relations a launch contract may have.
inline constexpr std::size_t kMaxRelations = 4096;

/// The highest rank of a buffer read or written through TMA.
inline constexpr std::size_t kMaxTensorMapRank = 5;
/// The largest extent of a TMA box in any dimension.
inline constexpr int64_t kMaxTensorMapBox = 256;

/// CUDA's largest grid: 2^31 - 1 blocks in x, 65535 in y and z.
inline constexpr int64_t kMaxGridExtent[3] = {2147483647, 65535, 65535};

struct TargetInfo {
  /// "sm_90", "sm_90a", ...
  std::string chip;
  /// PTX features, for example "+ptx80"; may be empty.
  std::string features;
};

struct ManifestInfo {
  int version = 1;
  TargetInfo target;
  std::vector<KernelInfo> kernels;

  /// The kernel called `name`, or nullptr.
  const KernelInfo *findKernel(std::string_view name) const;
  std::vector<std::string> kernelNames() const;
};

//===----------------------------------------------------------------------===//
// Targets
//===----------------------------------------------------------------------===//

struct ComputeCapability {
  int major = 0;
  int minor = 0;
};

/// The kinds of binary image a module can be loaded from.
enum class ImageKind { Cubin, Fatbin, Ptx };

/// Cubin (ELF magic), fatbin (fatbinary magic) or, otherwise, PTX text.
ImageKind detectImageKind(const void *data, std::size_t size);

/// The capability named by a chip ("sm_90" -> 9.0, "sm_100a" -> 10.0), or
/// std::nullopt if `chip` is not of the form sm_<major><minor>[a|f].
std::optional<ComputeCapability> parseChip(std::string_view chip);

/// Whether an image of `kind` compiled for `chip` can run on a device of
/// capability `device`: a cubin needs the same major and at least the chip's
/// minor; PTX and fatbins (which may carry PTX) at least the chip's
/// capability; an "a" chip (sm_90a) exactly its capability.
bool isChipCompatible(std::string_view chip, ComputeCapability device,
                      ImageKind kind);

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

/// The deepest nesting of arrays and objects a manifest may have (the
/// compiler writes at most 6 levels).
inline constexpr int kMaxManifestDepth = 64;

/// Parses and validates a manifest (KernelInfo::validate on every kernel).
/// Throws Error naming the offending kernel, parameter and field on malformed
/// input, and on hostile input too: numbers beyond a double or an int64,
/// values nested deeper than kMaxManifestDepth, invalid UTF-8; values quoted
/// in messages are cut short. `source` prefixes the messages.
ManifestInfo parseManifest(const std::string &jsonText,
                           const std::string &source = "manifest");
/// Reads and parses a manifest file.
ManifestInfo loadManifestFile(const std::string &path);

} // namespace tile::rt

#endif // TILE_RUNTIME_MANIFEST_H
