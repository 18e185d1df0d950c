//===- DriverApi.h - CUDA Driver API loaded with dlopen ---------*- C++ -*-===//
//
// Private to the runtime. The table of CUDA Driver API entry points resolved
// from libcuda.so.1 at run time, and TILE_CU, the single checked way to call
// them. The runtime never links libcuda; cuda.h is used for types only.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_LIB_DRIVERAPI_H
#define TILE_RUNTIME_LIB_DRIVERAPI_H

#include "tile/runtime/Error.h"

#include <cuda.h>

#include <string>

namespace tile::rt::detail {

// X(Field, Symbol, Required): the table field, the exported symbol (the ABI
// version cuda.h maps the plain name to) and whether loading fails without it.
// TILE_CU(Field, ...) reports failures as "cu<Field> failed: ...".
#define TILE_RT_DRIVER_FUNCTIONS(X)                                            \
  X(Init, cuInit, true)                                                        \
  X(DriverGetVersion, cuDriverGetVersion, true)                                \
  X(GetErrorName, cuGetErrorName, true)                                        \
  X(GetErrorString, cuGetErrorString, true)                                    \
  X(DeviceGet, cuDeviceGet, true)                                              \
  X(DeviceGetCount, cuDeviceGetCount, true)                                    \
  X(DeviceGetName, cuDeviceGetName, true)                                      \
  X(DeviceGetAttribute, cuDeviceGetAttribute, true)                            \
  X(DeviceTotalMem, cuDeviceTotalMem_v2, true)                                 \
  X(DevicePrimaryCtxRetain, cuDevicePrimaryCtxRetain, true)                    \
  X(DevicePrimaryCtxRelease, cuDevicePrimaryCtxRelease_v2, true)               \
  X(CtxSetCurrent, cuCtxSetCurrent, true)                                      \
  X(CtxSynchronize, cuCtxSynchronize, true)                                    \
  X(ModuleLoadData, cuModuleLoadData, true)                                    \
  X(ModuleLoadDataEx, cuModuleLoadDataEx, false)                               \
  X(ModuleUnload, cuModuleUnload, true)                                        \
  X(ModuleGetFunction, cuModuleGetFunction, true)                              \
  X(FuncSetAttribute, cuFuncSetAttribute, true)                                \
  X(FuncGetAttribute, cuFuncGetAttribute, true)                                \
  X(LaunchKernel, cuLaunchKernel, true)                                        \
  X(MemAlloc, cuMemAlloc_v2, true)                                             \
  X(MemFree, cuMemFree_v2, true)                                               \
  X(MemcpyHtoD, cuMemcpyHtoD_v2, true)                                         \
  X(MemcpyDtoH, cuMemcpyDtoH_v2, true)                                         \
  X(MemcpyDtoD, cuMemcpyDtoD_v2, true)                                         \
  X(MemcpyDtoDAsync, cuMemcpyDtoDAsync_v2, true)                               \
  X(MemsetD8, cuMemsetD8_v2, true)                                             \
  X(MemsetD32, cuMemsetD32_v2, true)                                           \
  X(MemsetD8Async, cuMemsetD8Async, true)                                      \
  X(StreamCreate, cuStreamCreate, true)                                        \
  X(StreamDestroy, cuStreamDestroy_v2, true)                                   \
  X(StreamSynchronize, cuStreamSynchronize, true)                              \
  X(EventCreate, cuEventCreate, true)                                          \
  X(EventDestroy, cuEventDestroy_v2, true)                                     \
  X(EventRecord, cuEventRecord, true)                                          \
  X(EventSynchronize, cuEventSynchronize, true)                                \
  /* Drivers before CUDA 12.8 export only cuEventElapsedTime (same ABI). */    \
  X(EventElapsedTime, cuEventElapsedTime_v2, true)                             \
  X(OccupancyMaxActiveBlocksPerMultiprocessor,                                 \
    cuOccupancyMaxActiveBlocksPerMultiprocessor, false)                        \
  /* CUDA 11.8+: clusters that fit at once (persistent cluster kernels). */    \
  X(OccupancyMaxActiveClusters, cuOccupancyMaxActiveClusters, false)           \
  /* CUDA 12+: tensor maps for TMA (sm_90a kernels). */                        \
  X(TensorMapEncodeTiled, cuTensorMapEncodeTiled, false)

struct DriverApi {
#define TILE_RT_DECLARE_FIELD(Field, Symbol, Required)                         \
  decltype(&::Symbol) Field = nullptr;
  TILE_RT_DRIVER_FUNCTIONS(TILE_RT_DECLARE_FIELD)
#undef TILE_RT_DECLARE_FIELD
};

/// The loaded driver; throws Error ("no CUDA driver" / "no CUDA GPU") if it
/// cannot be loaded or initialised.
const DriverApi &api();

/// The Error for the failure of `call` with `result`, its message extended by
/// `context` if not empty.
Error cudaError(const char *call, CUresult result,
                const std::string &context = "");

inline void check(CUresult result, const char *call) {
  if (result != CUDA_SUCCESS)
    throw cudaError(call, result);
}

} // namespace tile::rt::detail

/// Calls cu<Field>(args...) through the loaded table; throws Error on failure.
#define TILE_CU(Field, ...)                                                    \
  ::tile::rt::detail::check(::tile::rt::detail::api().Field(__VA_ARGS__),      \
                            "cu" #Field)

/// The same for destructors: the result is deliberately ignored.
#define TILE_CU_NOTHROW(Field, ...)                                            \
  static_cast<void>(::tile::rt::detail::api().Field(__VA_ARGS__))

#endif // TILE_RUNTIME_LIB_DRIVERAPI_H
