//===- Runtime.cpp - Devices, memory, streams, modules, kernels -----------===//
//
// The RAII owners of the tile runtime. Every CUDA call goes through TILE_CU
// (DriverApi.h). Each object keeps its device's primary context alive and
// makes it current before calling the driver, so objects can be used from any
// thread and destroyed in any order.
//
//===----------------------------------------------------------------------===//

#include "tile/runtime/Runtime.h"

#include "DriverApi.h"
#include "TensorMaps.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <utility>

using namespace tile::rt;
using namespace tile::rt::detail;

/// Like TILE_CU, but `Context` (evaluated only on failure) completes the
/// message: "... failed: CUDA_ERROR_X (...) while <Context>".
#define TILE_CU_CONTEXT(Context, Field, ...)                                   \
  do {                                                                         \
    CUresult tileResult = ::tile::rt::detail::api().Field(__VA_ARGS__);        \
    if (tileResult != CUDA_SUCCESS)                                            \
      throw ::tile::rt::detail::cudaError("cu" #Field, tileResult, Context);   \
  } while (false)

//===----------------------------------------------------------------------===//
// Internal state
//===----------------------------------------------------------------------===//

namespace tile::rt::detail {

struct DeviceState {
  int ordinal = 0;
  CUdevice device = 0;
  CUcontext context = nullptr;
  std::string name;
  ComputeCapability capability;
  int multiProcessorCount = 0;
  int sharedMemoryPerBlockOptin = 0;
  std::size_t totalMemory = 0;

  DeviceState() = default;
  DeviceState(const DeviceState &) = delete;
  DeviceState &operator=(const DeviceState &) = delete;
  ~DeviceState() {
    if (context)
      TILE_CU_NOTHROW(DevicePrimaryCtxRelease, device);
  }

  void makeCurrent() const { TILE_CU(CtxSetCurrent, context); }
  /// For destructors: best effort.
  void makeCurrentNoThrow() const { TILE_CU_NOTHROW(CtxSetCurrent, context); }
  std::string chip() const {
    return "sm_" + std::to_string(capability.major) +
           std::to_string(capability.minor);
  }
};

struct ModuleState {
  std::shared_ptr<const DeviceState> device;
  CUmodule module = nullptr;
  ManifestInfo manifest;
  std::string label;
  /// The tensor maps its kernels' launches encoded last.
  mutable TensorMapCache tensorMaps;
  /// Per kernel function with clusters: how many of its clusters the device
  /// holds at once (cuOccupancyMaxActiveClusters; 0 when the driver cannot
  /// say), asked at its first launch.
  mutable std::mutex clustersMutex;
  mutable std::map<CUfunction, int> maxActiveClusters;
  /// The workspaces of its kernels' launches (stream-K), one per kernel
  /// function and stream: launches on one stream run one after the other,
  /// and each leaves its flags zero for the next. Zero-filled when
  /// allocated; replaced by a larger one when a launch needs more.
  struct Workspace {
    CUdeviceptr address = 0;
    uint64_t bytes = 0;
  };
  mutable std::mutex workspacesMutex;
  mutable std::map<std::pair<CUfunction, CUstream>, Workspace> workspaces;

  /// A zero-filled workspace of at least `bytes` for `function`'s launches
  /// on `stream`.
  CUdeviceptr workspaceFor(CUfunction function, CUstream stream, uint64_t bytes,
                           const std::string &kernel) const {
    std::lock_guard<std::mutex> lock(workspacesMutex);
    Workspace &workspace = workspaces[{function, stream}];
    if (workspace.bytes >= bytes)
      return workspace.address;
    if (workspace.address) {
      // The launches that used it finish first.
      TILE_CU(StreamSynchronize, stream);
      TILE_CU(MemFree, workspace.address);
      workspace = Workspace();
    }
    TILE_CU_CONTEXT("allocating the " + std::to_string(bytes) +
                        "-byte workspace of kernel '" + kernel + "'",
                    MemAlloc, &workspace.address, bytes);
    workspace.bytes = bytes;
    TILE_CU(MemsetD8, workspace.address, 0, bytes);
    return workspace.address;
  }

  ModuleState() = default;
  ModuleState(const ModuleState &) = delete;
  ModuleState &operator=(const ModuleState &) = delete;
  ~ModuleState() {
    if (module) {
      device->makeCurrentNoThrow();
      for (auto &entry : workspaces)
        TILE_CU_NOTHROW(MemFree, entry.second.address);
      TILE_CU_NOTHROW(ModuleUnload, module);
    }
  }
};

} // namespace tile::rt::detail

//===----------------------------------------------------------------------===//
// Device
//===----------------------------------------------------------------------===//

Device::Device(std::shared_ptr<const DeviceState> state)
    : state_(std::move(state)) {}

Device Device::open(int ordinal) {
  api(); // Throws "no CUDA driver" / "no CUDA GPU" with the reason.
  int count = deviceCount();
  if (count == 0)
    throw Error("no CUDA GPU: the driver reports no devices");
  if (ordinal < 0 || ordinal >= count)
    throw Error("CUDA device " + std::to_string(ordinal) +
                " does not exist: the driver reports " + std::to_string(count) +
                " device(s)");

  auto state = std::make_shared<DeviceState>();
  state->ordinal = ordinal;
  TILE_CU(DeviceGet, &state->device, ordinal);
  TILE_CU(DevicePrimaryCtxRetain, &state->context, state->device);
  state->makeCurrent();

  char name[256] = {};
  TILE_CU(DeviceGetName, name, sizeof(name) - 1, state->device);
  state->name = name;
  auto attribute = [&](CUdevice_attribute attribute) {
    int value = 0;
    TILE_CU(DeviceGetAttribute, &value, attribute, state->device);
    return value;
  };
  state->capability = {attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
                       attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)};
  state->multiProcessorCount =
      attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  state->sharedMemoryPerBlockOptin =
      attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
  TILE_CU(DeviceTotalMem, &state->totalMemory, state->device);
  return Device(std::move(state));
}

int Device::ordinal() const { return state_->ordinal; }
const std::string &Device::name() const { return state_->name; }
ComputeCapability Device::computeCapability() const {
  return state_->capability;
}
std::string Device::chip() const { return state_->chip(); }
int Device::multiProcessorCount() const { return state_->multiProcessorCount; }
int Device::sharedMemoryPerBlockOptin() const {
  return state_->sharedMemoryPerBlockOptin;
}
std::size_t Device::totalMemory() const { return state_->totalMemory; }

int Device::attribute(CUdevice_attribute attribute) const {
  int value = 0;
  TILE_CU(DeviceGetAttribute, &value, attribute, state_->device);
  return value;
}

MultiprocessorLimits Device::multiprocessorLimits() const {
  MultiprocessorLimits limits;
  limits.maxThreads =
      attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
  limits.maxBlocks =
      attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR);
  limits.registers =
      attribute(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR);
  limits.sharedBytes =
      attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
  limits.reservedSharedPerBlock =
      attribute(CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK);
  limits.warpSize = attribute(CU_DEVICE_ATTRIBUTE_WARP_SIZE);
  return limits;
}

void Device::makeCurrent() const { state_->makeCurrent(); }

void Device::synchronize() const {
  state_->makeCurrent();
  TILE_CU(CtxSynchronize);
}

CUdevice Device::handle() const { return state_->device; }
CUcontext Device::context() const { return state_->context; }

//===----------------------------------------------------------------------===//
// DeviceBuffer
//===----------------------------------------------------------------------===//

DeviceBuffer::DeviceBuffer(const Device &device, std::size_t bytes)
    : device_(device.state_), size_(bytes) {
  if (bytes == 0)
    return;
  device_->makeCurrent();
  TILE_CU_CONTEXT("allocating " + std::to_string(bytes) + " bytes on " +
                      device_->name,
                  MemAlloc, &ptr_, bytes);
}

DeviceBuffer::~DeviceBuffer() {
  if (ptr_) {
    device_->makeCurrentNoThrow();
    TILE_CU_NOTHROW(MemFree, ptr_);
  }
}

DeviceBuffer::DeviceBuffer(DeviceBuffer &&other) noexcept
    : device_(std::move(other.device_)), ptr_(std::exchange(other.ptr_, 0)),
      size_(std::exchange(other.size_, 0)) {}

DeviceBuffer &DeviceBuffer::operator=(DeviceBuffer &&other) noexcept {
  if (this != &other) {
    DeviceBuffer old(std::move(*this));
    device_ = std::move(other.device_);
    ptr_ = std::exchange(other.ptr_, 0);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

namespace {
void checkCopySize(const char *operation, std::size_t bytes,
                   std::size_t available) {
  if (bytes > available)
    throw Error(std::string("DeviceBuffer::") + operation + ": " +
                std::to_string(bytes) + " bytes requested, but the buffer " +
                "holds " + std::to_string(available) + " bytes");
}
} // namespace

void DeviceBuffer::copyFromHost(const void *src, std::size_t bytes) {
  checkCopySize("copyFromHost", bytes, size_);
  if (bytes == 0)
    return;
  device_->makeCurrent();
  TILE_CU(MemcpyHtoD, ptr_, src, bytes);
}

void DeviceBuffer::copyToHost(void *dst, std::size_t bytes) const {
  checkCopySize("copyToHost", bytes, size_);
  if (bytes == 0)
    return;
  device_->makeCurrent();
  TILE_CU(MemcpyDtoH, dst, ptr_, bytes);
}

void tile::rt::copyToHost(const Device &device, CUdeviceptr src, void *dst,
                          std::size_t bytes) {
  if (bytes == 0)
    return;
  device.makeCurrent();
  TILE_CU(MemcpyDtoH, dst, src, bytes);
}

void DeviceBuffer::copyFrom(const DeviceBuffer &src, std::size_t bytes) {
  checkCopySize("copyFrom", bytes, std::min(size_, src.size_));
  if (bytes == 0)
    return;
  device_->makeCurrent();
  TILE_CU(MemcpyDtoD, ptr_, src.ptr_, bytes);
}

void DeviceBuffer::copyFromAsync(const DeviceBuffer &src, std::size_t bytes,
                                 Stream &stream) {
  checkCopySize("copyFromAsync", bytes, std::min(size_, src.size_));
  if (bytes == 0)
    return;
  device_->makeCurrent();
  TILE_CU(MemcpyDtoDAsync, ptr_, src.ptr_, bytes, stream.handle());
}

void DeviceBuffer::fillBytes(uint8_t value) {
  if (size_ == 0)
    return;
  device_->makeCurrent();
  TILE_CU(MemsetD8, ptr_, value, size_);
}

void DeviceBuffer::fill32(uint32_t value) {
  if (size_ % 4 != 0)
    throw Error("DeviceBuffer::fill32: the buffer size " +
                std::to_string(size_) + " is not a multiple of 4");
  if (size_ == 0)
    return;
  device_->makeCurrent();
  TILE_CU(MemsetD32, ptr_, value, size_ / 4);
}

//===----------------------------------------------------------------------===//
// Stream and Event
//===----------------------------------------------------------------------===//

Stream::Stream(const Device &device, unsigned flags) : device_(device.state_) {
  device_->makeCurrent();
  TILE_CU(StreamCreate, &stream_, flags);
}

Stream::~Stream() {
  if (stream_) {
    device_->makeCurrentNoThrow();
    TILE_CU_NOTHROW(StreamDestroy, stream_);
  }
}

Stream::Stream(Stream &&other) noexcept
    : device_(std::move(other.device_)),
      stream_(std::exchange(other.stream_, nullptr)) {}

Stream &Stream::operator=(Stream &&other) noexcept {
  if (this != &other) {
    Stream old(std::move(*this));
    device_ = std::move(other.device_);
    stream_ = std::exchange(other.stream_, nullptr);
  }
  return *this;
}

Device Stream::device() const { return Device(device_); }

void Stream::synchronize() const {
  device_->makeCurrent();
  TILE_CU(StreamSynchronize, stream_);
}

Event::Event(const Device &device, unsigned flags) : device_(device.state_) {
  device_->makeCurrent();
  TILE_CU(EventCreate, &event_, flags);
}

Event::~Event() {
  if (event_) {
    device_->makeCurrentNoThrow();
    TILE_CU_NOTHROW(EventDestroy, event_);
  }
}

Event::Event(Event &&other) noexcept
    : device_(std::move(other.device_)),
      event_(std::exchange(other.event_, nullptr)) {}

Event &Event::operator=(Event &&other) noexcept {
  if (this != &other) {
    Event old(std::move(*this));
    device_ = std::move(other.device_);
    event_ = std::exchange(other.event_, nullptr);
  }
  return *this;
}

void Event::record(Stream &stream) {
  device_->makeCurrent();
  TILE_CU(EventRecord, event_, stream.handle());
}

void Event::synchronize() const {
  device_->makeCurrent();
  TILE_CU(EventSynchronize, event_);
}

float Event::elapsedMs(const Event &start, const Event &end) {
  float ms = 0;
  start.device_->makeCurrent();
  TILE_CU(EventElapsedTime, &ms, start.event_, end.event_);
  return ms;
}

TimingResult tile::rt::timeIt(Stream &stream, const std::function<void()> &work,
                              int warmup, int runs) {
  if (runs < 1 || warmup < 0)
    throw Error("timeIt: needs runs >= 1 and warmup >= 0, but got runs = " +
                std::to_string(runs) + ", warmup = " + std::to_string(warmup));
  Device device = stream.device();
  std::vector<Event> starts, ends;
  starts.reserve(runs);
  ends.reserve(runs);
  for (int i = 0; i < runs; ++i) {
    starts.emplace_back(device);
    ends.emplace_back(device);
  }

  for (int i = 0; i < warmup; ++i)
    work();
  for (int i = 0; i < runs; ++i) {
    starts[i].record(stream);
    work();
    ends[i].record(stream);
  }
  stream.synchronize();

  std::vector<double> times;
  times.reserve(runs);
  for (int i = 0; i < runs; ++i)
    times.push_back(Event::elapsedMs(starts[i], ends[i]));
  std::sort(times.begin(), times.end());
  TimingResult result;
  result.runs = runs;
  result.minMs = times.front();
  result.maxMs = times.back();
  result.medianMs =
      runs % 2 ? times[runs / 2] : (times[runs / 2 - 1] + times[runs / 2]) / 2;
  return result;
}

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

Module::Module(std::shared_ptr<const ModuleState> state)
    : state_(std::move(state)) {}

Module Module::load(const Device &device, const std::string &binaryPath,
                    const std::string &manifestPath) {
  std::ifstream file(binaryPath, std::ios::binary);
  if (!file)
    throw Error("cannot read module binary '" + binaryPath +
                "': " + std::strerror(errno));
  std::vector<char> image((std::istreambuf_iterator<char>(file)),
                          std::istreambuf_iterator<char>());
  return loadFromMemory(device, image.data(), image.size(),
                        loadManifestFile(manifestPath), binaryPath);
}

Module Module::loadFromMemory(const Device &device, const void *image,
                              std::size_t size, ManifestInfo manifest,
                              const std::string &label) {
  if (size == 0)
    throw Error("module '" + label + "' is empty");
  // A ManifestInfo may be built or edited by hand: refuse an inconsistent
  // kernel description before loading anything.
  for (const KernelInfo &kernel : manifest.kernels) {
    try {
      kernel.validate();
    } catch (const Error &error) {
      throw Error("module '" + label + "': " + error.what());
    }
  }
  ImageKind kind = detectImageKind(image, size);
  const DeviceState &deviceState = *device.state_;
  if (!isChipCompatible(manifest.target.chip, deviceState.capability, kind))
    throw Error("module compiled for " + manifest.target.chip +
                " but device is " + deviceState.chip() + " (module '" + label +
                "', device " + std::to_string(deviceState.ordinal) + ": " +
                deviceState.name + ")");

  // PTX must be NUL-terminated; the extra byte is harmless for binaries.
  std::vector<char> data(static_cast<const char *>(image),
                         static_cast<const char *>(image) + size);
  data.push_back('\0');

  auto state = std::make_shared<ModuleState>();
  state->device = device.state_;
  state->manifest = std::move(manifest);
  state->label = label;
  deviceState.makeCurrent();
  if (kind == ImageKind::Ptx && api().ModuleLoadDataEx) {
    // JIT-compile with an error log, so PTX errors say what is wrong.
    std::vector<char> log(16384, '\0');
    CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                              CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *values[] = {log.data(),
                      reinterpret_cast<void *>(uintptr_t(log.size() - 1))};
    TILE_CU_CONTEXT("JIT-compiling PTX module '" + label + "'" +
                        (log[0] ? ":\n" + std::string(log.data()) : ""),
                    ModuleLoadDataEx, &state->module, data.data(), 2, options,
                    values);
  } else {
    TILE_CU_CONTEXT("loading module '" + label + "'", ModuleLoadData,
                    &state->module, data.data());
  }

  // Every kernel of the manifest must be in the binary.
  for (const KernelInfo &kernel : state->manifest.kernels) {
    CUfunction function = nullptr;
    TILE_CU_CONTEXT("looking up kernel '" + kernel.name +
                        "' (listed in the manifest) in module '" + label + "'",
                    ModuleGetFunction, &function, state->module,
                    kernel.name.c_str());
  }
  return Module(std::move(state));
}

const ManifestInfo &Module::manifest() const { return state_->manifest; }

std::vector<std::string> Module::kernelNames() const {
  return state_->manifest.kernelNames();
}

CUmodule Module::handle() const { return state_->module; }

Kernel Module::kernel(const std::string &name) const {
  const KernelInfo *info = state_->manifest.findKernel(name);
  if (!info) {
    std::string names;
    for (const KernelInfo &kernel : state_->manifest.kernels)
      names += (names.empty() ? "" : ", ") + kernel.name;
    throw Error("module '" + state_->label + "' has no kernel '" + name +
                "'; available kernels: " + (names.empty() ? "none" : names));
  }
  const DeviceState &device = *state_->device;
  device.makeCurrent();
  CUfunction function = nullptr;
  TILE_CU_CONTEXT("looking up kernel '" + name + "'", ModuleGetFunction,
                  &function, state_->module, name.c_str());

  // Static + dynamic shared memory above 48 KiB needs an opt-in per kernel
  // (the compiler's dynamic-shared-memory symbol itself takes a few static
  // bytes, so a 48 KiB request already crosses the line).
  constexpr long kDefaultSharedLimit = 48 * 1024;
  int staticShared = 0;
  TILE_CU_CONTEXT("querying the static shared memory of kernel '" + name + "'",
                  FuncGetAttribute, &staticShared,
                  CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, function);
  long dynamicShared = info->dynamicSharedMemory;
  if (dynamicShared > 0 && staticShared + dynamicShared > kDefaultSharedLimit) {
    if (staticShared + dynamicShared > device.sharedMemoryPerBlockOptin)
      throw Error("kernel '" + name + "' needs " +
                  std::to_string(dynamicShared) +
                  " bytes of dynamic shared memory, but " + device.name +
                  " allows at most " +
                  std::to_string(device.sharedMemoryPerBlockOptin) +
                  " per block, " + std::to_string(staticShared) +
                  " of them taken by static shared memory");
    TILE_CU_CONTEXT("raising the dynamic shared memory limit of kernel '" +
                        name + "'",
                    FuncSetAttribute, function,
                    CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                    static_cast<int>(dynamicShared));
  }
  return Kernel(state_, info, function);
}

//===----------------------------------------------------------------------===//
// Kernel
//===----------------------------------------------------------------------===//

Kernel::Kernel(std::shared_ptr<const ModuleState> module,
               const KernelInfo *info, CUfunction function)
    : module_(std::move(module)), info_(info), function_(function) {}

// Module::load validated the kernel's description, which nothing changes
// afterwards: a launch checks only its arguments.
void Kernel::launch(Stream &stream, const std::vector<Arg> &args) const {
  launch(stream, detail::checkAndPackValidated(*info_, args, nullptr));
}

void Kernel::launch(Stream &stream, const std::vector<Arg> &args,
                    Dim3 grid) const {
  launch(stream, detail::checkAndPackValidated(*info_, args, &grid));
}

void Kernel::launch(Stream &stream, const PackedLaunch &packed) const {
  if (packed.params.size() != info_->params.size())
    throw Error("kernel '" + info_->name + "': packed launch has " +
                std::to_string(packed.params.size()) +
                " parameters, but the kernel takes " +
                std::to_string(info_->params.size()));
  if (stream.device().context() != module_->device->context)
    throw Error("kernel '" + info_->name +
                "': the stream belongs to another device than the module");
  module_->device->makeCurrent();
  // Accumulate buffers start at zero, even when no block runs (K = 0 still
  // gives C = 0).
  for (const ZeroFill &fill : packed.zeroFills)
    TILE_CU_CONTEXT(
        "zero-filling the accumulate buffer at " +
            std::to_string(fill.address) + " (" + std::to_string(fill.bytes) +
            " bytes) before launching kernel '" + info_->name + "'",
        MemsetD8Async, fill.address, 0, fill.bytes, stream.handle());
  if (packed.empty())
    return; // Empty tensors: nothing to do.
  // Encoded here, not in checkAndPack: cuTensorMapEncodeTiled needs the
  // driver, checkAndPack does not.
  std::vector<CUtensorMap> maps;
  if (!packed.tensorMaps.empty())
    maps = module_->tensorMaps.encode(packed.tensorMaps, info_->name);
  std::vector<void *> params = packed.kernelParams(maps.data());
  // A persistent kernel with clusters runs as many at once as the GPCs
  // hold (an SM left over in one does not make another cluster), not
  // multiprocessors / blocks per cluster: more would wait a whole round.
  int clusters = 0;
  if (packed.persistent && packed.persistent->clusterBlocks() > 1) {
    std::lock_guard<std::mutex> lock(module_->clustersMutex);
    auto [it, inserted] = module_->maxActiveClusters.try_emplace(function_, 0);
    if (inserted && detail::api().OccupancyMaxActiveClusters) {
      CUlaunchConfig config{};
      config.gridDimX = packed.persistent->clusterBlocks() *
                        unsigned(module_->device->multiProcessorCount);
      config.gridDimY = config.gridDimZ = 1;
      config.blockDimX = packed.block.x;
      config.blockDimY = packed.block.y;
      config.blockDimZ = packed.block.z;
      config.sharedMemBytes = packed.sharedMemoryBytes;
      config.hStream = stream.handle();
      int count = 0;
      if (detail::api().OccupancyMaxActiveClusters(&count, function_,
                                                   &config) == CUDA_SUCCESS)
        it->second = count;
    }
    clusters = it->second;
  }
  const Dim3 g = packed.gridOn(module_->device->multiProcessorCount, clusters);
  const Dim3 &b = packed.block;
  auto describe = [&] {
    auto dims = [](const Dim3 &d) {
      return "(" + std::to_string(d.x) + ", " + std::to_string(d.y) + ", " +
             std::to_string(d.z) + ")";
    };
    return "launching kernel '" + info_->name + "' with grid " + dims(g) +
           ", block " + dims(b) + ", " +
           std::to_string(packed.sharedMemoryBytes) +
           " bytes of dynamic shared memory";
  };
  // The workspace of a stream-K kernel: bytes per block of the grid just
  // computed (a persistent kernel launches fewer blocks than tiles).
  uint64_t workspaceAddress = 0;
  if (packed.workspace) {
    uint64_t blocks = uint64_t(g.x) * g.y * g.z;
    workspaceAddress = module_->workspaceFor(
        function_, stream.handle(), packed.workspace->bytesPerBlock * blocks,
        info_->name);
    params[packed.workspace->param] = &workspaceAddress;
  }
  TILE_CU_CONTEXT(describe(), LaunchKernel, function_, g.x, g.y, g.z, b.x, b.y,
                  b.z, packed.sharedMemoryBytes, stream.handle(), params.data(),
                  nullptr);
}

int Kernel::attribute(CUfunction_attribute attribute) const {
  int value = 0;
  module_->device->makeCurrent();
  TILE_CU(FuncGetAttribute, &value, attribute, function_);
  return value;
}

KernelResources Kernel::resources() const {
  KernelResources r;
  r.threadsPerBlock =
      static_cast<int>(info_->block.x * info_->block.y * info_->block.z);
  r.registersPerThread = attribute(CU_FUNC_ATTRIBUTE_NUM_REGS);
  r.staticSharedBytes = attribute(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
  r.dynamicSharedBytes = static_cast<int>(info_->dynamicSharedMemory);
  r.localBytesPerThread = attribute(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES);
  return r;
}

Occupancy Kernel::occupancy() const {
  return estimateOccupancy(resources(),
                           Device(module_->device).multiprocessorLimits());
}

int Kernel::maxActiveBlocksPerMultiprocessor() const {
  if (!api().OccupancyMaxActiveBlocksPerMultiprocessor)
    throw Error("cuOccupancyMaxActiveBlocksPerMultiprocessor is not provided "
                "by this CUDA driver");
  int blocks = 0;
  module_->device->makeCurrent();
  TILE_CU(OccupancyMaxActiveBlocksPerMultiprocessor, &blocks, function_,
          static_cast<int>(info_->block.x * info_->block.y * info_->block.z),
          info_->dynamicSharedMemory);
  return blocks;
}
