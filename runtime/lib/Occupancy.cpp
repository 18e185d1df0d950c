//===- Occupancy.cpp - Theoretical occupancy ------------------------------===//

#include "tile/runtime/Occupancy.h"

#include <algorithm>
#include <climits>

namespace tile::rt {

namespace {
int roundUp(int value, int unit) {
  return unit > 0 ? (value + unit - 1) / unit * unit : value;
}
} // namespace

Occupancy estimateOccupancy(const KernelResources &resources,
                            const MultiprocessorLimits &limits) {
  Occupancy o;
  o.maxWarpsPerMultiprocessor = limits.maxThreads / limits.warpSize;
  if (resources.threadsPerBlock <= 0)
    return o;
  int warpsPerBlock =
      (resources.threadsPerBlock + limits.warpSize - 1) / limits.warpSize;

  o.byThreads = o.maxWarpsPerMultiprocessor / warpsPerBlock;
  o.byBlocks = limits.maxBlocks;
  // Each warp takes its registers from one scheduler's partition of the
  // register file, so the warps per partition are what counts.
  o.byRegisters = INT_MAX;
  if (resources.registersPerThread > 0) {
    int perWarp = roundUp(resources.registersPerThread * limits.warpSize,
                          limits.registerAllocationUnit);
    int perPartition = limits.registers / std::max(limits.schedulers, 1);
    int warps = perPartition / perWarp * std::max(limits.schedulers, 1);
    o.byRegisters = warps / warpsPerBlock;
  }
  o.byShared = INT_MAX;
  int shared = resources.staticSharedBytes + resources.dynamicSharedBytes;
  if (shared > 0)
    o.byShared =
        limits.sharedBytes / roundUp(shared + limits.reservedSharedPerBlock,
                                     limits.sharedAllocationUnit);

  o.blocksPerMultiprocessor =
      std::min({o.byThreads, o.byBlocks, o.byRegisters, o.byShared});
  struct Named {
    int blocks;
    const char *name;
  };
  for (Named limit :
       {Named{o.byRegisters, "registers"}, Named{o.byShared, "shared memory"},
        Named{o.byThreads, "threads"}, Named{o.byBlocks, "blocks"}})
    if (limit.blocks == o.blocksPerMultiprocessor)
      o.limiter += (o.limiter.empty() ? "" : "+") + std::string(limit.name);
  o.warpsPerMultiprocessor = o.blocksPerMultiprocessor * warpsPerBlock;
  o.fraction = o.maxWarpsPerMultiprocessor ? double(o.warpsPerMultiprocessor) /
                                                 o.maxWarpsPerMultiprocessor
                                           : 0;
  return o;
}

} // namespace tile::rt
