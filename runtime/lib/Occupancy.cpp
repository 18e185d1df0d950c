//===- Occupancy.cpp - Theoretical occupancy ------------------------------===//

#include "tile/runtime/Occupancy.h"

#include "tile/runtime/Error.h"

#include <algorithm>
#include <climits>
#include <cstdint>

namespace tile::rt {

namespace {
int64_t roundUp(int64_t value, int64_t unit) {
  return unit > 0 ? (value + unit - 1) / unit * unit : value;
}

/// Clamps a count computed in int64 to the int fields of Occupancy.
int toInt(int64_t value) {
  return static_cast<int>(std::min<int64_t>(value, INT_MAX));
}
} // namespace

Occupancy estimateOccupancy(const KernelResources &resources,
                            const MultiprocessorLimits &limits) {
  // The limits are divisors below: refuse what no device reports.
  struct Limit {
    const char *name;
    int value;
    int min;
  };
  for (Limit limit :
       {Limit{"warpSize", limits.warpSize, 1},
        Limit{"maxThreads", limits.maxThreads, 0},
        Limit{"maxBlocks", limits.maxBlocks, 0},
        Limit{"registers", limits.registers, 0},
        Limit{"sharedBytes", limits.sharedBytes, 0},
        Limit{"reservedSharedPerBlock", limits.reservedSharedPerBlock, 0},
        Limit{"registerAllocationUnit", limits.registerAllocationUnit, 0},
        Limit{"schedulers", limits.schedulers, 0},
        Limit{"sharedAllocationUnit", limits.sharedAllocationUnit, 0}})
    if (limit.value < limit.min)
      throw Error(std::string("estimateOccupancy: multiprocessor limit '") +
                  limit.name + "' must be >= " + std::to_string(limit.min) +
                  ", but got " + std::to_string(limit.value));

  Occupancy o;
  const int64_t warpSize = limits.warpSize;
  o.maxWarpsPerMultiprocessor = toInt(limits.maxThreads / warpSize);
  if (resources.threadsPerBlock <= 0)
    return o;
  // int64 throughout: no product or sum of int inputs overflows.
  int64_t warpsPerBlock =
      (int64_t(resources.threadsPerBlock) + warpSize - 1) / warpSize;

  o.byThreads = toInt(o.maxWarpsPerMultiprocessor / warpsPerBlock);
  o.byBlocks = limits.maxBlocks;
  // Each warp takes its registers from one scheduler's partition of the
  // register file, so the warps per partition are what counts.
  o.byRegisters = INT_MAX;
  if (resources.registersPerThread > 0) {
    int64_t schedulers = std::max(limits.schedulers, 1);
    int64_t perWarp = roundUp(int64_t(resources.registersPerThread) * warpSize,
                              limits.registerAllocationUnit);
    int64_t perPartition = limits.registers / schedulers;
    int64_t warps = perPartition / perWarp * schedulers;
    o.byRegisters = toInt(warps / warpsPerBlock);
  }
  o.byShared = INT_MAX;
  int64_t shared = std::max(resources.staticSharedBytes, 0) +
                   int64_t(std::max(resources.dynamicSharedBytes, 0));
  if (shared > 0)
    o.byShared = toInt(limits.sharedBytes /
                       roundUp(shared + limits.reservedSharedPerBlock,
                               limits.sharedAllocationUnit));

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
  o.warpsPerMultiprocessor =
      toInt(int64_t(o.blocksPerMultiprocessor) * warpsPerBlock);
  o.fraction = o.maxWarpsPerMultiprocessor ? double(o.warpsPerMultiprocessor) /
                                                 o.maxWarpsPerMultiprocessor
                                           : 0;
  return o;
}

} // namespace tile::rt
