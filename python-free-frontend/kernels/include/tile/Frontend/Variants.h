//===- Variants.h - Kernel generators with their configuration --*- C++ -*-===//
//
// A variant is one generator with one configuration: what tile-kernels
// compiles into the kernel library and what tile-tune searches over. The
// configuration is also written to the kernel index (JSON), where the GPU
// tests and benchmarks read it.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_FRONTEND_VARIANTS_H
#define TILE_FRONTEND_VARIANTS_H

#include "tile/Frontend/Kernels.h"

#include "llvm/Support/JSON.h"

#include <functional>
#include <string>

namespace tile::fe {

/// One kernel variant: a generator with its configuration.
struct Variant {
  std::string generator;
  /// The kernel's name (the configuration's kernelName()).
  std::string name;
  llvm::json::Object config;
  /// Builds the kernel into the program and returns its name; throws
  /// std::invalid_argument when the generator does not support the
  /// configuration (its validate()).
  std::function<std::string(Program &)> build;
  /// The shared memory its tiles need at least, in bytes, where the
  /// generator says (GemmConfig::sharedMemoryBytes); 0 otherwise.
  int64_t sharedMemoryBytes = 0;
};

Variant vectorAddVariant(const VectorAddConfig &c);
Variant printDemoVariant(const PrintDemoConfig &c);
Variant biasGeluVariant(const BiasGeluConfig &c);
Variant gemmSoftmaxVariant(const GemmSoftmaxConfig &c);
Variant attentionVariant(const AttentionConfig &c);
Variant softmaxVariant(const SoftmaxConfig &c);
Variant gemmVariant(const GemmConfig &c);

} // namespace tile::fe

#endif // TILE_FRONTEND_VARIANTS_H
