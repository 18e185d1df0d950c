//===- GpuTest.h - Shared fixture of the kernel GPU tests -------*- C++ -*-===//
//
// Each GPU test suite runs every compiled variant of one generator; without
// a GPU or without compiled kernels it skips, saying why.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TEST_GPU_GPUTEST_H
#define TILE_TEST_GPU_GPUTEST_H

#include "../../benchmarks/common/KernelIndex.h"
#include "../../benchmarks/common/RelativeError.h"

#include "tile/runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cmath>

namespace tile::test {

/// The compiled variants of `generator`, or the reason to skip (non-empty).
inline std::string findGpuVariants(const std::string &generator,
                                   std::vector<bench::KernelVariant> &out) {
  std::string why;
  if (!rt::isDriverAvailable(&why) || rt::deviceCount() == 0)
    return "no CUDA GPU: " + (why.empty() ? std::string("no device") : why);
  std::string dir = bench::kernelDir(TILE_KERNEL_DIR_DEFAULT);
  auto found = bench::loadVariants(dir, generator);
  if (!found || found->empty())
    return "no compiled " + (generator.empty() ? "" : generator + " ") +
           "kernels in " + dir + " (run tile-kernels --out-dir=DIR)";
  out = *found;
  return "";
}

/// A suite over the variants of one generator (the template argument's
/// name() names it).
template <typename Generator> class VariantTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string why = findGpuVariants(Generator::name(), variants);
    if (!why.empty())
      GTEST_SKIP() << why;
  }
  std::vector<bench::KernelVariant> variants;
};

/// ||got - ref|| / ||ref|| over the elements added, and whether every
/// result was finite: the accuracy measure of the kernel GPU tests.
using bench::RelativeError;

/// GELU in float64: exact x/2 (1 + erf(x / sqrt 2)) or the tanh form.
inline double geluReference(double x, bool tanhForm) {
  if (tanhForm)
    return 0.5 * x *
           (1.0 + std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
  return 0.5 * x * (1.0 + std::erf(x * M_SQRT1_2));
}

} // namespace tile::test

#endif // TILE_TEST_GPU_GPUTEST_H
