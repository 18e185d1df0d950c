//===- TileKernelOp.cpp - tile.kernel -------------------------------------===//
//
// The kernel op: its builder, its custom assembly format (grid, threads,
// divisible and requires clauses) and its verifiers. The launch contract
// is checked in TileKernelContract.cpp.
//
//===----------------------------------------------------------------------===//

#include "TileOpsHelpers.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace mlir::tile;

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
  if (succeeded(parser.parseOptionalKeyword("warp_specialized")))
    result.addAttribute(getWarpSpecializedAttrName(result.name),
                        builder.getUnitAttr());
  if (succeeded(parser.parseOptionalKeyword("persistent")))
    result.addAttribute(getPersistentAttrName(result.name),
                        builder.getUnitAttr());

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

  // The launch contract: `requires(%A[1] == %B[0], %X[1] <= 4096,
  // %K[1] divides %Q[1], ...)`.
  SmallVector<Attribute> requirements;
  auto parseRelation = [&]() -> ParseResult {
    int64_t lhsParam = 0, lhsDim = 0;
    if (parseParamDim("requires", lhsParam, lhsDim))
      return failure();
    // `divides`, or `==`, `<=` or `>=`: two tokens for the lexer, written
    // together.
    SMLoc opLoc = parser.getCurrentLocation();
    const char *expected = "expected '==', '<=', '>=' or 'divides'";
    ShapePredicate predicate = ShapePredicate::eq;
    if (succeeded(parser.parseOptionalKeyword("divides"))) {
      predicate = ShapePredicate::divides;
    } else {
      if (succeeded(parser.parseOptionalLess()))
        predicate = ShapePredicate::le;
      else if (succeeded(parser.parseOptionalGreater()))
        predicate = ShapePredicate::ge;
      else if (failed(parser.parseOptionalEqual()))
        return parser.emitError(opLoc, expected);
      if (parser.getCurrentLocation().getPointer() != opLoc.getPointer() + 1 ||
          failed(parser.parseOptionalEqual()))
        return parser.emitError(opLoc, expected);
    }
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
  if (getWarpSpecialized())
    p << " warp_specialized";
  if (getPersistent())
    p << " persistent";
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
       getGridAttrName(), getThreadsAttrName(), getWarpSpecializedAttrName(),
       getPersistentAttrName(), getDivisibilityAttrName(),
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
  if (getWarpSpecialized() && (threads % 128 != 0 || threads < 256))
    return emitOpError("expected a warp_specialized kernel to have a "
                       "multiple of 128 threads, at least 256 (a producer "
                       "warpgroup and compute warpgroups), but got ")
           << threads;

  // Only the warp-specialized pipeline walks tiles so far.
  if (getPersistent() && !getWarpSpecialized())
    return emitOpError("expected a persistent kernel to be warp_specialized "
                       "(tile-warp-specialize writes its tile loop)");
  // Its tiles are walked in one x-y plane (no split-K z yet).
  if (getPersistent() && getGrid().size() > 2)
    return emitOpError("expected a persistent kernel to have a grid of 1 or "
                       "2 dimensions, but got ")
           << getGrid().size();

  // Ping-pong: the compute sets take turns over the tiles of the tile loop.
  if (std::optional<uint64_t> consumers = getConsumers()) {
    if (*consumers < 2 || !getPersistent() || getCluster())
      return emitOpError("expected consumers of at least 2 in a persistent "
                         "kernel without a cluster (the compute sets take "
                         "turns over its tiles), but got consumers = ")
             << static_cast<int64_t>(*consumers)
             << (getPersistent() ? "" : " in a kernel that is not persistent")
             << (getCluster() ? " with a cluster" : "");
    if (getBlockThreads() > 1024)
      return emitOpError("expected the block's threads, ")
             << threads << " + " << *consumers - 1 << " x "
             << getComputeThreads() << " = " << getBlockThreads()
             << ", to be at most 1024";
  }

  // Stream-K: the blocks of the persistent grid share the partial round.
  if (getStreamK() &&
      (!getPersistent() || getConsumerCount() > 1 || getCluster()))
    return emitOpError("expected stream_k in a persistent kernel with one set "
                       "of compute threads and no cluster, but got it")
           << (getPersistent() ? "" : " in a kernel that is not persistent")
           << (getConsumerCount() > 1 ? " with consumers" : "")
           << (getCluster() ? " with a cluster" : "");

  // Clusters: the tile loop keeps a cluster's blocks on neighbouring tiles.
  if (std::optional<ArrayRef<int64_t>> cluster = getCluster()) {
    if (!getPersistent())
      return emitOpError("expected a kernel with a cluster to be persistent "
                         "(its tile loop keeps the cluster's blocks on "
                         "neighbouring tiles)");
    if (cluster->size() != getGrid().size())
      return emitOpError("expected one cluster extent per grid dimension (")
             << getGrid().size() << "), but got " << cluster->size();
    int64_t blocks = 1, clustered = 0;
    for (int64_t extent : *cluster) {
      if (extent < 1)
        return emitOpError("expected cluster extents of at least 1, but got ")
               << extent;
      blocks *= extent;
      clustered += extent > 1;
    }
    if (clustered != 1)
      return emitOpError("expected a cluster of more than one block along "
                         "exactly one grid dimension, but got ")
             << clustered << " such dimensions";
    if (blocks > kMaxClusterBlocks)
      return emitOpError("expected at most ")
             << kMaxClusterBlocks << " blocks per cluster, but got " << blocks;
  }

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
  return detail::verifyKernelContract(*this);
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
  // Every other fragment must be spread evenly over the threads that
  // compute.
  int64_t threads = getComputeThreads();
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
          << threads
          << (getWarpSpecialized() ? " compute threads" : " threads");
      return WalkResult::interrupt();
    }
    // The layout's rules for this thread count (its type verified the
    // others).
    if (auto layout =
            dyn_cast_or_null<FragmentLayoutAttrInterface>(type.getLayout());
        layout && failed(layout.verifyShape(
                      [&] { return alloc.emitOpError(); }, type.getShape(),
                      type.getElementType(),
                      isa<WgmmaLayoutAttr>(layout) ? getThreads() : threads)))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}
