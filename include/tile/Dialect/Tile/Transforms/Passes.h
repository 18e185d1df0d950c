//===- Passes.h - Tile dialect transformation passes ------------*- C++ -*-===//
//
// Declarations of the passes that rewrite tile IR into tile IR.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_TRANSFORMS_PASSES_H
#define TILE_DIALECT_TILE_TRANSFORMS_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::scf {
class SCFDialect;
} // namespace mlir::scf

namespace mlir::tile {

/// The discardable attribute that asks tile-pipeline to pipeline a loop.
constexpr const char *kNumStagesAttrName = "tile.num_stages";

#define GEN_PASS_DECL
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"

} // namespace mlir::tile

#endif // TILE_DIALECT_TILE_TRANSFORMS_PASSES_H
