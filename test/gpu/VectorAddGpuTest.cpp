//===- VectorAddGpuTest.cpp - Vector add on the GPU -----------------------===//
//
// Runs every compiled vector-add variant through the runtime on random
// inputs of many lengths (including 2^28 and the odd 1,000,003) and compares
// each output element exactly with the CPU. Skips visibly without a GPU or
// without compiled kernels.
//
//===----------------------------------------------------------------------===//

#include "GpuTest.h"

#include "tile/runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>

using namespace tile;
/// The configuration keys of the vector_add generator's variants.
namespace key = config::vector_add;

namespace {

struct VectorAddGpuKernels {
  static const char *name() { return key::generator; }
};
using VectorAddGpu = test::VariantTest<VectorAddGpuKernels>;

/// Random inputs of length n on the host and the device, and a poisoned
/// output with one guard element past its end.
struct VectorAddData {
  VectorAddData(rt::Device &device, int64_t n, uint32_t seed) : n(n) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(-1000.0f, 1000.0f);
    a.resize(n);
    b.resize(n);
    for (int64_t i = 0; i < n; ++i) {
      a[i] = dist(rng);
      b[i] = dist(rng);
    }
    A = rt::DeviceBuffer::fromHost(device, a);
    B = rt::DeviceBuffer::fromHost(device, b);
    C = rt::DeviceBuffer(device, (n + 1) * sizeof(float));
  }
  int64_t n;
  std::vector<float> a, b;
  rt::DeviceBuffer A, B, C;
};

constexpr uint32_t kPoison = 0x7fc00001u; // a NaN no addition produces

/// Runs `variant` on `data`; returns the number of mismatching elements.
int64_t checkVectorAdd(rt::Device &device, const rt::KernelVariant &variant,
                       VectorAddData &data) {
  rt::Module module =
      rt::Module::load(device, variant.cubinPath, variant.manifestPath);
  rt::Kernel kernel = module.kernel(variant.name);
  int64_t n = data.n;
  data.C.fill32(kPoison);
  rt::Stream stream(device);
  kernel.launch(stream, {rt::Arg::buffer(data.A, rt::DType::f32, {n}),
                         rt::Arg::buffer(data.B, rt::DType::f32, {n}),
                         rt::Arg::buffer(data.C, rt::DType::f32, {n})});
  stream.synchronize();
  std::vector<float> c = data.C.download<float>();
  int64_t mismatches = 0;
  for (int64_t i = 0; i < n; ++i) {
    float expected = data.a[i] + data.b[i];
    if (std::memcmp(&expected, &c[i], sizeof(float)) != 0 && mismatches++ < 5)
      ADD_FAILURE() << variant.name << " n=" << n << ": C[" << i
                    << "] = " << c[i] << ", expected " << expected;
  }
  uint32_t guard;
  std::memcpy(&guard, &c[n], sizeof(guard));
  EXPECT_EQ(guard, kPoison) << variant.name << " wrote past the end";
  return mismatches;
}

TEST_F(VectorAddGpu, EveryVariantIsExactOnEdgeLengths) {
  rt::Device device = rt::Device::open();
  for (int64_t n : {1, 3, 4, 5, 1023, 1024, 1025, 4097, 65537, 1000003}) {
    VectorAddData data(device, n, 7 + n);
    for (const auto &variant : variants)
      EXPECT_EQ(checkVectorAdd(device, variant, data), 0)
          << variant.name << " n=" << n;
  }
}

TEST_F(VectorAddGpu, LargeAndOddSizesAreExact) {
  rt::Device device = rt::Device::open();
  for (int64_t n : {int64_t(1) << 28, int64_t(1000003)}) {
    VectorAddData data(device, n, 42);
    for (const auto &variant : variants)
      EXPECT_EQ(checkVectorAdd(device, variant, data), 0)
          << variant.name << " n=" << n;
  }
}

/// At the contract's limits: B and C exactly as long as A (inputs allocated
/// to the element, so a read past them is a memcheck error), one element,
/// one block exactly and one element past it; 64 poisoned elements guard C.
TEST_F(VectorAddGpu, ContractBoundaries) {
  rt::Device device = rt::Device::open();
  for (const auto &variant : variants) {
    int64_t blockN = variant.config.get(key::blockN);
    rt::Module module =
        rt::Module::load(device, variant.cubinPath, variant.manifestPath);
    rt::Kernel kernel = module.kernel(variant.name);
    for (int64_t n : {int64_t(1), blockN, blockN + 1, 2 * blockN - 1}) {
      std::mt19937 rng(n);
      std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
      std::vector<float> a(n), b(n);
      for (int64_t i = 0; i < n; ++i) {
        a[i] = dist(rng);
        b[i] = dist(rng);
      }
      rt::DeviceBuffer A = rt::DeviceBuffer::fromHost(device, a);
      rt::DeviceBuffer B = rt::DeviceBuffer::fromHost(device, b);
      const int64_t guard = 64;
      rt::DeviceBuffer C(device, (n + guard) * sizeof(float));
      C.fill32(kPoison);
      rt::Stream stream(device);
      kernel.launch(stream, {rt::Arg::buffer(A, rt::DType::f32, {n}),
                             rt::Arg::buffer(B, rt::DType::f32, {n}),
                             rt::Arg::buffer(C, rt::DType::f32, {n})});
      stream.synchronize();
      std::vector<uint32_t> c = C.download<uint32_t>();
      int64_t wrong = 0;
      for (int64_t i = 0; i < n; ++i) {
        // The float64 sum rounded once: what an f32 addition gives.
        float sum = static_cast<float>(double(a[i]) + double(b[i]));
        uint32_t bits;
        std::memcpy(&bits, &sum, 4);
        wrong += c[i] != bits;
      }
      EXPECT_EQ(wrong, 0) << variant.name << " n=" << n;
      for (int64_t i = n; i < n + guard; ++i)
        ASSERT_EQ(c[i], kPoison)
            << variant.name << " n=" << n << ": wrote past the end of C";
    }
  }
}

/// Operands of different lengths are refused before anything runs.
TEST_F(VectorAddGpu, MisusesAreRefused) {
  rt::Device device = rt::Device::open();
  for (const auto &variant : variants) {
    rt::Module module =
        rt::Module::load(device, variant.cubinPath, variant.manifestPath);
    rt::Kernel kernel = module.kernel(variant.name);
    const int64_t n = 1000;
    rt::DeviceBuffer A(device, n * 4), B(device, n * 4), C(device, n * 4);
    C.fill32(kPoison);
    rt::Stream stream(device);
    test::expectRefused(
        device,
        [&] {
          kernel.launch(stream, {rt::Arg::buffer(A, rt::DType::f32, {n}),
                                 rt::Arg::buffer(B, rt::DType::f32, {n - 1}),
                                 rt::Arg::buffer(C, rt::DType::f32, {n})});
        },
        {&C}, {"kernel '" + variant.name + "': requires ", "B[0]"},
        variant.name + ": B shorter than A");
    test::expectRefused(
        device,
        [&] {
          kernel.launch(stream, {rt::Arg::buffer(A, rt::DType::f32, {n}),
                                 rt::Arg::buffer(B, rt::DType::f32, {n}),
                                 rt::Arg::buffer(C, rt::DType::f32, {n - 4})});
        },
        {&C}, {"kernel '" + variant.name + "': requires ", "C[0]"},
        variant.name + ": C shorter than A");
    // In place: C is A.
    test::expectRefused(
        device,
        [&] {
          kernel.launch(stream, {rt::Arg::buffer(C, rt::DType::f32, {n}),
                                 rt::Arg::buffer(B, rt::DType::f32, {n}),
                                 rt::Arg::buffer(C, rt::DType::f32, {n})});
        },
        {&C}, {"parameter 'C'", "overlaps parameter 'A'"},
        variant.name + ": C is A");
  }
}

} // namespace
