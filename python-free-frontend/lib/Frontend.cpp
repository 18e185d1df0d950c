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
#include <stdexcept>

using namespace mlir;

namespace tile::fe {

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

namespace {

enum class BinaryKind { Add, Sub, Mul, Div, Rem, Max, Min };

Kernel *ownerOf(const Expr &lhs, const Expr &rhs) {
  Kernel *kernel = lhs.owner() ? lhs.owner() : rhs.owner();
  if (!kernel)
    throw std::logic_error("tile::fe: expression used outside a kernel body");
  return kernel;
}

Expr binary(BinaryKind kind, Expr lhs, Expr rhs) {
  Kernel *kernel = ownerOf(lhs, rhs);
  OpBuilder &b = kernel->builder();
  Location loc = b.getUnknownLoc();
  if (lhs.type() != rhs.type())
    throw std::invalid_argument("tile::fe: operands of different types");
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

/// A literal of the type of `like`.
Expr literal(const Expr &like, double value) {
  Kernel *kernel = like.owner();
  if (!kernel)
    throw std::logic_error("tile::fe: expression used outside a kernel body");
  return kernel->constant(value, like.type());
}

} // namespace

Expr operator+(Expr l, Expr r) { return binary(BinaryKind::Add, l, r); }
Expr operator-(Expr l, Expr r) { return binary(BinaryKind::Sub, l, r); }
Expr operator*(Expr l, Expr r) { return binary(BinaryKind::Mul, l, r); }
Expr operator/(Expr l, Expr r) { return binary(BinaryKind::Div, l, r); }
Expr operator%(Expr l, Expr r) { return binary(BinaryKind::Rem, l, r); }
Expr operator+(Expr l, double r) { return l + literal(l, r); }
Expr operator-(Expr l, double r) { return l - literal(l, r); }
Expr operator*(Expr l, double r) { return l * literal(l, r); }
Expr operator/(Expr l, double r) { return l / literal(l, r); }
Expr operator%(Expr l, double r) { return l % literal(l, r); }
Expr operator+(double l, Expr r) { return literal(r, l) + r; }
Expr operator*(double l, Expr r) { return literal(r, l) * r; }
Expr max(Expr l, Expr r) { return binary(BinaryKind::Max, l, r); }
Expr ceilDiv(Expr l, Expr r) {
  Kernel *kernel = ownerOf(l, r);
  OpBuilder &b = kernel->builder();
  return Expr(kernel, arith::CeilDivUIOp::create(b, b.getUnknownLoc(),
                                                 l.value(), r.value()));
}
Expr ceilDiv(Expr l, double r) { return ceilDiv(l, literal(l, r)); }
Expr min(Expr l, Expr r) { return binary(BinaryKind::Min, l, r); }

Expr operator|(Expr l, Expr r) {
  Kernel *kernel = ownerOf(l, r);
  OpBuilder &b = kernel->builder();
  if (l.type() != r.type() || !l.type().isSignlessInteger())
    throw std::invalid_argument("tile::fe: | needs two i1 or integer values "
                                "of one type");
  return Expr(kernel,
              arith::OrIOp::create(b, b.getUnknownLoc(), l.value(), r.value()));
}
Expr fma(Expr a, Expr x, Expr c) {
  Kernel *kernel = ownerOf(a, x);
  OpBuilder &b = kernel->builder();
  if (a.type() != x.type() || a.type() != c.type() || !isa<FloatType>(a.type()))
    throw std::invalid_argument("tile::fe: fma needs three floats of one type");
  return Expr(kernel, math::FmaOp::create(b, b.getUnknownLoc(), a.value(),
                                          x.value(), c.value()));
}

/// A one-operand math op on `x`.
template <typename MathOp> static Expr unaryMath(Expr x) {
  OpBuilder &b = x.owner()->builder();
  return Expr(x.owner(), MathOp::create(b, b.getUnknownLoc(), x.value()));
}
Expr exp(Expr x) { return unaryMath<math::ExpOp>(x); }
Expr exp2(Expr x) { return unaryMath<math::Exp2Op>(x); }
Expr log(Expr x) { return unaryMath<math::LogOp>(x); }
Expr tanh(Expr x) { return unaryMath<math::TanhOp>(x); }
Expr erf(Expr x) { return unaryMath<math::ErfOp>(x); }
Expr less(Expr lhs, Expr rhs) {
  Kernel *kernel = ownerOf(lhs, rhs);
  OpBuilder &b = kernel->builder();
  Location loc = b.getUnknownLoc();
  if (lhs.type() != rhs.type())
    throw std::invalid_argument("tile::fe: operands of different types");
  if (isa<FloatType>(lhs.type()))
    return Expr(kernel, arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT,
                                              lhs.value(), rhs.value()));
  return Expr(kernel, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                            lhs.value(), rhs.value()));
}
Expr select(Expr condition, Expr whenTrue, Expr whenFalse) {
  Kernel *kernel = ownerOf(whenTrue, whenFalse);
  OpBuilder &b = kernel->builder();
  if (whenTrue.type() != whenFalse.type())
    throw std::invalid_argument("tile::fe: select of different types");
  return Expr(kernel,
              arith::SelectOp::create(b, b.getUnknownLoc(), condition.value(),
                                      whenTrue.value(), whenFalse.value()));
}
Expr gelu(Expr x) { return x * 0.5 * (1.0 + erf(x * M_SQRT1_2)); }
Expr geluTanh(Expr x) {
  constexpr double kSqrt2OverPi = 0.7978845608028654;
  return x * 0.5 * (1.0 + tanh((x + x * x * x * 0.044715) * kSqrt2OverPi));
}

Expr cast(Expr x, Type type) {
  OpBuilder &b = x.owner()->builder();
  Location loc = b.getUnknownLoc();
  Type from = x.type();
  if (from == type)
    return x;
  Value result;
  if (isa<FloatType>(from) && isa<FloatType>(type) &&
      from.getIntOrFloatBitWidth() == type.getIntOrFloatBitWidth())
    // f16 <-> bf16: no direct conversion; f32 holds both exactly.
    return cast(cast(x, b.getF32Type()), type);
  if (isa<FloatType>(from) && isa<FloatType>(type))
    result = from.getIntOrFloatBitWidth() < type.getIntOrFloatBitWidth()
                 ? Value(arith::ExtFOp::create(b, loc, type, x.value()))
                 : Value(arith::TruncFOp::create(b, loc, type, x.value()));
  else if (from.isIndex() || type.isIndex())
    result = arith::IndexCastOp::create(b, loc, type, x.value());
  else if (isa<FloatType>(type))
    result = arith::SIToFPOp::create(b, loc, type, x.value());
  else if (isa<FloatType>(from))
    result = arith::FPToSIOp::create(b, loc, type, x.value());
  else if (from.getIntOrFloatBitWidth() < type.getIntOrFloatBitWidth())
    result = arith::ExtSIOp::create(b, loc, type, x.value());
  else
    result = arith::TruncIOp::create(b, loc, type, x.value());
  return Expr(x.owner(), result);
}

//===----------------------------------------------------------------------===//
// Buffers and elements
//===----------------------------------------------------------------------===//

Value Buffer::value() const {
  if (val)
    return val;
  if (!kernel || !kernel->op)
    throw std::logic_error("tile::fe: a tensor parameter is used before "
                           "Kernel::body created the kernel");
  return llvm::cast<mlir::tile::KernelOp>(kernel->op).getParam(paramIndex);
}

Type Buffer::type() const {
  return val ? val.getType() : kernel->paramTypes[paramIndex];
}

Expr Buffer::dim(int64_t dim, SourceLoc loc) const {
  OpBuilder &b = kernel->builder();
  return Expr(kernel,
              mlir::tile::DimOp::create(b, kernel->location(loc),
                                        b.getIndexType(), value(), dim));
}

static SmallVector<Value> toValues(const Indices &indices) {
  SmallVector<Value> values;
  for (const Expr &e : indices)
    values.push_back(e.value());
  return values;
}

ElementRef::operator Expr() const {
  Kernel *kernel = buffer.owner();
  OpBuilder &b = kernel->builder();
  return Expr(
      kernel,
      mlir::tile::LoadOp::create(
          b, b.getUnknownLoc(),
          llvm::cast<mlir::tile::BufferType>(buffer.type()).getElementType(),
          buffer.value(), toValues(indices)));
}

ElementRef &ElementRef::operator=(Expr value) {
  Kernel *kernel = buffer.owner();
  OpBuilder &b = kernel->builder();
  mlir::tile::StoreOp::create(b, b.getUnknownLoc(), value.value(),
                              buffer.value(), toValues(indices));
  return *this;
}

GridExtent ceildiv(const Buffer &tensor, int64_t dim, int64_t divisor) {
  if (tensor.parameterIndex() < 0)
    throw std::invalid_argument("tile::fe::ceildiv: the grid can only depend "
                                "on the shape of a tensor parameter");
  return {tensor.parameterIndex(), dim, divisor};
}

GridExtent constant(int64_t size) { return {-1, 0, size}; }

TensorSize size(const Buffer &tensor, int64_t dim) {
  if (tensor.parameterIndex() < 0)
    throw std::invalid_argument("tile::fe::size: a launch contract can only "
                                "relate the sizes of tensor parameters");
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

//===----------------------------------------------------------------------===//
// Program
//===----------------------------------------------------------------------===//

Program::Program() {
  DialectRegistry registry;
  mlir::tile::registerTileDialects(registry);
  mlir::tile::registerTilePasses();
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
  return FileLineColLoc::get(&prog->context(), loc.file, loc.line, 1);
}

Buffer Kernel::tensor(const std::string &paramName, std::vector<int64_t> shape,
                      Type elementType) {
  if (op)
    throw std::logic_error("tile::fe: parameters must be declared before "
                           "Kernel::body");
  paramTypes.push_back(mlir::tile::BufferType::get(
      shape, elementType, mlir::tile::MemoryScope::Global));
  paramNames.push_back(paramName);
  Buffer buffer;
  buffer.kernel = this;
  buffer.paramIndex = paramTypes.size() - 1;
  return buffer;
}

int Kernel::scalarParam(const std::string &paramName, Type type) {
  if (op)
    throw std::logic_error("tile::fe: parameters must be declared before "
                           "Kernel::body");
  paramTypes.push_back(type);
  paramNames.push_back(paramName);
  return paramTypes.size() - 1;
}

void Kernel::divisible(const Buffer &tensor, int dim, int64_t divisor) {
  if (op)
    throw std::logic_error("tile::fe: divisible must be declared before "
                           "Kernel::body");
  if (tensor.kernel != this || tensor.paramIndex < 0)
    throw std::logic_error("tile::fe: divisible expects a tensor parameter "
                           "of this kernel");
  divisibility.push_back({tensor.paramIndex, dim, divisor});
}

void Kernel::require(const SizeRelation &relation) {
  if (op)
    throw std::logic_error("tile::fe: require must be declared before "
                           "Kernel::body");
  if (relation.lhs.kernel != this ||
      (relation.rhs && relation.rhs->kernel != this))
    throw std::logic_error("tile::fe: require expects sizes of this "
                           "kernel's tensor parameters");
  for (const TensorSize &size :
       {relation.lhs, relation.rhs.value_or(relation.lhs)}) {
    int64_t rank =
        llvm::cast<mlir::tile::BufferType>(paramTypes[size.paramIndex])
            .getRank();
    if (size.dim < 0 || size.dim >= rank)
      throw std::logic_error("tile::fe: require expects a dimension of '" +
                             paramNames[size.paramIndex] + "' from 0 to " +
                             std::to_string(rank - 1) + ", but got " +
                             std::to_string(size.dim));
  }
  contract.push_back(relation);
}

void Kernel::body(std::vector<GridExtent> grid,
                  const std::function<void(Kernel &)> &build, SourceLoc loc) {
  if (op)
    throw std::logic_error("tile::fe: Kernel::body called twice");
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
      mlir::tile::ShapePredicate predicate =
          relation.predicate == SizeRelation::Predicate::Equal
              ? mlir::tile::ShapePredicate::eq
          : relation.predicate == SizeRelation::Predicate::AtMost
              ? mlir::tile::ShapePredicate::le
              : mlir::tile::ShapePredicate::ge;
      relations.push_back(mlir::tile::ShapeRelationAttr::get(
          ctx, relation.lhs.paramIndex, relation.lhs.dim, predicate,
          relation.rhs ? relation.rhs->paramIndex : -1,
          relation.rhs ? relation.rhs->dim : 0, relation.value));
    }
    kernel.setRequirementsAttr(b.getArrayAttr(relations));
  }
  b.setInsertionPointToStart(&kernel.getEntryBlock());
  build(*this);
}

Expr Kernel::blockIndex(int dim) const {
  return Expr(const_cast<Kernel *>(this),
              llvm::cast<mlir::tile::KernelOp>(op).getBlockIndex(dim));
}

Expr Kernel::scalar(int paramIndex) const {
  return Expr(const_cast<Kernel *>(this),
              llvm::cast<mlir::tile::KernelOp>(op).getParam(paramIndex));
}

Expr Kernel::index(int64_t value, SourceLoc loc) {
  return Expr(this, arith::ConstantIndexOp::create(b, location(loc), value));
}

Expr Kernel::constant(double value, Type type, SourceLoc loc) {
  TypedAttr attr;
  if (isa<FloatType>(type))
    attr = b.getFloatAttr(type, value);
  else
    attr = b.getIntegerAttr(type, static_cast<int64_t>(value));
  return Expr(this, arith::ConstantOp::create(b, location(loc), attr));
}

template <typename AllocOp>
Buffer Kernel::allocTile(std::vector<int64_t> shape, Type elementType,
                         mlir::tile::MemoryScope scope, SourceLoc loc) {
  Buffer buffer;
  buffer.kernel = this;
  buffer.val = AllocOp::create(
      b, location(loc), mlir::tile::BufferType::get(shape, elementType, scope));
  return buffer;
}

Buffer Kernel::subview(const Buffer &tensor, Indices leading, SourceLoc loc) {
  auto type = mlir::cast<mlir::tile::BufferType>(tensor.type());
  auto shape = type.getShape().drop_front(
      std::min<size_t>(leading.size(), type.getRank()));
  Buffer view;
  view.kernel = this;
  view.val = mlir::tile::SubviewOp::create(
      b, location(loc),
      mlir::tile::BufferType::get(shape, type.getElementType(),
                                  mlir::tile::MemoryScope::Global),
      tensor.value(), toValues(leading));
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
  mlir::tile::CopyOp::create(b, location(loc), source.value(),
                             toValues(sourceOffsets), dest.value(),
                             toValues(destOffsets));
}

void Kernel::copy(const BufferRegion &source, const Buffer &dest,
                  SourceLoc loc) {
  copyImpl(*source.buffer, source.offsets, dest, {}, loc);
}

void Kernel::copy(const Buffer &source, const BufferRegion &dest,
                  SourceLoc loc) {
  copyImpl(source, {}, *dest.buffer, dest.offsets, loc);
}

void Kernel::copy(const Buffer &source, const Buffer &dest, SourceLoc loc) {
  copyImpl(source, {}, dest, {}, loc);
}

void Kernel::fill(const Buffer &dest, Expr value, SourceLoc loc) {
  mlir::tile::FillOp::create(b, location(loc), dest.value(), value.value());
}

static void buildReduce(Kernel &k, mlir::tile::ReduceKind kind,
                        const Buffer &src, const Buffer &dst, bool accumulate,
                        SourceLoc loc) {
  mlir::tile::ReduceOp::create(k.builder(), k.location(loc), kind, src.value(),
                               dst.value(), /*dim=*/1, accumulate);
}
void Kernel::reduceMax(const Buffer &src, const Buffer &dst, bool accumulate,
                       SourceLoc loc) {
  buildReduce(*this, mlir::tile::ReduceKind::max, src, dst, accumulate, loc);
}
void Kernel::reduceSum(const Buffer &src, const Buffer &dst, bool accumulate,
                       SourceLoc loc) {
  buildReduce(*this, mlir::tile::ReduceKind::sum, src, dst, accumulate, loc);
}
void Kernel::reduceMin(const Buffer &src, const Buffer &dst, bool accumulate,
                       SourceLoc loc) {
  buildReduce(*this, mlir::tile::ReduceKind::min, src, dst, accumulate, loc);
}

Expr Kernel::threadMin(const Buffer &fragment, SourceLoc loc) {
  return Expr(this, mlir::tile::ThreadReduceOp::create(
                        b, location(loc), b.getF32Type(),
                        mlir::tile::ReduceKind::min, fragment.value()));
}

void Kernel::clear(const Buffer &dest, SourceLoc loc) {
  mlir::tile::ClearOp::create(b, location(loc), dest.value());
}

void Kernel::gemm(const Buffer &a, const Buffer &bTile, const Buffer &c,
                  bool transposeB, bool transposeA, bool clearAccum,
                  SourceLoc loc) {
  mlir::tile::GemmOp::create(b, location(loc), a.value(), bTile.value(),
                             c.value(), transposeB, transposeA, clearAccum);
}

Operation *Kernel::buildForLoop(Expr lower, Expr upper, int64_t step,
                                const std::function<void(Expr)> &body,
                                SourceLoc loc) {
  Location l = location(loc);
  Value stepValue = arith::ConstantIndexOp::create(b, l, step);
  auto loop = scf::ForOp::create(b, l, lower.value(), upper.value(), stepValue);
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
  Operation *loop = buildForLoop(lower, upper, 1, body, loc);
  loop->setAttr(mlir::tile::kNumStagesAttrName, b.getI64IntegerAttr(stages));
}

void Kernel::when(Expr condition, const std::function<void()> &body,
                  SourceLoc loc) {
  if (!condition.type().isInteger(1))
    throw std::invalid_argument("tile::fe: when() needs an i1 condition");
  auto branch = scf::IfOp::create(b, location(loc), condition.value());
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
  buildPrint(b, location(loc), label, value.value(), from);
}

void Kernel::print(const std::string &label, const Buffer &tile, PrintFrom from,
                   SourceLoc loc) {
  buildPrint(b, location(loc), label, tile.value(), from);
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
  auto loop = mlir::tile::ParallelOp::create(b, location(loc), extents);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(loop.getBodyBlock().getTerminator());
  Indices ivs;
  for (Value iv : loop.getInductionVars())
    ivs.push_back(Expr(this, iv));
  body(ivs);
}

} // namespace tile::fe
