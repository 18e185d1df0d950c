//===- Manifest.cpp - Kernel descriptions: queries and validation ---------===//
//
// What a kernel description answers (its user parameters, its grid for given
// shapes) and the checks of its consistency (KernelInfo::validate); the pure
// target helpers (dtypes, chips, image kinds). The JSON reader is
// ManifestParser.cpp.
//
//===----------------------------------------------------------------------===//

#include "tile/runtime/Manifest.h"
#include "tile/runtime/Error.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>

using namespace tile::rt;

//===----------------------------------------------------------------------===//
// DType
//===----------------------------------------------------------------------===//

namespace {
struct DTypeEntry {
  DType type;
  const char *name;
  std::size_t size;
};
constexpr DTypeEntry kDTypes[] = {
    {DType::f16, "f16", 2}, {DType::bf16, "bf16", 2}, {DType::f32, "f32", 4},
    {DType::f64, "f64", 8}, {DType::i8, "i8", 1},     {DType::i16, "i16", 2},
    {DType::i32, "i32", 4}, {DType::i64, "i64", 8},
};
} // namespace

const char *tile::rt::dtypeName(DType type) {
  for (const DTypeEntry &entry : kDTypes)
    if (entry.type == type)
      return entry.name;
  return "<invalid dtype>";
}

std::optional<DType> tile::rt::parseDType(std::string_view name) {
  for (const DTypeEntry &entry : kDTypes)
    if (name == entry.name)
      return entry.type;
  return std::nullopt;
}

std::size_t tile::rt::dtypeSize(DType type) {
  for (const DTypeEntry &entry : kDTypes)
    if (entry.type == type)
      return entry.size;
  return 0;
}

//===----------------------------------------------------------------------===//
// Access and shape relations
//===----------------------------------------------------------------------===//

const char *tile::rt::accessName(Access access) {
  switch (access) {
  case Access::Read:
    return "read";
  case Access::Write:
    return "write";
  case Access::ReadWrite:
    return "readwrite";
  case Access::Accumulate:
    return "accumulate";
  }
  return "<invalid access>";
}

const char *ShapeRelation::opName(Op op) {
  switch (op) {
  case Op::Eq:
    return "==";
  case Op::Le:
    return "<=";
  case Op::Ge:
    return ">=";
  case Op::Divides:
    return "divides";
  }
  return "<invalid op>";
}

bool ShapeRelation::holds(int64_t lhsSize, int64_t rhsSize) const {
  switch (op) {
  case Op::Eq:
    return lhsSize == rhsSize;
  case Op::Le:
    return lhsSize <= rhsSize;
  case Op::Ge:
    return lhsSize >= rhsSize;
  case Op::Divides:
    // (-1 divides everything; INT64_MIN % -1 would overflow.)
    return lhsSize == 0    ? rhsSize == 0
           : lhsSize == -1 ? true
                           : rhsSize % lhsSize == 0;
  }
  return false;
}

std::string ShapeRelation::str() const {
  auto dim = [](const DimRef &ref) {
    return ref.param + "[" + std::to_string(ref.dim) + "]";
  };
  return dim(lhs) + " " + opName(op) + " " +
         (rhsIsDim ? dim(rhs) : std::to_string(value));
}

//===----------------------------------------------------------------------===//
// Targets
//===----------------------------------------------------------------------===//

namespace {
/// sm_<major><minor>[a|f] -> capability and suffix ('\0', 'a' or 'f').
bool splitChip(std::string_view chip, ComputeCapability &capability,
               char &suffix) {
  if (chip.substr(0, 3) != "sm_")
    return false;
  chip.remove_prefix(3);
  suffix = '\0';
  if (!chip.empty() && (chip.back() == 'a' || chip.back() == 'f')) {
    suffix = chip.back();
    chip.remove_suffix(1);
  }
  if (chip.size() < 2 || chip.size() > 4)
    return false;
  int number = 0;
  for (char c : chip) {
    if (c < '0' || c > '9')
      return false;
    number = number * 10 + (c - '0');
  }
  capability = {number / 10, number % 10};
  return capability.major > 0;
}
} // namespace

std::optional<ComputeCapability> tile::rt::parseChip(std::string_view chip) {
  ComputeCapability capability;
  char suffix;
  if (!splitChip(chip, capability, suffix))
    return std::nullopt;
  return capability;
}

ImageKind tile::rt::detectImageKind(const void *data, std::size_t size) {
  const auto *bytes = static_cast<const unsigned char *>(data);
  if (size >= 4 && bytes[0] == 0x7f && bytes[1] == 'E' && bytes[2] == 'L' &&
      bytes[3] == 'F')
    return ImageKind::Cubin;
  // The fatbinary file magic 0xBA55ED50, little endian.
  if (size >= 4 && bytes[0] == 0x50 && bytes[1] == 0xED && bytes[2] == 0x55 &&
      bytes[3] == 0xBA)
    return ImageKind::Fatbin;
  return ImageKind::Ptx;
}

bool tile::rt::isChipCompatible(std::string_view chip, ComputeCapability device,
                                ImageKind kind) {
  ComputeCapability target;
  char suffix;
  if (!splitChip(chip, target, suffix))
    return false;
  if (suffix == 'a')
    return device.major == target.major && device.minor == target.minor;
  if (kind == ImageKind::Cubin || suffix == 'f')
    return device.major == target.major && device.minor >= target.minor;
  return device.major > target.major ||
         (device.major == target.major && device.minor >= target.minor);
}

//===----------------------------------------------------------------------===//
// Kernel and manifest queries
//===----------------------------------------------------------------------===//

std::vector<const ParamInfo *> KernelInfo::userParams() const {
  std::vector<const ParamInfo *> result;
  for (const ParamInfo &param : params)
    if (param.kind == ParamKind::Buffer || param.kind == ParamKind::Scalar)
      result.push_back(&param);
  return result;
}

const ParamInfo *KernelInfo::findParam(std::string_view paramName) const {
  for (const ParamInfo &param : params)
    if (param.name == paramName)
      return &param;
  return nullptr;
}

Dim3 KernelInfo::gridFor(
    const std::vector<std::vector<int64_t>> &bufferShapes) const {
  std::string prefix = "kernel '" + name + "': ";
  std::vector<const ParamInfo *> buffers;
  for (const ParamInfo &param : params)
    if (param.kind == ParamKind::Buffer)
      buffers.push_back(&param);
  if (bufferShapes.size() != buffers.size())
    throw Error(prefix + "the grid needs " + std::to_string(buffers.size()) +
                " buffer shapes, but got " +
                std::to_string(bufferShapes.size()));
  if (grid.size() > 3)
    throw Error(prefix + "the grid has " + std::to_string(grid.size()) +
                " extents, but at most 3 are allowed");

  int64_t extents[3] = {1, 1, 1};
  for (std::size_t i = 0; i < grid.size(); ++i) {
    const GridExtent &extent = grid[i];
    std::string where = prefix + "grid[" + std::to_string(i) + "]: ";
    if (extent.kind == GridExtent::Kind::Const) {
      if (extent.value < 0)
        throw Error(where + "negative extent " + std::to_string(extent.value));
      extents[i] = extent.value;
      continue;
    }
    std::size_t index = 0;
    while (index < buffers.size() && buffers[index]->name != extent.param)
      ++index;
    if (index == buffers.size())
      throw Error(where + "'" + extent.param + "' is not a buffer parameter");
    const std::vector<int64_t> &shape = bufferShapes[index];
    if (extent.dim < 0 || static_cast<std::size_t>(extent.dim) >= shape.size())
      throw Error(where + "uses dim " + std::to_string(extent.dim) + " of '" +
                  extent.param + "', but its shape has rank " +
                  std::to_string(shape.size()));
    int64_t size = shape[extent.dim];
    if (size < 0)
      throw Error(where + "size " + std::to_string(size) + " of dim " +
                  std::to_string(extent.dim) + " of '" + extent.param +
                  "' is negative");
    if (extent.divisor < 1)
      throw Error(where + "divisor must be >= 1, but got " +
                  std::to_string(extent.divisor));
    extents[i] = size / extent.divisor + (size % extent.divisor != 0);
  }

  if (persistent) {
    // All tiles in x (the kernel walks them itself, gridDim.x apart), at
    // most CUDA's limit: a smaller grid still covers every tile. With
    // clusters, one cluster of blocks per cluster tile, in whole clusters.
    uint64_t blocks = persistent->clusterBlocks();
    uint64_t tiles = 1;
    for (std::size_t i = 0; i < 3; ++i) {
      uint64_t extent = uint64_t(extents[i]);
      if (i < persistent->cluster.size())
        extent = (extent + persistent->cluster[i] - 1) / persistent->cluster[i];
      tiles = extent == 0 ? 0
                          : std::min<uint64_t>(tiles * extent,
                                               kMaxGridExtent[0] / blocks);
    }
    return Dim3{static_cast<unsigned>(tiles * blocks), 1, 1};
  }
  const int64_t limits[3] = {std::numeric_limits<int32_t>::max(), 65535, 65535};
  const char *axes = "xyz";
  for (int i = 0; i < 3; ++i)
    if (extents[i] > limits[i])
      throw Error(prefix + "grid." + axes[i] + " = " +
                  std::to_string(extents[i]) + " exceeds the CUDA limit of " +
                  std::to_string(limits[i]));
  return Dim3{static_cast<unsigned>(extents[0]),
              static_cast<unsigned>(extents[1]),
              static_cast<unsigned>(extents[2])};
}

namespace {
/// Why `bufferName`[`dim`] is not a dimension of a buffer parameter of
/// `kernel`, or nothing (and no allocation) when it is.
std::optional<std::string> bufferDimProblem(const KernelInfo &kernel,
                                            const std::string &bufferName,
                                            int dim) {
  const ParamInfo *buffer = kernel.findParam(bufferName);
  if (!buffer)
    return "refers to unknown buffer '" + bufferName + "'";
  if (buffer->kind != ParamKind::Buffer)
    return "refers to '" + bufferName + "', which is not a buffer";
  if (dim < 0 || static_cast<std::size_t>(dim) >= buffer->shape.size())
    return "refers to dim " + std::to_string(dim) + " of buffer '" +
           bufferName + "', which has rank " +
           std::to_string(buffer->shape.size());
  return std::nullopt;
}
} // namespace

namespace {
/// The rules of cuTensorMapEncodeTiled that hold for every launch: a buffer
/// of rank 1 to 5, one box extent in [1, 256] per dim, a known swizzle, a
/// box row of whole 16-byte units and, when swizzled, no wider than the
/// swizzle. (What depends on the arguments, the address and the row
/// strides, checkAndPack checks.)
void validateTensorMap(const std::string &where, const ParamInfo &map,
                       const ParamInfo *buffer) {
  if (!buffer || buffer->kind != ParamKind::Buffer)
    throw Error(where + "describes '" + map.buffer +
                "', which is not a buffer parameter");
  std::size_t rank = buffer->shape.size();
  if (rank < 1 || rank > kMaxTensorMapRank)
    throw Error(where + "describes buffer '" + map.buffer + "' of rank " +
                std::to_string(rank) + ", but TMA takes ranks 1 to " +
                std::to_string(kMaxTensorMapRank));
  if (map.box.size() != rank)
    throw Error(where + "has a box of " + std::to_string(map.box.size()) +
                " extents, but buffer '" + map.buffer + "' has rank " +
                std::to_string(rank));
  for (std::size_t d = 0; d < rank; ++d)
    if (map.box[d] < 1 || map.box[d] > kMaxTensorMapBox)
      throw Error(where + "box[" + std::to_string(d) +
                  "] must be in [1, 256], but got " +
                  std::to_string(map.box[d]));
  if (map.swizzle != 0 && map.swizzle != 32 && map.swizzle != 64 &&
      map.swizzle != 128)
    throw Error(where + "swizzle must be 0, 32, 64 or 128 bytes, but got " +
                std::to_string(map.swizzle));
  int64_t rowBytes = map.box.back() * int64_t(dtypeSize(buffer->dtype));
  if (rowBytes % 16 != 0)
    throw Error(where + "a box row of " + std::to_string(map.box.back()) + " " +
                dtypeName(buffer->dtype) + " is " + std::to_string(rowBytes) +
                " bytes, but TMA moves rows of whole 16-byte units");
  if (map.swizzle != 0 && rowBytes > map.swizzle)
    throw Error(where + "a box row of " + std::to_string(rowBytes) +
                " bytes is wider than its " + std::to_string(map.swizzle) +
                "-byte swizzle");
}
} // namespace

void KernelInfo::validate() const {
  // Nothing is built on the success path: a launch validates its kernel.
  if (name.empty())
    throw Error("kernel description: field 'name' is empty");
  if (name.size() > kMaxNameLength)
    throw Error("kernel description: the kernel name has " +
                std::to_string(name.size()) + " bytes, but at most " +
                std::to_string(kMaxNameLength) + " are allowed");
  auto prefix = [&](const std::string &where = "") {
    return "kernel '" + name + "': " + (where.empty() ? "" : where + ": ");
  };

  const unsigned blockDims[3] = {block.x, block.y, block.z};
  const unsigned blockLimits[3] = {1024, 1024, 64};
  for (int i = 0; i < 3; ++i)
    if (blockDims[i] < 1 || blockDims[i] > blockLimits[i])
      throw Error(prefix() + "block." + "xyz"[i] + " = " +
                  std::to_string(blockDims[i]) +
                  " is outside CUDA's range [1, " +
                  std::to_string(blockLimits[i]) + "]");
  uint64_t threads = uint64_t(block.x) * block.y * block.z;
  if (threads > 1024)
    throw Error(prefix() + "block " + std::to_string(block.x) + " x " +
                std::to_string(block.y) + " x " + std::to_string(block.z) +
                " has " + std::to_string(threads) +
                " threads, but CUDA allows at most 1024 per block");

  // (Bounded counts keep the quadratic checks below fast on any input.)
  if (params.size() > kMaxParams)
    throw Error(prefix() + "has " + std::to_string(params.size()) +
                " parameters, but at most " + std::to_string(kMaxParams) +
                " are allowed (CUDA passes at most 32764 bytes of kernel "
                "parameters)");
  if (relations.size() > kMaxRelations)
    throw Error(prefix() + "has " + std::to_string(relations.size()) +
                " relations, but at most " + std::to_string(kMaxRelations) +
                " are allowed");
  for (std::size_t i = 0; i < params.size(); ++i) {
    const ParamInfo &param = params[i];
    if (param.name.empty())
      throw Error(prefix("params[" + std::to_string(i) + "]") +
                  "field 'name' is empty");
    if (param.name.size() > kMaxNameLength)
      throw Error(prefix("params[" + std::to_string(i) + "]") +
                  "the name has " + std::to_string(param.name.size()) +
                  " bytes, but at most " + std::to_string(kMaxNameLength) +
                  " are allowed");
    for (std::size_t j = 0; j < i; ++j)
      if (params[j].name == param.name)
        throw Error(prefix() + "duplicate param name '" + param.name + "'");
    switch (param.kind) {
    case ParamKind::Buffer:
      if (param.shape.size() > kMaxRank)
        throw Error(prefix("param '" + param.name + "'") + "has rank " +
                    std::to_string(param.shape.size()) + ", but at most " +
                    std::to_string(kMaxRank) + " is allowed");
      for (std::size_t d = 0; d < param.shape.size(); ++d)
        if (param.shape[d] < -1)
          throw Error(prefix("param '" + param.name + "'") + "shape[" +
                      std::to_string(d) + "] must be >= -1, but got " +
                      std::to_string(param.shape[d]));
      if (!param.divisibility.empty() &&
          param.divisibility.size() != param.shape.size())
        throw Error(prefix("param '" + param.name + "'") +
                    "field 'divisibility' has " +
                    std::to_string(param.divisibility.size()) +
                    " entries, but the shape has " +
                    std::to_string(param.shape.size()));
      for (std::size_t d = 0; d < param.divisibility.size(); ++d)
        if (param.divisibility[d] < 1)
          throw Error(prefix("param '" + param.name + "'") + "divisibility[" +
                      std::to_string(d) + "] must be >= 1, but got " +
                      std::to_string(param.divisibility[d]));
      break;
    case ParamKind::Dim:
      if (param.dtype != DType::i64)
        throw Error(prefix("param '" + param.name + "'") +
                    "dim parameters have type i64, but got '" +
                    dtypeName(param.dtype) + "'");
      break;
    case ParamKind::Scalar:
      if (param.dtype != DType::f32 && param.dtype != DType::f64 &&
          param.dtype != DType::i32 && param.dtype != DType::i64)
        throw Error(prefix("param '" + param.name + "'") +
                    "unsupported scalar type '" + dtypeName(param.dtype) +
                    "' (expected f32, f64, i32 or i64)");
      break;
    case ParamKind::TensorMap:
      // Checked below, once every buffer is known.
      break;
    case ParamKind::Workspace:
      if (param.bytesPerBlock < 1 || param.bytesPerBlock > (int64_t(1) << 32))
        throw Error(prefix("param '" + param.name + "'") +
                    "bytes_per_block must be in [1, 2^32], but got " +
                    std::to_string(param.bytesPerBlock));
      // Bytes per block of the launched grid: bounded only where the grid
      // is (a persistent grid has at most blocks_per_sm per SM).
      if (!persistent)
        throw Error(prefix("param '" + param.name + "'") +
                    "a workspace is sized per block of a persistent grid: "
                    "expected a 'persistent' kernel, but got none");
      if (std::count_if(params.begin(), params.end(), [](const ParamInfo &p) {
            return p.kind == ParamKind::Workspace;
          }) > 1)
        throw Error(prefix() + "expected at most one workspace parameter");
      break;
    }
  }
  for (const ParamInfo &param : params)
    if (param.kind == ParamKind::TensorMap)
      validateTensorMap(prefix("param '" + param.name + "'"), param,
                        findParam(param.buffer));
  if (persistent && (persistent->blocksPerMultiprocessor < 1 ||
                     persistent->blocksPerMultiprocessor > 32))
    throw Error(prefix() +
                "persistent: blocks_per_sm must be in [1, 32], but got " +
                std::to_string(persistent->blocksPerMultiprocessor));
  if (persistent && !persistent->cluster.empty()) {
    if (persistent->cluster.size() != grid.size())
      throw Error(prefix() + "persistent: expected one cluster extent per " +
                  "grid extent (" + std::to_string(grid.size()) +
                  "), but got " + std::to_string(persistent->cluster.size()));
    std::string limit = std::to_string(kMaxClusterBlocks);
    for (unsigned extent : persistent->cluster)
      if (extent < 1 || extent > kMaxClusterBlocks)
        throw Error(prefix() + "persistent: cluster extents must be in [1, " +
                    limit + "], but got " + std::to_string(extent));
    if (persistent->clusterBlocks() > kMaxClusterBlocks)
      throw Error(prefix() + "persistent: a cluster holds at most " + limit +
                  " blocks, but got " +
                  std::to_string(persistent->clusterBlocks()));
  }

  // Each dynamic dimension reaches the kernel through exactly one hidden
  // dim parameter, a static one through none: otherwise the binary's
  // signature and the packed parameters disagree, and every later parameter
  // would shift.
  for (const ParamInfo &param : params) {
    if (param.kind != ParamKind::Dim)
      continue;
    if (auto problem = bufferDimProblem(*this, param.buffer, param.dim))
      throw Error(prefix("param '" + param.name + "'") + *problem);
    int64_t size = findParam(param.buffer)->shape[param.dim];
    if (size >= 0)
      throw Error(prefix("param '" + param.name + "'") + "refers to dim " +
                  std::to_string(param.dim) + " of buffer '" + param.buffer +
                  "', which is static (size " + std::to_string(size) +
                  "); only dynamic dims are passed as dim parameters");
  }
  for (const ParamInfo &buffer : params) {
    if (buffer.kind != ParamKind::Buffer)
      continue;
    for (std::size_t d = 0; d < buffer.shape.size(); ++d) {
      if (buffer.shape[d] >= 0)
        continue;
      const ParamInfo *first = nullptr;
      for (const ParamInfo &param : params) {
        if (param.kind != ParamKind::Dim || param.buffer != buffer.name ||
            param.dim != static_cast<int>(d))
          continue;
        if (first)
          throw Error(prefix("param '" + buffer.name + "'") + "dim " +
                      std::to_string(d) +
                      " is passed by two dim parameters, '" + first->name +
                      "' and '" + param.name +
                      "', but a dynamic dim has exactly one");
        first = &param;
      }
      if (!first)
        throw Error(prefix("param '" + buffer.name + "'") + "dim " +
                    std::to_string(d) +
                    " is dynamic, but no dim parameter passes its size to "
                    "the kernel (expected one with \"buffer\": \"" +
                    buffer.name + "\", \"dim\": " + std::to_string(d) + ")");
    }
  }

  if (grid.empty() || grid.size() > 3)
    throw Error(prefix() + "the grid has " + std::to_string(grid.size()) +
                " extents, but 1 to 3 are required");
  for (std::size_t i = 0; i < grid.size(); ++i) {
    const GridExtent &extent = grid[i];
    auto where = [&] { return prefix("grid[" + std::to_string(i) + "]"); };
    if (extent.kind == GridExtent::Kind::Const) {
      if (extent.value < 0)
        throw Error(where() + "negative extent " +
                    std::to_string(extent.value));
      continue;
    }
    if (auto problem = bufferDimProblem(*this, extent.param, extent.dim))
      throw Error(where() + *problem);
    if (extent.divisor < 1)
      throw Error(where() + "divisor must be >= 1, but got " +
                  std::to_string(extent.divisor));
  }

  for (std::size_t i = 0; i < relations.size(); ++i) {
    const ShapeRelation &relation = relations[i];
    std::optional<std::string> problem =
        bufferDimProblem(*this, relation.lhs.param, relation.lhs.dim);
    if (!problem && relation.rhsIsDim)
      problem = bufferDimProblem(*this, relation.rhs.param, relation.rhs.dim);
    if (!problem && relation.op == ShapeRelation::Op::Divides &&
        !relation.rhsIsDim)
      problem = "'divides' needs a dimension on the right, but got the "
                "value " +
                std::to_string(relation.value);
    if (problem)
      throw Error(prefix("requires[" + std::to_string(i) + "]") + *problem);
  }
}

const KernelInfo *ManifestInfo::findKernel(std::string_view name) const {
  for (const KernelInfo &kernel : kernels)
    if (kernel.name == name)
      return &kernel;
  return nullptr;
}

std::vector<std::string> ManifestInfo::kernelNames() const {
  std::vector<std::string> names;
  for (const KernelInfo &kernel : kernels)
    names.push_back(kernel.name);
  return names;
}
