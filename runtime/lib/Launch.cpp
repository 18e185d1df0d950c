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

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
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

Arg Arg::buffer(CUdeviceptr ptr, DType dtype, std::vector<int64_t> shape,
                std::size_t capacityBytes) {
  Arg arg = Arg::buffer(ptr, dtype, std::move(shape));
  arg.capacity_ = capacityBytes;
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

bool TensorMapRequest::operator==(const TensorMapRequest &other) const {
  return dtype == other.dtype && address == other.address &&
         rank == other.rank && swizzle == other.swizzle &&
         std::equal(sizes, sizes + kMaxTensorMapRank, other.sizes) &&
         std::equal(strides, strides + kMaxTensorMapRank - 1, other.strides) &&
         std::equal(box, box + kMaxTensorMapRank, other.box);
}

bool TensorMapRequest::empty() const {
  return std::find(sizes, sizes + rank, 0) != sizes + rank;
}

std::vector<void *>
PackedLaunch::kernelParams(const CUtensorMap *encodedMaps) const {
  if (!tensorMaps.empty() && !encodedMaps)
    throw Error("kernelParams: this launch has " +
                std::to_string(tensorMaps.size()) +
                " tensor_map parameters, but no encoded maps were given");
  std::vector<void *> pointers;
  pointers.reserve(params.size());
  for (const PackedParam &param : params)
    pointers.push_back(
        param.kind == ParamKind::TensorMap
            ? static_cast<void *>(
                  const_cast<CUtensorMap *>(&encodedMaps[param.bits]))
            : static_cast<void *>(const_cast<uint64_t *>(&param.bits)));
  return pointers;
}

Dim3 PackedLaunch::gridOn(int multiprocessors, int maxActiveClusters) const {
  if (!persistent || multiprocessors < 1)
    return grid;
  uint64_t slots =
      uint64_t(multiprocessors) * persistent->blocksPerMultiprocessor;
  // Whole clusters (at least one): grid.x is a multiple of the cluster.
  uint64_t blocks = persistent->clusterBlocks();
  slots = std::max(slots / blocks, uint64_t(1)) * blocks;
  if (blocks > 1 && maxActiveClusters > 0)
    slots = std::min<uint64_t>(slots, uint64_t(maxActiveClusters) * blocks);
  Dim3 capped = grid;
  capped.x = static_cast<unsigned>(std::min<uint64_t>(grid.x, slots));
  return capped;
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

/// The bytes `shape` of `dtype` spans, or nothing when that is more than
/// an int64 can count.
std::optional<uint64_t> byteSize(DType dtype,
                                 const std::vector<int64_t> &shape) {
  for (int64_t size : shape)
    if (size == 0)
      return 0;
  uint64_t bytes = dtypeSize(dtype);
  for (int64_t size : shape) {
    if (bytes > uint64_t(std::numeric_limits<int64_t>::max()) / uint64_t(size))
      return std::nullopt;
    bytes *= static_cast<uint64_t>(size);
  }
  return bytes;
}

std::string hex(uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof(text), "0x%llx",
                static_cast<unsigned long long>(value));
  return text;
}

/// Checks one buffer argument against its parameter; returns the bytes it
/// spans, throws Error naming the kernel and parameter.
uint64_t checkBuffer(const std::string &prefix, const ParamInfo &param,
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
    // (validate() made sure that every divisor is >= 1.)
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
  std::optional<uint64_t> bytes = byteSize(arg.dtype(), shape);
  if (!bytes)
    throw Error(where + "got shape " + shapeText(shape) + " of " +
                dtypeName(arg.dtype()) +
                ", which is too large (more than 2^63 bytes)");
  if (*bytes > std::numeric_limits<uint64_t>::max() - arg.devicePtr())
    throw Error(where + "spans " + std::to_string(*bytes) + " bytes from " +
                hex(arg.devicePtr()) +
                ", past the end of the 64-bit address space");
  if (arg.capacity() && *bytes > *arg.capacity())
    throw Error(where + "needs " + std::to_string(*bytes) + " bytes (shape " +
                shapeText(shape) + " of " + dtypeName(arg.dtype()) +
                "), but the buffer holds " + std::to_string(*arg.capacity()) +
                " bytes");
  return *bytes;
}

/// The size of dim `dim` of the buffer argument for parameter `param`
/// (checked arguments of a validated kernel: it exists and has that dim).
int64_t sizeOf(const std::vector<const ParamInfo *> &userParams,
               const std::vector<Arg> &args, const std::string &param,
               int dim) {
  for (std::size_t i = 0; i < userParams.size(); ++i)
    if (userParams[i]->name == param)
      return args[i].shape()[dim];
  return 0;
}
int64_t sizeOf(const std::vector<const ParamInfo *> &userParams,
               const std::vector<Arg> &args, const DimRef &ref) {
  return sizeOf(userParams, args, ref.param, ref.dim);
}

/// Every broken relation of the kernel's contract, all in one message.
void checkRelations(const std::string &prefix, const KernelInfo &kernel,
                    const std::vector<const ParamInfo *> &userParams,
                    const std::vector<Arg> &args) {
  std::string broken;
  for (const ShapeRelation &relation : kernel.relations) {
    int64_t lhs = sizeOf(userParams, args, relation.lhs);
    int64_t rhs = relation.rhsIsDim ? sizeOf(userParams, args, relation.rhs)
                                    : relation.value;
    if (relation.holds(lhs, rhs))
      continue;
    auto dim = [](const DimRef &ref) {
      return ref.param + "[" + std::to_string(ref.dim) + "]";
    };
    broken += (broken.empty() ? "" : "; ") + std::string("requires ") +
              relation.str() + ", but " + dim(relation.lhs) + " = " +
              std::to_string(lhs);
    if (relation.rhsIsDim)
      broken += " and " + dim(relation.rhs) + " = " + std::to_string(rhs);
  }
  if (!broken.empty())
    throw Error(prefix + broken);
}

/// Refuses a buffer the kernel writes that overlaps another buffer argument
/// (the byte ranges [address, address + bytes)); buffers it only reads may
/// overlap each other.
void checkAliasing(const std::string &prefix,
                   const std::vector<const ParamInfo *> &userParams,
                   const std::vector<Arg> &args,
                   const std::vector<uint64_t> &bytes) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (userParams[i]->kind != ParamKind::Buffer || bytes[i] == 0)
      continue;
    for (std::size_t j = i + 1; j < args.size(); ++j) {
      if (userParams[j]->kind != ParamKind::Buffer || bytes[j] == 0)
        continue;
      bool iWritten = isWritten(userParams[i]->access);
      bool jWritten = isWritten(userParams[j]->access);
      if (!iWritten && !jWritten)
        continue;
      uint64_t iBegin = args[i].devicePtr(), jBegin = args[j].devicePtr();
      uint64_t iEnd = iBegin + bytes[i], jEnd = jBegin + bytes[j];
      if (iBegin >= jEnd || jBegin >= iEnd)
        continue;
      std::size_t w = iWritten ? i : j, o = iWritten ? j : i;
      auto range = [&](std::size_t k) {
        return "[" + hex(args[k].devicePtr()) + ", " +
               hex(args[k].devicePtr() + bytes[k]) + ")";
      };
      auto access = [&](std::size_t k) {
        return std::string(" (access \"") + accessName(userParams[k]->access) +
               "\")";
      };
      throw Error(prefix + "parameter '" + userParams[w]->name + "'" +
                  access(w) + " overlaps parameter '" + userParams[o]->name +
                  "'" + access(o) + " in memory: '" + userParams[w]->name +
                  "' spans bytes " + range(w) + " and '" + userParams[o]->name +
                  "' bytes " + range(o) +
                  "; a buffer the kernel writes must not overlap another "
                  "argument");
    }
  }
}

/// The tensor map of `param` for the buffer argument `arg` (checked: its
/// shape fits the buffer parameter), refused when the launch breaks a rule
/// of TMA that depends on the arguments: row strides of whole 16-byte units
/// below 2^40 bytes, sizes of at most 2^32. (The 16-byte base every buffer
/// argument has; the box and swizzle rules KernelInfo::validate checked.)
TensorMapRequest tensorMapFor(const std::string &prefix, const ParamInfo &param,
                              const Arg &arg) {
  const std::vector<int64_t> &shape = arg.shape();
  std::size_t rank = shape.size();
  auto refuse = [&](const std::string &why) {
    return Error(prefix + "parameter '" + param.buffer +
                 "' is read or written with TMA (tensor map '" + param.name +
                 "'), which " + why +
                 "; use a variant compiled without TMA (for example an sm_90 "
                 "one)");
  };
  TensorMapRequest request;
  request.dtype = arg.dtype();
  request.address = arg.devicePtr();
  request.rank = static_cast<unsigned>(rank);
  request.swizzle = param.swizzle;
  uint64_t stride = dtypeSize(arg.dtype());
  for (std::size_t i = 0; i < rank; ++i) {
    std::size_t d = rank - 1 - i; // innermost first
    uint64_t size = static_cast<uint64_t>(shape[d]);
    if (size > (uint64_t(1) << 32))
      throw refuse("takes sizes of at most 2^32, but " + param.buffer + "[" +
                   std::to_string(d) + "] = " + std::to_string(size));
    request.sizes[i] = size;
    request.box[i] = static_cast<uint32_t>(param.box[d]);
    if (i > 0) {
      if (stride % 16 != 0)
        throw refuse("needs the stride of dim " + std::to_string(d) +
                     " to be a multiple of 16 bytes, but it is " +
                     std::to_string(stride) + " bytes (shape " +
                     shapeText(shape) + " of " + dtypeName(arg.dtype()) + ")");
      if (stride >= (uint64_t(1) << 40))
        throw refuse("takes strides below 2^40 bytes, but dim " +
                     std::to_string(d) + " of " + param.buffer + " has " +
                     std::to_string(stride));
      request.strides[i - 1] = stride;
    }
    // (Sizes are at most 2^32 and the whole buffer fits in 2^63 bytes: no
    // overflow.)
    stride *= size;
  }
  return request;
}

/// Refuses an explicit grid beyond CUDA's limits.
void checkGridLimits(const std::string &prefix, Dim3 grid) {
  const unsigned extents[3] = {grid.x, grid.y, grid.z};
  for (int i = 0; i < 3; ++i)
    if (extents[i] > kMaxGridExtent[i])
      throw Error(prefix + "grid." + "xyz"[i] + " = " +
                  std::to_string(extents[i]) + " exceeds the CUDA limit of " +
                  std::to_string(kMaxGridExtent[i]));
}

/// Refuses an explicit grid with more blocks in some dimension than the
/// manifest's grid for these shapes: the contract (and the kernel's own
/// bounds, e.g. tile.subview's unchecked leading indices) covers only the
/// blocks of that grid. A smaller grid runs a part of the work.
void checkGridWithinManifest(const std::string &prefix, Dim3 grid,
                             Dim3 manifestGrid) {
  auto text = [](Dim3 g) {
    return "(" + std::to_string(g.x) + ", " + std::to_string(g.y) + ", " +
           std::to_string(g.z) + ")";
  };
  if (grid.x > manifestGrid.x || grid.y > manifestGrid.y ||
      grid.z > manifestGrid.z)
    throw Error(prefix + "the explicit grid " + text(grid) +
                " is larger than the grid " + text(manifestGrid) +
                " the manifest gives for these shapes; blocks past it would "
                "work outside the launch contract");
}

/// Checks and packs the arguments of a kernel whose description has been
/// validated (KernelInfo::validate: what packing relies on, one dim
/// parameter per dynamic dim, references, divisors >= 1).
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
  std::vector<uint64_t> bytes(args.size(), 0);
  for (std::size_t i = 0; i < args.size(); ++i) {
    const ParamInfo &param = *userParams[i];
    const Arg &arg = args[i];
    if (arg.kind() != param.kind)
      throw Error(prefix + "parameter '" + param.name + "' expects " +
                  kindText(param.kind) + ", but got " + kindText(arg.kind()));
    if (param.kind == ParamKind::Buffer) {
      bytes[i] = checkBuffer(prefix, param, arg);
      bufferShapes.push_back(arg.shape());
    } else if (arg.dtype() != param.dtype) {
      throw Error(prefix + "parameter '" + param.name +
                  "' expects a scalar of type " + dtypeName(param.dtype) +
                  ", but got " + dtypeName(arg.dtype()));
    }
  }
  // How the arguments fit together: the kernel's contract, then aliasing.
  checkRelations(prefix, kernel, userParams, args);
  checkAliasing(prefix, userParams, args, bytes);

  PackedLaunch packed;
  packed.persistent = kernel.persistent;
  if (explicitGrid) {
    checkGridLimits(prefix, *explicitGrid);
    checkGridWithinManifest(prefix, *explicitGrid,
                            kernel.gridFor(bufferShapes));
  }
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
      if (param.access == Access::Accumulate && bytes[nextArg - 1] != 0)
        packed.zeroFills.push_back({arg.devicePtr(), bytes[nextArg - 1]});
    } else if (param.kind == ParamKind::Scalar) {
      const Arg &arg = args[nextArg++];
      value.type = arg.dtype();
      std::memcpy(&value.bits, arg.scalarData(), dtypeSize(arg.dtype()));
    } else if (param.kind == ParamKind::TensorMap) {
      // validate() checked that it names a buffer parameter.
      std::size_t buffer = 0;
      while (userParams[buffer]->name != param.buffer)
        ++buffer;
      value.type = DType::i64;
      value.bits = packed.tensorMaps.size();
      packed.tensorMaps.push_back(tensorMapFor(prefix, param, args[buffer]));
    } else if (param.kind == ParamKind::Workspace) {
      // Kernel::launch allocates it for the launch's grid and stream.
      value.type = DType::i64;
      value.bits = 0;
      packed.workspace = PackedLaunch::Workspace{packed.params.size(),
                                                 uint64_t(param.bytesPerBlock)};
    } else {
      // A hidden dim: the size of a dimension of an (earlier or later) buffer
      // (validate() checked that it names one).
      value.type = DType::i64;
      int64_t size = sizeOf(userParams, args, param.buffer, param.dim);
      std::memcpy(&value.bits, &size, sizeof(size));
    }
    packed.params.push_back(value);
  }
  return packed;
}

} // namespace

// A KernelInfo may be built by hand: the public entry points validate it
// first.
PackedLaunch tile::rt::checkAndPack(const KernelInfo &kernel,
                                    const std::vector<Arg> &args) {
  kernel.validate();
  return pack(kernel, args, nullptr);
}

PackedLaunch tile::rt::checkAndPack(const KernelInfo &kernel,
                                    const std::vector<Arg> &args, Dim3 grid) {
  kernel.validate();
  return pack(kernel, args, &grid);
}

PackedLaunch tile::rt::detail::checkAndPackValidated(
    const KernelInfo &kernel, const std::vector<Arg> &args, const Dim3 *grid) {
  return pack(kernel, args, grid);
}
