//===- GpuTest.h - Shared fixture of the kernel GPU tests -------*- C++ -*-===//
//
// Each GPU test suite runs every compiled variant of one generator; without
// a GPU or without compiled kernels it skips, saying why.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TEST_GPU_GPUTEST_H
#define TILE_TEST_GPU_GPUTEST_H

#include "tile/runtime/KernelIndex.h"
#include "tile/runtime/RelativeError.h"
#include "tile/runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace tile::test {

/// The compiled variants of `generator`, or the reason to skip (non-empty).
inline std::string findGpuVariants(const std::string &generator,
                                   std::vector<rt::KernelVariant> &out) {
  std::string why;
  if (!rt::isDriverAvailable(&why) || rt::deviceCount() == 0)
    return "no CUDA GPU: " + (why.empty() ? std::string("no device") : why);
  std::string dir = rt::kernelDir(TILE_KERNEL_DIR_DEFAULT);
  std::string error;
  auto found = rt::loadKernelIndex(dir, generator, &error);
  if (!found && error.rfind("no ", 0) != 0)
    return error; // a broken index, not missing kernels
  if (!found || found->empty())
    return "no compiled " + (generator.empty() ? "" : generator + " ") +
           "kernels in " + dir + " (run tile-kernels --out-dir=DIR)";
  out = *found;
  // sm_90a variants on a Hopper GPU only.
  std::string chip = rt::Device::open().chip();
  size_t removed = rt::removeVariantsNotRunningOn(out, chip);
  if (out.empty())
    return "none of the " + std::to_string(removed) + " compiled " + generator +
           " kernels in " + dir + " runs on this " + chip + " GPU";
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
  std::vector<rt::KernelVariant> variants;
};

/// ||got - ref|| / ||ref|| over the elements added, and whether every
/// result was finite: the accuracy measure of the kernel GPU tests.
using rt::RelativeError;

/// GELU in float64: exact x/2 (1 + erf(x / sqrt 2)) or the tanh form.
inline double geluReference(double x, bool tanhForm) {
  if (tanhForm)
    return 0.5 * x *
           (1.0 + std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
  return 0.5 * x * (1.0 + std::erf(x * M_SQRT1_2));
}

/// The smallest upper bound `param`[`dim`] has in the kernel's contract,
/// directly or through the dims its equalities tie it to (`Y[1] == X[1]`,
/// `X[1] <= 4096`), or nothing. Boundary tests launch at that bound.
inline std::optional<int64_t> contractUpperBound(const rt::KernelInfo &info,
                                                 const std::string &param,
                                                 int dim) {
  std::set<std::pair<std::string, int>> equal = {{param, dim}};
  for (bool grew = true; grew;) {
    grew = false;
    for (const rt::ShapeRelation &r : info.relations) {
      if (r.op != rt::ShapeRelation::Op::Eq || !r.rhsIsDim)
        continue;
      bool lhs = equal.count({r.lhs.param, r.lhs.dim}) != 0;
      bool rhs = equal.count({r.rhs.param, r.rhs.dim}) != 0;
      if (lhs != rhs) {
        equal.insert({r.lhs.param, r.lhs.dim});
        equal.insert({r.rhs.param, r.rhs.dim});
        grew = true;
      }
    }
  }
  std::optional<int64_t> bound;
  for (const rt::ShapeRelation &r : info.relations)
    if (r.op == rt::ShapeRelation::Op::Le && !r.rhsIsDim &&
        equal.count({r.lhs.param, r.lhs.dim}))
      bound = std::min(bound.value_or(r.value), r.value);
  return bound;
}

/// Expects `launch` to throw an rt::Error whose message contains each of
/// `expected`, and each buffer of `untouched` to hold the same bytes after
/// the device is idle: the launch was refused before anything ran.
inline void
expectRefused(rt::Device &device, const std::function<void()> &launch,
              const std::vector<const rt::DeviceBuffer *> &untouched,
              const std::vector<std::string> &expected,
              const std::string &where) {
  std::vector<std::vector<uint8_t>> before;
  for (const rt::DeviceBuffer *buffer : untouched)
    before.push_back(buffer->download<uint8_t>());
  try {
    launch();
    ADD_FAILURE() << where << ": launched";
  } catch (const rt::Error &error) {
    std::string message = error.what();
    EXPECT_FALSE(error.isCudaError()) << where << ": " << message;
    for (const std::string &text : expected)
      EXPECT_NE(message.find(text), std::string::npos)
          << where << ": expected '" << text << "' in: " << message;
  }
  device.synchronize();
  for (std::size_t i = 0; i < untouched.size(); ++i)
    EXPECT_TRUE(untouched[i]->download<uint8_t>() == before[i])
        << where << ": buffer " << i << " changed although nothing launched";
}

} // namespace tile::test

#endif // TILE_TEST_GPU_GPUTEST_H
