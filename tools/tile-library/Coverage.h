//===- Coverage.h - Which combinations a kernel library covers --*- C++ -*-===//
//
// A generator's coverage is a grid: each variant of the library (index.json)
// falls in one combination of the generator's axes (gemm: in -> out,
// operand layout, epilogue; attention: dtype, head_dim, mask and LSE;
// softmax: dtype, row length), read from its configuration. The library
// promises some combinations (Promises.cpp): each must have a variant for
// any shape, i.e. one that promises no divisibility and is not specific to
// one chip (not sm_90a), so that the runtime always has a fallback.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TOOLS_TILE_LIBRARY_COVERAGE_H
#define TILE_TOOLS_TILE_LIBRARY_COVERAGE_H

#include "tile/runtime/KernelIndex.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace tile::library {

/// One axis of a generator's coverage.
struct Axis {
  /// Its name in the table ("epilogue").
  std::string title;
  /// The value a variant's configuration has on this axis ("bias_relu").
  std::function<std::string(const rt::KernelConfig &)> valueOf;
  /// The order of the values in the table; others follow in natural order
  /// (by the first number in them, then alphabetically).
  std::vector<std::string> order;
};

/// The coverage of one generator: rows by every axis but the last, one
/// column per value of the last.
struct GeneratorAxes {
  /// The generator's name in index.json ("gemm").
  std::string generator;
  /// What the generator computes and what its axes' values mean.
  std::string summary;
  std::vector<Axis> axes;
  /// Whether the cells count the variants for any shape and the sm_90a ones
  /// (where the library has both kinds).
  bool countsShapes = false;
};

/// The generators the table shows, with their axes.
const std::vector<GeneratorAxes> &coveredGenerators();

/// Promised combinations: each combination of one value per axis (the
/// generator's axes, in order) has a variant for any shape.
struct Promise {
  std::string generator;
  std::vector<std::vector<std::string>> values;
};

/// What the library promises (Promises.cpp).
const std::vector<Promise> &promises();

/// The variants of one combination.
struct Cell {
  int variants = 0;
  /// Those for any shape: no divisibility promise, not chip-specific.
  int anyShape = 0;
  /// Those for a chip-specific target (sm_90a).
  int chipSpecific = 0;
  bool promised = false;

  /// Promised, but without a variant for any shape.
  bool missing() const { return promised && anyShape == 0; }
};

/// The coverage of one generator.
struct Table {
  const GeneratorAxes *axes = nullptr;
  /// The values of each axis, in table order.
  std::vector<std::vector<std::string>> values;
  /// Every combination that has a variant or a promise.
  std::map<std::vector<std::string>, Cell> cells;
};

/// Whether a variant runs on any shape on the chips the library targets:
/// no divisibility promise and not chip-specific.
bool runsOnAnyShape(const rt::KernelVariant &variant);

/// The coverage of `library` (every variant of index.json) against
/// `promised`, one table per covered generator. Throws std::invalid_argument
/// for a promise of an unknown generator or with another number of axes.
std::vector<Table> coverage(const std::vector<rt::KernelVariant> &library,
                            const std::vector<Promise> &promised);

/// The tables in Markdown: a heading, a legend and a grid per generator.
std::string markdown(const std::vector<Table> &tables);

/// One line per promised combination without a variant for any shape:
/// "gemm (bf16 -> f32, TN, bias_relu): no variant".
std::vector<std::string> missingCombinations(const std::vector<Table> &tables);

/// How many combinations are promised.
size_t promisedCount(const std::vector<Table> &tables);

} // namespace tile::library

#endif // TILE_TOOLS_TILE_LIBRARY_COVERAGE_H
