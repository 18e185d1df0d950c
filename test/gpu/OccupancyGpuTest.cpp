//===- OccupancyGpuTest.cpp - Occupancy estimate vs the driver ------------===//
//
// For every compiled kernel: the runtime's occupancy estimate (which also
// names the limiting resource) gives the same blocks per multiprocessor as
// the driver's occupancy API, and the resources it reads are plausible.
// Skips visibly without a GPU.
//
//===----------------------------------------------------------------------===//

#include "GpuTest.h"

#include "tile/runtime/Runtime.h"

#include <gtest/gtest.h>

using namespace tile;

namespace {

struct AllKernels {
  static const char *name() { return ""; }
};
using OccupancyGpu = test::VariantTest<AllKernels>;

TEST_F(OccupancyGpu, EstimateMatchesTheDriverForEveryKernel) {
  rt::Device device = rt::Device::open();
  rt::MultiprocessorLimits limits = device.multiprocessorLimits();
  EXPECT_GT(limits.maxThreads, 0);
  EXPECT_GT(limits.sharedBytes, 0);
  for (const auto &variant : variants) {
    SCOPED_TRACE(variant.name);
    rt::Kernel kernel =
        rt::Module::load(device, variant.cubinPath, variant.manifestPath)
            .kernel(variant.name);
    rt::KernelResources resources = kernel.resources();
    EXPECT_GT(resources.registersPerThread, 0);
    EXPECT_LE(resources.registersPerThread, 255);
    EXPECT_EQ(resources.dynamicSharedBytes,
              static_cast<int>(kernel.info().dynamicSharedMemory));
    rt::Occupancy occupancy = kernel.occupancy();
    EXPECT_EQ(occupancy.blocksPerMultiprocessor,
              kernel.maxActiveBlocksPerMultiprocessor())
        << resources.threadsPerBlock << " threads, "
        << resources.registersPerThread << " registers, "
        << resources.staticSharedBytes + resources.dynamicSharedBytes
        << " bytes of shared memory; limiter " << occupancy.limiter;
    EXPECT_FALSE(occupancy.limiter.empty());
  }
}

} // namespace
