//===- CopyBoundsGpuTest.cpp - Tile copies at offsets of any sign ---------===//
//
// The masks of tile.copy exclude both ends of a global tensor: the kernels
// of kernels/copy-bounds.mlir copy tiles at negative, edge and past-the-end
// offsets, synchronously (1-D, 2-D) and with cp.async (2-D). Each tensor
// lives inside a larger allocation whose guard zones hold a poison value, so
// a read before a tensor shows up as a non-zero value where 0 is expected
// and a write before or after it as a changed guard.
//
//===----------------------------------------------------------------------===//

#include "tile/runtime/KernelIndex.h"
#include "tile/runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

using namespace tile;

namespace {

/// Guard elements on each side of every tensor.
constexpr int64_t kGuard = 4096;
constexpr uint32_t kPoisonBits = 0x7fc00001u;

float poison() {
  float value;
  std::memcpy(&value, &kPoisonBits, sizeof(value));
  return value;
}
bool isPoison(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits == kPoisonBits;
}

class CopyBoundsGpu : public ::testing::Test {
protected:
  void SetUp() override {
    std::string why;
    if (!rt::isDriverAvailable(&why) || rt::deviceCount() == 0)
      GTEST_SKIP() << "no CUDA GPU: " << (why.empty() ? "no device" : why);
    std::string dir =
        rt::kernelDir(TILE_TEST_KERNEL_DIR_DEFAULT, "TILE_TEST_KERNEL_DIR");
    device.emplace(rt::Device::open());
    // With a GPU the kernels must be there: a missing file fails the test.
    module.emplace(rt::Module::load(*device, dir + "/copy-bounds.cubin",
                                    dir + "/copy-bounds.manifest.json"));
    stream.emplace(*device);
  }
  /// A buffer of `host`'s values; the tensor starts kGuard elements in.
  template <typename T> rt::DeviceBuffer upload(const std::vector<T> &host) {
    return rt::DeviceBuffer::fromHost(*device, host);
  }
  template <typename T> CUdeviceptr tensorIn(const rt::DeviceBuffer &buffer) {
    return buffer.ptr() + sizeof(T) * kGuard;
  }

  std::optional<rt::Device> device;
  std::optional<rt::Module> module;
  std::optional<rt::Stream> stream;
};

TEST_F(CopyBoundsGpu, OneDimensionAtAnyOffset) {
  for (int64_t off : {-130, -128, -3, 0, 5, 900, 1000}) {
    for (int64_t n : {int64_t(1000), int64_t(1003)}) {
      // A[i] = i + 1 inside, and non-zero in the guards too.
      std::vector<float> a(kGuard + n + kGuard),
          b(kGuard + 512 + kGuard, poison()), c(kGuard + n + kGuard, poison());
      for (int64_t i = 0; i < int64_t(a.size()); ++i)
        a[i] = float(i - kGuard + 1);
      rt::DeviceBuffer A = upload(a), B = upload(b), C = upload(c);
      module->kernel("sync1d").launch(
          *stream, {rt::Arg::buffer(tensorIn<float>(A), rt::DType::f32, {n}),
                    rt::Arg::buffer(tensorIn<float>(B), rt::DType::f32, {512}),
                    rt::Arg::buffer(tensorIn<float>(C), rt::DType::f32, {n}),
                    rt::Arg::scalar(off)});
      stream->synchronize();
      std::vector<float> got = B.download<float>(), out = C.download<float>();
      std::string where =
          "offset " + std::to_string(off) + ", n " + std::to_string(n);
      int wrong = 0;
      for (int64_t j = 0; j < 512; ++j) {
        int64_t i = off + j;
        float want = i >= 0 && i < n ? float(i + 1) : 0.0f;
        wrong += got[kGuard + j] != want;
      }
      for (int64_t j = 512; j < 512 + kGuard; ++j)
        wrong += !isPoison(got[kGuard + j]);
      EXPECT_EQ(wrong, 0) << where << ": the tile read back from A";
      wrong = 0;
      for (int64_t i = -kGuard; i < n + kGuard; ++i) {
        bool written = i >= off && i < off + 512 && i >= 0 && i < n;
        float value = out[kGuard + i];
        wrong += written ? value != float(i + 1) : !isPoison(value);
      }
      EXPECT_EQ(wrong, 0) << where << ": C and its guards";
    }
  }
}

TEST_F(CopyBoundsGpu, TwoDimensionsAtAnyOffset) {
  for (auto [r, col] : std::vector<std::pair<int64_t, int64_t>>{
           {-5, 0}, {0, -3}, {-20, -70}, {-16, -64}, {30, 90}, {0, 0}}) {
    for (int64_t cols : {int64_t(100), int64_t(104)}) {
      int64_t rows = 40, n = rows * cols;
      std::vector<float> a(kGuard + n + kGuard),
          b(kGuard + 16 * 64 + kGuard, poison()),
          c(kGuard + n + kGuard, poison());
      for (int64_t i = 0; i < int64_t(a.size()); ++i)
        a[i] = float(i - kGuard + 1);
      rt::DeviceBuffer A = upload(a), B = upload(b), C = upload(c);
      module->kernel("sync2d").launch(
          *stream,
          {rt::Arg::buffer(tensorIn<float>(A), rt::DType::f32, {rows, cols}),
           rt::Arg::buffer(tensorIn<float>(B), rt::DType::f32, {16, 64}),
           rt::Arg::buffer(tensorIn<float>(C), rt::DType::f32, {rows, cols}),
           rt::Arg::scalar(r), rt::Arg::scalar(col)});
      stream->synchronize();
      std::vector<float> got = B.download<float>(), out = C.download<float>();
      std::string where = "offset (" + std::to_string(r) + ", " +
                          std::to_string(col) + "), " + std::to_string(rows) +
                          " x " + std::to_string(cols);
      int wrong = 0;
      for (int64_t i = 0; i < 16; ++i)
        for (int64_t j = 0; j < 64; ++j) {
          int64_t gi = r + i, gj = col + j;
          bool inside = gi >= 0 && gi < rows && gj >= 0 && gj < cols;
          float want = inside ? float(gi * cols + gj + 1) : 0.0f;
          wrong += got[kGuard + i * 64 + j] != want;
        }
      EXPECT_EQ(wrong, 0) << where << ": the tile read back from A";
      wrong = 0;
      for (int64_t k = -kGuard; k < n + kGuard; ++k) {
        bool inside = k >= 0 && k < n;
        int64_t gi = k / cols, gj = k % cols;
        bool written = inside && gi >= r && gi < r + 16 && gj >= col &&
                       gj < col + 64;
        float value = out[kGuard + k];
        wrong += written ? value != float(k + 1) : !isPoison(value);
      }
      EXPECT_EQ(wrong, 0) << where << ": C and its guards";
    }
  }
}

TEST_F(CopyBoundsGpu, AsyncCopiesAtAnyOffset) {
  // f16 values as raw 16-bit patterns 1..2^14, 0 outside A.
  for (auto [r, col] : std::vector<std::pair<int64_t, int64_t>>{
           {-8, 0}, {-32, 0}, {-1, 0}, {0, -8}, {-8, -8}, {20, 0}, {0, 0}}) {
    int64_t rows = 40, cols = 64, n = rows * cols;
    std::vector<uint16_t> a(kGuard + n + kGuard),
        b(kGuard + 32 * 64 + kGuard, 0xffff);
    for (int64_t i = 0; i < int64_t(a.size()); ++i)
      a[i] = uint16_t(((i - kGuard) & 0x3fff) + 1);
    rt::DeviceBuffer A = upload(a), B = upload(b);
    module->kernel("async2d").launch(
        *stream,
        {rt::Arg::buffer(tensorIn<uint16_t>(A), rt::DType::f16, {rows, cols}),
         rt::Arg::buffer(tensorIn<uint16_t>(B), rt::DType::f16, {32, 64}),
         rt::Arg::scalar(r), rt::Arg::scalar(col)});
    stream->synchronize();
    std::vector<uint16_t> got = B.download<uint16_t>();
    int wrong = 0;
    for (int64_t i = 0; i < 32; ++i)
      for (int64_t j = 0; j < 64; ++j) {
        int64_t gi = r + i, gj = col + j;
        bool inside = gi >= 0 && gi < rows && gj >= 0 && gj < cols;
        uint16_t want = inside ? uint16_t(((gi * cols + gj) & 0x3fff) + 1) : 0;
        wrong += got[kGuard + i * 64 + j] != want;
      }
    for (int64_t j = 32 * 64; j < 32 * 64 + kGuard; ++j)
      wrong += got[kGuard + j] != 0xffff;
    EXPECT_EQ(wrong, 0) << "offset (" << r << ", " << col
                        << "): the tile read back from A, and B's guard";
  }
}

} // namespace
