//===- TileKernelContract.cpp - tile.kernel's launch contract -------------===//
//
// The checks of a kernel's `requires` relations: each one on its own, no
// relation twice, and no set of them that no launch can meet (bounds that
// exclude each other across the sizes the relations make equal).
//
//===----------------------------------------------------------------------===//

#include "TileOpsHelpers.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/EquivalenceClasses.h"

#include <map>

using namespace mlir;
using namespace mlir::tile;

namespace {
/// Checks the launch contract (`requires`) of a kernel.
class ContractVerifier {
public:
  explicit ContractVerifier(KernelOp op) : op(op) {}
  LogicalResult verify();

private:
  /// Dimension `second` of parameter `first`.
  using Size = std::pair<int64_t, int64_t>;
  /// A bound on a size and what gives it, for messages.
  struct Bound {
    int64_t value;
    std::string source;
    Size size;
  };
  struct Bounds {
    std::optional<Bound> lower, upper;
  };

  LogicalResult verifySize(int64_t param, int64_t dim);
  /// A size as the messages write it: A[1].
  std::string name(Size size) {
    return (op.getParamName(size.first) + "[" + Twine(size.second) + "]").str();
  }
  /// 'A[1] == B[0]' or 'X[1] <= 4096', quoted.
  std::string text(ShapeRelationAttr relation);
  std::optional<int64_t> staticSize(Size size) {
    auto buffer = cast<BufferType>(op.getFunctionType().getInput(size.first));
    if (buffer.isDynamicDim(size.second))
      return std::nullopt;
    return buffer.getDimSize(size.second);
  }
  /// Checks one relation on its own.
  LogicalResult verifyRelation(ShapeRelationAttr relation);
  /// Adds `bound` as a lower or upper bound of `size`'s equality class.
  void addBound(Size size, bool upper, Bound bound);

  KernelOp op;
  llvm::EquivalenceClasses<Size> equal;
  DenseMap<Size, Bounds> bounds; // by class leader
};
} // namespace

std::string ContractVerifier::text(ShapeRelationAttr relation) {
  std::string rhs = relation.isConstant()
                        ? std::to_string(relation.getValue())
                        : name({relation.getRhsParam(), relation.getRhsDim()});
  return "'" + name({relation.getLhsParam(), relation.getLhsDim()}) + " " +
         relation.getPredicateSymbol().str() + " " + rhs + "'";
}

LogicalResult ContractVerifier::verifySize(int64_t param, int64_t dim) {
  FunctionType type = op.getFunctionType();
  if (param < 0 || param >= type.getNumInputs())
    return op.emitOpError("requires refers to parameter #")
           << param << ", but the kernel has " << type.getNumInputs();
  auto buffer = dyn_cast<BufferType>(type.getInput(param));
  if (!buffer)
    return op.emitOpError("requires must refer to a buffer parameter, but '")
           << op.getParamName(param) << "' is a scalar";
  if (dim < 0 || dim >= buffer.getRank())
    return op.emitOpError("requires refers to dimension ")
           << dim << " of '" << op.getParamName(param) << "', which has rank "
           << buffer.getRank();
  return success();
}

LogicalResult ContractVerifier::verifyRelation(ShapeRelationAttr relation) {
  if (failed(verifySize(relation.getLhsParam(), relation.getLhsDim())))
    return failure();
  if (relation.getRhsParam() != -1 &&
      failed(verifySize(relation.getRhsParam(), relation.getRhsDim())))
    return failure();
  Size lhs = {relation.getLhsParam(), relation.getLhsDim()};
  Size rhs = {relation.getRhsParam(), relation.getRhsDim()};
  if (!relation.isConstant() && relation.getValue() != 0)
    return op.emitOpError("expected a size or a value on the right of ")
           << text(relation)
           << ", but got both (value = " << relation.getValue() << ")";
  if (!relation.isConstant() && lhs == rhs)
    return op.emitOpError("requires compares '")
           << name(lhs) << "' with itself";
  bool divides = relation.getPredicate() == ShapePredicate::divides;
  // A multiple of a constant is a divisibility promise (`divisible`).
  if (divides && relation.isConstant())
    return op.emitOpError("expected a size on the right of ")
           << text(relation) << ", but got the value " << relation.getValue();

  // A relation that no launch can meet on its own.
  std::optional<int64_t> left = staticSize(lhs);
  std::optional<int64_t> right =
      relation.isConstant() ? relation.getValue() : staticSize(rhs);
  if (relation.isConstant() && relation.getValue() < 0 &&
      relation.getPredicate() != ShapePredicate::ge)
    return op.emitOpError("requires ")
           << text(relation) << ", which never holds: sizes are at least 0";
  if (!left || !right)
    return success();
  bool holds = divides ? (*left == 0 ? *right == 0 : *right % *left == 0)
               : relation.getPredicate() == ShapePredicate::eq ? *left == *right
               : relation.getPredicate() == ShapePredicate::le
                   ? *left <= *right
                   : *left >= *right;
  if (holds)
    return success();
  InFlightDiagnostic diag = op.emitOpError("requires ")
                            << text(relation)
                            << ", which never holds: " << name(lhs) << " is "
                            << *left;
  if (!relation.isConstant())
    diag << " and " << name(rhs) << " is " << *right;
  return diag << " (static)";
}

void ContractVerifier::addBound(Size size, bool upper, Bound bound) {
  Bounds &classBounds = bounds[equal.getLeaderValue(size)];
  std::optional<Bound> &current = upper ? classBounds.upper : classBounds.lower;
  if (!current ||
      (upper ? bound.value < current->value : bound.value > current->value))
    current = bound;
}

LogicalResult ContractVerifier::verify() {
  SmallVector<ShapeRelationAttr> contract = op.getContract();
  // Each relation on its own, and no relation twice (`A <= B` is `B >= A`).
  std::map<std::tuple<Size, ShapePredicate, Size, int64_t>, ShapeRelationAttr>
      seen;
  for (ShapeRelationAttr relation : contract) {
    if (failed(verifyRelation(relation)))
      return failure();
    Size lhs = {relation.getLhsParam(), relation.getLhsDim()};
    Size rhs = {relation.getRhsParam(), relation.getRhsDim()};
    ShapePredicate predicate = relation.getPredicate();
    if (!relation.isConstant() &&
        (predicate == ShapePredicate::ge ||
         (predicate == ShapePredicate::eq && rhs < lhs))) {
      std::swap(lhs, rhs);
      if (predicate == ShapePredicate::ge)
        predicate = ShapePredicate::le;
    }
    auto [it, inserted] =
        seen.try_emplace({lhs, predicate, rhs, relation.getValue()}, relation);
    if (!inserted)
      return op.emitOpError("requires ")
             << text(relation) << " repeats " << text(it->second);
  }

  // Equality classes of sizes, with the bounds that constants and static
  // sizes put on them: a class whose bounds exclude each other, or an
  // inequality between classes that their bounds exclude, never holds.
  for (ShapeRelationAttr relation : contract) {
    Size lhs = {relation.getLhsParam(), relation.getLhsDim()};
    equal.insert(lhs);
    if (relation.isConstant())
      continue;
    Size rhs = {relation.getRhsParam(), relation.getRhsDim()};
    equal.insert(rhs);
    if (relation.getPredicate() == ShapePredicate::eq)
      equal.unionSets(lhs, rhs);
  }
  for (const auto *member : equal) {
    Size size = member->getData();
    if (std::optional<int64_t> value = staticSize(size)) {
      std::string source =
          "the static size " + name(size) + " = " + std::to_string(*value);
      addBound(size, /*upper=*/false, {*value, source, size});
      addBound(size, /*upper=*/true, {*value, source, size});
    }
  }
  for (ShapeRelationAttr relation : contract) {
    if (!relation.isConstant())
      continue;
    Size lhs = {relation.getLhsParam(), relation.getLhsDim()};
    Bound bound = {relation.getValue(), text(relation), lhs};
    if (relation.getPredicate() != ShapePredicate::ge)
      addBound(lhs, /*upper=*/true, bound);
    if (relation.getPredicate() != ShapePredicate::le)
      addBound(lhs, /*upper=*/false, bound);
  }
  for (const auto *member : equal) {
    if (!member->isLeader())
      continue;
    Bounds classBounds = bounds.lookup(member->getData());
    if (!classBounds.lower || !classBounds.upper ||
        classBounds.lower->value <= classBounds.upper->value)
      continue;
    InFlightDiagnostic diag = op.emitOpError("requires cannot hold: ")
                              << classBounds.lower->source << " and "
                              << classBounds.upper->source
                              << " exclude each other";
    if (classBounds.lower->size != classBounds.upper->size)
      diag << " (requires makes " << name(classBounds.lower->size) << " and "
           << name(classBounds.upper->size) << " equal)";
    return diag;
  }
  // (A divisor is no bound: 0 divides 0, and any size divides 0.)
  for (ShapeRelationAttr relation : contract) {
    if (relation.isConstant() ||
        relation.getPredicate() == ShapePredicate::eq ||
        relation.getPredicate() == ShapePredicate::divides)
      continue;
    Size small = {relation.getLhsParam(), relation.getLhsDim()};
    Size large = {relation.getRhsParam(), relation.getRhsDim()};
    if (relation.getPredicate() == ShapePredicate::ge)
      std::swap(small, large);
    Bounds smallBounds = bounds.lookup(equal.getLeaderValue(small));
    Bounds largeBounds = bounds.lookup(equal.getLeaderValue(large));
    if (smallBounds.lower && largeBounds.upper &&
        smallBounds.lower->value > largeBounds.upper->value)
      return op.emitOpError("requires ")
             << text(relation) << " cannot hold: " << name(small)
             << " is at least " << smallBounds.lower->value << " ("
             << smallBounds.lower->source << ") and " << name(large)
             << " at most " << largeBounds.upper->value << " ("
             << largeBounds.upper->source << ")";
  }
  return success();
}

LogicalResult mlir::tile::detail::verifyKernelContract(KernelOp op) {
  return ContractVerifier(op).verify();
}
