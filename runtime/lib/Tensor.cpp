//===- Tensor.cpp - Typed views of device memory --------------------------===//
//
// Tensor's constructors, layout tests and its conversion to a kernel
// argument (Tensor.h).
//
//===----------------------------------------------------------------------===//

#include "tile/runtime/Tensor.h"
#include "tile/runtime/Error.h"
#include "tile/runtime/Runtime.h"

#include <utility>

using namespace tile::rt;

static std::string listText(const std::vector<int64_t> &values) {
  std::string text = "[";
  for (size_t i = 0; i < values.size(); ++i)
    text += (i ? ", " : "") + std::to_string(values[i]);
  return text + "]";
}

std::vector<int64_t>
tile::rt::rowMajorStrides(const std::vector<int64_t> &shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;)
    strides[d - 1] = strides[d] * std::max<int64_t>(shape[d], 1);
  return strides;
}

Tensor Tensor::of(const DeviceBuffer &buffer, DType dtype,
                  std::vector<int64_t> shape) {
  Tensor tensor = at(buffer.ptr(), dtype, std::move(shape));
  tensor.capacity_ = buffer.size();
  return tensor;
}

Tensor Tensor::at(CUdeviceptr data, DType dtype, std::vector<int64_t> shape,
                  std::vector<int64_t> strides) {
  for (int64_t size : shape)
    if (size < 0)
      throw Error("a tensor's sizes must not be negative, but got shape " +
                  listText(shape));
  if (strides.empty())
    strides = rowMajorStrides(shape);
  if (strides.size() != shape.size())
    throw Error("expected one stride per dimension of shape " +
                listText(shape) + ", but got strides " + listText(strides));
  Tensor tensor;
  tensor.data_ = data;
  tensor.dtype_ = dtype;
  tensor.shape_ = std::move(shape);
  tensor.strides_ = std::move(strides);
  return tensor;
}

int64_t Tensor::numElements() const {
  int64_t count = 1;
  for (int64_t size : shape_)
    count *= size;
  return count;
}

bool Tensor::isRowMajor() const {
  std::vector<int64_t> expected = rowMajorStrides(shape_);
  for (size_t d = 0; d < shape_.size(); ++d)
    if (shape_[d] > 1 && strides_[d] != expected[d])
      return false;
  return true;
}

Tensor Tensor::transposed() const {
  if (rank() < 2)
    throw Error("transposed() swaps the last two dimensions, but " +
                describe() + " has rank " + std::to_string(rank()));
  Tensor view = *this;
  std::swap(view.shape_[rank() - 2], view.shape_[rank() - 1]);
  std::swap(view.strides_[rank() - 2], view.strides_[rank() - 1]);
  return view;
}

std::optional<Tensor::Stored> Tensor::asStored() const {
  if (rank() != 2)
    return std::nullopt;
  if (isRowMajor())
    return Stored{*this, false};
  Tensor stored = transposed();
  if (stored.isRowMajor())
    return Stored{stored, true};
  return std::nullopt;
}

Arg Tensor::arg(const std::string &what) const {
  if (!isRowMajor())
    throw Error(what +
                " must be row-major (dense, the last dimension "
                "contiguous) for these kernels, but it is " +
                describe());
  return capacity_ ? Arg::buffer(data_, dtype_, shape_, *capacity_)
                   : Arg::buffer(data_, dtype_, shape_);
}

std::string Tensor::describe() const {
  std::string text = std::string(dtypeName(dtype_)) + listText(shape_);
  if (!isRowMajor())
    text += " strides " + listText(strides_);
  return text;
}
