//===- DLPack.h - Tensors from other frameworks, without copies -*- C++ -*-===//
//
// DLPack (https://dmlc.github.io/dlpack/latest/) is the header-only
// exchange format of PyTorch, JAX, CuPy and TensorFlow: a DLTensor says
// where a tensor lives, its element type, shape and strides. fromDLPack()
// reads one as a Tensor over the same device memory, so a buffer made by
// PyTorch goes to a library call (Library.h) as it is:
//
//   // t = torch.randn(m, k, device="cuda", dtype=torch.float16)
//   // capsule = torch.utils.dlpack.to_dlpack(t)  -> a DLManagedTensor *
//   tile::rt::OwnedDLPack a(managed);               // calls its deleter
//   library.gemm(fromDLPack(*a), fromDLPack(*b), fromDLPack(*c));
//
// Only this header needs <dlpack/dlpack.h> (Debian: libdlpack-dev; the
// struct layout has been the same since DLPack 0.5, so PyTorch's 1.x
// DLManagedTensor reads the same); the rest of the runtime does not.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_DLPACK_H
#define TILE_RUNTIME_DLPACK_H

#include "tile/runtime/Error.h"
#include "tile/runtime/Tensor.h"

#include <dlpack/dlpack.h>

#include <memory>
#include <string>
#include <vector>

namespace tile::rt {

/// The runtime's element type of a DLPack one (lanes 1): float 16/32/64,
/// bfloat 16, int 8/16/32/64. Throws Error for any other.
inline DType dtypeFromDLPack(DLDataType type) {
  if (type.lanes == 1) {
    if (type.code == kDLFloat && type.bits == 16)
      return DType::f16;
    if (type.code == kDLBfloat && type.bits == 16)
      return DType::bf16;
    if (type.code == kDLFloat && type.bits == 32)
      return DType::f32;
    if (type.code == kDLFloat && type.bits == 64)
      return DType::f64;
    if (type.code == kDLInt) {
      switch (type.bits) {
      case 8:
        return DType::i8;
      case 16:
        return DType::i16;
      case 32:
        return DType::i32;
      case 64:
        return DType::i64;
      }
    }
  }
  throw Error("expected a DLPack element type of float16, bfloat16, "
              "float32, float64 or int8..int64 with 1 lane, but got code " +
              std::to_string(type.code) + ", " + std::to_string(type.bits) +
              " bits, " + std::to_string(type.lanes) + " lanes");
}

/// A view of `tensor`'s device memory (data + byte_offset, its shape and
/// strides; row-major when strides is null). The memory must be CUDA
/// device memory (kDLCUDA, or kDLCUDAManaged); throws Error otherwise, or
/// for a type fromDLPack does not know. The DLTensor's owner keeps the
/// memory alive.
inline Tensor fromDLPack(const DLTensor &tensor) {
  if (tensor.device.device_type != kDLCUDA &&
      tensor.device.device_type != kDLCUDAManaged)
    throw Error("expected a DLPack tensor in CUDA device memory "
                "(device_type kDLCUDA = 2), but got device_type " +
                std::to_string(tensor.device.device_type));
  if (tensor.ndim < 0)
    throw Error("expected a DLPack tensor of rank >= 0, but got ndim " +
                std::to_string(tensor.ndim));
  if (tensor.ndim > 0 && !tensor.shape)
    throw Error("expected a DLPack tensor with a shape, but shape is null");
  DType dtype = dtypeFromDLPack(tensor.dtype);
  std::vector<int64_t> shape(tensor.shape, tensor.shape + tensor.ndim);
  std::vector<int64_t> strides;
  if (tensor.strides)
    strides.assign(tensor.strides, tensor.strides + tensor.ndim);
  CUdeviceptr data = reinterpret_cast<CUdeviceptr>(tensor.data) +
                     static_cast<CUdeviceptr>(tensor.byte_offset);
  return Tensor::at(data, dtype, std::move(shape), std::move(strides));
}

inline Tensor fromDLPack(const DLManagedTensor &managed) {
  return fromDLPack(managed.dl_tensor);
}

/// Owns a DLManagedTensor handed over by a producer (to_dlpack): calls its
/// deleter once when it goes (the consumer's duty under DLPack).
struct DLPackDeleter {
  void operator()(DLManagedTensor *managed) const {
    if (managed && managed->deleter)
      managed->deleter(managed);
  }
};
using OwnedDLPack = std::unique_ptr<DLManagedTensor, DLPackDeleter>;

} // namespace tile::rt

#endif // TILE_RUNTIME_DLPACK_H
