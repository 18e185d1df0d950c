//===- Driver.cpp - Loading libcuda at run time ---------------------------===//
//
// Opens libcuda.so.1 with dlopen on first use, resolves the Driver API table
// and calls cuInit. A process without driver or GPU gets a clear reason
// instead of a crash. Also implements tile::rt::Error.
//
//===----------------------------------------------------------------------===//

#include "DriverApi.h"

#include "tile/runtime/Runtime.h"

#include <cstdlib>
#include <dlfcn.h>
#include <string>
#include <utility>

using namespace tile::rt;
using namespace tile::rt::detail;

//===----------------------------------------------------------------------===//
// Error
//===----------------------------------------------------------------------===//

Error::Error(const std::string &message) : std::runtime_error(message) {}

Error::Error(std::string call, CUresult code, std::string codeName,
             const std::string &message)
    : std::runtime_error(message), call_(std::move(call)), code_(code),
      codeName_(std::move(codeName)) {}

//===----------------------------------------------------------------------===//
// Loading
//===----------------------------------------------------------------------===//

namespace {

struct DriverState {
  DriverApi api;
  bool loaded = false;    // libcuda opened and all required symbols found
  bool available = false; // ... and cuInit succeeded
  std::string whyNot;
  int version = 0;
  int deviceCount = 0;
};

/// Names of the results a driver that cannot name them (the link stub, a
/// failed cuInit) is likely to return.
const char *fallbackName(CUresult result) {
  switch (result) {
  case CUDA_ERROR_NOT_INITIALIZED:
    return "CUDA_ERROR_NOT_INITIALIZED";
  case CUDA_ERROR_STUB_LIBRARY:
    return "CUDA_ERROR_STUB_LIBRARY";
  case CUDA_ERROR_SYSTEM_DRIVER_MISMATCH:
    return "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH";
  case CUDA_ERROR_NO_DEVICE:
    return "CUDA_ERROR_NO_DEVICE";
  default:
    return nullptr;
  }
}

/// The name and description of `result`, from the driver if it can.
std::pair<std::string, std::string> describe(const DriverApi &api,
                                             CUresult result) {
  const char *name = nullptr;
  const char *text = nullptr;
  if (!api.GetErrorName || api.GetErrorName(result, &name) != CUDA_SUCCESS)
    name = fallbackName(result);
  if (!api.GetErrorString || api.GetErrorString(result, &text) != CUDA_SUCCESS)
    text = nullptr;
  if (!text && result == CUDA_ERROR_STUB_LIBRARY)
    text = "libcuda is the toolkit's link stub, not a real driver";
  std::string nameStr =
      name ? name : "CUresult " + std::to_string(static_cast<int>(result));
  return {nameStr, text ? text : ""};
}

std::string formatCudaFailure(const char *call, const std::string &name,
                              const std::string &text) {
  std::string message = std::string(call) + " failed: " + name;
  if (!text.empty())
    message += " (" + text + ")";
  return message;
}

DriverState loadDriver() {
  DriverState state;
  // TILE_RUNTIME_LIBCUDA overrides the library (for tests and odd installs).
  const char *override = std::getenv("TILE_RUNTIME_LIBCUDA");
  std::string library = override && *override ? override : "libcuda.so.1";

  dlerror();
  void *handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *reason = dlerror();
    state.whyNot = "no CUDA driver: cannot load " + library + " (" +
                   (reason ? reason : "unknown dlopen error") +
                   "); is the NVIDIA driver installed and is there a GPU?";
    return state;
  }
  // The handle is never closed: the table lives as long as the process.

#define TILE_RT_RESOLVE(Field, Symbol, Required)                               \
  state.api.Field =                                                            \
      reinterpret_cast<decltype(state.api.Field)>(dlsym(handle, #Symbol));
  TILE_RT_DRIVER_FUNCTIONS(TILE_RT_RESOLVE)
#undef TILE_RT_RESOLVE
  if (!state.api.EventElapsedTime)
    state.api.EventElapsedTime =
        reinterpret_cast<decltype(state.api.EventElapsedTime)>(
            dlsym(handle, "cuEventElapsedTime"));

  std::string missing;
#define TILE_RT_CHECK_RESOLVED(Field, Symbol, Required)                        \
  if (Required && !state.api.Field)                                            \
    missing += std::string(missing.empty() ? "" : ", ") + #Symbol;
  TILE_RT_DRIVER_FUNCTIONS(TILE_RT_CHECK_RESOLVED)
#undef TILE_RT_CHECK_RESOLVED
  if (!missing.empty()) {
    state.whyNot = "unusable CUDA driver: " + library + " lacks " + missing +
                   " (driver too old?)";
    return state;
  }
  state.loaded = true;

  if (CUresult result = state.api.Init(0); result != CUDA_SUCCESS) {
    auto [name, text] = describe(state.api, result);
    state.whyNot = (result == CUDA_ERROR_NO_DEVICE ? "no CUDA GPU: "
                                                   : "unusable CUDA driver: ") +
                   formatCudaFailure("cuInit", name, text);
    return state;
  }
  state.available = true;
  if (state.api.DriverGetVersion(&state.version) != CUDA_SUCCESS)
    state.version = 0;
  if (state.api.DeviceGetCount(&state.deviceCount) != CUDA_SUCCESS)
    state.deviceCount = 0;
  return state;
}

const DriverState &driverState() {
  static const DriverState state = loadDriver();
  return state;
}

} // namespace

const DriverApi &detail::api() {
  const DriverState &state = driverState();
  if (!state.available)
    throw Error(state.whyNot);
  return state.api;
}

Error detail::cudaError(const char *call, CUresult result,
                        const std::string &context) {
  auto [name, text] = describe(driverState().api, result);
  std::string message = formatCudaFailure(call, name, text);
  if (!context.empty())
    message += " while " + context;
  return Error(call, result, name, message);
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

Driver Driver::probe() {
  Driver driver;
  try {
    const DriverState &state = driverState();
    driver.available_ = state.available;
    driver.whyNot_ = state.whyNot;
    driver.version_ = state.version;
    driver.deviceCount_ = state.deviceCount;
  } catch (...) {
    driver.available_ = false;
    driver.whyNot_ = "no CUDA driver: loading it failed unexpectedly";
  }
  return driver;
}

std::string Driver::versionString() const {
  if (version_ <= 0)
    return "";
  return std::to_string(version_ / 1000) + "." +
         std::to_string(version_ % 1000 / 10);
}

bool tile::rt::isDriverAvailable(std::string *whyNot) {
  Driver driver = Driver::probe();
  if (!driver.available() && whyNot)
    *whyNot = driver.whyNot();
  return driver.available();
}

int tile::rt::deviceCount() { return Driver::probe().deviceCount(); }
