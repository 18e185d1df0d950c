//===- Runtime.h - Tile runtime over the CUDA Driver API --------*- C++ -*-===//
//
// A thin runtime that loads modules produced by the tile compiler (a cubin,
// fatbin or PTX file plus its JSON kernel manifest) and launches their kernels
// with type-checked arguments. With std::vector<float> hostA, hostB:
//
//   using namespace tile::rt;
//   Device device = Device::open();
//   Module module = Module::load(device, "add.cubin", "add.json");
//   Kernel add = module.kernel("vector_add");
//   int64_t n = hostA.size();
//   DeviceBuffer a = DeviceBuffer::fromHost(device, hostA);
//   DeviceBuffer b = DeviceBuffer::fromHost(device, hostB);
//   DeviceBuffer c(device, n * sizeof(float));
//   Stream stream(device);
//   add.launch(stream, {Arg::buffer(a, DType::f32, {n}),
//                       Arg::buffer(b, DType::f32, {n}),
//                       Arg::buffer(c, DType::f32, {n}), Arg::scalar(2.0f)});
//   stream.synchronize();
//   std::vector<float> hostC = c.download<float>();
//
// libcuda is loaded with dlopen on first use, so programs start on machines
// without a GPU; isDriverAvailable() and deviceCount() say whether one is
// there. All objects are RAII owners; a Device's primary context stays alive
// while any buffer, stream, event, module or kernel made from it exists.
// Failures throw tile::rt::Error (Error.h).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_RUNTIME_H
#define TILE_RUNTIME_RUNTIME_H

#include "tile/runtime/Error.h"
#include "tile/runtime/Launch.h"
#include "tile/runtime/Manifest.h"
#include "tile/runtime/Occupancy.h"

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace tile::rt {

namespace detail {
struct DeviceState;
struct ModuleState;
} // namespace detail

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

/// The state of the CUDA driver in this process. probe() loads libcuda.so.1
/// and calls cuInit on first use; it never throws.
class Driver {
public:
  static Driver probe();

  /// True if libcuda was loaded and cuInit succeeded.
  bool available() const { return available_; }
  /// Why the driver is not available (empty if it is).
  const std::string &whyNot() const { return whyNot_; }
  /// cuDriverGetVersion, for example 13000; 0 if unavailable.
  int version() const { return version_; }
  /// "13.0"; empty if unavailable.
  std::string versionString() const;
  int deviceCount() const { return deviceCount_; }

private:
  bool available_ = false;
  std::string whyNot_;
  int version_ = 0;
  int deviceCount_ = 0;
};

/// True if a CUDA driver is usable; otherwise stores the reason in `whyNot`.
bool isDriverAvailable(std::string *whyNot = nullptr);
/// Number of CUDA devices; 0 without driver or GPU. Never throws.
int deviceCount();

//===----------------------------------------------------------------------===//
// Device
//===----------------------------------------------------------------------===//

/// A CUDA device and its retained primary context. Device is a cheap copyable
/// handle; the context is released when the last handle and the last object
/// made from it are gone.
class Device {
public:
  /// Retains the primary context of device `ordinal` and makes it current on
  /// this thread. Throws Error if there is no driver, no GPU or no such device.
  static Device open(int ordinal = 0);

  int ordinal() const;
  const std::string &name() const;
  ComputeCapability computeCapability() const;
  /// The compiler's name of this device's architecture: "sm_90", "sm_80", ...
  std::string chip() const;
  int multiProcessorCount() const;
  /// Largest dynamic shared memory a block can opt in to, in bytes.
  int sharedMemoryPerBlockOptin() const;
  std::size_t totalMemory() const;
  /// Any cuDeviceGetAttribute value.
  int attribute(CUdevice_attribute attribute) const;
  /// Threads, blocks, registers and shared memory of one multiprocessor.
  MultiprocessorLimits multiprocessorLimits() const;

  /// Makes the primary context current on the calling thread.
  void makeCurrent() const;
  /// cuCtxSynchronize.
  void synchronize() const;

  CUdevice handle() const;
  CUcontext context() const;

private:
  explicit Device(std::shared_ptr<const detail::DeviceState> state);
  std::shared_ptr<const detail::DeviceState> state_;

  friend class DeviceBuffer;
  friend class Stream;
  friend class Event;
  friend class Module;
  friend class Kernel;
};

//===----------------------------------------------------------------------===//
// Memory, streams, events
//===----------------------------------------------------------------------===//

class Stream;

/// An owned device allocation (cuMemAlloc / cuMemFree). Move-only. Copies
/// are synchronous; a size larger than the buffer is an Error.
class DeviceBuffer {
public:
  /// An empty buffer (ptr() == 0, size() == 0).
  DeviceBuffer() = default;
  DeviceBuffer(const Device &device, std::size_t bytes);
  ~DeviceBuffer();
  DeviceBuffer(DeviceBuffer &&other) noexcept;
  DeviceBuffer &operator=(DeviceBuffer &&other) noexcept;
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;

  CUdeviceptr ptr() const { return ptr_; }
  std::size_t size() const { return size_; }

  void copyFromHost(const void *src, std::size_t bytes);
  void copyToHost(void *dst, std::size_t bytes) const;
  /// Device-to-device copy of the first `bytes` of `src`.
  void copyFrom(const DeviceBuffer &src, std::size_t bytes);
  void copyFromAsync(const DeviceBuffer &src, std::size_t bytes,
                     Stream &stream);
  void fillZero() { fillBytes(0); }
  void fillBytes(uint8_t value);
  /// Fills with a 32-bit pattern; size() must be a multiple of 4.
  void fill32(uint32_t value);

  /// Copies `host` to the start of the buffer.
  template <typename T> void upload(const std::vector<T> &host) {
    static_assert(std::is_trivially_copyable_v<T>);
    copyFromHost(host.data(), host.size() * sizeof(T));
  }
  /// The whole buffer as size() / sizeof(T) elements.
  template <typename T> std::vector<T> download() const {
    static_assert(std::is_trivially_copyable_v<T>);
    std::vector<T> host(size_ / sizeof(T));
    copyToHost(host.data(), host.size() * sizeof(T));
    return host;
  }
  /// A new buffer holding a copy of `host`.
  template <typename T>
  static DeviceBuffer fromHost(const Device &device,
                               const std::vector<T> &host) {
    DeviceBuffer buffer(device, host.size() * sizeof(T));
    buffer.upload(host);
    return buffer;
  }

private:
  std::shared_ptr<const detail::DeviceState> device_;
  CUdeviceptr ptr_ = 0;
  std::size_t size_ = 0;
};

/// Copies `bytes` from device memory the runtime does not own (a Tensor
/// over a framework's allocation) on `device` to `dst`; synchronous.
void copyToHost(const Device &device, CUdeviceptr src, void *dst,
                std::size_t bytes);

/// An owned CUDA stream. Move-only. The default flags give a stream that
/// synchronizes with the legacy default stream, so synchronous copies and
/// launches on it are ordered.
class Stream {
public:
  explicit Stream(const Device &device, unsigned flags = CU_STREAM_DEFAULT);
  ~Stream();
  Stream(Stream &&other) noexcept;
  Stream &operator=(Stream &&other) noexcept;
  Stream(const Stream &) = delete;
  Stream &operator=(const Stream &) = delete;

  CUstream handle() const { return stream_; }
  Device device() const;
  void synchronize() const;

private:
  std::shared_ptr<const detail::DeviceState> device_;
  CUstream stream_ = nullptr;
};

/// An owned CUDA event. Move-only.
class Event {
public:
  explicit Event(const Device &device, unsigned flags = CU_EVENT_DEFAULT);
  ~Event();
  Event(Event &&other) noexcept;
  Event &operator=(Event &&other) noexcept;
  Event(const Event &) = delete;
  Event &operator=(const Event &) = delete;

  void record(Stream &stream);
  void synchronize() const;
  CUevent handle() const { return event_; }

  /// Milliseconds between two recorded, completed events.
  static float elapsedMs(const Event &start, const Event &end);

private:
  std::shared_ptr<const detail::DeviceState> device_;
  CUevent event_ = nullptr;
};

struct TimingResult {
  double medianMs = 0;
  double minMs = 0;
  double maxMs = 0;
  int runs = 0;
};

/// Runs `work` (which enqueues GPU work on `stream`) `warmup` times, then
/// `runs` times with a pair of events recorded around each run; synchronizes
/// and returns the median, min and max of the per-run times.
TimingResult timeIt(Stream &stream, const std::function<void()> &work,
                    int warmup = 10, int runs = 100);

//===----------------------------------------------------------------------===//
// Modules and kernels
//===----------------------------------------------------------------------===//

class Kernel;

/// A loaded module (cuModuleLoadData) with its manifest. Move-only. Kernels
/// obtained from it keep it loaded.
class Module {
public:
  /// Loads a cubin, fatbin or PTX file and its manifest. Throws Error if a
  /// file cannot be read, the manifest is malformed, its target chip does not
  /// fit the device or the driver rejects the image.
  static Module load(const Device &device, const std::string &binaryPath,
                     const std::string &manifestPath);
  /// The same from an image in memory (copied; PTX needs no terminating NUL).
  static Module loadFromMemory(const Device &device, const void *image,
                               std::size_t size, ManifestInfo manifest,
                               const std::string &label = "<memory>");

  Module(Module &&) noexcept = default;
  Module &operator=(Module &&) noexcept = default;
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;

  const ManifestInfo &manifest() const;
  std::vector<std::string> kernelNames() const;
  /// The kernel called `name`; the Error lists the available names.
  Kernel kernel(const std::string &name) const;
  CUmodule handle() const;

private:
  explicit Module(std::shared_ptr<const detail::ModuleState> state);
  std::shared_ptr<const detail::ModuleState> state_;
};

/// A kernel of a loaded module and its manifest entry. Cheap to copy.
class Kernel {
public:
  const std::string &name() const { return info_->name; }
  const KernelInfo &info() const { return *info_; }
  CUfunction handle() const { return function_; }

  /// Checks `args` (see checkAndPack), computes the grid from the manifest
  /// and launches on `stream`. Launches nothing if the grid is empty.
  void launch(Stream &stream, const std::vector<Arg> &args) const;
  /// As above with an explicit grid.
  void launch(Stream &stream, const std::vector<Arg> &args, Dim3 grid) const;
  /// Launches already packed parameters.
  void launch(Stream &stream, const PackedLaunch &packed) const;

  /// Any cuFuncGetAttribute value.
  int attribute(CUfunction_attribute attribute) const;
  /// Occupancy with the manifest's block size and dynamic shared memory
  /// (the driver's occupancy API).
  int maxActiveBlocksPerMultiprocessor() const;
  /// Registers, shared and local memory per block (cuFuncGetAttribute and
  /// the manifest).
  KernelResources resources() const;
  /// The theoretical occupancy on this kernel's device and the resource
  /// that limits it (estimateOccupancy; its blocks per multiprocessor agree
  /// with maxActiveBlocksPerMultiprocessor(), which a GPU test checks).
  Occupancy occupancy() const;

private:
  friend class Module;
  Kernel(std::shared_ptr<const detail::ModuleState> module,
         const KernelInfo *info, CUfunction function);

  std::shared_ptr<const detail::ModuleState> module_;
  const KernelInfo *info_;
  CUfunction function_;
};

} // namespace tile::rt

#endif // TILE_RUNTIME_RUNTIME_H
