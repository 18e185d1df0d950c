//===- Launch.cpp - Checking and packing kernel arguments -----------------===//
//
// The host-side half of a kernel launch: checks user arguments against the
// manifest, computes the grid and packs the parameters in the binary kernel's
// order. Needs no GPU.
//
//===----------------------------------------------------------------------===//

#include "tile/runtime/Launch.h"

#include "tile/runtime/Error.h"
#include "tile/runtime/Runtime.h"

#include <cstring>
#include <limits>
#include <string>

using namespace tile::rt;

//===----------------------------------------------------------------------===//
// Arg and PackedParam
//===----------------------------------------------------------------------===//

Arg Arg::buffer(const DeviceBuffer &buffer, DType dtype,
                std::vector<int64_t> shape) {
  Arg arg = Arg::buffer(buffer.ptr(), dtype, std::move(shape));
  arg.capacity_ = buffer.size();
  return arg;
}

Arg Arg::buffer(CUdeviceptr ptr, DType dtype, std::vector<int64_t> shape) {
  Arg arg;
  arg.kind_ = ParamKind::Buffer;
  arg.dtype_ = dtype;
  arg.ptr_ = ptr;
  arg.shape_ = std::move(shape);
  return arg;
}

Arg Arg::makeScalar(DType dtype, const void *value, std::size_t size) {
  Arg arg;
  arg.kind_ = ParamKind::Scalar;
  arg.dtype_ = dtype;
  std::memcpy(&arg.bits_, value, size);
  return arg;
}

int64_t PackedParam::asInt64() const {
  switch (type) {
  case DType::i32: {
    int32_t value;
    std::memcpy(&value, &bits, sizeof(value));
    return value;
  }
  case DType::f32:
  case DType::f64:
    return static_cast<int64_t>(asDouble());
  default: {
    int64_t value;
    std::memcpy(&value, &bits, sizeof(value));
    return value;
  }
  }
}

double PackedParam::asDouble() const {
  switch (type) {
  case DType::f32: {
    float value;
    std::memcpy(&value, &bits, sizeof(value));
    return value;
  }
  case DType::f64: {
    double value;
    std::memcpy(&value, &bits, sizeof(value));
    return value;
  }
  default:
    return static_cast<double>(asInt64());
  }
}

std::vector<void *> PackedLaunch::kernelParams() const {
  std::vector<void *> pointers;
  pointers.reserve(params.size());
  for (const PackedParam &param : params)
    pointers.push_back(const_cast<uint64_t *>(&param.bits));
  return pointers;
}

//===----------------------------------------------------------------------===//
// checkAndPack
//===----------------------------------------------------------------------===//

namespace {

std::string shapeText(const std::vector<int64_t> &shape) {
  std::string text = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i)
      text += ", ";
    text += shape[i] < 0 ? std::string("?") : std::to_string(shape[i]);
  }
  return text + "]";
}

const char *kindText(ParamKind kind) {
  return kind == ParamKind::Buffer ? "a buffer" : "a scalar";
}

/// Checks one buffer argument against its parameter; returns nothing, throws
/// Error naming the kernel and parameter.
void checkBuffer(const std::string &prefix, const ParamInfo &param,
                 const Arg &arg) {
  std::string where = prefix + "parameter '" + param.name + "' ";
  if (arg.dtype() != param.dtype)
    throw Error(where + "expects dtype " + dtypeName(param.dtype) +
                ", but got " + dtypeName(arg.dtype()));
  const std::vector<int64_t> &shape = arg.shape();
  if (shape.size() != param.shape.size())
    throw Error(where + "expects rank " + std::to_string(param.shape.size()) +
                " (shape " + shapeText(param.shape) + "), but got rank " +
                std::to_string(shape.size()) + " (shape " + shapeText(shape) +
                ")");
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] < 0)
      throw Error(where + "got a negative size " + std::to_string(shape[d]) +
                  " in dim " + std::to_string(d));
    if (param.shape[d] >= 0 && shape[d] != param.shape[d])
      throw Error(where + "expects size " + std::to_string(param.shape[d]) +
                  " in dim " + std::to_string(d) + ", but got " +
                  std::to_string(shape[d]));
    if (d < param.divisibility.size() && shape[d] % param.divisibility[d] != 0)
      throw Error(where + "got size " + std::to_string(shape[d]) + " in dim " +
                  std::to_string(d) + ", but this kernel was compiled for " +
                  "sizes that are multiples of " +
                  std::to_string(param.divisibility[d]) +
                  " there (\"divisibility\" in its manifest); use a variant "
                  "compiled without that promise");
  }
  // Tile kernels access global tensors with 128-bit loads and stores.
  if (arg.devicePtr() % 16 != 0)
    throw Error(where + "needs a 16-byte aligned address, but got " +
                std::to_string(arg.devicePtr()) +
                " (tile kernels use 128-bit "
                "accesses)");
  if (!arg.capacity())
    return;
  // bytes = product(shape) * sizeof(dtype), without overflow.
  uint64_t bytes = dtypeSize(arg.dtype());
  for (int64_t size : shape) {
    if (size != 0 &&
        bytes > std::numeric_limits<uint64_t>::max() / uint64_t(size))
      throw Error(where + "got shape " + shapeText(shape) +
                  ", which is too large");
    bytes *= static_cast<uint64_t>(size);
  }
  if (bytes > *arg.capacity())
    throw Error(where + "needs " + std::to_string(bytes) + " bytes (shape " +
                shapeText(shape) + " of " + dtypeName(arg.dtype()) +
                "), but the buffer holds " + std::to_string(*arg.capacity()) +
                " bytes");
}

PackedLaunch pack(const KernelInfo &kernel, const std::vector<Arg> &args,
                  const Dim3 *explicitGrid) {
  std::string prefix = "kernel '" + kernel.name + "': ";
  std::vector<const ParamInfo *> userParams = kernel.userParams();
  if (args.size() != userParams.size()) {
    std::string names;
    for (const ParamInfo *param : userParams)
      names += (names.empty() ? "" : ", ") + param->name;
    throw Error(prefix + "expects " + std::to_string(userParams.size()) +
                " arguments (" + names + "), but got " +
                std::to_string(args.size()));
  }

  std::vector<std::vector<int64_t>> bufferShapes;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const ParamInfo &param = *userParams[i];
    const Arg &arg = args[i];
    if (arg.kind() != param.kind)
      throw Error(prefix + "parameter '" + param.name + "' expects " +
                  kindText(param.kind) + ", but got " + kindText(arg.kind()));
    if (param.kind == ParamKind::Buffer) {
      checkBuffer(prefix, param, arg);
      bufferShapes.push_back(arg.shape());
    } else if (arg.dtype() != param.dtype) {
      throw Error(prefix + "parameter '" + param.name +
                  "' expects a scalar of type " + dtypeName(param.dtype) +
                  ", but got " + dtypeName(arg.dtype()));
    }
  }

  PackedLaunch packed;
  packed.grid = explicitGrid ? *explicitGrid : kernel.gridFor(bufferShapes);
  packed.block = kernel.block;
  packed.sharedMemoryBytes = kernel.dynamicSharedMemory;
  packed.params.reserve(kernel.params.size());

  // Walk all parameters; user arguments are consumed in order.
  std::size_t nextArg = 0;
  for (const ParamInfo &param : kernel.params) {
    PackedParam value;
    value.kind = param.kind;
    if (param.kind == ParamKind::Buffer) {
      const Arg &arg = args[nextArg++];
      value.type = DType::i64;
      value.bits = arg.devicePtr();
    } else if (param.kind == ParamKind::Scalar) {
      const Arg &arg = args[nextArg++];
      value.type = arg.dtype();
      std::memcpy(&value.bits, arg.scalarData(), dtypeSize(arg.dtype()));
    } else {
      // A hidden dim: the size of a dimension of an (earlier or later) buffer.
      std::size_t argIndex = 0;
      while (argIndex < userParams.size() &&
             userParams[argIndex]->name != param.buffer)
        ++argIndex;
      if (argIndex == userParams.size() ||
          userParams[argIndex]->kind != ParamKind::Buffer)
        throw Error(prefix + "dim parameter '" + param.name +
                    "' refers to unknown buffer '" + param.buffer + "'");
      const std::vector<int64_t> &shape = args[argIndex].shape();
      if (param.dim < 0 || static_cast<std::size_t>(param.dim) >= shape.size())
        throw Error(prefix + "dim parameter '" + param.name +
                    "' refers to dim " + std::to_string(param.dim) + " of '" +
                    param.buffer + "', which has rank " +
                    std::to_string(shape.size()));
      value.type = DType::i64;
      int64_t size = shape[param.dim];
      std::memcpy(&value.bits, &size, sizeof(size));
    }
    packed.params.push_back(value);
  }
  return packed;
}

} // namespace

PackedLaunch tile::rt::checkAndPack(const KernelInfo &kernel,
                                    const std::vector<Arg> &args) {
  return pack(kernel, args, nullptr);
}

PackedLaunch tile::rt::checkAndPack(const KernelInfo &kernel,
                                    const std::vector<Arg> &args, Dim3 grid) {
  return pack(kernel, args, &grid);
}
