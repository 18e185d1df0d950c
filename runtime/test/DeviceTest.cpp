//===- DeviceTest.cpp - Tests of the driver, memory, streams, modules -----===//
//
// Without a GPU: the driver probe and the errors of Device::open. With a GPU
// (skipped visibly otherwise): devices, buffers, copies, memsets, streams,
// events, timing, module loading and launches of a small hand-written PTX
// kernel.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "tile/runtime/Runtime.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <random>

using namespace tile::rt;

namespace {

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

//===----------------------------------------------------------------------===//
// Without a GPU
//===----------------------------------------------------------------------===//

TEST(NoGpu, ProbeAndOpenExplainWhy) {
  if (deviceCount() > 0)
    GTEST_SKIP() << "a CUDA GPU is present; the no-GPU path is not testable";
  std::string whyNot;
  EXPECT_FALSE(isDriverAvailable(&whyNot));
  EXPECT_TRUE(contains(whyNot, "driver") || contains(whyNot, "GPU")) << whyNot;
  Driver driver = Driver::probe();
  EXPECT_FALSE(driver.available());
  EXPECT_EQ(driver.whyNot(), whyNot);
  EXPECT_EQ(driver.deviceCount(), 0);
  EXPECT_EQ(driver.versionString(), "");
  try {
    Device::open();
    ADD_FAILURE() << "Device::open succeeded without a GPU";
  } catch (const Error &error) {
    std::string message = error.what();
    EXPECT_TRUE(contains(message, "driver") || contains(message, "GPU"))
        << message;
  }
}

/// Run by the ctest tile_runtime.DriverStub with TILE_RUNTIME_LIBCUDA set to
/// the toolkit's link stub, whose functions all fail.
TEST(DriverStub, StubLibraryIsReportedAsUnusable) {
  const char *library = std::getenv("TILE_RUNTIME_LIBCUDA");
  if (!library || !*library)
    GTEST_SKIP() << "needs TILE_RUNTIME_LIBCUDA=<libcuda stub>; the ctest "
                    "tile_runtime.DriverStub sets it";
  std::string whyNot;
  EXPECT_FALSE(isDriverAvailable(&whyNot));
  EXPECT_TRUE(contains(whyNot, "driver")) << whyNot;
  EXPECT_TRUE(contains(whyNot, "cuInit failed") || contains(whyNot, "lacks"))
      << whyNot;
  EXPECT_EQ(deviceCount(), 0);
  EXPECT_TILE_ERROR(Device::open(), "driver");
}

//===----------------------------------------------------------------------===//
// With a GPU
//===----------------------------------------------------------------------===//

class Gpu : public ::testing::Test {
protected:
  void SetUp() override {
    if (std::string why = noGpuReason(); !why.empty())
      GTEST_SKIP() << why;
    device.emplace(Device::open());
  }

  std::optional<Device> device;
};

TEST_F(Gpu, DeviceProperties) {
  EXPECT_FALSE(device->name().empty());
  ComputeCapability cc = device->computeCapability();
  EXPECT_GE(cc.major, 5);
  EXPECT_EQ(device->chip(),
            "sm_" + std::to_string(cc.major) + std::to_string(cc.minor));
  EXPECT_GT(device->multiProcessorCount(), 0);
  EXPECT_GE(device->sharedMemoryPerBlockOptin(), 48 * 1024);
  EXPECT_GT(device->totalMemory(), std::size_t(1) << 30);
  EXPECT_EQ(device->attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT),
            device->multiProcessorCount());
  Driver driver = Driver::probe();
  EXPECT_TRUE(driver.available());
  EXPECT_GE(driver.version(), 12000);
  EXPECT_EQ(driver.deviceCount(), deviceCount());
  EXPECT_TILE_ERROR(Device::open(deviceCount()), "does not exist");
  device->synchronize();
}

TEST_F(Gpu, UploadDownloadRoundTrip) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> dist(-1e3f, 1e3f);
  std::vector<float> host(1 << 20);
  for (float &x : host)
    x = dist(rng);
  DeviceBuffer buffer = DeviceBuffer::fromHost(*device, host);
  EXPECT_EQ(buffer.size(), host.size() * sizeof(float));
  EXPECT_NE(buffer.ptr(), CUdeviceptr(0));
  EXPECT_EQ(buffer.download<float>(), host);

  // An odd size, partial copies, and the size check.
  std::vector<uint8_t> bytes(1001);
  for (uint8_t &b : bytes)
    b = static_cast<uint8_t>(rng());
  DeviceBuffer odd(*device, bytes.size());
  odd.upload(bytes);
  std::vector<uint8_t> back(10);
  odd.copyToHost(back.data(), back.size());
  EXPECT_TRUE(std::equal(back.begin(), back.end(), bytes.begin()));
  EXPECT_TILE_ERROR(odd.copyFromHost(bytes.data(), 1002),
                    "DeviceBuffer::copyFromHost: 1002 bytes requested, but "
                    "the buffer holds 1001 bytes");

  // Moves transfer ownership.
  DeviceBuffer moved = std::move(odd);
  EXPECT_EQ(moved.size(), 1001u);
  EXPECT_EQ(odd.size(), 0u);
  EXPECT_EQ(moved.download<uint8_t>(), bytes);
}

TEST_F(Gpu, Memset) {
  DeviceBuffer buffer(*device, 4096);
  buffer.fillBytes(0xAB);
  for (uint8_t b : buffer.download<uint8_t>())
    ASSERT_EQ(b, 0xAB);
  buffer.fill32(0xDEADBEEFu);
  for (uint32_t w : buffer.download<uint32_t>())
    ASSERT_EQ(w, 0xDEADBEEFu);
  buffer.fillZero();
  for (uint32_t w : buffer.download<uint32_t>())
    ASSERT_EQ(w, 0u);
  DeviceBuffer odd(*device, 6);
  EXPECT_TILE_ERROR(odd.fill32(1), "not a multiple of 4");
}

TEST_F(Gpu, DeviceToDeviceCopies) {
  std::vector<int32_t> host(100000);
  for (std::size_t i = 0; i < host.size(); ++i)
    host[i] = static_cast<int32_t>(i * 7 - 3);
  DeviceBuffer src = DeviceBuffer::fromHost(*device, host);
  DeviceBuffer dst(*device, src.size());
  dst.copyFrom(src, src.size());
  EXPECT_EQ(dst.download<int32_t>(), host);

  Stream stream(*device);
  DeviceBuffer dst2(*device, src.size());
  dst2.fillZero();
  dst2.copyFromAsync(src, src.size(), stream);
  stream.synchronize();
  EXPECT_EQ(dst2.download<int32_t>(), host);
  EXPECT_TILE_ERROR(dst2.copyFrom(src, src.size() + 4), "bytes requested");
}

TEST_F(Gpu, EventsAndTiming) {
  Stream stream(*device);
  DeviceBuffer a(*device, 64 << 20), b(*device, 64 << 20);
  a.fillZero();
  Event start(*device), end(*device);
  start.record(stream);
  b.copyFromAsync(a, a.size(), stream);
  end.record(stream);
  end.synchronize();
  float ms = Event::elapsedMs(start, end);
  EXPECT_GT(ms, 0.0f);

  int calls = 0;
  TimingResult timing = timeIt(
      stream,
      [&] {
        ++calls;
        b.copyFromAsync(a, a.size(), stream);
      },
      /*warmup=*/2, /*runs=*/5);
  EXPECT_EQ(calls, 7);
  EXPECT_EQ(timing.runs, 5);
  EXPECT_GT(timing.minMs, 0.0);
  EXPECT_LE(timing.minMs, timing.medianMs);
  EXPECT_LE(timing.medianMs, timing.maxMs);
  EXPECT_TILE_ERROR(timeIt(
                        stream, [] {}, 0, 0),
                    "runs >= 1");
}

TEST_F(Gpu, StreamSynchronizeAndMove) {
  Stream stream(*device);
  Stream moved = std::move(stream);
  EXPECT_EQ(stream.handle(), nullptr);
  EXPECT_NE(moved.handle(), nullptr);
  moved.synchronize();
  EXPECT_EQ(moved.device().context(), device->context());
}

//===----------------------------------------------------------------------===//
// Modules and kernels
//===----------------------------------------------------------------------===//

// C[i] = (A[i] + B[i]) * scale for i < C.dim0; one element per thread.
constexpr const char *kVectorAddPtx = R"ptx(
.version 8.0
.target sm_80
.address_size 64

.visible .entry vector_add(
    .param .u64 A, .param .u64 B, .param .u64 C,
    .param .u64 An, .param .u64 Bn, .param .u64 Cn,
    .param .f32 scale)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<12>;
  .reg .f32 %f<5>;

  ld.param.u64 %rd1, [A];
  ld.param.u64 %rd2, [B];
  ld.param.u64 %rd3, [C];
  ld.param.u64 %rd4, [Cn];
  ld.param.f32 %f1, [scale];
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  cvt.u64.u32 %rd5, %r1;
  cvt.u64.u32 %rd6, %r2;
  cvt.u64.u32 %rd7, %r3;
  mad.lo.u64 %rd8, %rd5, %rd6, %rd7;
  setp.ge.s64 %p1, %rd8, %rd4;
  @%p1 bra DONE;
  shl.b64 %rd9, %rd8, 2;
  add.u64 %rd10, %rd1, %rd9;
  ld.global.f32 %f2, [%rd10];
  add.u64 %rd10, %rd2, %rd9;
  ld.global.f32 %f3, [%rd10];
  add.f32 %f4, %f2, %f3;
  mul.f32 %f4, %f4, %f1;
  add.u64 %rd11, %rd3, %rd9;
  st.global.f32 [%rd11], %f4;
DONE:
  ret;
}
)ptx";

/// The contract's manifest, for the PTX above (sm_80, one element per thread).
ManifestInfo ptxManifest(unsigned dynamicSharedMemory = 0) {
  ManifestInfo manifest = parseManifest(kVectorAddManifest);
  manifest.target.chip = "sm_80";
  manifest.kernels[0].grid[0].divisor = 256;
  manifest.kernels[0].dynamicSharedMemory = dynamicSharedMemory;
  return manifest;
}

Module loadPtx(const Device &device, ManifestInfo manifest = ptxManifest()) {
  return Module::loadFromMemory(device, kVectorAddPtx,
                                std::strlen(kVectorAddPtx), std::move(manifest),
                                "vector_add.ptx");
}

TEST_F(Gpu, MalformedCubinNamesCuModuleLoadData) {
  std::string image = "\x7f"
                      "ELF this is not a cubin";
  ManifestInfo manifest = parseManifest(kVectorAddManifest);
  manifest.target.chip = device->chip();
  try {
    Module::loadFromMemory(*device, image.data(), image.size(), manifest,
                           "bad.cubin");
    ADD_FAILURE() << "a malformed cubin was loaded";
  } catch (const Error &error) {
    EXPECT_TRUE(error.isCudaError());
    EXPECT_EQ(error.call(), "cuModuleLoadData");
    EXPECT_NE(error.code(), CUDA_SUCCESS);
    EXPECT_TRUE(contains(error.codeName(), "CUDA_ERROR_")) << error.what();
    EXPECT_TRUE(contains(error.what(), "cuModuleLoadData failed: CUDA_ERROR_"))
        << error.what();
    EXPECT_TRUE(contains(error.what(), "bad.cubin")) << error.what();
  }
}

TEST_F(Gpu, ChipMismatchIsReported) {
  std::string image = "\x7f"
                      "ELF";
  ManifestInfo manifest = parseManifest(kVectorAddManifest);
  ComputeCapability cc = device->computeCapability();
  manifest.target.chip = "sm_" + std::to_string(cc.major + 1) + "0";
  EXPECT_TILE_ERROR(Module::loadFromMemory(*device, image.data(), image.size(),
                                           manifest, "future.cubin"),
                    "module compiled for " + manifest.target.chip +
                        " but device is " + device->chip());
}

TEST_F(Gpu, InvalidPtxReportsTheJitLog) {
  const char *ptx = ".version 8.0\n.target sm_80\n.address_size 64\n"
                    ".visible .entry vector_add() { bogus; }\n";
  try {
    Module::loadFromMemory(*device, ptx, std::strlen(ptx), ptxManifest(),
                           "bad.ptx");
    ADD_FAILURE() << "invalid PTX was loaded";
  } catch (const Error &error) {
    EXPECT_TRUE(contains(error.call(), "cuModuleLoadData")) << error.what();
    EXPECT_TRUE(contains(error.what(), "bad.ptx")) << error.what();
  }
}

TEST_F(Gpu, ManifestKernelMissingFromBinary) {
  ManifestInfo manifest = ptxManifest();
  manifest.kernels.push_back(manifest.kernels[0]);
  manifest.kernels[1].name = "not_in_ptx";
  EXPECT_TILE_ERROR(loadPtx(*device, manifest),
                    "looking up kernel 'not_in_ptx' (listed in the manifest)");
}

TEST_F(Gpu, HandEditedManifestIsValidatedOnLoad) {
  // A ManifestInfo edited in code bypasses the parser: Module validates it
  // (here: A's dynamic dim loses its dim parameter).
  ManifestInfo manifest = ptxManifest();
  manifest.kernels[0].params.erase(manifest.kernels[0].params.begin() + 3);
  EXPECT_TILE_ERROR(loadPtx(*device, manifest),
                    "module 'vector_add.ptx': kernel 'vector_add': param 'A': "
                    "dim 0 is dynamic, but no dim parameter passes its size");
}

TEST_F(Gpu, LaunchPtxKernel) {
  Module module = loadPtx(*device);
  EXPECT_EQ(module.kernelNames(), std::vector<std::string>{"vector_add"});
  EXPECT_TILE_ERROR(module.kernel("vector_mul"),
                    "has no kernel 'vector_mul'; available kernels: "
                    "vector_add");
  Kernel kernel = module.kernel("vector_add");
  EXPECT_GT(kernel.maxActiveBlocksPerMultiprocessor(), 0);
  EXPECT_GT(kernel.attribute(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK), 0);

  const int64_t n = 1000003;
  std::vector<float> a(n), b(n);
  for (int64_t i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i % 1000);
    b[i] = static_cast<float>(i % 7) * 0.5f;
  }
  DeviceBuffer da = DeviceBuffer::fromHost(*device, a);
  DeviceBuffer db = DeviceBuffer::fromHost(*device, b);
  DeviceBuffer dc(*device, n * sizeof(float));
  dc.fillZero();
  Stream stream(*device);
  std::vector<Arg> args = {Arg::buffer(da, DType::f32, {n}),
                           Arg::buffer(db, DType::f32, {n}),
                           Arg::buffer(dc, DType::f32, {n}), Arg::scalar(2.0f)};
  kernel.launch(stream, args);
  stream.synchronize();
  std::vector<float> c = dc.download<float>();
  for (int64_t i = 0; i < n; ++i)
    ASSERT_EQ(c[i], (a[i] + b[i]) * 2.0f) << "at " << i;

  // An explicit grid of one block touches only the first 256 elements.
  dc.fillZero();
  kernel.launch(stream, args, Dim3{1, 1, 1});
  stream.synchronize();
  c = dc.download<float>();
  EXPECT_EQ(c[255], (a[255] + b[255]) * 2.0f);
  EXPECT_EQ(c[256], 0.0f);

  // Empty tensors launch nothing (and are no CUDA error).
  kernel.launch(stream, {Arg::buffer(da, DType::f32, {0}),
                         Arg::buffer(db, DType::f32, {0}),
                         Arg::buffer(dc, DType::f32, {0}), Arg::scalar(1.0f)});
  stream.synchronize();

  // Argument errors are raised before anything reaches the driver.
  EXPECT_TILE_ERROR(kernel.launch(stream, {Arg::buffer(da, DType::f32, {n + 1}),
                                           Arg::buffer(db, DType::f32, {n}),
                                           Arg::buffer(dc, DType::f32, {n}),
                                           Arg::scalar(1.0f)}),
                    "kernel 'vector_add': parameter 'A' needs 4000016 bytes");

  // The launch contract, with DeviceBuffers: B shorter than A, and C (which
  // the kernel writes) in place of A. Nothing is launched: C keeps its
  // values.
  std::vector<float> before = dc.download<float>();
  EXPECT_TILE_ERROR(kernel.launch(stream, {Arg::buffer(da, DType::f32, {n}),
                                           Arg::buffer(db, DType::f32, {n - 1}),
                                           Arg::buffer(dc, DType::f32, {n}),
                                           Arg::scalar(1.0f)}),
                    "kernel 'vector_add': requires B[0] == A[0], but B[0] = "
                    "1000002 and A[0] = 1000003");
  EXPECT_TILE_ERROR(kernel.launch(stream, {Arg::buffer(dc, DType::f32, {n}),
                                           Arg::buffer(db, DType::f32, {n}),
                                           Arg::buffer(dc, DType::f32, {n}),
                                           Arg::scalar(1.0f)}),
                    "kernel 'vector_add': parameter 'C' (access \"write\") "
                    "overlaps parameter 'A' (access \"read\") in memory");
  stream.synchronize();
  EXPECT_EQ(dc.download<float>(), before);

  TimingResult timing = timeIt(
      stream, [&] { kernel.launch(stream, args); }, 3, 10);
  EXPECT_GT(timing.medianMs, 0.0);
}

TEST_F(Gpu, ModuleFilesAndKernelOutlivingModule) {
  std::string dir = ::testing::TempDir();
  std::string ptxPath = dir + "tile_runtime_vector_add.ptx";
  std::string manifestPath = dir + "tile_runtime_vector_add.json";
  {
    std::FILE *file = std::fopen(ptxPath.c_str(), "wb");
    ASSERT_NE(file, nullptr);
    std::fputs(kVectorAddPtx, file);
    std::fclose(file);
    // The manifest file: the contract's example, retargeted.
    std::string text = kVectorAddManifest;
    text.replace(text.find("sm_90"), 5, "sm_80");
    text.replace(text.find("1024"), 4, "256");
    file = std::fopen(manifestPath.c_str(), "wb");
    ASSERT_NE(file, nullptr);
    std::fputs(text.c_str(), file);
    std::fclose(file);
  }
  EXPECT_TILE_ERROR(Module::load(*device, dir + "missing.cubin", manifestPath),
                    "cannot read module binary");

  std::optional<Kernel> kernel;
  {
    Module module = Module::load(*device, ptxPath, manifestPath);
    kernel = module.kernel("vector_add");
  } // The kernel keeps the module loaded.
  std::vector<float> ones(1000, 1.0f);
  DeviceBuffer a = DeviceBuffer::fromHost(*device, ones);
  DeviceBuffer c(*device, a.size());
  Stream stream(*device);
  kernel->launch(stream,
                 {Arg::buffer(a, DType::f32, {1000}),
                  Arg::buffer(a.ptr(), DType::f32, {1000}),
                  Arg::buffer(c, DType::f32, {1000}), Arg::scalar(3.0f)});
  stream.synchronize();
  EXPECT_EQ(c.download<float>(), std::vector<float>(1000, 6.0f));
  std::remove(ptxPath.c_str());
  std::remove(manifestPath.c_str());
}

TEST_F(Gpu, LargeDynamicSharedMemoryIsRequested) {
  unsigned bytes = 64 * 1024;
  if (device->sharedMemoryPerBlockOptin() < static_cast<int>(bytes))
    GTEST_SKIP() << "device allows only " << device->sharedMemoryPerBlockOptin()
                 << " bytes";
  Module module = loadPtx(*device, ptxManifest(bytes));
  Kernel kernel = module.kernel("vector_add");
  EXPECT_EQ(kernel.attribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES),
            static_cast<int>(bytes));
  DeviceBuffer a(*device, 1024 * sizeof(float));
  DeviceBuffer c(*device, 1024 * sizeof(float));
  a.fillZero();
  Stream stream(*device);
  // A is read twice (allowed); C, which the kernel writes, is its own.
  kernel.launch(stream,
                {Arg::buffer(a, DType::f32, {1024}),
                 Arg::buffer(a, DType::f32, {1024}),
                 Arg::buffer(c, DType::f32, {1024}), Arg::scalar(1.0f)});
  stream.synchronize();

  Module tooMuch =
      loadPtx(*device, ptxManifest(device->sharedMemoryPerBlockOptin() + 1024));
  EXPECT_TILE_ERROR(tooMuch.kernel("vector_add"),
                    "bytes of dynamic shared memory, but");
}

} // namespace
