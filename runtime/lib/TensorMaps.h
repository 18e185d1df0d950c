//===- TensorMaps.h - Encoding and caching TMA tensor maps ------*- C++ -*-===//
//
// Private to the runtime. A launch of a kernel with tensor_map parameters
// encodes one CUtensorMap per parameter (cuTensorMapEncodeTiled, a host-only
// driver call) from the requests checkAndPack made. Launches in a loop pass
// the same buffers again and again, so each module keeps the maps it
// encoded last.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_LIB_TENSORMAPS_H
#define TILE_RUNTIME_LIB_TENSORMAPS_H

#include "tile/runtime/Launch.h"

#include <cuda.h>

#include <mutex>
#include <utility>
#include <vector>

namespace tile::rt::detail {

/// cuTensorMapEncodeTiled for `request`: zero-filled out-of-bounds reads,
/// 256-byte L2 promotion, no interleave, element strides of 1. A request
/// for an empty buffer gives a zeroed map. Throws Error naming `kernel` and
/// the request when the driver refuses it or has no such call.
CUtensorMap encodeTensorMap(const TensorMapRequest &request,
                            const std::string &kernel);

/// The maps a module encoded last, at most kCapacity (oldest out first).
class TensorMapCache {
public:
  static constexpr std::size_t kCapacity = 64;

  /// The encodings of `requests`, in order, from the cache or encoded now.
  std::vector<CUtensorMap> encode(const std::vector<TensorMapRequest> &requests,
                                  const std::string &kernel);
  /// Maps encoded by the driver so far (cache misses), for tests.
  std::size_t encodeCount() const;

private:
  mutable std::mutex mutex_;
  std::vector<std::pair<TensorMapRequest, CUtensorMap>> entries_;
  std::size_t next_ = 0; // the slot to replace once full
  std::size_t encodeCount_ = 0;
};

} // namespace tile::rt::detail

#endif // TILE_RUNTIME_LIB_TENSORMAPS_H
