//===- TileOps.cpp - Tile dialect operations ------------------------------===//
//
// Custom assembly formats, builders and verifiers of the tile operations.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <map>

using namespace mlir;
using namespace mlir::tile;

/// Prints a shape as `128x32`.
static std::string formatShape(ArrayRef<int64_t> shape) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(
      shape,
      [&](int64_t dim) {
        if (ShapedType::isDynamic(dim))
          os << '?';
        else
          os << dim;
      },
      [&] { os << 'x'; });
  return text;
}

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

void KernelOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                     ArrayRef<Type> paramTypes,
                     ArrayRef<std::string> paramNames,
                     ArrayRef<GridExtentAttr> grid, int64_t threads) {
  state.addAttribute(getSymNameAttrName(state.name),
                     builder.getStringAttr(name));
  state.addAttribute(getFunctionTypeAttrName(state.name),
                     TypeAttr::get(builder.getFunctionType(paramTypes, {})));
  SmallVector<StringRef> names(paramNames.begin(), paramNames.end());
  state.addAttribute(getParamNamesAttrName(state.name),
                     builder.getStrArrayAttr(names));
  SmallVector<Attribute> extents(grid.begin(), grid.end());
  state.addAttribute(getGridAttrName(state.name),
                     builder.getArrayAttr(extents));
  state.addAttribute(getThreadsAttrName(state.name),
                     builder.getI64IntegerAttr(threads));
  Region *body = state.addRegion();
  Block *entry = new Block();
  body->push_back(entry);
  for (Type type : paramTypes)
    entry->addArgument(type, state.location);
  for (size_t i = 0; i < grid.size(); ++i)
    entry->addArgument(builder.getIndexType(), state.location);
}

ParseResult KernelOp::parse(OpAsmParser &parser, OperationState &result) {
  MLIRContext *ctx = parser.getContext();
  Builder builder(ctx);
  StringAttr name;
  if (parser.parseSymbolName(name, getSymNameAttrName(result.name),
                             result.attributes))
    return failure();

  SmallVector<OpAsmParser::Argument> params;
  if (parser.parseArgumentList(params, OpAsmParser::Delimiter::Paren,
                               /*allowType=*/true))
    return failure();

  SmallVector<OpAsmParser::Argument> blockIndices;
  if (parser.parseKeyword("grid") ||
      parser.parseArgumentList(blockIndices, OpAsmParser::Delimiter::Paren) ||
      parser.parseEqual())
    return failure();

  // `%A[1]`: dimension 1 of parameter %A, as (parameter index, dim); `what`
  // names the clause in the error for an unknown parameter.
  auto parseParamDim = [&](StringRef what, int64_t &paramIndex,
                           int64_t &dim) -> ParseResult {
    SMLoc refLoc = parser.getCurrentLocation();
    OpAsmParser::UnresolvedOperand ref;
    if (parser.parseOperand(ref) || parser.parseLSquare() ||
        parser.parseInteger(dim) || parser.parseRSquare())
      return failure();
    auto *param = llvm::find_if(params, [&](const OpAsmParser::Argument &a) {
      return a.ssaName.name == ref.name;
    });
    if (param == params.end())
      return parser.emitError(refLoc) << what << " refers to '" << ref.name
                                      << "', which is not a kernel parameter";
    paramIndex = param - params.begin();
    return success();
  };

  // Grid extents: `16`, `%A[0]` or `ceildiv(%A[0], 128)`.
  SmallVector<Attribute> grid;
  auto parseExtent = [&]() -> ParseResult {
    int64_t constant;
    OptionalParseResult isInt = parser.parseOptionalInteger(constant);
    if (isInt.has_value()) {
      if (failed(*isInt))
        return failure();
      grid.push_back(GridExtentAttr::get(ctx, -1, 0, constant));
      return success();
    }
    bool isCeilDiv = succeeded(parser.parseOptionalKeyword("ceildiv"));
    if (isCeilDiv && parser.parseLParen())
      return failure();
    int64_t param = 0, dim = 0, divisor = 1;
    if (parseParamDim("grid extent", param, dim))
      return failure();
    if (isCeilDiv && (parser.parseComma() || parser.parseInteger(divisor) ||
                      parser.parseRParen()))
      return failure();
    grid.push_back(GridExtentAttr::get(ctx, param, dim, divisor));
    return success();
  };
  int64_t threads = 0;
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square,
                                     parseExtent) ||
      parser.parseKeyword("threads") || parser.parseLParen() ||
      parser.parseInteger(threads) || parser.parseRParen())
    return failure();

  // Divisibility promises: `divisible(%A[1] by 8, ...)`.
  SmallVector<Attribute> divisibility;
  auto parsePromise = [&]() -> ParseResult {
    int64_t param = 0, dim = 0, divisor = 1;
    if (parseParamDim("divisible", param, dim) || parser.parseKeyword("by") ||
        parser.parseInteger(divisor))
      return failure();
    divisibility.push_back(DivisibilityAttr::get(ctx, param, dim, divisor));
    return success();
  };
  if (succeeded(parser.parseOptionalKeyword("divisible"))) {
    if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Paren,
                                       parsePromise))
      return failure();
    result.addAttribute(getDivisibilityAttrName(result.name),
                        builder.getArrayAttr(divisibility));
  }

  // The launch contract: `requires(%A[1] == %B[0], %X[1] <= 4096, ...)`.
  SmallVector<Attribute> requirements;
  auto parseRelation = [&]() -> ParseResult {
    int64_t lhsParam = 0, lhsDim = 0;
    if (parseParamDim("requires", lhsParam, lhsDim))
      return failure();
    // `==`, `<=` or `>=`: two tokens for the lexer, written together.
    SMLoc opLoc = parser.getCurrentLocation();
    ShapePredicate predicate = ShapePredicate::eq;
    if (succeeded(parser.parseOptionalLess()))
      predicate = ShapePredicate::le;
    else if (succeeded(parser.parseOptionalGreater()))
      predicate = ShapePredicate::ge;
    else if (failed(parser.parseOptionalEqual()))
      return parser.emitError(opLoc, "expected '==', '<=' or '>='");
    if (parser.getCurrentLocation().getPointer() != opLoc.getPointer() + 1 ||
        failed(parser.parseOptionalEqual()))
      return parser.emitError(opLoc, "expected '==', '<=' or '>='");
    int64_t rhsParam = -1, rhsDim = 0, value = 0;
    OptionalParseResult isInt = parser.parseOptionalInteger(value);
    if (isInt.has_value()) {
      if (failed(*isInt))
        return failure();
    } else if (parseParamDim("requires", rhsParam, rhsDim)) {
      return failure();
    }
    requirements.push_back(ShapeRelationAttr::get(
        ctx, lhsParam, lhsDim, predicate, rhsParam, rhsDim, value));
    return success();
  };
  if (succeeded(parser.parseOptionalKeyword("requires"))) {
    if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Paren,
                                       parseRelation))
      return failure();
    if (!requirements.empty())
      result.addAttribute(getRequirementsAttrName(result.name),
                          builder.getArrayAttr(requirements));
  }
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();

  SmallVector<Type> paramTypes;
  SmallVector<StringRef> paramNames;
  for (auto [i, param] : llvm::enumerate(params)) {
    paramTypes.push_back(param.type);
    StringRef ssaName = param.ssaName.name.drop_front(); // drop the '%'
    paramNames.push_back(
        !ssaName.empty() && !llvm::isDigit(ssaName.front())
            ? ssaName
            : builder.getStringAttr("arg" + std::to_string(i)).getValue());
  }
  result.addAttribute(getFunctionTypeAttrName(result.name),
                      TypeAttr::get(builder.getFunctionType(paramTypes, {})));
  result.addAttribute(getParamNamesAttrName(result.name),
                      builder.getStrArrayAttr(paramNames));
  result.addAttribute(getGridAttrName(result.name), builder.getArrayAttr(grid));
  result.addAttribute(getThreadsAttrName(result.name),
                      builder.getI64IntegerAttr(threads));

  SmallVector<OpAsmParser::Argument> entryArgs(params);
  for (OpAsmParser::Argument &index : blockIndices) {
    index.type = builder.getIndexType();
    entryArgs.push_back(index);
  }
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, entryArgs))
    return failure();
  if (body->empty())
    return parser.emitError(parser.getCurrentLocation(),
                            "expected a kernel body");
  return success();
}

void KernelOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printSymbolName(getSymName());
  p << '(';
  for (unsigned i = 0, e = getNumParams(); i < e; ++i) {
    if (i)
      p << ", ";
    p.printRegionArgument(getParam(i));
  }
  p << ") grid(";
  for (unsigned d = 0, e = getGridRank(); d < e; ++d) {
    if (d)
      p << ", ";
    p.printOperand(getBlockIndex(d));
  }
  p << ") = [";
  llvm::interleaveComma(getGrid().getAsRange<GridExtentAttr>(), p,
                        [&](GridExtentAttr extent) {
                          if (extent.isConstant()) {
                            p << extent.getDivisor();
                            return;
                          }
                          bool isCeilDiv = extent.getDivisor() != 1;
                          if (isCeilDiv)
                            p << "ceildiv(";
                          p.printOperand(getParam(extent.getParam()));
                          p << '[' << extent.getDim() << ']';
                          if (isCeilDiv)
                            p << ", " << extent.getDivisor() << ')';
                        });
  p << "] threads(" << getThreads() << ')';
  if (std::optional<ArrayAttr> promises = getDivisibility()) {
    p << " divisible(";
    llvm::interleaveComma(promises->getAsRange<DivisibilityAttr>(), p,
                          [&](DivisibilityAttr promise) {
                            p.printOperand(getParam(promise.getParam()));
                            p << '[' << promise.getDim() << "] by "
                              << promise.getDivisor();
                          });
    p << ')';
  }
  if (SmallVector<ShapeRelationAttr> contract = getContract();
      !contract.empty()) {
    p << " requires(";
    llvm::interleaveComma(contract, p, [&](ShapeRelationAttr relation) {
      p.printOperand(getParam(relation.getLhsParam()));
      p << '[' << relation.getLhsDim() << "] " << relation.getPredicateSymbol()
        << ' ';
      if (relation.isConstant()) {
        p << relation.getValue();
        return;
      }
      p.printOperand(getParam(relation.getRhsParam()));
      p << '[' << relation.getRhsDim() << ']';
    });
    p << ')';
  }
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(),
      {getSymNameAttrName(), getFunctionTypeAttrName(), getParamNamesAttrName(),
       getGridAttrName(), getThreadsAttrName(), getDivisibilityAttrName(),
       getRequirementsAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/false);
}

void KernelOp::getAsmBlockArgumentNames(Region &region,
                                        OpAsmSetValueNameFn setNameFn) {
  if (region.empty())
    return;
  Block &entry = region.front();
  // Also called to print invalid ops: never trust the attribute sizes.
  unsigned named =
      std::min<unsigned>(getParamNames().size(), entry.getNumArguments());
  for (unsigned i = 0, e = std::min(getNumParams(), named); i < e; ++i)
    setNameFn(entry.getArgument(i), getParamName(i));
  static const char *const blockIndexNames[] = {"bx", "by", "bz"};
  for (unsigned d = 0, e = getGridRank(); d < e && d < 3; ++d)
    if (getNumParams() + d < entry.getNumArguments())
      setNameFn(getBlockIndex(d), blockIndexNames[d]);
}

/// Kernel names become PTX identifiers (getPTXIdentifierProblem), and must
/// not be the names PTX, the printf lowering and libdevice define.
static LogicalResult verifyKernelName(KernelOp op) {
  StringRef name = op.getSymName();
  if (std::optional<std::string> problem = getPTXIdentifierProblem(name))
    return op.emitOpError("expected the kernel name to be a PTX identifier "
                          "(letters, digits, '_' and '$', not starting with "
                          "a digit), but ")
           << *problem;
  if (name.starts_with("__") || name == "vprintf" || name == "WARP_SZ")
    return op.emitOpError("expected a kernel name that is not reserved, but '")
           << name
           << "' is (WARP_SZ, vprintf and names starting with '__' belong "
              "to PTX, the printf lowering and libdevice)";
  return success();
}

/// Parameter names, and the names the manifest gives the hidden size
/// parameters ("A.dim1"), are unique: the runtime finds arguments by them.
static LogicalResult verifyParamNames(KernelOp op) {
  FunctionType type = op.getFunctionType();
  llvm::StringMap<std::string> owners;
  auto claim = [&](StringRef name, std::string owner) -> LogicalResult {
    auto [it, inserted] = owners.try_emplace(name, owner);
    if (inserted)
      return success();
    return op.emitOpError("expected unique parameter names, but '")
           << name << "' names " << it->second << " and " << owner;
  };
  for (unsigned i = 0, e = type.getNumInputs(); i < e; ++i) {
    StringRef name = op.getParamName(i);
    if (name.empty())
      return op.emitOpError("expected a name for parameter #")
             << i << ", but got ''";
    if (failed(claim(name, "parameter #" + std::to_string(i))))
      return failure();
  }
  for (unsigned i = 0, e = type.getNumInputs(); i < e; ++i)
    if (auto buffer = dyn_cast<BufferType>(type.getInput(i)))
      for (int64_t d = 0; d < buffer.getRank(); ++d)
        if (buffer.isDynamicDim(d) &&
            failed(claim(KernelOp::getDimParamName(op.getParamName(i), d),
                         "the size parameter of dimension " +
                             std::to_string(d) + " of '" +
                             op.getParamName(i).str() + "'")))
          return failure();
  return success();
}

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
  bool holds = relation.getPredicate() == ShapePredicate::eq ? *left == *right
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
  for (ShapeRelationAttr relation : contract) {
    if (relation.isConstant() || relation.getPredicate() == ShapePredicate::eq)
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

LogicalResult KernelOp::verify() {
  FunctionType type = getFunctionType();
  if (type.getNumResults() != 0)
    return emitOpError("expected no results, but the function type has ")
           << type.getNumResults();
  if (getParamNames().size() != type.getNumInputs())
    return emitOpError("expected ")
           << type.getNumInputs() << " parameter names, but got "
           << getParamNames().size();
  if (failed(verifyKernelName(*this)) || failed(verifyParamNames(*this)))
    return failure();
  for (unsigned i = 0, e = type.getNumInputs(); i < e; ++i) {
    Type paramType = type.getInput(i);
    if (auto buffer = dyn_cast<BufferType>(paramType)) {
      // A type built in C++ (BufferType::get) was never verified.
      if (failed(verifyBufferType(*this, buffer)))
        return failure();
      if (!buffer.isGlobal())
        return emitOpError("parameter '")
               << getParamName(i)
               << "' must be a global buffer or a scalar, but got a "
               << stringifyMemoryScope(buffer.getScope()) << " buffer";
      continue;
    }
    if (!isSupportedScalarParamType(paramType))
      return emitOpError("parameter '")
             << getParamName(i)
             << "' must be a global buffer or a scalar (f32, f64, i32, i64), "
                "but got "
             << paramType;
  }

  int64_t threads = getThreads();
  if (threads < 32 || threads > 1024 || threads % 32 != 0)
    return emitOpError("expected threads to be a multiple of 32 from 32 to "
                       "1024, but got ")
           << threads;

  if (std::optional<int64_t> panel = getRasterPanel()) {
    if (*panel < 1)
      return emitOpError("expected raster_panel to be at least 1, but got ")
             << *panel;
    if (getGrid().size() < 2)
      return emitOpError("expected a grid of 2 or 3 dimensions with "
                         "raster_panel, but got ")
             << getGrid().size();
  }
  if (getGrid().empty() || getGrid().size() > 3)
    return emitOpError("expected a grid of 1 to 3 dimensions, but got ")
           << getGrid().size();
  for (auto [d, extent] :
       llvm::enumerate(getGrid().getAsRange<GridExtentAttr>())) {
    if (extent.isConstant()) {
      if (extent.getDivisor() < 1)
        return emitOpError("expected grid dimension ")
               << d << " to be at least 1, but got " << extent.getDivisor();
      continue;
    }
    if (extent.getParam() >= type.getNumInputs())
      return emitOpError("grid dimension ")
             << d << " refers to parameter #" << extent.getParam()
             << ", but the kernel has " << type.getNumInputs();
    auto buffer = dyn_cast<BufferType>(type.getInput(extent.getParam()));
    if (!buffer)
      return emitOpError("grid dimension ")
             << d << " must refer to a buffer parameter, but '"
             << getParamName(extent.getParam()) << "' is a scalar";
    if (extent.getDim() < 0 || extent.getDim() >= buffer.getRank())
      return emitOpError("grid dimension ")
             << d << " refers to dimension " << extent.getDim() << " of '"
             << getParamName(extent.getParam()) << "', which has rank "
             << buffer.getRank();
    if (extent.getDivisor() < 1)
      return emitOpError("expected the divisor of grid dimension ")
             << d << " to be at least 1, but got " << extent.getDivisor();
  }

  if (std::optional<ArrayAttr> promises = getDivisibility()) {
    llvm::SmallDenseSet<std::pair<int64_t, int64_t>> seen;
    for (Attribute attr : *promises) {
      auto promise = dyn_cast<DivisibilityAttr>(attr);
      if (!promise)
        return emitOpError("expected divisibility to hold "
                           "#tile.divisibility attributes, but got ")
               << attr;
      int64_t param = promise.getParam(), dim = promise.getDim();
      if (param < 0 || param >= type.getNumInputs())
        return emitOpError("divisible refers to parameter #")
               << param << ", but the kernel has " << type.getNumInputs();
      auto buffer = dyn_cast<BufferType>(type.getInput(param));
      if (!buffer)
        return emitOpError("divisible must refer to a buffer parameter, but '")
               << getParamName(param) << "' is a scalar";
      if (dim < 0 || dim >= buffer.getRank())
        return emitOpError("divisible refers to dimension ")
               << dim << " of '" << getParamName(param) << "', which has rank "
               << buffer.getRank();
      if (!buffer.isDynamicDim(dim))
        return emitOpError("divisible refers to dimension ")
               << dim << " of '" << getParamName(param)
               << "', whose size is static (" << buffer.getDimSize(dim)
               << "): there is nothing to promise";
      if (promise.getDivisor() < 2)
        return emitOpError("expected the divisor of '")
               << getParamName(param) << "[" << dim
               << "]' to be at least 2, but got " << promise.getDivisor();
      if (!seen.insert({param, dim}).second)
        return emitOpError("divisible names '")
               << getParamName(param) << "[" << dim << "]' twice";
    }
  }
  return ContractVerifier(*this).verify();
}

SmallVector<ShapeRelationAttr> KernelOp::getContract() {
  SmallVector<ShapeRelationAttr> contract;
  if (std::optional<ArrayAttr> relations = getRequirements())
    llvm::append_range(contract, relations->getAsRange<ShapeRelationAttr>());
  return contract;
}

std::string KernelOp::getDimParamName(StringRef param, int64_t dim) {
  return (Twine(param) + ".dim" + Twine(dim)).str();
}

int64_t KernelOp::getDivisor(unsigned param, unsigned dim) {
  if (std::optional<ArrayAttr> promises = getDivisibility())
    for (auto promise : promises->getAsRange<DivisibilityAttr>())
      if (promise.getParam() == param && promise.getDim() == dim)
        return promise.getDivisor();
  return 1;
}

LogicalResult KernelOp::verifyRegions() {
  Block &entry = getEntryBlock();
  unsigned expected = getNumParams() + getGridRank();
  if (entry.getNumArguments() != expected)
    return emitOpError("expected ")
           << expected << " entry block arguments (" << getNumParams()
           << " parameters and " << getGridRank() << " block indices), but got "
           << entry.getNumArguments();
  for (unsigned i = 0; i < getNumParams(); ++i)
    if (entry.getArgument(i).getType() != getFunctionType().getInput(i))
      return emitOpError("entry block argument #")
             << i << " has type " << entry.getArgument(i).getType()
             << ", but the parameter type is " << getFunctionType().getInput(i);
  for (unsigned d = 0; d < getGridRank(); ++d)
    if (!getBlockIndex(d).getType().isIndex())
      return emitOpError("expected block index #")
             << d << " to be of type index, but got "
             << getBlockIndex(d).getType();

  // Row values (tile.reduce results, and the fragments computed with them
  // in element loops of their shape) are replicated over the threads that
  // hold the rows, not spread.
  llvm::SmallPtrSet<Value, 8> rowValues;
  walk([&](ReduceOp reduce) { rowValues.insert(reduce.getDst()); });
  for (bool grew = true; grew;) {
    grew = false;
    walk([&](ParallelOp loop) {
      SmallVector<Value> operands = getElementwiseOperands(loop);
      if (llvm::any_of(operands,
                       [&](Value v) { return rowValues.contains(v); }))
        for (Value operand : operands)
          grew |= rowValues.insert(operand).second;
    });
  }
  // Every other fragment must be spread evenly over the block's threads.
  int64_t threads = getThreads();
  WalkResult result = walk([&](AllocFragmentOp alloc) {
    BufferType type = alloc.getResult().getType();
    int64_t numElements = type.getNumElements();
    if (isa_and_nonnull<SliceLayoutAttr>(type.getLayout()) ||
        rowValues.contains(alloc.getResult()))
      return WalkResult::advance();
    // (A #tile.wgmma accumulator spreads over its compute warpgroups; its
    // own rule below says which thread counts fit.)
    if (!isa_and_nonnull<WgmmaLayoutAttr>(type.getLayout()) &&
        numElements % threads != 0) {
      alloc.emitOpError("expected the fragment's ")
          << numElements << " elements to be a multiple of the kernel's "
          << threads << " threads";
      return WalkResult::interrupt();
    }
    // The layout's rules for this thread count (its type verified the
    // others).
    if (auto layout =
            dyn_cast_or_null<FragmentLayoutAttrInterface>(type.getLayout());
        layout && failed(layout.verifyShape([&] { return alloc.emitOpError(); },
                                            type.getShape(),
                                            type.getElementType(), threads)))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// DimOp
//===----------------------------------------------------------------------===//

LogicalResult DimOp::verify() {
  auto type = cast<BufferType>(getSource().getType());
  // getDim() is unsigned; read the attribute as signed so that a negative
  // dimension is reported as such.
  int64_t dim = getDimAttr().getInt();
  if (dim < 0 || dim >= type.getRank())
    return emitOpError("expected a dimension from 0 to ")
           << type.getRank() - 1 << ", but got " << dim;
  return success();
}

LogicalResult SubviewOp::verify() {
  auto source = cast<BufferType>(getSource().getType());
  auto result = cast<BufferType>(getResult().getType());
  if (failed(verifyBufferType(*this, result)))
    return failure();
  if (!source.isGlobal() || !result.isGlobal())
    return emitOpError("expected a global source and result, but got a ")
           << stringifyMemoryScope(source.getScope()) << " source and a "
           << stringifyMemoryScope(result.getScope()) << " result";
  int64_t fixed = getIndices().size();
  if (fixed < 1 || fixed >= source.getRank())
    return emitOpError("expected 1 to ")
           << source.getRank() - 1 << " leading indices of the rank-"
           << source.getRank() << " source, but got " << fixed;
  ArrayRef<int64_t> trailing = source.getShape().drop_front(fixed);
  if (result.getShape() != trailing ||
      result.getElementType() != source.getElementType())
    return emitOpError("expected a result of shape ")
           << formatShape(trailing) << " and element type "
           << source.getElementType() << " (the source's trailing "
           << "dimensions), but got " << formatShape(result.getShape())
           << " and " << result.getElementType();
  return success();
}

OpFoldResult DimOp::fold(FoldAdaptor) {
  auto type = cast<BufferType>(getSource().getType());
  int64_t dim = getDimAttr().getInt();
  if (dim < 0 || dim >= type.getRank() || type.isDynamicDim(dim))
    return {};
  return IntegerAttr::get(IndexType::get(getContext()), type.getDimSize(dim));
}

//===----------------------------------------------------------------------===//
// Allocation
//===----------------------------------------------------------------------===//

static LogicalResult verifyAllocation(Operation *op, BufferType type,
                                      MemoryScope expected) {
  if (failed(verifyBufferType(op, type)))
    return failure();
  if (type.getScope() != expected)
    return op->emitOpError("expected a ")
           << stringifyMemoryScope(expected) << " buffer, but got a "
           << stringifyMemoryScope(type.getScope()) << " one";
  if (!op->getParentOfType<KernelOp>())
    return op->emitOpError("expected to be inside a tile.kernel");
  return success();
}

LogicalResult AllocSharedOp::verify() {
  auto type = cast<BufferType>(getResult().getType());
  if (failed(verifyAllocation(*this, type, MemoryScope::Shared)))
    return failure();
  IntegerAttr offsetAttr = getOffsetAttr();
  if (!offsetAttr)
    return success();
  std::optional<int64_t> offset = offsetAttr.getInt();
  // The lowering places the tile at base + offset of memory aligned to
  // kSharedAlignment; a tile must start aligned and end inside a block's
  // shared memory.
  if (*offset < 0 || *offset % kSharedAlignment != 0)
    return emitOpError("expected an offset that is a non-negative multiple "
                       "of ")
           << kSharedAlignment << " bytes, but got " << *offset;
  int64_t bytes =
      type.getNumElements() * getElementByteWidth(type.getElementType());
  if (*offset > kMaxSharedMemoryBytes - bytes)
    return emitOpError("expected the tile to end within ")
           << kMaxSharedMemoryBytes
           << " bytes of shared memory, but its offset " << *offset
           << " and its " << bytes << " bytes end at " << *offset + bytes;
  return success();
}

LogicalResult AllocFragmentOp::verify() {
  auto type = cast<BufferType>(getResult().getType());
  if (failed(verifyAllocation(*this, type, MemoryScope::Fragment)))
    return failure();
  // A distributed fragment's share of one thread must fit its registers
  // (a #tile.slice holds row slots, fewer than its parent's registers).
  if (isa_and_nonnull<SliceLayoutAttr>(type.getLayout()))
    return success();
  int64_t threads = (*this)->getParentOfType<KernelOp>().getThreads();
  if (threads < 1)
    return success(); // The kernel reports its thread count.
  int64_t perThread = llvm::divideCeil(type.getNumElements(), threads);
  int64_t registers = llvm::divideCeil(
      perThread * getElementByteWidth(type.getElementType()), int64_t(4));
  if (registers > kMaxRegistersPerThread)
    return emitOpError("expected a fragment of at most ")
           << kMaxRegistersPerThread << " 32-bit registers per thread, but its "
           << type.getNumElements() << " elements over the kernel's " << threads
           << " threads take " << registers;
  return success();
}

//===----------------------------------------------------------------------===//
// CopyOp
//===----------------------------------------------------------------------===//

ArrayRef<int64_t> CopyOp::getTileShape() {
  BufferType dest = getDestType();
  return dest.isGlobal() ? getSourceType().getShape() : dest.getShape();
}

LogicalResult CopyOp::verify() {
  BufferType source = getSourceType(), dest = getDestType();
  if (source.isGlobal() && dest.isGlobal())
    return emitOpError("expected at most one global operand, but source and "
                       "dest are both global; stage the data through a "
                       "shared or fragment tile");
  if (source.getRank() != dest.getRank())
    return emitOpError("expected source and dest of the same rank, but got ")
           << source.getRank() << " and " << dest.getRank();

  auto checkOffsets = [&](StringRef which, BufferType type,
                          ValueRange offsets) -> LogicalResult {
    if (offsets.empty())
      return success();
    if (!type.isGlobal())
      return emitOpError("expected offsets only on a global operand, but the ")
             << which << " is a " << stringifyMemoryScope(type.getScope())
             << " tile";
    if (static_cast<int64_t>(offsets.size()) != type.getRank())
      return emitOpError("expected ") << type.getRank() << " " << which
                                      << " offsets, but got " << offsets.size();
    return success();
  };
  if (failed(checkOffsets("source", source, getSourceOffsets())) ||
      failed(checkOffsets("dest", dest, getDestOffsets())))
    return failure();

  Type sourceElement = source.getElementType();
  Type destElement = dest.getElementType();
  if (sourceElement != destElement &&
      !(isa<FloatType>(sourceElement) && isa<FloatType>(destElement)))
    return emitOpError("expected the same element type, or two floating-point "
                       "types, but got ")
           << sourceElement << " and " << destElement;

  if (getAsync() &&
      (!source.isGlobal() || !dest.isShared() || sourceElement != destElement))
    return emitOpError("expected an async copy from a global buffer to a "
                       "shared tile of the same element type");

  // A tile operand without offsets is the whole tile.
  ArrayRef<int64_t> tileShape = getTileShape();
  if (!source.isGlobal() && source.getShape() != tileShape)
    return emitOpError("expected the source shape ")
           << formatShape(source.getShape()) << " to match the dest tile "
           << formatShape(tileShape);
  // The code a global copy unrolls per thread: its elements, each a masked
  // access at the tensor's edge.
  auto kernel = (*this)->getParentOfType<KernelOp>();
  if (kernel && kernel.getThreads() >= 1 &&
      (source.isGlobal() || dest.isGlobal())) {
    int64_t perThread = llvm::divideCeil(ShapedType::getNumElements(tileShape),
                                         kernel.getThreads());
    if (perThread > kMaxUnrolledPerThread)
      return emitOpError("expected at most ")
             << kMaxUnrolledPerThread
             << " elements per thread in a copy to or from global memory, "
                "but the "
             << formatShape(tileShape) << " tile over the kernel's "
             << kernel.getThreads() << " threads is " << perThread;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// FillOp, ClearOp
//===----------------------------------------------------------------------===//

static LogicalResult verifyTileDest(Operation *op, BufferType type) {
  if (type.isGlobal())
    return op->emitOpError("expected a shared or fragment tile, but got a "
                           "global buffer");
  return success();
}

LogicalResult FillOp::verify() {
  auto type = cast<BufferType>(getDest().getType());
  if (failed(verifyTileDest(*this, type)))
    return failure();
  if (getValue().getType() != type.getElementType())
    return emitOpError("expected a value of the element type ")
           << type.getElementType() << ", but got " << getValue().getType();
  return success();
}

LogicalResult ClearOp::verify() {
  return verifyTileDest(*this, cast<BufferType>(getDest().getType()));
}

//===----------------------------------------------------------------------===//
// StageOp
//===----------------------------------------------------------------------===//

LogicalResult StageOp::verify() {
  auto source = cast<BufferType>(getSource().getType());
  auto result = cast<BufferType>(getResult().getType());
  if (failed(verifyBufferType(*this, result)))
    return failure();
  if (!source.isShared() || !result.isShared())
    return emitOpError("expected shared tiles, but got a ")
           << stringifyMemoryScope(source.getScope()) << " source and a "
           << stringifyMemoryScope(result.getScope()) << " result";
  if (source.getRank() < 2 ||
      source.getShape().drop_front() != result.getShape() ||
      source.getElementType() != result.getElementType() ||
      source.getLayout() != result.getLayout())
    return emitOpError("expected the result to be the source without its "
                       "leading (stage) dimension and with its layout, but "
                       "got ")
           << formatShape(source.getShape()) << " -> "
           << formatShape(result.getShape());
  // A constant stage must exist (a computed one is the pipeline's, mod S).
  APInt stage;
  if (matchPattern(getIndex(), m_ConstantInt(&stage)) &&
      (stage.isNegative() || stage.uge(source.getDimSize(0))))
    return emitOpError("expected a stage from 0 to ")
           << source.getDimSize(0) - 1 << ", but got " << stage.getSExtValue();
  // Stages are filled by async copies only: a read of a stage then needs no
  // barrier after it, since the stage is refilled after the next
  // tile.async_wait, which synchronizes the block.
  for (OpOperand &use : getResult().getUses()) {
    Operation *user = use.getOwner();
    auto copy = dyn_cast<CopyOp>(user);
    bool writes = (copy && copy.getDest() == getResult()) ||
                  isa<FillOp, ClearOp, StoreOp>(user);
    if (writes && !(copy && copy.getAsync()))
      return user->emitOpError("writes a pipeline stage; stages are filled "
                               "by async copies only");
  }
  return success();
}

//===----------------------------------------------------------------------===//
// GemmOp
//===----------------------------------------------------------------------===//

/// The operand checks shared by tile.gemm and tile.gemm_prefetch.
static LogicalResult verifyGemmOperands(Operation *op, BufferType a,
                                        BufferType b, BufferType c,
                                        bool transposeA, bool transposeB,
                                        bool registerA = false) {
  if (registerA && a.isFragment()) {
    if (transposeA)
      return op->emitOpError("expected an A fragment without transpose_a");
    // Each lane holds the A operand of its rows only when the warps split
    // the rows alone, the same way for A and C.
    auto aLayout = dyn_cast_or_null<MmaLayoutAttr>(a.getLayout());
    auto cLayout = dyn_cast_or_null<MmaLayoutAttr>(c.getLayout());
    if ((a.getLayout() && (!aLayout || aLayout.getWarpsN() != 1)) ||
        (aLayout && cLayout && aLayout != cLayout))
      return op->emitOpError("expected an A fragment with the accumulator's "
                             "#tile.mma layout of one warp column, but got ")
             << a.getLayout() << " and " << c.getLayout();
  } else if (!a.isShared() || !b.isShared()) {
    return op->emitOpError(registerA ? "expected A in shared memory or a "
                                       "fragment and B in shared memory, but "
                                       "got a "
                                     : "expected A and B in shared memory, "
                                       "but got a ")
           << stringifyMemoryScope(a.getScope()) << " A and a "
           << stringifyMemoryScope(b.getScope()) << " B";
  }
  if (!b.isShared())
    return op->emitOpError("expected B in shared memory, but got a ")
           << stringifyMemoryScope(b.getScope()) << " B";
  if (!c.isFragment())
    return op->emitOpError(
               "expected the accumulator C to be a fragment, but got a ")
           << stringifyMemoryScope(c.getScope()) << " buffer";
  if (a.getRank() != 2 || b.getRank() != 2 || c.getRank() != 2)
    return op->emitOpError("expected rank-2 A, B and C");
  if (!(a.getElementType().isF16() || a.getElementType().isBF16()) ||
      b.getElementType() != a.getElementType())
    return op->emitOpError("expected f16 or bf16 A and B of one type, but got ")
           << a.getElementType() << " and " << b.getElementType();
  if (!c.getElementType().isF32())
    return op->emitOpError("expected an f32 accumulator, but got ")
           << c.getElementType();
  int64_t m = transposeA ? a.getDimSize(1) : a.getDimSize(0);
  int64_t k = transposeA ? a.getDimSize(0) : a.getDimSize(1);
  int64_t bk = transposeB ? b.getDimSize(1) : b.getDimSize(0);
  int64_t n = transposeB ? b.getDimSize(0) : b.getDimSize(1);
  if (bk != k)
    return op->emitOpError("expected B to have K = ")
           << k << " (the K of A), but got " << bk
           << (transposeB ? " columns (transpose_b)" : " rows");
  if (c.getDimSize(0) != m || c.getDimSize(1) != n)
    return op->emitOpError("expected C of shape ")
           << m << "x" << n << ", but got " << formatShape(c.getShape());
  if (m % 16 != 0 || n % 8 != 0 || k % 16 != 0)
    return op->emitOpError("expected M, N, K multiples of 16, 8, 16 (one "
                           "m16n8k16 MMA), but got ")
           << m << ", " << n << ", " << k;
  if (c.getLayout() && !isa<MmaLayoutAttr>(c.getLayout()))
    return op->emitOpError("expected the accumulator to have a #tile.mma "
                           "layout, but got ")
           << c.getLayout();
  return success();
}

/// The count of a cp.async.wait_group: at most as many groups as a pipeline
/// has in flight.
static LogicalResult verifyPendingGroups(Operation *op, int64_t pending) {
  if (pending > kMaxPipelineStages)
    return op->emitOpError("expected at most ")
           << kMaxPipelineStages
           << " pending async copy groups (the deepest pipeline), but got "
           << pending;
  return success();
}

// (Inside a tile.parallel, whose iterations the threads share, the loop's
// verifier refuses it: its body holds only element accesses.)
LogicalResult BarrierOp::verify() {
  if (!(*this)->getParentOfType<KernelOp>())
    return emitOpError("expected to be inside a tile.kernel");
  return success();
}

LogicalResult AsyncWaitOp::verify() {
  return verifyPendingGroups(*this, getPending());
}

/// Whether `op` loads the prefetch registers of accumulator `acc`.
static bool prefetchesFor(Operation *op, Value acc) {
  if (auto prefetch = dyn_cast<GemmPrefetchOp>(op))
    return prefetch.getC() == acc;
  auto gemm = dyn_cast<GemmOp>(op);
  return gemm && gemm.getC() == acc && gemm.getNextA();
}

/// The last op (program order) in or under `op` that prefetches for `acc`.
static Operation *lastPrefetchIn(Operation *op, Value acc) {
  Operation *last = nullptr;
  op->walk([&](Operation *nested) {
    if (prefetchesFor(nested, acc))
      last = nested;
  });
  return last;
}

/// "transpose_a, transpose_b", ..., "no transpose".
static std::string transposeFlags(bool a, bool b) {
  return a && b ? "transpose_a, transpose_b"
         : a    ? "transpose_a"
         : b    ? "transpose_b"
                : "no transpose";
}

/// A `prefetched` gemm reads registers that the last prefetch on its
/// accumulator loaded: on the way to it (its block, then the blocks around
/// it), and, for each loop it is in, at the end of the loop's previous
/// iteration. Each of those must exist and match the gemm.
static LogicalResult verifyPrefetchSources(GemmOp gemm) {
  Value acc = gemm.getC();
  SmallVector<Operation *> sources;
  bool reached = false;
  for (Operation *at = gemm; at && !isa<KernelOp>(at); at = at->getParentOp()) {
    Operation *before = nullptr;
    for (Operation *prev = at->getPrevNode(); prev && !before;
         prev = prev->getPrevNode())
      before = lastPrefetchIn(prev, acc);
    if (before) {
      sources.push_back(before);
      reached = true;
      break;
    }
    // Nothing before it in this block: a loop's body is also entered from
    // its previous iteration.
    Operation *parent = at->getParentOp();
    if (!isa_and_nonnull<LoopLikeOpInterface>(parent))
      continue;
    Operation *last = nullptr;
    for (Operation &op : *at->getBlock())
      if (Operation *found = lastPrefetchIn(&op, acc))
        last = found;
    if (!last) {
      InFlightDiagnostic diag = gemm.emitOpError(
          "is `prefetched` in a loop whose body loads no prefetch on its "
          "accumulator for the next iteration (`then wait N prefetch`)");
      diag.attachNote(parent->getLoc()) << "the loop";
      return diag;
    }
    sources.push_back(last);
  }
  if (!reached)
    return gemm.emitOpError(
        "is `prefetched`, but no tile.gemm_prefetch or `then wait N "
        "prefetch` on its accumulator comes before it");
  for (Operation *source : sources) {
    auto prefetch = dyn_cast<GemmPrefetchOp>(source);
    auto producer = dyn_cast<GemmOp>(source);
    bool transposeA =
        prefetch ? prefetch.getTransposeA() : producer.getTransposeA();
    bool transposeB =
        prefetch ? prefetch.getTransposeB() : producer.getTransposeB();
    Type element =
        (prefetch ? prefetch.getAType() : producer.getAType()).getElementType();
    if (transposeA != gemm.getTransposeA() ||
        transposeB != gemm.getTransposeB()) {
      InFlightDiagnostic diag =
          gemm.emitOpError("expected the prefetch of its operands to have "
                           "its transposes (")
          << transposeFlags(gemm.getTransposeA(), gemm.getTransposeB())
          << "), but got " << transposeFlags(transposeA, transposeB);
      diag.attachNote(source->getLoc()) << "the prefetch";
      return diag;
    }
    if (element != gemm.getAType().getElementType()) {
      InFlightDiagnostic diag =
          gemm.emitOpError("expected the prefetch of its operands to be of "
                           "its element type ")
          << gemm.getAType().getElementType() << ", but got " << element;
      diag.attachNote(source->getLoc()) << "the prefetch";
      return diag;
    }
  }
  return success();
}

LogicalResult GemmOp::verify() {
  if (failed(verifyGemmOperands(*this, getAType(), getBType(), getCType(),
                                getTransposeA(), getTransposeB(),
                                /*registerA=*/true)))
    return failure();
  if (!getNextA() != !getNextB() || !getNextA() != !getWaitPending())
    return emitOpError("expected `then wait N prefetch %a, %b` with both "
                       "next operands and the wait count, or none of them");
  if (getAType().isFragment() && (getPrefetched() || getNextA()))
    return emitOpError("expected no operand prefetch with an A fragment");
  if (std::optional<int64_t> pending = getWaitPending())
    if (failed(verifyPendingGroups(*this, *pending)))
      return failure();
  if (getPrefetched())
    return verifyPrefetchSources(*this);
  return success();
}

LogicalResult GemmPrefetchOp::verify() {
  return verifyGemmOperands(*this, getAType(), getBType(), getCType(),
                            getTransposeA(), getTransposeB());
}

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

LogicalResult ThreadReduceOp::verify() {
  BufferType src = getSrcType();
  if (!src.isFragment())
    return emitOpError("expected a fragment, but got a ")
           << stringifyMemoryScope(src.getScope()) << " tile";
  if (!src.getElementType().isF32())
    return emitOpError("expected an f32 fragment, but got ")
           << src.getElementType();
  return success();
}

LogicalResult ReduceOp::verify() {
  BufferType src = getSrcType(), dst = getDstType();
  if (!src.isFragment() || !dst.isFragment())
    return emitOpError("expected fragments, but got a ")
           << stringifyMemoryScope(src.getScope()) << " source and a "
           << stringifyMemoryScope(dst.getScope()) << " destination";
  if (src.getRank() != 2)
    return emitOpError("expected a rank-2 source, but got rank ")
           << src.getRank();
  if (getDim() != 1)
    return emitOpError("expected dim(1) (reducing each row); reducing "
                       "dimension ")
           << getDim() << " is not supported";
  if (dst.getShape() != ArrayRef<int64_t>{src.getDimSize(0)})
    return emitOpError("expected a destination of shape ")
           << src.getDimSize(0) << " (the source "
           << formatShape(src.getShape()) << " without dimension 1), but got "
           << formatShape(dst.getShape());
  if (!src.getElementType().isF32() ||
      dst.getElementType() != src.getElementType())
    return emitOpError("expected f32 source and destination, but got ")
           << src.getElementType() << " and " << dst.getElementType();
  auto slice = dyn_cast_or_null<SliceLayoutAttr>(dst.getLayout());
  if (dst.getLayout() && !slice)
    return emitOpError("expected the destination to have a #tile.slice "
                       "layout, but got ")
           << dst.getLayout();
  if (slice && src.getLayout() &&
      (slice.getDim() != getDim() || slice.getParent() != src.getLayout() ||
       slice.getDimSize() != src.getDimSize(getDim())))
    return emitOpError("expected the destination layout to be the source "
                       "layout ")
           << src.getLayout() << " sliced along dimension " << getDim()
           << " of size " << src.getDimSize(getDim()) << ", but got " << slice;
  return success();
}

//===----------------------------------------------------------------------===//
// ParallelOp
//===----------------------------------------------------------------------===//

void ParallelOp::build(OpBuilder &builder, OperationState &state,
                       ArrayRef<int64_t> extents, bool rolled) {
  state.addAttribute(getExtentsAttrName(state.name),
                     builder.getDenseI64ArrayAttr(extents));
  if (rolled)
    state.addAttribute(getRolledAttrName(state.name), builder.getUnitAttr());
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  for (size_t i = 0; i < extents.size(); ++i)
    block->addArgument(builder.getIndexType(), state.location);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(block);
  YieldOp::create(builder, state.location);
}

ParseResult ParallelOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder builder(parser.getContext());
  SmallVector<OpAsmParser::Argument> ivs;
  SmallVector<int64_t> extents;
  if (parser.parseArgumentList(ivs, OpAsmParser::Delimiter::Paren) ||
      parser.parseKeyword("in") ||
      parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, [&] {
        return parser.parseInteger(extents.emplace_back());
      }))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("rolled")))
    result.addAttribute(getRolledAttrName(result.name), builder.getUnitAttr());
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  result.addAttribute(getExtentsAttrName(result.name),
                      builder.getDenseI64ArrayAttr(extents));
  for (OpAsmParser::Argument &iv : ivs)
    iv.type = builder.getIndexType();
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, ivs))
    return failure();
  ParallelOp::ensureTerminator(*body, builder, result.location);
  return success();
}

void ParallelOp::print(OpAsmPrinter &p) {
  p << " (";
  llvm::interleaveComma(getInductionVars(), p,
                        [&](Value iv) { p.printOperand(iv); });
  p << ") in [";
  llvm::interleaveComma(getExtents(), p);
  p << ']';
  if (getRolled())
    p << " rolled";
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(), {getExtentsAttrName(), getRolledAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/false);
}

LogicalResult PrintOp::verify() {
  if (getThread().has_value() == getWarp().has_value())
    return emitOpError("expected exactly one of thread(N) and warp(N)");
  auto kernel = (*this)->getParentOfType<KernelOp>();
  if (!kernel)
    return emitOpError("expected to be inside a tile.kernel");
  int64_t threads = kernel.getThreads();
  if (std::optional<int64_t> thread = getThread())
    if (*thread < 0 || *thread >= threads)
      return emitOpError("expected thread in [0, ")
             << threads << "), but got " << *thread;
  if (std::optional<int64_t> warp = getWarp())
    if (*warp < 0 || *warp >= threads / 32)
      return emitOpError("expected warp in [0, ")
             << threads / 32 << "), but got " << *warp;
  if (std::optional<ArrayRef<int64_t>> block = getBlock()) {
    if (block->size() != 3)
      return emitOpError("expected a block of 3 indices, but got ")
             << block->size();
    if (llvm::any_of(*block, [](int64_t b) { return b < 0; }))
      return emitOpError("expected non-negative block indices");
  }
  Type type = getValue().getType();
  if (auto buffer = dyn_cast<BufferType>(type)) {
    if (buffer.isGlobal())
      return emitOpError("cannot print a global tensor; copy a tile of it "
                         "to shared memory or a fragment first");
    if (buffer.isShared() && !getThread())
      return emitOpError("expected thread(N) to print a shared tile (one "
                         "thread prints the whole tile)");
    if (buffer.getRank() > 2)
      return emitOpError("expected a tile of rank 1 or 2, but got rank ")
             << buffer.getRank();
    Type element = buffer.getElementType();
    if (!element.isIntOrIndexOrFloat())
      return emitOpError("cannot print elements of type ") << element;
    return success();
  }
  if (!type.isIntOrIndexOrFloat())
    return emitOpError("expected an integer, index or float scalar, or a "
                       "shared or fragment tile, but got ")
           << type;
  return success();
}

LogicalResult ParallelOp::verify() {
  ArrayRef<int64_t> extents = getExtents();
  if (extents.empty() || extents.size() > 4)
    return emitOpError("expected 1 to 4 extents, but got ") << extents.size();
  if (llvm::any_of(extents, [](int64_t e) { return e <= 0; }))
    return emitOpError("expected positive extents");
  // The lowering unrolls the iterations over the threads (or loops over
  // them, rolled): no more than the elements of the largest tile.
  std::optional<int64_t> iterations = 1;
  for (int64_t extent : extents)
    iterations =
        iterations ? llvm::checkedMul(*iterations, extent) : std::nullopt;
  if (!iterations || *iterations > kMaxParallelIterations)
    return emitOpError("expected at most ")
           << kMaxParallelIterations
           << " iterations (the elements of the largest tile), but got "
           << formatShape(extents)
           << (iterations ? " = " + std::to_string(*iterations) : "");
  if (getBodyBlock().getNumArguments() != extents.size())
    return emitOpError("expected ")
           << extents.size() << " induction variables, but got "
           << getBodyBlock().getNumArguments();
  for (auto [i, iv] : llvm::enumerate(getInductionVars()))
    if (!iv.getType().isIndex())
      return emitOpError("expected induction variable #")
             << i << " to be of type index, but got " << iv.getType();
  auto kernel = (*this)->getParentOfType<KernelOp>();
  if (!kernel)
    return emitOpError("expected to be inside a tile.kernel");
  if ((*this)->getParentOfType<ParallelOp>())
    return emitOpError("expected no nesting inside another tile.parallel");
  // Unrolled, the body is emitted once per iteration of each thread.
  if (int64_t threads = kernel.getThreads(); threads >= 1 && !getRolled()) {
    int64_t perThread = llvm::divideCeil(*iterations, threads);
    if (perThread > kMaxUnrolledPerThread)
      return emitOpError("expected at most ")
             << kMaxUnrolledPerThread
             << " iterations per thread (the loop is unrolled; a loop over "
                "shared tiles may be `rolled`), but its "
             << *iterations << " iterations over the kernel's " << threads
             << " threads are " << perThread;
  }
  // The body is run once per element; only element accesses (and sizes) of
  // tiles can be, not whole-tile ops. A nested tile.parallel reports itself.
  Operation *wholeTileOp = nullptr;
  getBody().walk([&](Operation *op) {
    if (!isa_and_nonnull<TileDialect>(op->getDialect()) ||
        isa<LoadOp, StoreOp, DimOp, YieldOp, ParallelOp>(op))
      return WalkResult::advance();
    wholeTileOp = op;
    return WalkResult::interrupt();
  });
  if (wholeTileOp)
    return emitOpError("expected only tile.load, tile.store and tile.dim "
                       "among the tile ops of the body, but got '")
           << wholeTileOp->getName() << "'";
  // A rolled loop runs over a thread's elements in a loop, where a fragment's
  // registers cannot be indexed.
  if (getRolled()) {
    Operation *fragmentAccess = nullptr;
    getBody().walk([&](Operation *op) {
      Value buffer;
      if (auto load = dyn_cast<LoadOp>(op))
        buffer = load.getBuffer();
      else if (auto store = dyn_cast<StoreOp>(op))
        buffer = store.getBuffer();
      if (buffer && cast<BufferType>(buffer.getType()).isFragment()) {
        fragmentAccess = op;
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (fragmentAccess) {
      InFlightDiagnostic diag = emitOpError(
          "expected a rolled loop to access shared tiles only, but it "
          "accesses a fragment");
      diag.attachNote(fragmentAccess->getLoc()) << "fragment accessed here";
      return diag;
    }
  }
  return success();
}

SmallVector<Value> mlir::tile::getElementwiseOperands(ParallelOp loop) {
  SmallVector<Value> operands;
  loop.getBody().walk([&](Operation *inner) {
    Value buffer;
    if (auto load = dyn_cast<LoadOp>(inner))
      buffer = load.getBuffer();
    else if (auto store = dyn_cast<StoreOp>(inner))
      buffer = store.getBuffer();
    if (buffer &&
        cast<BufferType>(buffer.getType()).getShape() == loop.getExtents())
      operands.push_back(buffer);
  });
  return operands;
}

//===----------------------------------------------------------------------===//
// LoadOp, StoreOp
//===----------------------------------------------------------------------===//

/// Element accesses happen inside tile.parallel, on shared or fragment tiles;
/// a fragment is indexed by the loop's own induction variables.
static LogicalResult verifyElementAccess(Operation *op, Value buffer,
                                         ValueRange indices) {
  auto type = cast<BufferType>(buffer.getType());
  if (type.isGlobal())
    return op->emitOpError("expected a shared or fragment tile, but got a "
                           "global buffer; move global data with tile.copy");
  if (static_cast<int64_t>(indices.size()) != type.getRank())
    return op->emitOpError("expected ")
           << type.getRank() << " indices, but got " << indices.size();
  auto loop = op->getParentOfType<ParallelOp>();
  if (!loop)
    return op->emitOpError("expected to be inside tile.parallel");
  if (!type.isFragment()) {
    // A shared tile may be indexed freely, but a constant index must be
    // inside it (a computed one is the program's to keep there).
    for (auto [d, index] : llvm::enumerate(indices)) {
      APInt value;
      if (matchPattern(index, m_ConstantInt(&value)) &&
          (value.isNegative() || value.uge(type.getDimSize(d))))
        return op->emitOpError("expected index #")
               << d << " from 0 to " << type.getDimSize(d) - 1 << ", but got "
               << value.getSExtValue();
    }
    return success();
  }
  // A row's value (a tile.reduce result) read at every column: broadcast.
  ArrayRef<int64_t> extents = loop.getExtents();
  if (isa<LoadOp>(op) && type.getRank() == 1 && extents.size() == 2 &&
      type.getDimSize(0) == extents[0]) {
    if (indices[0] != loop.getInductionVars()[0])
      return op->emitOpError("expected the index of a broadcast row value "
                             "to be induction variable #0 of the enclosing "
                             "tile.parallel");
    if (type.getLayout() && !isa<SliceLayoutAttr>(type.getLayout()))
      return op->emitOpError("expected a broadcast row value to have a "
                             "#tile.slice layout, but got ")
             << type.getLayout();
    return success();
  }
  if (type.getShape() != loop.getExtents())
    return op->emitOpError("expected the fragment shape ")
           << formatShape(type.getShape())
           << " to match the tile.parallel extents "
           << formatShape(loop.getExtents());
  for (auto [i, index] : llvm::enumerate(indices))
    if (index != loop.getInductionVars()[i])
      return op->emitOpError("expected fragment index #")
             << i << " to be induction variable #" << i
             << " of the enclosing tile.parallel";
  return success();
}

LogicalResult LoadOp::verify() {
  return verifyElementAccess(*this, getBuffer(), getIndices());
}

LogicalResult StoreOp::verify() {
  return verifyElementAccess(*this, getBuffer(), getIndices());
}

#define GET_OP_CLASSES
#include "tile/Dialect/Tile/IR/TileOps.cpp.inc"
