//===- tile-device-info.cpp - Is there a usable CUDA GPU? -----------------===//
//
//   tile-device-info [--json]
//
// Prints the CUDA driver and devices, or why there is none. Exit status 0
// when a GPU can be used, 2 when not: scripts use it to decide whether to
// run GPU sections. --json prints each device's limits instead, the file
// that `tile-tune --device=FILE` prunes against on a machine without the
// GPU.
//
//===----------------------------------------------------------------------===//

#include "tile/runtime/Runtime.h"

#include <nlohmann/json.hpp>

#include <iostream>
#include <string>

namespace {

nlohmann::json describe(const tile::rt::Device &device) {
  tile::rt::ComputeCapability cc = device.computeCapability();
  tile::rt::MultiprocessorLimits sm = device.multiprocessorLimits();
  return {{"name", device.name()},
          {"chip", device.chip()},
          {"compute_capability",
           std::to_string(cc.major) + "." + std::to_string(cc.minor)},
          {"multiprocessors", device.multiProcessorCount()},
          {"total_memory_bytes", device.totalMemory()},
          {"shared_memory_per_block_optin", device.sharedMemoryPerBlockOptin()},
          {"registers_per_block",
           device.attribute(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK)},
          {"max_threads_per_block",
           device.attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK)},
          {"multiprocessor",
           {{"max_threads", sm.maxThreads},
            {"max_blocks", sm.maxBlocks},
            {"registers", sm.registers},
            {"shared_memory_bytes", sm.sharedBytes},
            {"reserved_shared_memory_per_block", sm.reservedSharedPerBlock}}}};
}

} // namespace

int main(int argc, char **argv) {
  bool json = argc == 2 && std::string(argv[1]) == "--json";
  if (argc > 2 || (argc == 2 && !json)) {
    std::cerr << "usage: tile-device-info [--json]\n";
    return 1;
  }
  tile::rt::Driver driver = tile::rt::Driver::probe();
  std::string whyNot;
  if (!driver.available())
    whyNot = driver.whyNot();
  else if (driver.deviceCount() == 0)
    whyNot = "the driver (" + driver.versionString() + ") reports no device";
  nlohmann::json devices = nlohmann::json::array();
  try {
    for (int i = 0; whyNot.empty() && i < driver.deviceCount(); ++i)
      devices.push_back(describe(tile::rt::Device::open(i)));
  } catch (const tile::rt::Error &error) {
    whyNot = std::string("no usable device: ") + error.what();
  }
  if (json) {
    nlohmann::json out = {{"format", "tile-device-info"},
                          {"version", 1},
                          {"driver", driver.versionString()},
                          {"devices", devices}};
    if (!whyNot.empty())
      out["no_gpu_reason"] = whyNot;
    std::cout << out.dump(2) << "\n";
    return whyNot.empty() ? 0 : 2;
  }
  if (!whyNot.empty()) {
    std::cout << "no CUDA GPU: " << whyNot << "\n";
    return 2;
  }
  std::cout << "CUDA driver " << driver.versionString() << ", "
            << driver.deviceCount() << " device(s)\n";
  for (size_t i = 0; i < devices.size(); ++i) {
    const nlohmann::json &d = devices[i];
    std::cout << "  device " << i << ": " << d["name"].get<std::string>()
              << " (" << d["chip"].get<std::string>() << ", "
              << d["multiprocessors"] << " SMs, "
              << d["total_memory_bytes"].get<size_t>() / (1 << 20) << " MiB, "
              << d["shared_memory_per_block_optin"].get<int>() / 1024
              << " KiB shared memory per block)\n";
  }
  return 0;
}
