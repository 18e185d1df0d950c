//===- RowSoftmax.h - Softmax steps shared by the generators ----*- C++ -*-===//
//
// The row softmax of a fragment in registers, as the softmax and
// gemm_softmax generators build it; internal to the generators.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_FRONTEND_KERNELS_ROWSOFTMAX_H
#define TILE_FRONTEND_KERNELS_ROWSOFTMAX_H

#include "tile/Frontend/Frontend.h"

#include <cmath>

namespace tile::fe {

/// log2(e): the generators compute exp(x) as exp2(x log2 e) (ex2.approx).
constexpr double kLog2E = 1.4426950408889634;

/// For each row of the `rows` x `columns` f32 fragment `x`: columns at or
/// past `n` are masked to -inf, `rowMax` gets the row's maximum, `x`
/// becomes exp(x - max) and `inverseSum` 1 / (sum of the row), one division
/// per row. Multiplying `x` by `inverseSum[row]` then gives the softmax; the
/// caller does it where the result goes (in place, or into another
/// fragment).
inline void exponentiateRows(Kernel &k, const Buffer &x, int64_t rows,
                             int64_t columns, mlir::Type f32,
                             const Buffer &rowMax, const Buffer &inverseSum,
                             Expr n) {
  Expr minusInf = k.constant(-INFINITY, f32), one = k.constant(1.0, f32);
  k.parallel({rows, columns}, [&](const Indices &i) {
    x[i] = select(less(i[1], n), x[i], minusInf);
  });
  k.reduceMax(x, rowMax);
  k.parallel({rows, columns}, [&](const Indices &i) {
    x[i] = exp2((Expr(x[i]) - rowMax[i[0]]) * kLog2E);
  });
  k.reduceSum(x, inverseSum);
  k.parallel({rows}, [&](const Indices &i) {
    inverseSum[i] = one / Expr(inverseSum[i]);
  });
}

} // namespace tile::fe

#endif // TILE_FRONTEND_KERNELS_ROWSOFTMAX_H
