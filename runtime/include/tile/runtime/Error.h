//===- Error.h - Tile runtime error type ------------------------*- C++ -*-===//
//
// Every failure of the tile runtime is reported as a tile::rt::Error: failed
// CUDA Driver API calls (with the call name and the CUresult), malformed
// manifests, argument mismatches at kernel launch and I/O errors.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_ERROR_H
#define TILE_RUNTIME_ERROR_H

#include <cuda.h>

#include <stdexcept>
#include <string>

namespace tile::rt {

/// The exception thrown by the tile runtime.
///
/// For a failed CUDA call, call() is the Driver API function (for example
/// "cuModuleLoadData"), code() its CUresult and codeName() the name reported by
/// cuGetErrorName (for example "CUDA_ERROR_INVALID_IMAGE"); what() reads
///   cuModuleLoadData failed: CUDA_ERROR_INVALID_IMAGE (device kernel image is
///   invalid)
/// For other errors (manifest, argument checks, files) call() and codeName()
/// are empty and code() is CUDA_SUCCESS.
class Error : public std::runtime_error {
public:
  /// An error that is not the result of a CUDA call.
  explicit Error(const std::string &message);
  /// The failure of the CUDA Driver API function `call` with `code`.
  Error(std::string call, CUresult code, std::string codeName,
        const std::string &message);

  /// True if this error comes from a failed CUDA Driver API call.
  bool isCudaError() const { return !call_.empty(); }
  const std::string &call() const { return call_; }
  CUresult code() const { return code_; }
  const std::string &codeName() const { return codeName_; }

private:
  std::string call_;
  CUresult code_ = CUDA_SUCCESS;
  std::string codeName_;
};

} // namespace tile::rt

#endif // TILE_RUNTIME_ERROR_H
