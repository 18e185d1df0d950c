//===- Passes.h - Tile conversion passes ------------------------*- C++ -*-===//
//
// Declarations of the passes that lower the tile dialect.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_PASSES_H
#define TILE_CONVERSION_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace arith {
class ArithDialect;
} // namespace arith
namespace gpu {
class GPUDialect;
} // namespace gpu
namespace memref {
class MemRefDialect;
} // namespace memref
namespace LLVM {
class LLVMDialect;
} // namespace LLVM
namespace NVVM {
class NVVMDialect;
} // namespace NVVM
namespace nvgpu {
class NVGPUDialect;
} // namespace nvgpu
namespace scf {
class SCFDialect;
} // namespace scf
namespace vector {
class VectorDialect;
} // namespace vector
} // namespace mlir

namespace mlir::tile {

#define GEN_PASS_DECL
#include "tile/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tile/Conversion/Passes.h.inc"

} // namespace mlir::tile

#endif // TILE_CONVERSION_PASSES_H
