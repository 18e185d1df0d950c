//===- KnownValues.cpp - What is known of index values --------------------===//
//
// What the conversion knows of the index values it emits: a divisor
// (knownMultiple) and signed bounds (knownRange), from which it drops
// alignment and bounds checks that cannot fail.
//
//===----------------------------------------------------------------------===//

#include "LoweringState.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

#include <numeric>

using namespace mlir;
using namespace mlir::tile;

namespace mlir::tile::lowering {

/// A number that `value` (index arithmetic) is known to be a multiple of:
/// constants, and sums and products of them, e.g. a block's first row
/// `by * 128`; 1 when nothing is known.
int64_t knownMultiple(Value value) {
  constexpr int64_t any = int64_t(1) << 30; // 0 is a multiple of anything
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant))) {
    // |c| as unsigned (-2^63 too), at most `any`: no overflow below.
    int64_t v = constant.abs().getLimitedValue(any);
    return v == 0 ? any : v;
  }
  Operation *def = value.getDefiningOp();
  if (!def)
    return 1;
  if (isa<arith::MulIOp>(def))
    return std::min(any, knownMultiple(def->getOperand(0)) *
                             knownMultiple(def->getOperand(1)));
  if (isa<arith::AddIOp, arith::SubIOp>(def))
    return std::gcd(knownMultiple(def->getOperand(0)),
                    knownMultiple(def->getOperand(1)));
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(def))
    return knownMultiple(def->getOperand(0));
  return 1;
}

/// The range of `value` from constants, thread and block ids (CUDA's
/// limits), the kernel's dynamic sizes (at most 2^48 elements: a buffer
/// lies in the 48-bit virtual address space that CUDA shares with the host;
/// every bounds check assumes sizes of real memory), loop counters (lower
/// <= iv < upper), and what +, -, *, unsigned division and remainder,
/// minima, maxima, selects and casts make of them.
KnownRange knownRange(Value value, unsigned depth) {
  constexpr int64_t cap = int64_t(1) << 62;
  auto bound = [&](std::optional<int64_t> b) -> std::optional<int64_t> {
    if (!b || *b >= cap || *b <= -cap)
      return std::nullopt;
    return b;
  };
  auto range = [&](std::optional<int64_t> lo, std::optional<int64_t> hi) {
    return KnownRange{bound(lo), bound(hi)};
  };
  auto add = [](std::optional<int64_t> a, std::optional<int64_t> b) {
    return a && b ? std::optional<int64_t>(*a + *b) : std::nullopt;
  };
  auto negate = [](std::optional<int64_t> a) {
    return a ? std::optional<int64_t>(-*a) : std::nullopt;
  };
  if (depth > 16)
    return {};
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant))) {
    if (constant.getSignificantBits() > 63)
      return {};
    return range(constant.getSExtValue(), constant.getSExtValue());
  }
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (auto loop = dyn_cast_or_null<scf::ForOp>(owner)) {
      if (arg != loop.getInductionVar())
        return {};
      KnownRange lower = knownRange(loop.getLowerBound(), depth + 1);
      KnownRange upper = knownRange(loop.getUpperBound(), depth + 1);
      return range(lower.lo, add(upper.hi, -1));
    }
    // The dynamic sizes of a kernel's buffers are its only index arguments.
    if (isa_and_nonnull<gpu::GPUFuncOp>(owner) && arg.getType().isIndex())
      return range(0, int64_t(1) << 48);
    return {};
  }
  Operation *def = value.getDefiningOp();
  if (!def)
    return {};
  // CUDA's limits: 1024 threads per block, grids of up to 2^31 - 1 x
  // 65535 x 65535 blocks.
  if (isa<gpu::ThreadIdOp, gpu::BlockDimOp>(def))
    return range(0, 1024);
  auto gridLimit = [](gpu::Dimension dim) -> int64_t {
    return dim == gpu::Dimension::x ? (int64_t(1) << 31) - 1 : 65535;
  };
  if (auto id = dyn_cast<gpu::BlockIdOp>(def))
    return range(0, gridLimit(id.getDimension()));
  if (auto size = dyn_cast<gpu::GridDimOp>(def))
    return range(1, gridLimit(size.getDimension()));
  auto operand = [&](unsigned i) {
    return knownRange(def->getOperand(i), depth + 1);
  };
  if (isa<arith::AddIOp>(def)) {
    KnownRange a = operand(0), b = operand(1);
    return range(add(a.lo, b.lo), add(a.hi, b.hi));
  }
  if (isa<arith::SubIOp>(def)) {
    KnownRange a = operand(0), b = operand(1);
    return range(add(a.lo, negate(b.hi)), add(a.hi, negate(b.lo)));
  }
  if (isa<arith::MulIOp>(def)) {
    // Of two ranges of non-negative bounds below 2^31 each, or one of them.
    KnownRange a = operand(0), b = operand(1);
    if (!a.nonNegative() || !b.nonNegative() || !a.hi || !b.hi ||
        (*b.hi != 0 && *a.hi >= cap / *b.hi))
      return {};
    return range(*a.lo * *b.lo, *a.hi * *b.hi);
  }
  if (isa<arith::DivUIOp, arith::CeilDivUIOp, arith::ShRUIOp>(def)) {
    // Unsigned: a negative dividend is a huge one.
    KnownRange a = operand(0);
    return a.nonNegative() ? range(0, a.hi) : KnownRange{};
  }
  if (isa<arith::RemUIOp>(def)) {
    // x mod y < y (unsigned), and <= x.
    KnownRange x = operand(0), y = operand(1);
    std::optional<int64_t> hi =
        y.nonNegative() && y.hi ? add(y.hi, -1) : std::nullopt;
    if (x.nonNegative() && x.hi)
      hi = hi ? std::min(*hi, *x.hi) : x.hi;
    return hi ? range(0, hi) : KnownRange{};
  }
  if (isa<arith::MinUIOp, arith::MaxUIOp, arith::AndIOp>(def)) {
    KnownRange a = operand(0), b = operand(1);
    if (isa<arith::MaxUIOp>(def))
      return a.nonNegative() && b.nonNegative() && a.hi && b.hi
                 ? range(std::max(*a.lo, *b.lo), std::max(*a.hi, *b.hi))
                 : KnownRange{};
    // Unsigned minimum, and: at most a non-negative operand.
    std::optional<int64_t> hi;
    for (const KnownRange &r : {a, b})
      if (r.nonNegative() && r.hi)
        hi = hi ? std::min(*hi, *r.hi) : r.hi;
    return hi ? range(0, hi) : KnownRange{};
  }
  if (isa<arith::MinSIOp, arith::MaxSIOp>(def)) {
    KnownRange a = operand(0), b = operand(1);
    auto both = [](std::optional<int64_t> x, std::optional<int64_t> y,
                   bool takeMax) -> std::optional<int64_t> {
      if (!x || !y)
        return std::nullopt;
      return takeMax ? std::max(*x, *y) : std::min(*x, *y);
    };
    auto either = [](std::optional<int64_t> x, std::optional<int64_t> y,
                     bool takeMax) -> std::optional<int64_t> {
      if (!x || !y)
        return x ? x : y;
      return takeMax ? std::max(*x, *y) : std::min(*x, *y);
    };
    // min(a, b) <= each of a and b, >= the smaller of their lower bounds.
    if (isa<arith::MinSIOp>(def))
      return range(both(a.lo, b.lo, false), either(a.hi, b.hi, false));
    return range(either(a.lo, b.lo, true), both(a.hi, b.hi, true));
  }
  if (isa<arith::SelectOp>(def)) {
    KnownRange a = operand(1), b = operand(2);
    if (!a.lo || !b.lo || !a.hi || !b.hi)
      return {};
    return range(std::min(*a.lo, *b.lo), std::max(*a.hi, *b.hi));
  }
  if (isa<arith::IndexCastUIOp, arith::IndexCastOp>(def)) {
    Type source = def->getOperand(0).getType();
    if (isa<arith::IndexCastUIOp>(def) && source.isInteger(32))
      return range(0, (int64_t(1) << 32) - 1);
    return operand(0);
  }
  return {};
}

/// Whether `value` is known to be 0 or more.
bool knownNonNegative(Value value) { return knownRange(value).nonNegative(); }

} // namespace mlir::tile::lowering
