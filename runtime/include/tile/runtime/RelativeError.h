//===- RelativeError.h - Accuracy against a reference -----------*- C++ -*-===//
//
// How the GPU tests and tools compare a result with its float64 reference:
// the relative error sqrt(sum (got - ref)^2 / sum ref^2) over the compared
// elements, and whether every result was finite (a NaN never passes).
// Header only.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_RELATIVEERROR_H
#define TILE_RUNTIME_RELATIVEERROR_H

#include <cmath>

namespace tile::rt {

/// Accumulates the squared error and the squared norm of the reference;
/// add() per element (or a partial sum), value() at the end.
struct RelativeError {
  double diff = 0, norm = 0;
  bool finite = true;
  void add(double got, double ref) {
    finite &= std::isfinite(got);
    diff += (got - ref) * (got - ref);
    norm += ref * ref;
  }
  void add(const RelativeError &other) {
    diff += other.diff;
    norm += other.norm;
    finite &= other.finite;
  }
  double value() const { return std::sqrt(diff / norm); }
};

} // namespace tile::rt

#endif // TILE_RUNTIME_RELATIVEERROR_H
