//===- Tensor.h - Typed views of device memory ------------------*- C++ -*-===//
//
// What the kernel library's calls (Library.h) take: a device address, an
// element type, a shape and strides counted in elements. A Tensor owns
// nothing; the memory belongs to a DeviceBuffer, to another framework (a
// DLPack tensor, DLPack.h) or to the caller.
//
//   DeviceBuffer a(device, m * k * 2);
//   Tensor A = Tensor::of(a, DType::f16, {m, k});   // row-major M x K
//   Tensor At = A.transposed();                     // K x M view, no copy
//
// Our kernels read row-major buffers. A 2-D operand whose strides are
// those of a transposed row-major matrix (a column-major view, as
// `x.t()` in PyTorch gives) is accepted where the kernel has a transposed
// form (the GEMM's A and B): asStored() turns it back into the stored
// matrix and says it is transposed.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_TENSOR_H
#define TILE_RUNTIME_TENSOR_H

#include "tile/runtime/Launch.h"
#include "tile/runtime/Manifest.h"

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tile::rt {

class DeviceBuffer;

class Tensor {
public:
  Tensor() = default;
  /// A row-major tensor at the start of `buffer`; a launch checks that it
  /// fits in the buffer.
  static Tensor of(const DeviceBuffer &buffer, DType dtype,
                   std::vector<int64_t> shape);
  /// A tensor at a raw device address (no capacity check). `strides` in
  /// elements, one per dimension; empty means row-major. Throws Error for
  /// a negative size or a strides list of another rank.
  static Tensor at(CUdeviceptr data, DType dtype, std::vector<int64_t> shape,
                   std::vector<int64_t> strides = {});

  CUdeviceptr data() const { return data_; }
  DType dtype() const { return dtype_; }
  const std::vector<int64_t> &shape() const { return shape_; }
  /// One stride per dimension, in elements (row-major ones when none were
  /// given).
  const std::vector<int64_t> &strides() const { return strides_; }
  size_t rank() const { return shape_.size(); }
  int64_t numElements() const;
  /// The bytes of the allocation behind it, when known.
  std::optional<std::size_t> capacity() const { return capacity_; }

  /// Whether its elements lie row-major and dense: each stride is the
  /// product of the sizes after it (dimensions of size 1 may have any
  /// stride, as frameworks leave them).
  bool isRowMajor() const;
  /// The same memory with the last two dimensions swapped (rank >= 2).
  Tensor transposed() const;

  /// How a 2-D operand is stored: row-major as it is (`transposed` false,
  /// `stored` the tensor itself), or as the row-major transpose (strides
  /// {1, rows}: `stored` is that cols x rows matrix, `transposed` true).
  /// Anything else has no stored form (nullopt).
  struct Stored;
  std::optional<Stored> asStored() const;

  /// The kernel argument of a row-major tensor; throws Error naming `what`
  /// ("A", "the bias") and its strides otherwise.
  Arg arg(const std::string &what) const;
  /// "f16[128, 64]", with " strides [1, 128]" when not row-major.
  std::string describe() const;

private:
  CUdeviceptr data_ = 0;
  DType dtype_ = DType::f32;
  std::vector<int64_t> shape_;
  std::vector<int64_t> strides_;
  std::optional<std::size_t> capacity_;
};

struct Tensor::Stored {
  Tensor stored;
  bool transposed = false;
};

/// The row-major strides of `shape`, in elements.
std::vector<int64_t> rowMajorStrides(const std::vector<int64_t> &shape);

} // namespace tile::rt

#endif // TILE_RUNTIME_TENSOR_H
