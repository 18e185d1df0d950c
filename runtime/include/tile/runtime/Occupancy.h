//===- Occupancy.h - Kernel resources and theoretical occupancy -*- C++ -*-===//
//
// What a loaded kernel uses per block (registers, shared and local memory)
// and how many of its blocks fit on one multiprocessor. The driver's
// occupancy API gives the number; estimateOccupancy recomputes it from the
// same limits so a profiler can also say *which* resource caps it (the
// answer kernel engineers act on: fewer registers, less shared memory or
// smaller blocks). Pure functions here; Kernel::occupancy() (Runtime.h)
// combines them with the device's values.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_OCCUPANCY_H
#define TILE_RUNTIME_OCCUPANCY_H

#include <string>

namespace tile::rt {

/// Per-block resources of a compiled kernel (cuFuncGetAttribute plus the
/// manifest's block size and dynamic shared memory).
struct KernelResources {
  int threadsPerBlock = 0;
  int registersPerThread = 0;
  int staticSharedBytes = 0;
  int dynamicSharedBytes = 0;
  /// Local memory per thread: spilled registers and stack arrays.
  int localBytesPerThread = 0;
};

/// What one multiprocessor offers (cuDeviceGetAttribute).
struct MultiprocessorLimits {
  int maxThreads = 2048;
  int maxBlocks = 32;
  int registers = 65536;
  int sharedBytes = 233472;
  /// Shared memory the system keeps per block (1 KiB since sm_80).
  int reservedSharedPerBlock = 1024;
  int warpSize = 32;
  /// Registers are handed out per warp in units of this many, from one of
  /// `schedulers` equal register-file partitions.
  int registerAllocationUnit = 256;
  int schedulers = 4;
  /// Shared memory is handed out per block in units of this many bytes.
  int sharedAllocationUnit = 128;
};

/// Blocks per multiprocessor and the resource that limits them.
struct Occupancy {
  int blocksPerMultiprocessor = 0;
  int warpsPerMultiprocessor = 0;
  int maxWarpsPerMultiprocessor = 0;
  /// warpsPerMultiprocessor / maxWarpsPerMultiprocessor.
  double fraction = 0;
  /// The limit each resource alone allows (blocks per multiprocessor).
  int byThreads = 0, byBlocks = 0, byRegisters = 0, byShared = 0;
  /// "threads", "blocks", "registers" or "shared memory" (the smallest of
  /// the four; several joined with '+' when they tie).
  std::string limiter;
};

/// The theoretical occupancy of a kernel with `resources` on a
/// multiprocessor with `limits`, by the CUDA occupancy rules. Throws Error for
/// limits no device has (a warp size below 1, a negative count); resources
/// of any size give counts, clamped to INT_MAX (no block: all zero).
Occupancy estimateOccupancy(const KernelResources &resources,
                            const MultiprocessorLimits &limits);

} // namespace tile::rt

#endif // TILE_RUNTIME_OCCUPANCY_H
