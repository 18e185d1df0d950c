//===- tile-device-info.cpp - Is there a usable CUDA GPU? --------------------===//
//
// Prints the CUDA driver and devices, or why there is none. Exit status 0
// when a GPU can be used, 2 when not: scripts use it to decide whether to
// run GPU sections.
//
//===----------------------------------------------------------------------===//

#include "tile/runtime/Runtime.h"

#include <iostream>

int main() {
  tile::rt::Driver driver = tile::rt::Driver::probe();
  if (!driver.available()) {
    std::cout << "no CUDA GPU: " << driver.whyNot() << "\n";
    return 2;
  }
  if (driver.deviceCount() == 0) {
    std::cout << "no CUDA GPU: the driver (" << driver.versionString()
              << ") reports no device\n";
    return 2;
  }
  std::cout << "CUDA driver " << driver.versionString() << ", "
            << driver.deviceCount() << " device(s)\n";
  try {
    for (int i = 0; i < driver.deviceCount(); ++i) {
      tile::rt::Device device = tile::rt::Device::open(i);
      std::cout << "  device " << i << ": " << device.name() << " ("
                << device.chip() << ", " << device.multiProcessorCount()
                << " SMs, " << device.totalMemory() / (1 << 20) << " MiB, "
                << device.sharedMemoryPerBlockOptin() / 1024
                << " KiB shared memory per block)\n";
    }
  } catch (const tile::rt::Error &error) {
    std::cout << "no usable CUDA GPU: " << error.what() << "\n";
    return 2;
  }
  return 0;
}
