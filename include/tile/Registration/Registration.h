//===- Registration.h - What the tile tools register ------------*- C++ -*-===//
//
// One place that registers the dialects, interfaces, translations, passes
// and pipelines used by tile-opt, tile-translate and the C++ frontend, so the
// three agree.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_REGISTRATION_REGISTRATION_H
#define TILE_REGISTRATION_REGISTRATION_H

namespace mlir {
class DialectRegistry;

namespace tile {

/// The tile dialect, the upstream dialects it lowers through, their
/// ConvertToLLVM interfaces, the NVVM target and the LLVM IR translations.
void registerTileDialects(DialectRegistry &registry);

/// Tile passes, the named pipelines and the upstream passes they use, for
/// tools that take pipelines by name (tile-opt); the compile driver builds
/// its pipelines in C++ and needs none of this. Safe to call more than once.
void registerTilePasses();

} // namespace tile
} // namespace mlir

#endif // TILE_REGISTRATION_REGISTRATION_H
