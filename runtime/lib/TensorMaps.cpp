//===- TensorMaps.cpp - Encoding and caching TMA tensor maps --------------===//

#include "TensorMaps.h"

#include "DriverApi.h"

#include <algorithm>
#include <cstring>

using namespace tile::rt;
using namespace tile::rt::detail;

namespace {
CUtensorMapDataType dataType(DType dtype) {
  switch (dtype) {
  case DType::f16:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  case DType::bf16:
    return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  case DType::f32:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  case DType::f64:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT64;
  // Integers are moved, not interpreted: unsigned types of the same width.
  case DType::i8:
    return CU_TENSOR_MAP_DATA_TYPE_UINT8;
  case DType::i16:
    return CU_TENSOR_MAP_DATA_TYPE_UINT16;
  case DType::i32:
    return CU_TENSOR_MAP_DATA_TYPE_INT32;
  case DType::i64:
    return CU_TENSOR_MAP_DATA_TYPE_INT64;
  }
  return CU_TENSOR_MAP_DATA_TYPE_UINT8;
}

CUtensorMapSwizzle swizzleMode(int bytes) {
  switch (bytes) {
  case 32:
    return CU_TENSOR_MAP_SWIZZLE_32B;
  case 64:
    return CU_TENSOR_MAP_SWIZZLE_64B;
  case 128:
    return CU_TENSOR_MAP_SWIZZLE_128B;
  default:
    return CU_TENSOR_MAP_SWIZZLE_NONE;
  }
}

std::string describe(const TensorMapRequest &request) {
  std::string text = std::string(dtypeName(request.dtype)) + " sizes [";
  for (unsigned i = 0; i < request.rank; ++i)
    text += (i ? ", " : "") + std::to_string(request.sizes[i]);
  text += "], strides [";
  for (unsigned i = 0; i + 1 < request.rank; ++i)
    text += (i ? ", " : "") + std::to_string(request.strides[i]);
  text += "], box [";
  for (unsigned i = 0; i < request.rank; ++i)
    text += (i ? ", " : "") + std::to_string(request.box[i]);
  return text + "] (innermost first), swizzle " +
         std::to_string(request.swizzle);
}
} // namespace

CUtensorMap tile::rt::detail::encodeTensorMap(const TensorMapRequest &request,
                                              const std::string &kernel) {
  CUtensorMap map;
  std::memset(&map, 0, sizeof(map));
  if (request.empty())
    return map;
  const DriverApi &driver = api();
  if (!driver.TensorMapEncodeTiled)
    throw Error("kernel '" + kernel +
                "' reads or writes through TMA, but this CUDA driver has no "
                "cuTensorMapEncodeTiled (it needs CUDA 12 or newer)");
  cuuint32_t elementStrides[kMaxTensorMapRank] = {1, 1, 1, 1, 1};
  CUresult result = driver.TensorMapEncodeTiled(
      &map, dataType(request.dtype), request.rank,
      reinterpret_cast<void *>(request.address),
      reinterpret_cast<const cuuint64_t *>(request.sizes),
      reinterpret_cast<const cuuint64_t *>(request.strides),
      reinterpret_cast<const cuuint32_t *>(request.box), elementStrides,
      CU_TENSOR_MAP_INTERLEAVE_NONE, swizzleMode(request.swizzle),
      CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (result != CUDA_SUCCESS)
    throw cudaError("cuTensorMapEncodeTiled", result,
                    "kernel '" + kernel + "': " + describe(request));
  return map;
}

std::vector<CUtensorMap>
TensorMapCache::encode(const std::vector<TensorMapRequest> &requests,
                       const std::string &kernel) {
  std::vector<CUtensorMap> maps;
  maps.reserve(requests.size());
  std::lock_guard<std::mutex> lock(mutex_);
  for (const TensorMapRequest &request : requests) {
    auto hit =
        std::find_if(entries_.begin(), entries_.end(),
                     [&](const auto &entry) { return entry.first == request; });
    if (hit != entries_.end()) {
      maps.push_back(hit->second);
      continue;
    }
    CUtensorMap map = encodeTensorMap(request, kernel);
    ++encodeCount_;
    if (entries_.size() < kCapacity) {
      entries_.emplace_back(request, map);
    } else {
      entries_[next_] = {request, map};
      next_ = (next_ + 1) % kCapacity;
    }
    maps.push_back(map);
  }
  return maps;
}

std::size_t TensorMapCache::encodeCount() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return encodeCount_;
}
