//===- Frontend.cpp - Write tile kernels in C++ ---------------------------===//
//
// Builds tile dialect IR for the C++ frontend.
//
//===----------------------------------------------------------------------===//

#include "tile/Frontend/Frontend.h"

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"
#include "tile/Registration/Registration.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Verifier.h"

#include <cassert>
#include <cmath>
#include <cstdio>
#include <stdexcept>

using namespace mlir;

namespace tile::fe {

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

namespace {

std::string where(SourceLoc loc) {
  return std::string(loc.file ? loc.file : "<unknown>") + ":" +
         std::to_string(loc.line) + ": error: ";
}

/// A bad argument at the caller's line.
[[noreturn]] void badArgument(SourceLoc loc, const llvm::Twine &message) {
  throw std::invalid_argument(where(loc) + message.str());
}

/// A call in the wrong place at the caller's line.
[[noreturn]] void misuse(SourceLoc loc, const llvm::Twine &message) {
  throw std::logic_error(where(loc) + message.str());
}

std::string str(Type type) {
  if (!type)
    return "<null type>";
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

/// `type`, a buffer type checked by its own verifier: a type the dialect
/// rejects (rank 0 or 5, a size below 1, a dynamic tile, an i1 element)
/// throws with the verifier's message at the caller's line.
mlir::tile::BufferType checkedBufferType(MLIRContext *ctx, Location at,
                                         SourceLoc loc, const char *what,
                                         ArrayRef<int64_t> shape,
                                         Type elementType,
                                         mlir::tile::MemoryScope scope) {
  if (!elementType)
    badArgument(loc, llvm::Twine(what) + ": expected an element type, but "
                                         "got a null mlir::Type");
  std::string message;
  mlir::tile::BufferType type;
  {
    ScopedDiagnosticHandler capture(ctx, [&](Diagnostic &diag) {
      message = diag.str();
      return success();
    });
    type = mlir::tile::BufferType::getChecked(
        [&] { return mlir::emitError(at); }, shape, elementType, scope);
  }
  if (!type)
    badArgument(loc, llvm::Twine(what) + ": " + message);
  return type;
}

/// `value` as written: 1000000000000, 0.5, 1e+300, nan.
std::string numberText(double value) {
  if (std::trunc(value) == value && std::fabs(value) < 1e18)
    return std::to_string(static_cast<int64_t>(value));
  char text[32];
  std::snprintf(text, sizeof(text), "%.17g", value);
  return text;
}

bool isScalarType(Type type) {
  return type && (type.isIntOrIndex() || isa<FloatType>(type));
}

/// The kernel whose body `expr` belongs to; it must hold a value, and that
/// kernel's body must be being built.
Kernel &kernelOf(const Expr &expr, SourceLoc loc, const char *what) {
  if (!expr.value() || !expr.owner())
    misuse(loc, llvm::Twine(what) + ": expected an expression, but got a "
                                    "default-constructed Expr (it holds no "
                                    "value)");
  if (!expr.owner()->building())
    misuse(loc, llvm::Twine(what) +
                    ": expected an expression inside its kernel's body, but "
                    "the body is not being built");
  return *expr.owner();
}

Kernel &kernelOf(std::initializer_list<const Expr *> exprs, SourceLoc loc,
                 const char *what) {
  Kernel *kernel = nullptr;
  for (const Expr *expr : exprs) {
    Kernel &owner = kernelOf(*expr, loc, what);
    if (kernel && kernel != &owner)
      badArgument(loc, llvm::Twine(what) +
                           ": expected operands of one kernel, but got "
                           "expressions of two kernels");
    kernel = &owner;
  }
  return *kernel;
}

void requireSameType(const Expr &lhs, const Expr &rhs, SourceLoc loc,
                     const char *what) {
  if (lhs.type() != rhs.type())
    badArgument(loc, llvm::Twine(what) +
                         ": expected operands of one type, but got " +
                         str(lhs.type()) + " and " + str(rhs.type()));
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

enum class BinaryKind { Add, Sub, Mul, Div, Rem, Max, Min };

const char *nameOf(BinaryKind kind) {
  switch (kind) {
  case BinaryKind::Add:
    return "operator+";
  case BinaryKind::Sub:
    return "operator-";
  case BinaryKind::Mul:
    return "operator*";
  case BinaryKind::Div:
    return "operator/";
  case BinaryKind::Rem:
    return "operator%";
  case BinaryKind::Max:
    return "max";
  case BinaryKind::Min:
    return "min";
  }
  return "?";
}

Expr binary(BinaryKind kind, Expr lhs, Expr rhs, SourceLoc at) {
  const char *what = nameOf(kind);
  Kernel *kernel = &kernelOf({&lhs, &rhs}, at, what);
  requireSameType(lhs, rhs, at, what);
  if (!isScalarType(lhs.type()))
    badArgument(at, llvm::Twine(what) +
                        ": expected an index, integer or float operand, but "
                        "got " +
                        str(lhs.type()));
  OpBuilder &b = kernel->builder();
  Location loc = kernel->location(at);
  Value l = lhs.value(), r = rhs.value();
  Value result;
  if (isa<FloatType>(lhs.type())) {
    switch (kind) {
    case BinaryKind::Add:
      result = arith::AddFOp::create(b, loc, l, r);
      break;
    case BinaryKind::Sub:
      result = arith::SubFOp::create(b, loc, l, r);
      break;
    case BinaryKind::Mul:
      result = arith::MulFOp::create(b, loc, l, r);
      break;
    case BinaryKind::Div:
      result = arith::DivFOp::create(b, loc, l, r);
      break;
    case BinaryKind::Rem:
      result = arith::RemFOp::create(b, loc, l, r);
      break;
    case BinaryKind::Max:
      result = arith::MaximumFOp::create(b, loc, l, r);
      break;
    case BinaryKind::Min:
      result = arith::MinimumFOp::create(b, loc, l, r);
      break;
    }
  } else {
    switch (kind) {
    case BinaryKind::Add:
      result = arith::AddIOp::create(b, loc, l, r);
      break;
    case BinaryKind::Sub:
      result = arith::SubIOp::create(b, loc, l, r);
      break;
    case BinaryKind::Mul:
      result = arith::MulIOp::create(b, loc, l, r);
      break;
    case BinaryKind::Div:
      result = arith::DivUIOp::create(b, loc, l, r);
      break;
    case BinaryKind::Rem:
      result = arith::RemUIOp::create(b, loc, l, r);
      break;
    case BinaryKind::Max:
      result = arith::MaxSIOp::create(b, loc, l, r);
      break;
    case BinaryKind::Min:
      result = arith::MinSIOp::create(b, loc, l, r);
      break;
    }
  }
  return Expr(kernel, result);
}

Expr binary(BinaryKind kind, const Operand &lhs, const Operand &rhs) {
  return binary(kind, lhs.expr, rhs.expr, lhs.loc);
}

/// A literal of the type of `like`.
Expr literal(const Operand &like, double value) {
  return kernelOf(like.expr, like.loc, "a literal operand")
      .constant(value, like.expr.type(), like.loc);
}

/// 1 / d by the hardware's approximate reciprocal (`fastmath<afn>`:
/// rcp.approx), for the GELUs.
Expr approximateReciprocal(Expr d, SourceLoc loc) {
  Kernel &kernel = kernelOf(d, loc, "a reciprocal");
  Expr one = literal(Operand(d, loc), 1.0);
  return Expr(&kernel, arith::DivFOp::create(
                           kernel.builder(), kernel.location(loc), one.value(),
                           d.value(), arith::FastMathFlags::afn));
}

} // namespace

Expr operator+(Operand l, Operand r) { return binary(BinaryKind::Add, l, r); }
Expr operator-(Operand l, Operand r) { return binary(BinaryKind::Sub, l, r); }
Expr operator*(Operand l, Operand r) { return binary(BinaryKind::Mul, l, r); }
Expr operator/(Operand l, Operand r) { return binary(BinaryKind::Div, l, r); }
Expr operator%(Operand l, Operand r) { return binary(BinaryKind::Rem, l, r); }
Expr operator+(Operand l, double r) {
  return l + Operand(literal(l, r), l.loc);
}
Expr operator-(Operand l, double r) {
  return l - Operand(literal(l, r), l.loc);
}
Expr operator*(Operand l, double r) {
  return l * Operand(literal(l, r), l.loc);
}
Expr operator/(Operand l, double r) {
  return l / Operand(literal(l, r), l.loc);
}
Expr operator%(Operand l, double r) {
  return l % Operand(literal(l, r), l.loc);
}
Expr operator+(double l, Operand r) {
  return Operand(literal(r, l), r.loc) + r;
}
Expr operator*(double l, Operand r) {
  return Operand(literal(r, l), r.loc) * r;
}
Expr max(Expr l, Expr r, SourceLoc loc) {
  return binary(BinaryKind::Max, l, r, loc);
}
Expr min(Expr l, Expr r, SourceLoc loc) {
  return binary(BinaryKind::Min, l, r, loc);
}
Expr ceilDiv(Expr l, Expr r, SourceLoc loc) {
  Kernel &kernel = kernelOf({&l, &r}, loc, "ceilDiv");
  requireSameType(l, r, loc, "ceilDiv");
  if (!l.type().isIntOrIndex())
    badArgument(loc, "ceilDiv: expected index or integer operands, but got " +
                         str(l.type()));
  return Expr(&kernel,
              arith::CeilDivUIOp::create(kernel.builder(), kernel.location(loc),
                                         l.value(), r.value()));
}
Expr ceilDiv(Expr l, double r, SourceLoc loc) {
  return ceilDiv(l, literal(Operand(l, loc), r), loc);
}

Expr operator|(Operand lhs, Operand rhs) {
  Expr l = lhs.expr, r = rhs.expr;
  Kernel &kernel = kernelOf({&l, &r}, lhs.loc, "operator|");
  if (l.type() != r.type() || !l.type().isSignlessInteger())
    badArgument(lhs.loc, "operator|: expected two i1 or integer values of "
                         "one type, but got " +
                             str(l.type()) + " and " + str(r.type()));
  return Expr(&kernel,
              arith::OrIOp::create(kernel.builder(), kernel.location(lhs.loc),
                                   l.value(), r.value()));
}
Expr fma(Expr a, Expr x, Expr c, SourceLoc loc) {
  Kernel &kernel = kernelOf({&a, &x, &c}, loc, "fma");
  if (a.type() != x.type() || a.type() != c.type() || !isa<FloatType>(a.type()))
    badArgument(loc, "fma: expected three floats of one type, but got " +
                         str(a.type()) + ", " + str(x.type()) + " and " +
                         str(c.type()));
  return Expr(&kernel,
              math::FmaOp::create(kernel.builder(), kernel.location(loc),
                                  a.value(), x.value(), c.value()));
}

/// A one-operand math op on `x` (its operand type is checked by the op's
/// verifier, reported at `loc`).
template <typename MathOp>
static Expr unaryMath(Expr x, SourceLoc loc, const char *what) {
  Kernel &kernel = kernelOf(x, loc, what);
  return Expr(&kernel, MathOp::create(kernel.builder(), kernel.location(loc),
                                      x.value()));
}
Expr exp(Expr x, SourceLoc loc) {
  return unaryMath<math::ExpOp>(x, loc, "exp");
}
Expr exp2(Expr x, SourceLoc loc) {
  return unaryMath<math::Exp2Op>(x, loc, "exp2");
}
Expr log(Expr x, SourceLoc loc) {
  return unaryMath<math::LogOp>(x, loc, "log");
}
Expr tanh(Expr x, SourceLoc loc) {
  return unaryMath<math::TanhOp>(x, loc, "tanh");
}
Expr erf(Expr x, SourceLoc loc) {
  return unaryMath<math::ErfOp>(x, loc, "erf");
}
Expr sqrt(Expr x, SourceLoc loc) {
  return unaryMath<math::SqrtOp>(x, loc, "sqrt");
}
Expr rsqrt(Expr x, SourceLoc loc) {
  return unaryMath<math::RsqrtOp>(x, loc, "rsqrt");
}
Expr less(Expr lhs, Expr rhs, SourceLoc loc) {
  Kernel &kernel = kernelOf({&lhs, &rhs}, loc, "less");
  requireSameType(lhs, rhs, loc, "less");
  OpBuilder &b = kernel.builder();
  Location at = kernel.location(loc);
  if (isa<FloatType>(lhs.type()))
    return Expr(&kernel, arith::CmpFOp::create(b, at, arith::CmpFPredicate::OLT,
                                               lhs.value(), rhs.value()));
  if (!lhs.type().isIntOrIndex())
    badArgument(loc, "less: expected index, integer or float operands, but "
                     "got " +
                         str(lhs.type()));
  return Expr(&kernel, arith::CmpIOp::create(b, at, arith::CmpIPredicate::slt,
                                             lhs.value(), rhs.value()));
}
Expr select(Expr condition, Expr whenTrue, Expr whenFalse, SourceLoc loc) {
  Kernel &kernel = kernelOf({&condition, &whenTrue, &whenFalse}, loc, "select");
  requireSameType(whenTrue, whenFalse, loc, "select");
  return Expr(&kernel,
              arith::SelectOp::create(kernel.builder(), kernel.location(loc),
                                      condition.value(), whenTrue.value(),
                                      whenFalse.value()));
}
Expr gelu(Expr x, SourceLoc loc) {
  // x/2 (1 + erf(x / sqrt 2)) = x/2 erfc(-x / sqrt 2). With a = |x| / sqrt 2,
  // erfc(a) comes from Abramowitz & Stegun 7.1.26 (erf to 1.5e-7):
  //   erfc(a) ~ t (a1 + t (a2 + t (a3 + t (a4 + t a5)))) 2^(-a^2 log2 e),
  //   t = 1 / (1 + p a),
  // and erfc(-a) = 2 - erfc(a) for x >= 0; the negative side is taken
  // directly, not as 1 + erf(x) with its cancellation. One ex2.approx and
  // one approximate reciprocal (afn: rcp.approx), about 19 instructions
  // where libdevice's erff took about 35; 4.2e-7 at most from the exact
  // GELU over [-12, 12] (scripts/gelu-accuracy.py replays it in float32).
  constexpr double p = 0.3275911, a1 = 0.254829592, a2 = -0.284496736,
                   a3 = 1.421413741, a4 = -1.453152027, a5 = 1.061405429;
  Operand at(x, loc);
  auto op = [&](Expr e) { return Operand(e, loc); };
  auto c = [&](double value) { return literal(at, value); };
  Kernel &kernel = kernelOf(x, loc, "gelu");
  Expr a =
      op(Expr(&kernel, math::AbsFOp::create(kernel.builder(),
                                            kernel.location(loc), x.value()))) *
      M_SQRT1_2;
  Expr t = approximateReciprocal(fma(c(p), a, c(1.0), loc), loc);
  Expr poly = c(a5);
  for (double coefficient : {a4, a3, a2, a1})
    poly = fma(t, poly, c(coefficient), loc);
  Expr gaussian = exp2(op(op(a) * -M_LOG2E) * a, loc);
  Expr erfcOfA = op(op(t) * poly) * gaussian;
  Expr cdfTimes2 =
      select(less(x, c(0.0), loc), erfcOfA, op(c(2.0)) - op(erfcOfA), loc);
  return op(at * 0.5) * cdfTimes2;
}
Expr approximateTanh(Expr x, SourceLoc loc) {
  Kernel &kernel = kernelOf(x, loc, "approximateTanh");
  if (!x.type().isF32())
    badArgument(loc, "approximateTanh: expected an f32 operand, but got " +
                         str(x.type()));
  return Expr(&kernel,
              math::TanhOp::create(kernel.builder(), kernel.location(loc),
                                   x.value(), arith::FastMathFlags::afn));
}
Expr geluTanh(Expr x, Accuracy accuracy, SourceLoc loc) {
  if (accuracy == Accuracy::sixteenBit) {
    // h (1 + tanh u) with h = x/2: tanh.approx's error (2^-11 of |tanh u|
    // at most) moves the result by |x| 2^-12 at most, about the rounding of
    // an f16 result of x; one MUFU operation and six FP32 instructions.
    constexpr double kSqrt2OverPi = 0.7978845608028654;
    Operand at(x, loc);
    auto op = [&](Expr e) { return Operand(e, loc); };
    Expr u =
        at * op(op(op(at * at) * (0.044715 * kSqrt2OverPi)) + kSqrt2OverPi);
    Expr half = at * 0.5;
    return fma(half, approximateTanh(u, loc), half, loc);
  }
  // (1 + tanh u) / 2 is the logistic function of 2u, so with
  // u = sqrt(2/pi) (x + 0.044715 x^3) the tanh form is, exactly,
  //   x / (1 + 2^(x (k1 + k3 x^2))),  k1 = -2 sqrt(2/pi) log2(e),
  //                                   k3 = 0.044715 k1:
  // one ex2.approx and an approximate reciprocal (afn: rcp.approx), 9
  // instructions where libdevice's tanhf took about 35; 5e-7 at most from
  // the exact tanh form over [-12, 12] (scripts/gelu-accuracy.py; the tanh
  // form is itself up to 4e-4 from the erf one). Large positive x gives
  // x, large negative x gives -0. (x times the reciprocal, not x / d: the
  // division form made ptxas spill in the persistent banded sm_90a kernels.)
  constexpr double kSqrt2OverPi = 0.7978845608028654, kLog2E = M_LOG2E;
  constexpr double k1 = -2 * kSqrt2OverPi * kLog2E, k3 = 0.044715 * k1;
  Operand at(x, loc);
  auto op = [&](Expr e) { return Operand(e, loc); };
  Expr square = at * at;
  Expr power = exp2(at * op(op(op(square) * k3) + k1), loc);
  return at * approximateReciprocal(op(power) + 1.0, loc);
}

Expr cast(Expr x, Type type, SourceLoc loc) {
  Kernel &kernel = kernelOf(x, loc, "cast");
  Type from = x.type();
  if (!isScalarType(from) || !isScalarType(type))
    badArgument(loc, "cast: expected index, integer or float types, but got " +
                         str(from) + " to " + str(type));
  if (from == type)
    return x;
  OpBuilder &b = kernel.builder();
  Location at = kernel.location(loc);
  bool fromFloat = isa<FloatType>(from), toFloat = isa<FloatType>(type);
  if (fromFloat && toFloat &&
      from.getIntOrFloatBitWidth() == type.getIntOrFloatBitWidth())
    // f16 <-> bf16: no direct conversion; f32 holds both exactly.
    return cast(cast(x, b.getF32Type(), loc), type, loc);
  // index <-> float: through i64 (arith has no direct conversion).
  if ((from.isIndex() && toFloat) || (fromFloat && type.isIndex()))
    return cast(cast(x, b.getI64Type(), loc), type, loc);
  Value result;
  if (fromFloat && toFloat)
    result = from.getIntOrFloatBitWidth() < type.getIntOrFloatBitWidth()
                 ? Value(arith::ExtFOp::create(b, at, type, x.value()))
                 : Value(arith::TruncFOp::create(b, at, type, x.value()));
  else if (from.isIndex() || type.isIndex())
    result = arith::IndexCastOp::create(b, at, type, x.value());
  else if (toFloat)
    result = arith::SIToFPOp::create(b, at, type, x.value());
  else if (fromFloat)
    result = arith::FPToSIOp::create(b, at, type, x.value());
  else if (from.getIntOrFloatBitWidth() < type.getIntOrFloatBitWidth())
    result = arith::ExtSIOp::create(b, at, type, x.value());
  else
    result = arith::TruncIOp::create(b, at, type, x.value());
  return Expr(&kernel, result);
}

//===----------------------------------------------------------------------===//
// Buffers and elements
//===----------------------------------------------------------------------===//

Value Buffer::value() const {
  if (val)
    return val;
  if (!kernel)
    throw std::logic_error("tile::fe: a default-constructed Buffer is used "
                           "(it holds no tensor or tile)");
  if (!kernel->op)
    throw std::logic_error("tile::fe: a tensor parameter is used before "
                           "Kernel::body created the kernel");
  return llvm::cast<mlir::tile::KernelOp>(kernel->op).getParam(paramIndex);
}

Type Buffer::type() const {
  if (!kernel)
    throw std::logic_error("tile::fe: a default-constructed Buffer is used "
                           "(it holds no tensor or tile)");
  return val ? val.getType() : kernel->paramTypes[paramIndex];
}

Expr Buffer::dim(int64_t dim, SourceLoc loc) const {
  if (!kernel)
    misuse(loc, "Buffer::dim: expected a tensor or tile, but got a "
                "default-constructed Buffer");
  Value source = kernel->use(*this, loc, "Buffer::dim");
  OpBuilder &b = kernel->builder();
  return Expr(kernel, mlir::tile::DimOp::create(b, kernel->location(loc),
                                                b.getIndexType(), source, dim));
}

ElementRef::operator Expr() const {
  const char *what = "reading a tile element";
  Kernel *kernel = buffer.owner();
  if (!kernel)
    misuse(loc, llvm::Twine(what) + ": expected a tile, but got a "
                                    "default-constructed Buffer");
  Value source = kernel->use(buffer, loc, what);
  SmallVector<Value> values;
  for (const Expr &index : indices)
    values.push_back(kernel->use(index, loc, what));
  OpBuilder &b = kernel->builder();
  return Expr(
      kernel,
      mlir::tile::LoadOp::create(
          b, kernel->location(loc),
          llvm::cast<mlir::tile::BufferType>(source.getType()).getElementType(),
          source, values));
}

ElementRef &ElementRef::operator=(Expr value) {
  const char *what = "assigning a tile element";
  Kernel *kernel = buffer.owner();
  if (!kernel)
    misuse(loc, llvm::Twine(what) + ": expected a tile, but got a "
                                    "default-constructed Buffer");
  Value dest = kernel->use(buffer, loc, what);
  SmallVector<Value> values;
  for (const Expr &index : indices)
    values.push_back(kernel->use(index, loc, what));
  Value stored = kernel->use(value, loc, what);
  mlir::tile::StoreOp::create(kernel->builder(), kernel->location(loc), stored,
                              dest, values);
  return *this;
}

GridExtent ceildiv(const Buffer &tensor, int64_t dim, int64_t divisor) {
  if (tensor.parameterIndex() < 0)
    throw std::invalid_argument("tile::fe::ceildiv: the grid can only depend "
                                "on the shape of a tensor parameter");
  return {tensor.parameterIndex(), dim, divisor};
}

GridExtent constant(int64_t size) { return {-1, 0, size}; }

TensorSize size(const Buffer &tensor, int64_t dim, SourceLoc loc) {
  if (tensor.parameterIndex() < 0)
    badArgument(loc, "size: expected a tensor parameter (a launch contract "
                     "relates the sizes of tensor parameters), but got a "
                     "tile");
  return {tensor.owner(), tensor.parameterIndex(), dim};
}

SizeRelation operator==(TensorSize lhs, TensorSize rhs) {
  return {lhs, SizeRelation::Predicate::Equal, rhs};
}
SizeRelation operator<=(TensorSize lhs, TensorSize rhs) {
  return {lhs, SizeRelation::Predicate::AtMost, rhs};
}
SizeRelation operator>=(TensorSize lhs, TensorSize rhs) {
  return {lhs, SizeRelation::Predicate::AtLeast, rhs};
}
SizeRelation operator==(TensorSize lhs, int64_t value) {
  return {lhs, SizeRelation::Predicate::Equal, std::nullopt, value};
}
SizeRelation operator<=(TensorSize lhs, int64_t value) {
  return {lhs, SizeRelation::Predicate::AtMost, std::nullopt, value};
}
SizeRelation operator>=(TensorSize lhs, int64_t value) {
  return {lhs, SizeRelation::Predicate::AtLeast, std::nullopt, value};
}
SizeRelation divides(TensorSize lhs, TensorSize rhs) {
  return {lhs, SizeRelation::Predicate::Divides, rhs};
}

//===----------------------------------------------------------------------===//
// Program
//===----------------------------------------------------------------------===//

Program::Program() {
  DialectRegistry registry;
  mlir::tile::registerTileDialects(registry);
  // No passes to register: compile() builds its pipelines in C++.
  ctx = std::make_unique<MLIRContext>(registry);
  ctx->loadAllAvailableDialects();
  // Diagnostics point at the user's C++ lines; the IR dump adds nothing.
  ctx->printOpOnDiagnostic(false);
  mod = ModuleOp::create(UnknownLoc::get(ctx.get()));
}

Program::~Program() = default;

Kernel Program::kernel(const std::string &name, int64_t threads,
                       SourceLoc loc) {
  return Kernel(*this, name, threads, loc);
}

void printDiagnostic(llvm::raw_ostream &os, Diagnostic &diag) {
  auto printOne = [&](Diagnostic &d, StringRef kind) {
    if (auto fileLoc = dyn_cast<FileLineColLoc>(d.getLocation()))
      os << fileLoc.getFilename().getValue() << ":" << fileLoc.getLine() << ":"
         << fileLoc.getColumn();
    else
      os << d.getLocation();
    os << ": " << kind << ": " << d << "\n";
  };
  printOne(diag,
           diag.getSeverity() == DiagnosticSeverity::Error ? "error" : "note");
  for (Diagnostic &note : diag.getNotes())
    printOne(note, "note");
}

std::string Program::verify() {
  std::string messages;
  llvm::raw_string_ostream os(messages);
  ScopedDiagnosticHandler handler(ctx.get(), [&](Diagnostic &diag) {
    printDiagnostic(os, diag);
    return success();
  });
  (void)mlir::verify(*mod);
  return messages;
}

std::string Program::str() {
  std::string text;
  llvm::raw_string_ostream os(text);
  mod->print(os);
  return text;
}

Type Program::f16() { return Float16Type::get(ctx.get()); }
Type Program::bf16() { return BFloat16Type::get(ctx.get()); }
Type Program::f32() { return Float32Type::get(ctx.get()); }
Type Program::f64() { return Float64Type::get(ctx.get()); }
Type Program::i32() { return IntegerType::get(ctx.get(), 32); }
Type Program::i64() { return IntegerType::get(ctx.get(), 64); }

//===----------------------------------------------------------------------===//
// Kernel
//===----------------------------------------------------------------------===//

Kernel::Kernel(Program &program, std::string name, int64_t threads,
               SourceLoc loc)
    : prog(&program), name(std::move(name)), threads(threads), declLoc(loc),
      b(&program.context()) {}

Location Kernel::location(SourceLoc loc) {
  return FileLineColLoc::get(&prog->context(), loc.file ? loc.file : "",
                             loc.line, 1);
}

void Kernel::requireBody(SourceLoc loc, const char *what) const {
  if (!inBody)
    misuse(loc, llvm::Twine(what) +
                    ": expected a call inside the build function of "
                    "Kernel::body, but " +
                    (op ? "the body has been built" : "body was not called"));
}

Value Kernel::use(const Buffer &buffer, SourceLoc loc, const char *what) const {
  if (!buffer.kernel)
    misuse(loc, llvm::Twine(what) + ": expected a tensor or tile, but got a "
                                    "default-constructed Buffer");
  if (buffer.kernel != this)
    badArgument(loc, llvm::Twine(what) +
                         ": expected a tensor or tile of kernel '" + name +
                         "', but got one of kernel '" + buffer.kernel->name +
                         "'");
  requireBody(loc, what);
  return buffer.value();
}

Value Kernel::use(const Expr &expr, SourceLoc loc, const char *what) const {
  Kernel &owner = kernelOf(expr, loc, what);
  if (&owner != this)
    badArgument(loc, llvm::Twine(what) +
                         ": expected an expression of kernel '" + name +
                         "', but got one of kernel '" + owner.name + "'");
  return expr.value();
}

Buffer Kernel::tensor(const std::string &paramName, std::vector<int64_t> shape,
                      Type elementType, SourceLoc loc) {
  if (op)
    misuse(loc, "Kernel::tensor: parameters must be declared before "
                "Kernel::body");
  paramTypes.push_back(checkedBufferType(&prog->context(), location(loc), loc,
                                         "Kernel::tensor", shape, elementType,
                                         mlir::tile::MemoryScope::Global));
  paramNames.push_back(paramName);
  Buffer buffer;
  buffer.kernel = this;
  buffer.paramIndex = paramTypes.size() - 1;
  return buffer;
}

int Kernel::scalarParam(const std::string &paramName, Type type,
                        SourceLoc loc) {
  if (op)
    misuse(loc, "Kernel::scalarParam: parameters must be declared before "
                "Kernel::body");
  if (!type)
    badArgument(loc, "Kernel::scalarParam: expected a type, but got a null "
                     "mlir::Type");
  paramTypes.push_back(type);
  paramNames.push_back(paramName);
  return paramTypes.size() - 1;
}

void Kernel::rasterPanel(int64_t rows, SourceLoc loc) {
  if (op)
    misuse(loc, "Kernel::rasterPanel: must be called before Kernel::body");
  if (rows < 0)
    badArgument(loc, "Kernel::rasterPanel: expected 0 (off) or a number of "
                     "grid rows, but got " +
                         llvm::Twine(rows));
  raster = rows;
}

void Kernel::warpSpecialized(SourceLoc loc) {
  if (op)
    misuse(loc, "Kernel::warpSpecialized: must be called before Kernel::body");
  specialized = true;
}

void Kernel::persistent(SourceLoc loc) {
  if (op)
    misuse(loc, "Kernel::persistent: must be called before Kernel::body");
  persistentTiles = true;
}

void Kernel::cluster(std::vector<int64_t> extents, SourceLoc loc) {
  if (op)
    misuse(loc, "Kernel::cluster: must be called before Kernel::body");
  clusterExtents = std::move(extents);
}

void Kernel::consumers(int64_t count, SourceLoc loc) {
  if (op)
    misuse(loc, "Kernel::consumers: must be called before Kernel::body");
  consumerSets = count;
}

void Kernel::streamK(SourceLoc loc) {
  if (op)
    misuse(loc, "Kernel::streamK: must be called before Kernel::body");
  streamKShares = true;
}

void Kernel::divisible(const Buffer &tensor, int dim, int64_t divisor,
                       SourceLoc loc) {
  if (op)
    misuse(loc, "tile::fe: divisible must be declared before Kernel::body");
  if (tensor.kernel != this || tensor.paramIndex < 0)
    badArgument(loc, "tile::fe: divisible expects a tensor parameter of this "
                     "kernel");
  divisibility.push_back({tensor.paramIndex, dim, divisor});
}

void Kernel::require(const SizeRelation &relation, SourceLoc loc) {
  if (op)
    misuse(loc, "Kernel::require: expected a call before Kernel::body, but "
                "the body has been built");
  if (relation.lhs.kernel != this ||
      (relation.rhs && relation.rhs->kernel != this))
    badArgument(loc, "Kernel::require: expected sizes of tensor parameters "
                     "of kernel '" +
                         name + "', but got a size of another kernel's");
  for (const TensorSize &size :
       {relation.lhs, relation.rhs.value_or(relation.lhs)}) {
    int64_t rank =
        llvm::cast<mlir::tile::BufferType>(paramTypes[size.paramIndex])
            .getRank();
    if (size.dim < 0 || size.dim >= rank)
      badArgument(loc, "Kernel::require: expected a dimension of '" +
                           paramNames[size.paramIndex] + "' (0 to " +
                           std::to_string(rank - 1) + "), but got " +
                           std::to_string(size.dim));
  }
  contract.push_back(relation);
}

void Kernel::body(std::vector<GridExtent> grid,
                  const std::function<void(Kernel &)> &build, SourceLoc loc) {
  if (op)
    misuse(loc, "Kernel::body called twice");
  MLIRContext *ctx = &prog->context();
  SmallVector<mlir::tile::GridExtentAttr> extents;
  for (const GridExtent &extent : grid)
    extents.push_back(mlir::tile::GridExtentAttr::get(
        ctx, extent.paramIndex, extent.dim, extent.divisor));
  b.setInsertionPointToEnd(prog->module().getBody());
  auto kernel = mlir::tile::KernelOp::create(b, location(loc), name, paramTypes,
                                             paramNames, extents, threads);
  op = kernel;
  if (raster > 0)
    kernel.setRasterPanelAttr(b.getI64IntegerAttr(raster));
  if (specialized)
    kernel.setWarpSpecialized(true);
  if (persistentTiles)
    kernel.setPersistent(true);
  if (!clusterExtents.empty())
    kernel.setClusterAttr(b.getDenseI64ArrayAttr(clusterExtents));
  if (consumerSets != 1)
    kernel.setConsumersAttr(b.getI64IntegerAttr(consumerSets));
  if (streamKShares)
    kernel.setStreamK(true);
  if (!divisibility.empty()) {
    SmallVector<Attribute> promises;
    for (const Divisibility &promise : divisibility)
      promises.push_back(mlir::tile::DivisibilityAttr::get(
          ctx, promise.param, promise.dim, promise.divisor));
    kernel.setDivisibilityAttr(b.getArrayAttr(promises));
  }
  if (!contract.empty()) {
    SmallVector<Attribute> relations;
    for (const SizeRelation &relation : contract) {
      mlir::tile::ShapePredicate predicate;
      switch (relation.predicate) {
      case SizeRelation::Predicate::Equal:
        predicate = mlir::tile::ShapePredicate::eq;
        break;
      case SizeRelation::Predicate::AtMost:
        predicate = mlir::tile::ShapePredicate::le;
        break;
      case SizeRelation::Predicate::AtLeast:
        predicate = mlir::tile::ShapePredicate::ge;
        break;
      case SizeRelation::Predicate::Divides:
        predicate = mlir::tile::ShapePredicate::divides;
        break;
      }
      relations.push_back(mlir::tile::ShapeRelationAttr::get(
          ctx, relation.lhs.paramIndex, relation.lhs.dim, predicate,
          relation.rhs ? relation.rhs->paramIndex : -1,
          relation.rhs ? relation.rhs->dim : 0, relation.value));
    }
    kernel.setRequirementsAttr(b.getArrayAttr(relations));
  }
  b.setInsertionPointToStart(&kernel.getEntryBlock());
  // Ops can be built while `build` runs (also when it throws, the kernel
  // is closed: later calls are misuse).
  struct Building {
    bool &flag;
    explicit Building(bool &flag) : flag(flag) { flag = true; }
    ~Building() { flag = false; }
  } building(inBody);
  build(*this);
}

Expr Kernel::blockIndex(int dim, SourceLoc loc) const {
  requireBody(loc, "Kernel::blockIndex");
  auto kernel = llvm::cast<mlir::tile::KernelOp>(op);
  int64_t rank = kernel.getEntryBlock().getNumArguments() - paramTypes.size();
  if (dim < 0 || dim >= rank)
    badArgument(loc, "Kernel::blockIndex: expected a dimension of the " +
                         llvm::Twine(rank) + "-D grid of kernel '" + name +
                         "' (0 to " + llvm::Twine(rank - 1) + "), but got " +
                         llvm::Twine(dim));
  return Expr(const_cast<Kernel *>(this), kernel.getBlockIndex(dim));
}

Expr Kernel::scalar(int paramIndex, SourceLoc loc) const {
  requireBody(loc, "Kernel::scalar");
  if (paramIndex < 0 || paramIndex >= int64_t(paramTypes.size()))
    badArgument(loc, "Kernel::scalar: expected a parameter index of kernel '" +
                         name + "' (0 to " +
                         llvm::Twine(int64_t(paramTypes.size()) - 1) +
                         "), but got " + llvm::Twine(paramIndex));
  if (isa<mlir::tile::BufferType>(paramTypes[paramIndex]))
    badArgument(loc, "Kernel::scalar: expected a scalar parameter (the index "
                     "scalarParam returned), but parameter " +
                         llvm::Twine(paramIndex) + " ('" +
                         paramNames[paramIndex] + "') is a tensor");
  return Expr(const_cast<Kernel *>(this),
              llvm::cast<mlir::tile::KernelOp>(op).getParam(paramIndex));
}

Expr Kernel::index(int64_t value, SourceLoc loc) {
  requireBody(loc, "Kernel::index");
  return Expr(this, arith::ConstantIndexOp::create(b, location(loc), value));
}

Expr Kernel::constant(double value, Type type, SourceLoc loc) {
  requireBody(loc, "Kernel::constant");
  if (!isScalarType(type))
    badArgument(loc, "Kernel::constant: expected an index, integer or float "
                     "type, but got " +
                         str(type));
  TypedAttr attr;
  if (isa<FloatType>(type)) {
    attr = b.getFloatAttr(type, value);
  } else {
    // An integer type takes an integral value it can represent (signed or
    // unsigned); anything else would be changed silently.
    unsigned width = type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
    double low = -std::ldexp(1.0, width - 1);
    double high = std::ldexp(1.0, std::min(width, 63u));
    if (!(value >= low && value < high) || std::trunc(value) != value)
      badArgument(loc, "Kernel::constant: expected an integer that " +
                           str(type) + " can hold, but got " +
                           numberText(value));
    attr = b.getIntegerAttr(type, static_cast<int64_t>(value));
  }
  return Expr(this, arith::ConstantOp::create(b, location(loc), attr));
}

template <typename AllocOp>
Buffer Kernel::allocTile(std::vector<int64_t> shape, Type elementType,
                         mlir::tile::MemoryScope scope, SourceLoc loc) {
  const char *what = scope == mlir::tile::MemoryScope::Shared
                         ? "Kernel::allocShared"
                         : "Kernel::allocFragment";
  requireBody(loc, what);
  Location at = location(loc);
  auto type = checkedBufferType(&prog->context(), at, loc, what, shape,
                                elementType, scope);
  Buffer buffer;
  buffer.kernel = this;
  buffer.val = AllocOp::create(b, at, type);
  return buffer;
}

Buffer Kernel::subview(const Buffer &tensor, Indices leading, SourceLoc loc) {
  Value source = use(tensor, loc, "Kernel::subview");
  auto type = mlir::cast<mlir::tile::BufferType>(source.getType());
  if (leading.empty() || int64_t(leading.size()) >= type.getRank())
    badArgument(loc, "Kernel::subview: expected 1 to " +
                         llvm::Twine(type.getRank() - 1) +
                         " leading indices of a rank-" +
                         llvm::Twine(type.getRank()) + " tensor, but got " +
                         llvm::Twine(leading.size()));
  SmallVector<Value> indices;
  for (const Expr &index : leading)
    indices.push_back(use(index, loc, "Kernel::subview"));
  Location at = location(loc);
  auto viewType =
      checkedBufferType(&prog->context(), at, loc, "Kernel::subview",
                        type.getShape().drop_front(leading.size()),
                        type.getElementType(), mlir::tile::MemoryScope::Global);
  Buffer view;
  view.kernel = this;
  view.val = mlir::tile::SubviewOp::create(b, at, viewType, source, indices);
  return view;
}

Buffer Kernel::allocShared(std::vector<int64_t> shape, Type elementType,
                           SourceLoc loc) {
  return allocTile<mlir::tile::AllocSharedOp>(
      shape, elementType, mlir::tile::MemoryScope::Shared, loc);
}

Buffer Kernel::allocFragment(std::vector<int64_t> shape, Type elementType,
                             SourceLoc loc) {
  return allocTile<mlir::tile::AllocFragmentOp>(
      shape, elementType, mlir::tile::MemoryScope::Fragment, loc);
}

void Kernel::copyImpl(const Buffer &source, const Indices &sourceOffsets,
                      const Buffer &dest, const Indices &destOffsets,
                      SourceLoc loc) {
  auto values = [&](const Indices &offsets) {
    SmallVector<Value> result;
    for (const Expr &offset : offsets)
      result.push_back(use(offset, loc, "Kernel::copy"));
    return result;
  };
  Value from = use(source, loc, "Kernel::copy");
  Value to = use(dest, loc, "Kernel::copy");
  mlir::tile::CopyOp::create(b, location(loc), from, values(sourceOffsets), to,
                             values(destOffsets));
}

void Kernel::copy(const BufferRegion &source, const Buffer &dest,
                  SourceLoc loc) {
  if (!source.buffer)
    badArgument(loc, "Kernel::copy: expected a region of a tensor, but got "
                     "a region without a buffer");
  copyImpl(*source.buffer, source.offsets, dest, {}, loc);
}

void Kernel::copy(const Buffer &source, const BufferRegion &dest,
                  SourceLoc loc) {
  if (!dest.buffer)
    badArgument(loc, "Kernel::copy: expected a region of a tensor, but got "
                     "a region without a buffer");
  copyImpl(source, {}, *dest.buffer, dest.offsets, loc);
}

void Kernel::copy(const Buffer &source, const Buffer &dest, SourceLoc loc) {
  copyImpl(source, {}, dest, {}, loc);
}

void Kernel::atomicAdd(const Buffer &source, const BufferRegion &dest,
                       SourceLoc loc) {
  if (!dest.buffer)
    badArgument(loc, "Kernel::atomicAdd: expected a region of a tensor, but "
                     "got a region without a buffer");
  SmallVector<Value> offsets;
  for (const Expr &offset : dest.offsets)
    offsets.push_back(use(offset, loc, "Kernel::atomicAdd"));
  mlir::tile::AtomicAddOp::create(
      b, location(loc), use(source, loc, "Kernel::atomicAdd"),
      use(*dest.buffer, loc, "Kernel::atomicAdd"), offsets);
}

void Kernel::fill(const Buffer &dest, Expr value, SourceLoc loc) {
  Value tile = use(dest, loc, "Kernel::fill");
  mlir::tile::FillOp::create(b, location(loc), tile,
                             use(value, loc, "Kernel::fill"));
}

static void buildReduce(Kernel &k, mlir::tile::ReduceKind kind, Value src,
                        Value dst, bool accumulate, SourceLoc loc) {
  mlir::tile::ReduceOp::create(k.builder(), k.location(loc), kind, src, dst,
                               /*dim=*/1, accumulate);
}
void Kernel::reduceMax(const Buffer &src, const Buffer &dst, bool accumulate,
                       SourceLoc loc) {
  buildReduce(*this, mlir::tile::ReduceKind::max,
              use(src, loc, "Kernel::reduceMax"),
              use(dst, loc, "Kernel::reduceMax"), accumulate, loc);
}
void Kernel::reduceSum(const Buffer &src, const Buffer &dst, bool accumulate,
                       SourceLoc loc) {
  buildReduce(*this, mlir::tile::ReduceKind::sum,
              use(src, loc, "Kernel::reduceSum"),
              use(dst, loc, "Kernel::reduceSum"), accumulate, loc);
}
void Kernel::reduceMin(const Buffer &src, const Buffer &dst, bool accumulate,
                       SourceLoc loc) {
  buildReduce(*this, mlir::tile::ReduceKind::min,
              use(src, loc, "Kernel::reduceMin"),
              use(dst, loc, "Kernel::reduceMin"), accumulate, loc);
}

Expr Kernel::threadMin(const Buffer &fragment, SourceLoc loc) {
  Value tile = use(fragment, loc, "Kernel::threadMin");
  return Expr(this, mlir::tile::ThreadReduceOp::create(
                        b, location(loc), b.getF32Type(),
                        mlir::tile::ReduceKind::min, tile));
}

void Kernel::clear(const Buffer &dest, SourceLoc loc) {
  mlir::tile::ClearOp::create(b, location(loc),
                              use(dest, loc, "Kernel::clear"));
}

void Kernel::gemm(const Buffer &a, const Buffer &bTile, const Buffer &c,
                  bool transposeB, bool transposeA, bool clearAccum,
                  SourceLoc loc) {
  Value av = use(a, loc, "Kernel::gemm"), bv = use(bTile, loc, "Kernel::gemm"),
        cv = use(c, loc, "Kernel::gemm");
  mlir::tile::GemmOp::create(b, location(loc), av, bv, cv, transposeB,
                             transposeA, clearAccum);
}

Operation *Kernel::buildForLoop(Expr lower, Expr upper, int64_t step,
                                const std::function<void(Expr)> &body,
                                SourceLoc loc) {
  Value from = use(lower, loc, "Kernel::forLoop"),
        to = use(upper, loc, "Kernel::forLoop");
  if (!from.getType().isIndex() || !to.getType().isIndex())
    badArgument(loc, "Kernel::forLoop: expected index bounds, but got " +
                         str(from.getType()) + " and " + str(to.getType()));
  if (step < 1)
    badArgument(loc, "Kernel::forLoop: expected a step of at least 1, but "
                     "got " +
                         llvm::Twine(step));
  Location l = location(loc);
  Value stepValue = arith::ConstantIndexOp::create(b, l, step);
  auto loop = scf::ForOp::create(b, l, from, to, stepValue);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(loop.getBody()->getTerminator());
  body(Expr(this, loop.getInductionVar()));
  return loop;
}

void Kernel::forLoop(Expr lower, Expr upper, int64_t step,
                     const std::function<void(Expr)> &body, SourceLoc loc) {
  buildForLoop(lower, upper, step, body, loc);
}

void Kernel::pipelined(Expr lower, Expr upper, int64_t stages,
                       const std::function<void(Expr)> &body, SourceLoc loc) {
  if (stages < 1)
    badArgument(loc, "Kernel::pipelined: expected at least 1 stage, but got " +
                         llvm::Twine(stages));
  Operation *loop = buildForLoop(lower, upper, 1, body, loc);
  loop->setAttr(mlir::tile::kNumStagesAttrName, b.getI64IntegerAttr(stages));
}

void Kernel::when(Expr condition, const std::function<void()> &body,
                  SourceLoc loc) {
  Value cond = use(condition, loc, "Kernel::when");
  if (!cond.getType().isInteger(1))
    badArgument(loc, "Kernel::when: expected an i1 condition, but got " +
                         str(cond.getType()));
  auto branch = scf::IfOp::create(b, location(loc), cond);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(branch.thenBlock()->getTerminator());
  body();
}

static void buildPrint(OpBuilder &b, Location loc, const std::string &label,
                       Value value, const PrintFrom &from) {
  auto attr = [&](std::optional<int64_t> v) {
    return v ? b.getI64IntegerAttr(*v) : IntegerAttr();
  };
  mlir::tile::PrintOp::create(b, loc, b.getStringAttr(label), value,
                              attr(from.threadIndex), attr(from.warpIndex),
                              b.getDenseI64ArrayAttr(from.block));
}

void Kernel::print(const std::string &label, Expr value, PrintFrom from,
                   SourceLoc loc) {
  buildPrint(b, location(loc), label, use(value, loc, "Kernel::print"), from);
}

void Kernel::print(const std::string &label, const Buffer &tile, PrintFrom from,
                   SourceLoc loc) {
  buildPrint(b, location(loc), label, use(tile, loc, "Kernel::print"), from);
}

void Kernel::rolledParallel(std::vector<int64_t> extents,
                            const std::function<void(const Indices &)> &body,
                            SourceLoc loc) {
  parallel(std::move(extents), body, loc);
  auto loop =
      mlir::cast<mlir::tile::ParallelOp>(&*std::prev(b.getInsertionPoint()));
  loop.setRolled(true);
}

void Kernel::parallel(std::vector<int64_t> extents,
                      const std::function<void(const Indices &)> &body,
                      SourceLoc loc) {
  requireBody(loc, "Kernel::parallel");
  auto loop = mlir::tile::ParallelOp::create(b, location(loc), extents);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(loop.getBodyBlock().getTerminator());
  Indices ivs;
  for (Value iv : loop.getInductionVars())
    ivs.push_back(Expr(this, iv));
  body(ivs);
}

} // namespace tile::fe
