//===- main.cpp - Consumer of the installed tile runtime ------------------===//
//
// Probes the CUDA driver through tile::runtime and prints whether a GPU is
// present, and a tensor view of the library API (Library.h). Exits 0
// either way: it tests packaging, not hardware.
//
//===----------------------------------------------------------------------===//

#include "tile/runtime/Library.h"
#include "tile/runtime/Runtime.h"

#include <iostream>

int main() {
  tile::rt::Tensor view =
      tile::rt::Tensor::at(0x1000, tile::rt::DType::f16, {64, 32}).transposed();
  std::cout << "library tensor: " << view.describe() << "\n";
  tile::rt::Driver driver = tile::rt::Driver::probe();
  if (!driver.available() || driver.deviceCount() == 0) {
    std::cout << "GPU present: no (" << driver.whyNot() << ")\n";
    return 0;
  }
  tile::rt::Device device = tile::rt::Device::open();
  std::cout << "GPU present: yes (" << device.name() << ", " << device.chip()
            << ", CUDA driver " << driver.versionString() << ")\n";
  return 0;
}
