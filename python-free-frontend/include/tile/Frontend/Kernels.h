//===- Kernels.h - Parameterized kernel generators --------------*- C++ -*-===//
//
// Every kernel of the toolchain is a C++ generator with a configuration, so
// tests, benchmarks and the autotuner produce every variant from one source.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_FRONTEND_KERNELS_H
#define TILE_FRONTEND_KERNELS_H

#include "tile/Frontend/Frontend.h"

#include <string>

namespace tile::fe {

/// C = A + B for 1-D tensors of any length; each block handles `blockN`
/// elements with `threads` threads.
struct VectorAddConfig {
  int64_t blockN = 1024;
  int64_t threads = 256;
  /// Element type name: "f32", "f16", "bf16".
  std::string dtype = "f32";

  /// A kernel name that encodes the configuration, e.g. vector_add_f32_1024x256.
  std::string kernelName() const;
};

/// Adds the vector-add kernel to `program`; returns its name.
std::string buildVectorAdd(Program &program, const VectorAddConfig &config);

/// The element type named by "f16", "bf16", "f32", "f64", "i32" or "i64".
mlir::Type parseElementType(Program &program, const std::string &name);

} // namespace tile::fe

#endif // TILE_FRONTEND_KERNELS_H
