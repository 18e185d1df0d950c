//===- InputLimits.h - Bounds on the MLIR text the tools parse --*- C++ -*-===//
//
// Upstream MLIR's parser, printer and attribute walks are recursive: text
// nested 10000 levels deep overflows the stack of tile-opt and
// tile-translate (SIGSEGV), and aliases make an attribute deep or
// exponentially large without deep text. checkInputLimits scans the text
// once, before it is parsed, and refuses what would go past the limits
// below with an error that names the line and column.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_REGISTRATION_INPUTLIMITS_H
#define TILE_REGISTRATION_INPUTLIMITS_H

#include "llvm/Support/LogicalResult.h"

#include <cstdint>

namespace llvm {
class MemoryBufferRef;
class raw_ostream;
} // namespace llvm

namespace mlir {
namespace tile {

/// The deepest nesting the tools accept. One level is a bracket (`(`, `[`,
/// `{`, or the `<` of a type or attribute), an operator of an expression
/// (`d0 + d0 + ...`, `- - d0`: the affine parser recurses on each) or a
/// level that a referenced alias nests. The library's kernels and every
/// input in the repository nest at most 9 levels deep, lowered ones too.
/// The most stack per level goes to nested regions (about 2 KiB through
/// parsing, printing and the lowering): 1000 of them compile with a 4 MiB
/// stack, and an 8 MiB one overflows between 3000 and 4000.
inline constexpr unsigned kMaxInputNesting = 1000;

/// How many tokens alias references may add to the input when every alias
/// is replaced by its definition (the printer and the diagnostics print
/// arrays, dictionaries and types expanded): `#a1 = [#a0, #a0]`, ...
/// doubles per line.
inline constexpr uint64_t kMaxAliasExpansion = uint64_t(1) << 24;

/// Scans MLIR text, before it is parsed, for nesting deeper than
/// kMaxInputNesting and alias expansion past kMaxAliasExpansion. On either,
/// prints "<buffer>:<line>:<col>: error: ..." to `errs` and fails. The scan
/// is lexical (string literals and `//` comments are skipped; `->`, `<=`
/// and `>=` are not brackets) and errs on the side of counting a level.
llvm::LogicalResult checkInputLimits(llvm::MemoryBufferRef input,
                                     llvm::raw_ostream &errs);

} // namespace tile
} // namespace mlir

#endif // TILE_REGISTRATION_INPUTLIMITS_H
