//===- Launch.h - Type-checked kernel arguments -----------------*- C++ -*-===//
//
// Kernel arguments (Arg) and the host-side half of a launch: checkAndPack()
// checks the arguments against a KernelInfo, computes the grid and packs the
// parameter values in the order of the binary kernel. It needs no GPU, so the
// whole argument contract can be unit-tested anywhere.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_LAUNCH_H
#define TILE_RUNTIME_LAUNCH_H

#include "tile/runtime/Manifest.h"

#include <cuda.h>

#include <cstdint>
#include <optional>
#include <type_traits>
#include <vector>

namespace tile::rt {

class DeviceBuffer;

/// One user-visible kernel argument: a buffer (device pointer, element type,
/// shape) or a scalar. Dim parameters are never passed: the runtime fills them
/// from the buffers' shapes.
class Arg {
public:
  /// A buffer argument backed by `buffer`; the launch checks that the shape
  /// fits in the buffer.
  static Arg buffer(const DeviceBuffer &buffer, DType dtype,
                    std::vector<int64_t> shape);
  /// A buffer argument at a raw device address: no capacity check (the
  /// runtime cannot know the allocation), every other check applies.
  static Arg buffer(CUdeviceptr ptr, DType dtype, std::vector<int64_t> shape);
  /// A buffer argument at `ptr` with `capacityBytes` of its allocation from
  /// `ptr` on (a view of a DeviceBuffer): the launch checks that it fits.
  static Arg buffer(CUdeviceptr ptr, DType dtype, std::vector<int64_t> shape,
                    std::size_t capacityBytes);

  /// A scalar argument; the type is deduced: float -> f32, double -> f64,
  /// 32-bit signed integers -> i32, 64-bit signed integers -> i64.
  template <typename T> static Arg scalar(T value) {
    constexpr bool isFloat = std::is_same_v<T, float>;
    constexpr bool isDouble = std::is_same_v<T, double>;
    constexpr bool isInt = std::is_integral_v<T> && std::is_signed_v<T> &&
                           (sizeof(T) == 4 || sizeof(T) == 8);
    static_assert(isFloat || isDouble || isInt,
                  "Arg::scalar takes float, double, int32_t or int64_t");
    DType dtype = isFloat          ? DType::f32
                  : isDouble       ? DType::f64
                  : sizeof(T) == 4 ? DType::i32
                                   : DType::i64;
    return makeScalar(dtype, &value, sizeof(T));
  }

  ParamKind kind() const { return kind_; }
  DType dtype() const { return dtype_; }
  /// Buffer only.
  CUdeviceptr devicePtr() const { return ptr_; }
  const std::vector<int64_t> &shape() const { return shape_; }
  /// Buffer only: size in bytes of the backing DeviceBuffer, if known.
  std::optional<std::size_t> capacity() const { return capacity_; }
  /// Scalar only: the value's bytes (dtypeSize(dtype()) of them).
  const void *scalarData() const { return &bits_; }

private:
  Arg() = default;
  static Arg makeScalar(DType dtype, const void *value, std::size_t size);

  ParamKind kind_ = ParamKind::Scalar;
  DType dtype_ = DType::i32;
  CUdeviceptr ptr_ = 0;
  std::vector<int64_t> shape_;
  std::optional<std::size_t> capacity_;
  uint64_t bits_ = 0;
};

/// What cuTensorMapEncodeTiled is called with for one tensor_map parameter,
/// in the driver's order: the innermost (contiguous) dimension first.
struct TensorMapRequest {
  DType dtype = DType::f16;
  CUdeviceptr address = 0;
  unsigned rank = 0;
  /// globalDim: the buffer's sizes, innermost first.
  uint64_t sizes[kMaxTensorMapRank] = {};
  /// globalStrides: the byte distance between consecutive indices of
  /// dimension d + 1 (innermost first; the innermost is contiguous).
  uint64_t strides[kMaxTensorMapRank - 1] = {};
  /// boxDim, innermost first.
  uint32_t box[kMaxTensorMapRank] = {};
  /// 0, 32, 64 or 128 bytes.
  int swizzle = 0;

  /// Whether the buffer has no elements: the driver encodes no map of a
  /// zero size, so the kernel gets a zeroed one (it issues no copy of an
  /// empty tensor).
  bool empty() const;

  bool operator==(const TensorMapRequest &other) const;
  bool operator!=(const TensorMapRequest &other) const {
    return !(*this == other);
  }
};

/// One packed kernel parameter: an 8-byte slot holding the value the kernel
/// receives. Buffers are packed as their 64-bit device address (type i64),
/// dims as i64, scalars as their own type; a tensor map as the index of its
/// request in PackedLaunch::tensorMaps (the 128-byte map itself is encoded
/// at launch).
struct PackedParam {
  ParamKind kind = ParamKind::Scalar;
  DType type = DType::i64;
  uint64_t bits = 0;

  const void *data() const { return &bits; }
  /// The value converted to int64 / double (for tests and diagnostics).
  int64_t asInt64() const;
  double asDouble() const;
};

/// Bytes a launch sets to zero before the kernel runs: a buffer argument
/// the kernel only adds into (Access::Accumulate).
struct ZeroFill {
  CUdeviceptr address = 0;
  uint64_t bytes = 0;
};

/// Everything cuLaunchKernel needs, checked and computed on the host.
struct PackedLaunch {
  Dim3 grid;
  Dim3 block;
  unsigned sharedMemoryBytes = 0;
  std::vector<PackedParam> params;
  /// The tensor maps the tensor_map parameters need, in parameter order.
  std::vector<TensorMapRequest> tensorMaps;
  /// Set for a persistent kernel: `grid` then covers every tile, and a
  /// launch caps grid.x at multiprocessors x blocksPerMultiprocessor.
  std::optional<PersistentGrid> persistent;
  /// Zeroed on the launch's stream before the kernel, in parameter order.
  std::vector<ZeroFill> zeroFills;
  /// A kernel with a workspace parameter: its index in `params` (whose
  /// value the launch fills in) and the bytes per launched block.
  struct Workspace {
    std::size_t param = 0;
    uint64_t bytesPerBlock = 0;
  };
  std::optional<Workspace> workspace;

  /// True if a grid extent is 0 (empty tensors): nothing to launch.
  bool empty() const { return grid.x == 0 || grid.y == 0 || grid.z == 0; }
  /// The `kernelParams` array of cuLaunchKernel; points into `params` and,
  /// for tensor_map parameters, to `encodedMaps[i]`, the encoding of
  /// `tensorMaps[i]` (which must outlive the launch call; needed exactly
  /// when `tensorMaps` is not empty).
  std::vector<void *>
  kernelParams(const CUtensorMap *encodedMaps = nullptr) const;
  /// The grid of a launch on a device with `multiprocessors` SMs: `grid`,
  /// with grid.x capped for a persistent kernel (in whole clusters, and at
  /// `maxActiveClusters` of them when that is known, > 0).
  Dim3 gridOn(int multiprocessors, int maxActiveClusters = 0) const;
};

/// Checks `args` against the kernel and packs them; throws Error naming the
/// kernel, the parameters and the expected and given values. In order:
///   - the kernel description itself (KernelInfo::validate);
///   - the argument count, then per argument its kind, dtype (buffers) or
///     type (scalars), rank, static sizes, no negative size, the sizes a
///     divisibility promise requires, a 16-byte aligned address, a byte size
///     that an int64 can count and that stays inside the address space,
///     and, for an Arg made from a DeviceBuffer, that it fits in the buffer;
///   - the launch contract: every relation of `kernel.relations`, all broken
///     ones in one message ("kernel 'k': requires A[1] == B[0], but A[1] = 64
///     and B[0] = 32");
///   - aliasing: a buffer the kernel writes (access write or readwrite) may
///     not overlap any other buffer argument (byte ranges from address,
///     shape and dtype, for raw pointers too); read-only buffers may overlap;
///   - TMA: a buffer a tensor_map parameter describes has row strides of
///     whole 16-byte units below 2^40 and sizes of at most 2^32 (the
///     16-byte base is checked for every buffer); refused with the reason
///     and the advice to use a variant without TMA;
///   - the grid (from the manifest, or the explicit one) within CUDA's
///     limits; an explicit grid no larger in any dimension than the
///     manifest's for these shapes (the contract covers only its blocks).
/// Then it packs all parameters, dims filled from the buffers' shapes, and
/// lists the accumulate buffers to zero-fill (`zeroFills`).
PackedLaunch checkAndPack(const KernelInfo &kernel,
                          const std::vector<Arg> &args);
/// As above, with an explicit grid instead of the manifest's (at most the
/// manifest's grid in each dimension: fewer blocks run part of the work).
PackedLaunch checkAndPack(const KernelInfo &kernel,
                          const std::vector<Arg> &args, Dim3 grid);

namespace detail {
/// checkAndPack without KernelInfo::validate, for a description validated
/// once when it was loaded (Module::load; Kernel::launch uses this): every
/// argument, relation, aliasing and grid check still runs. `grid` may be
/// null (the manifest's grid).
PackedLaunch checkAndPackValidated(const KernelInfo &kernel,
                                   const std::vector<Arg> &args,
                                   const Dim3 *grid);
} // namespace detail

} // namespace tile::rt

#endif // TILE_RUNTIME_LAUNCH_H
