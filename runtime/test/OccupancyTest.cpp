//===- OccupancyTest.cpp - Theoretical occupancy without a GPU ------------===//
//
// estimateOccupancy against hand-computed answers with an H100/H200
// multiprocessor (2048 threads, 32 blocks, 64K registers, 228 KiB shared
// memory, 1 KiB reserved per block). On a GPU, the kernel tests also check
// it against the driver's occupancy API for every compiled kernel.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "tile/runtime/Occupancy.h"

#include <climits>

#include <gtest/gtest.h>

using namespace tile::rt;

namespace {

KernelResources kernel(int threads, int registers, int dynamicShared = 0,
                       int staticShared = 0) {
  KernelResources r;
  r.threadsPerBlock = threads;
  r.registersPerThread = registers;
  r.dynamicSharedBytes = dynamicShared;
  r.staticSharedBytes = staticShared;
  return r;
}

TEST(Occupancy, RegistersAndSharedMemoryTie) {
  // Attention D=128 128x64: 255 registers -> 8192 per warp, 2 warps per
  // register-file partition = 8 warps = 2 blocks; 96 KiB + 1 KiB reserved
  // -> 2 blocks in 228 KiB.
  Occupancy o = estimateOccupancy(kernel(128, 255, 96 * 1024), {});
  EXPECT_EQ(o.blocksPerMultiprocessor, 2);
  EXPECT_EQ(o.byRegisters, 2);
  EXPECT_EQ(o.byShared, 2);
  EXPECT_EQ(o.warpsPerMultiprocessor, 8);
  EXPECT_EQ(o.maxWarpsPerMultiprocessor, 64);
  EXPECT_DOUBLE_EQ(o.fraction, 0.125);
  EXPECT_EQ(o.limiter, "registers+shared memory");
}

TEST(Occupancy, RegistersLimit) {
  // 64 registers x 256 threads: 50% in NVIDIA's occupancy calculator.
  Occupancy o = estimateOccupancy(kernel(256, 64), {});
  EXPECT_EQ(o.blocksPerMultiprocessor, 4);
  EXPECT_DOUBLE_EQ(o.fraction, 0.5);
  EXPECT_EQ(o.limiter, "registers");
  // Registers round up to 256 per warp (40 x 32 = 1280 stays), and a
  // partition holds whole warps: 16384 / 1280 = 12 warps, 48 per SM.
  Occupancy odd = estimateOccupancy(kernel(96, 40), {});
  EXPECT_EQ(odd.byRegisters, 16);
  EXPECT_EQ(odd.blocksPerMultiprocessor, 16);
  EXPECT_EQ(odd.warpsPerMultiprocessor, 48);
  EXPECT_EQ(odd.limiter, "registers");
  // 33 registers -> 1056, rounded to 1280 per warp: as many as 40.
  EXPECT_EQ(estimateOccupancy(kernel(96, 33), {}).byRegisters, 16);
}

TEST(Occupancy, SharedMemoryLimit) {
  // 48 KiB dynamic + 2 KiB static + 1 KiB reserved = 51 KiB: 4 blocks.
  Occupancy o = estimateOccupancy(kernel(128, 32, 48 * 1024, 2048), {});
  EXPECT_EQ(o.byShared, 4);
  EXPECT_EQ(o.blocksPerMultiprocessor, 4);
  EXPECT_EQ(o.limiter, "shared memory");
  // The per-block size rounds up to 128 bytes: 233472 / (57 * 1024 + 128).
  EXPECT_EQ(estimateOccupancy(kernel(128, 32, 56 * 1024 + 1), {}).byShared, 3);
}

TEST(Occupancy, ThreadAndBlockLimits) {
  Occupancy threads = estimateOccupancy(kernel(256, 16), {});
  EXPECT_EQ(threads.blocksPerMultiprocessor, 8);
  EXPECT_DOUBLE_EQ(threads.fraction, 1.0);
  EXPECT_EQ(threads.limiter, "threads");
  Occupancy blocks = estimateOccupancy(kernel(32, 8), {});
  EXPECT_EQ(blocks.blocksPerMultiprocessor, 32);
  EXPECT_DOUBLE_EQ(blocks.fraction, 0.5);
  EXPECT_EQ(blocks.limiter, "blocks");
}

TEST(Occupancy, OtherMultiprocessors) {
  // An sm_86-like multiprocessor: 1536 threads, 16 blocks, 100 KiB.
  MultiprocessorLimits ampere;
  ampere.maxThreads = 1536;
  ampere.maxBlocks = 16;
  ampere.sharedBytes = 102400;
  Occupancy o = estimateOccupancy(kernel(128, 32, 32 * 1024), ampere);
  EXPECT_EQ(o.byShared, 3);
  EXPECT_EQ(o.byThreads, 12);
  EXPECT_EQ(o.blocksPerMultiprocessor, 3);
  EXPECT_EQ(o.maxWarpsPerMultiprocessor, 48);
  EXPECT_DOUBLE_EQ(o.fraction, 12.0 / 48);
}

TEST(Occupancy, EmptyBlockFitsNothing) {
  Occupancy o = estimateOccupancy(kernel(0, 32), {});
  EXPECT_EQ(o.blocksPerMultiprocessor, 0);
  EXPECT_TRUE(o.limiter.empty());
}

TEST(Occupancy, LimitsNoDeviceHasAreRefused) {
  // runtime-probe --occupancy-warp-size-zero: SIGFPE before.
  MultiprocessorLimits limits;
  limits.warpSize = 0;
  EXPECT_TILE_ERROR(
      estimateOccupancy(kernel(128, 32), limits),
      "estimateOccupancy: multiprocessor limit 'warpSize' must be "
      ">= 1, but got 0");
  limits = {};
  limits.sharedBytes = -1;
  EXPECT_TILE_ERROR(estimateOccupancy(kernel(128, 32, 1024), limits),
                    "multiprocessor limit 'sharedBytes' must be >= 0, but got "
                    "-1");
  limits = {};
  limits.schedulers = -4;
  EXPECT_TILE_ERROR(estimateOccupancy(kernel(128, 32), limits),
                    "multiprocessor limit 'schedulers' must be >= 0");
}

TEST(Occupancy, HugeResourcesDoNotOverflow) {
  // Sums and products of int inputs are computed in int64.
  Occupancy o =
      estimateOccupancy(kernel(INT_MAX, INT_MAX, INT_MAX, INT_MAX), {});
  EXPECT_EQ(o.blocksPerMultiprocessor, 0);
  EXPECT_EQ(o.byThreads, 0);
  EXPECT_EQ(o.byRegisters, 0);
  EXPECT_EQ(o.byShared, 0);
  // A one-thread warp and no allocation units.
  MultiprocessorLimits odd;
  odd.warpSize = 1;
  odd.registerAllocationUnit = 0;
  odd.sharedAllocationUnit = 0;
  odd.schedulers = 0;
  o = estimateOccupancy(kernel(64, 100, 1000), odd);
  EXPECT_EQ(o.byThreads, 32);   // 2048 warps / 64
  EXPECT_EQ(o.byRegisters, 10); // 65536 / 100 = 655 warps / 64
  EXPECT_EQ(o.byShared, 115);   // 233472 / 2024
  EXPECT_EQ(o.blocksPerMultiprocessor, 10);
}

} // namespace
