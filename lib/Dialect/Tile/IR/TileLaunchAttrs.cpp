//===- TileLaunchAttrs.cpp - Launch descriptions of kernels ---------------===//
//
// Verifiers of #tile.launch and its parts, and the pieces of their syntax
// that the declarative formats call. A gpu-level input brings its own
// launch descriptions, so everything the runtime would trust is checked
// here: value ranges in each part, and in #tile.launch what refers to what
// (the buffers and dimensions named by grid rules, dim parameters and
// relations). What the description must agree with outside itself, the
// kernel function's signature, is checked when the manifest is written
// (lib/Target/KernelManifest.cpp).
//
//===----------------------------------------------------------------------===//

#include "TileLaunchSyntax.h"
#include "tile/Dialect/Tile/IR/Tile.h"

#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace mlir::tile;

//===----------------------------------------------------------------------===//
// Syntax
//===----------------------------------------------------------------------===//

FailureOr<SmallVector<int64_t>>
mlir::tile::parseLaunchShape(AsmParser &parser) {
  SmallVector<int64_t> shape;
  if (parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square, [&]() -> ParseResult {
            if (succeeded(parser.parseOptionalQuestion())) {
              shape.push_back(ShapedType::kDynamic);
              return success();
            }
            SMLoc loc = parser.getCurrentLocation();
            int64_t size;
            if (parser.parseInteger(size))
              return failure();
            // The one integer that would read back as `?`.
            if (ShapedType::isDynamic(size))
              return parser.emitError(loc, "expected a size or ?, but got ")
                     << size;
            shape.push_back(size);
            return success();
          }))
    return failure();
  return shape;
}

void mlir::tile::printLaunchShape(AsmPrinter &printer,
                                  ArrayRef<int64_t> shape) {
  printer << '[';
  llvm::interleaveComma(shape, printer, [&](int64_t size) {
    if (ShapedType::isDynamic(size))
      printer << '?';
    else
      printer << size;
  });
  printer << ']';
}

ParseResult mlir::tile::parseGridRule(AsmParser &parser, std::string &param,
                                      int64_t &dim, int64_t &divisor) {
  if (succeeded(parser.parseOptionalKeyword("ceildiv"))) {
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseString(&param))
      return failure();
    // No name is what says "constant".
    if (param.empty())
      return parser.emitError(loc, "expected a buffer parameter to divide, "
                                   "but got an empty name");
    if (parser.parseLSquare() || parser.parseInteger(dim) ||
        parser.parseRSquare() || parser.parseKeyword("by"))
      return failure();
  }
  return parser.parseInteger(divisor);
}

void mlir::tile::printGridRule(AsmPrinter &printer, StringRef param,
                               int64_t dim, int64_t divisor) {
  if (!param.empty()) {
    printer << "ceildiv ";
    printer.printString(param);
    printer << '[' << dim << "] by ";
  }
  printer << divisor;
}

ParseResult mlir::tile::parseSizeOrValue(AsmParser &parser, std::string &param,
                                         int64_t &dim,
                                         std::optional<int64_t> &value) {
  if (succeeded(parser.parseOptionalString(&param)))
    return failure(parser.parseLSquare() || parser.parseInteger(dim) ||
                   parser.parseRSquare());
  int64_t constant;
  OptionalParseResult parsed = parser.parseOptionalInteger(constant);
  if (!parsed.has_value())
    return parser.emitError(parser.getCurrentLocation(),
                            "expected a size (\"B\"[0]) or an integer");
  if (failed(*parsed))
    return failure();
  value = constant;
  return success();
}

void mlir::tile::printSizeOrValue(AsmPrinter &printer, StringRef param,
                                  int64_t dim, std::optional<int64_t> value) {
  if (value) {
    printer << *value;
    return;
  }
  printer.printString(param);
  printer << '[' << dim << ']';
}

//===----------------------------------------------------------------------===//
// Parameters
//===----------------------------------------------------------------------===//

static LogicalResult verifyName(function_ref<InFlightDiagnostic()> emitError,
                                StringRef what, StringRef name) {
  if (name.empty())
    return emitError() << "expected " << what << ", but got an empty name";
  return success();
}

LogicalResult
BufferParamAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        StringRef name, Type dtype, ArrayRef<int64_t> shape,
                        BufferAccess access, ArrayRef<int64_t> divisibility) {
  if (failed(verifyName(emitError, "a parameter name", name)))
    return failure();
  if (!isSupportedElementType(dtype))
    return emitError() << "expected dtype to be f16, bf16, f32, f64, i8, i16, "
                          "i32 or i64, but got "
                       << dtype;
  for (auto [d, size] : llvm::enumerate(shape))
    if (!ShapedType::isDynamic(size) && size < 0)
      return emitError() << "expected shape[" << d
                         << "] to be ? or a size of at least 0, but got "
                         << size;
  if (!divisibility.empty() && divisibility.size() != shape.size())
    return emitError() << "expected divisibility to have " << shape.size()
                       << " entries, one per dimension, but got "
                       << divisibility.size();
  for (auto [d, divisor] : llvm::enumerate(divisibility))
    if (divisor < 1)
      return emitError() << "expected divisibility[" << d
                         << "] to be at least 1, but got " << divisor;
  return success();
}

LogicalResult
ScalarParamAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        StringRef name, Type type) {
  if (failed(verifyName(emitError, "a parameter name", name)))
    return failure();
  if (!isSupportedScalarParamType(type))
    return emitError() << "expected type to be f32, f64, i32 or i64, but got "
                       << type;
  return success();
}

LogicalResult DimParamAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   StringRef name, StringRef buffer,
                                   int64_t dim) {
  if (failed(verifyName(emitError, "a parameter name", name)) ||
      failed(verifyName(emitError, "a buffer parameter", buffer)))
    return failure();
  if (dim < 0)
    return emitError() << "expected dim to be at least 0, but got " << dim;
  return success();
}

LogicalResult
WorkspaceParamAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                           StringRef name, int64_t bytesPerBlock) {
  if (failed(verifyName(emitError, "a parameter name", name)))
    return failure();
  // The runtime allocates bytes per block x blocks; a block's share is a
  // few accumulators, far below this bound.
  if (bytesPerBlock < 1 || bytesPerBlock > (int64_t(1) << 32))
    return emitError() << "expected bytes_per_block from 1 to 2^32, but got "
                       << bytesPerBlock;
  return success();
}

LogicalResult
TensorMapParamAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                           StringRef name, StringRef buffer,
                           ArrayRef<int64_t> box, int64_t swizzle) {
  if (failed(verifyName(emitError, "a parameter name", name)) ||
      failed(verifyName(emitError, "a buffer parameter", buffer)))
    return failure();
  // TMA's limits (cuTensorMapEncodeTiled): 1 to 5 dimensions, 1 to 256
  // elements per box dimension.
  if (box.empty() || box.size() > 5)
    return emitError() << "expected a box of 1 to 5 dimensions, but got "
                       << box.size();
  for (int64_t extent : box)
    if (extent < 1 || extent > 256)
      return emitError() << "expected box extents from 1 to 256, but got "
                         << extent;
  if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128)
    return emitError() << "expected a swizzle of 0, 32, 64 or 128 bytes, but "
                          "got "
                       << swizzle;
  return success();
}

//===----------------------------------------------------------------------===//
// Grid and launch contract
//===----------------------------------------------------------------------===//

LogicalResult GridRuleAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   StringRef param, int64_t dim,
                                   int64_t divisor) {
  if (divisor < 1)
    return emitError() << "expected "
                       << (param.empty() ? "a constant" : "a divisor")
                       << " of at least 1, but got " << divisor;
  if (dim < 0)
    return emitError() << "expected dim to be at least 0, but got " << dim;
  return success();
}

LogicalResult
SizeRelationAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                         StringRef lhsParam, int64_t lhsDim,
                         ShapePredicate predicate, StringRef rhsParam,
                         int64_t rhsDim, std::optional<int64_t> value) {
  if (failed(verifyName(emitError, "a buffer parameter on the left", lhsParam)))
    return failure();
  if (lhsDim < 0 || rhsDim < 0)
    return emitError() << "expected dims of at least 0, but got "
                       << (lhsDim < 0 ? lhsDim : rhsDim);
  bool hasRhs = !rhsParam.empty();
  // Neither: `""[0]` on the right; both: only a C++ builder.
  if (hasRhs == value.has_value())
    return emitError() << "expected a size or a value on the right, but got "
                       << (hasRhs ? "both" : "neither");
  // `divides` relates two sizes (a size that must be a multiple of a
  // constant is a divisibility promise, `divisible`).
  if (predicate == ShapePredicate::divides && value)
    return emitError() << "expected a size on the right of 'divides', but "
                          "got the value "
                       << *value;
  return success();
}

StringRef mlir::tile::getShapePredicateSymbol(ShapePredicate predicate) {
  switch (predicate) {
  case ShapePredicate::eq:
    return "==";
  case ShapePredicate::le:
    return "<=";
  case ShapePredicate::ge:
    return ">=";
  case ShapePredicate::divides:
    return "divides";
  }
  llvm_unreachable("unknown shape predicate");
}

//===----------------------------------------------------------------------===//
// LaunchAttr
//===----------------------------------------------------------------------===//

namespace {

/// The buffer parameters of a launch description by name, to check the
/// sizes that grid rules, dim parameters and relations name.
class SizeRefChecker {
public:
  SizeRefChecker(function_ref<InFlightDiagnostic()> emitError,
                 ArrayRef<Attribute> params)
      : emitError(emitError) {
    for (Attribute param : params)
      if (auto buffer = dyn_cast<BufferParamAttr>(param))
        buffers.try_emplace(buffer.getName(), buffer);
  }

  /// The buffer `param` names, whose dimension `dim` exists; `what` says
  /// where the reference is ("grid[0]").
  FailureOr<BufferParamAttr> check(const Twine &what, StringRef param,
                                   int64_t dim) {
    BufferParamAttr buffer = buffers.lookup(param);
    if (!buffer)
      return emitError() << "expected " << what
                         << " to name a buffer parameter, but got '" << param
                         << "'";
    int64_t rank = buffer.getShape().size();
    if (dim >= rank)
      return emitError() << "expected " << what << " to name a dimension of '"
                         << param << "' (rank " << rank
                         << "), but got dimension " << dim;
    return buffer;
  }

private:
  function_ref<InFlightDiagnostic()> emitError;
  llvm::StringMap<BufferParamAttr> buffers;
};

} // namespace

LogicalResult
LaunchAttr::verify(function_ref<InFlightDiagnostic()> emitError, StringRef name,
                   ArrayRef<int64_t> block, ArrayRef<GridRuleAttr> grid,
                   int64_t dynamicSharedMemory, ArrayRef<Attribute> params,
                   ArrayRef<SizeRelationAttr> contract, int64_t persistent,
                   ArrayRef<int64_t> cluster) {
  if (failed(verifyName(emitError, "a kernel name", name)))
    return failure();
  // As the runtime reads it (blocks_per_sm from 1 to 32).
  if (persistent < 0 || persistent > 32)
    return emitError() << "expected persistent (blocks per multiprocessor) "
                          "from 0 to 32, but got "
                       << persistent;
  if (!cluster.empty()) {
    if (!persistent)
      return emitError() << "expected a cluster only on a persistent kernel";
    if (cluster.size() != grid.size())
      return emitError() << "expected one cluster extent per grid rule ("
                         << grid.size() << "), but got " << cluster.size();
    int64_t blocks = 1;
    for (int64_t extent : cluster) {
      if (extent < 1 || extent > kMaxClusterBlocks)
        return emitError() << "expected cluster extents from 1 to "
                           << kMaxClusterBlocks << ", but got " << extent;
      blocks *= extent;
    }
    if (blocks > kMaxClusterBlocks)
      return emitError() << "expected at most " << kMaxClusterBlocks
                         << " blocks per cluster, but got " << blocks;
  }

  // The block: what the kernel function was compiled for.
  if (block.size() != 3)
    return emitError() << "expected 3 block extents (x, y, z), but got "
                       << block.size();
  int64_t threads = 1;
  for (auto [i, extent] : llvm::enumerate(block)) {
    if (extent < 1 || extent > kMaxThreadsPerBlock)
      return emitError() << "expected block[" << i << "] in [1, "
                         << kMaxThreadsPerBlock << "], but got " << extent;
    threads *= extent;
  }
  if (threads > kMaxThreadsPerBlock)
    return emitError() << "expected at most " << kMaxThreadsPerBlock
                       << " threads in the block, but got " << threads;

  if (grid.empty() || grid.size() > 3)
    return emitError() << "expected 1 to 3 grid rules, but got " << grid.size();
  if (dynamicSharedMemory < 0 || dynamicSharedMemory > kMaxSharedMemoryBytes)
    return emitError() << "expected dynamic_shared_memory in [0, "
                       << kMaxSharedMemoryBytes << "], but got "
                       << dynamicSharedMemory;

  // The parameters: of the three kinds, with unique names.
  llvm::StringMap<size_t> indices;
  for (auto [i, param] : llvm::enumerate(params)) {
    StringRef paramName;
    if (auto buffer = dyn_cast<BufferParamAttr>(param))
      paramName = buffer.getName();
    else if (auto scalar = dyn_cast<ScalarParamAttr>(param))
      paramName = scalar.getName();
    else if (auto dim = dyn_cast<DimParamAttr>(param))
      paramName = dim.getName();
    else if (auto map = dyn_cast<TensorMapParamAttr>(param))
      paramName = map.getName();
    else if (auto workspace = dyn_cast<WorkspaceParamAttr>(param))
      paramName = workspace.getName();
    else
      return emitError() << "expected params[" << i
                         << "] to be a #tile.buffer_param, #tile.scalar_param, "
                            "#tile.dim_param, #tile.tensor_map_param or "
                            "#tile.workspace_param, but got "
                         << param;
    auto [it, inserted] = indices.try_emplace(paramName, i);
    if (!inserted)
      return emitError() << "expected unique parameter names, but params["
                         << it->second << "] and params[" << i << "] are '"
                         << paramName << "'";
  }

  SizeRefChecker sizes(emitError, params);
  for (auto [i, rule] : llvm::enumerate(grid))
    if (!rule.isConstant() &&
        failed(sizes.check("grid[" + Twine(i) + "]", rule.getParam(),
                           rule.getDim())))
      return failure();

  // One dim parameter per dynamic size, and one only: the runtime fills in
  // each from the buffer given at launch.
  DenseMap<std::pair<Attribute, int64_t>, size_t> dimParams;
  for (auto [i, param] : llvm::enumerate(params)) {
    auto dim = dyn_cast<DimParamAttr>(param);
    if (!dim)
      continue;
    std::string what =
        ("params[" + Twine(i) + "] ('" + dim.getName() + "')").str();
    FailureOr<BufferParamAttr> buffer =
        sizes.check(what, dim.getBuffer(), dim.getDim());
    if (failed(buffer))
      return failure();
    int64_t size = buffer->getShape()[dim.getDim()];
    if (!ShapedType::isDynamic(size))
      return emitError() << "expected " << what
                         << " to name a dynamic size, but dimension "
                         << dim.getDim() << " of '" << dim.getBuffer()
                         << "' is " << size;
    auto [it, inserted] = dimParams.try_emplace({*buffer, dim.getDim()}, i);
    if (!inserted)
      return emitError() << "expected one dim parameter per dynamic size, "
                            "but params["
                         << it->second << "] and params[" << i
                         << "] are both dimension " << dim.getDim() << " of '"
                         << dim.getBuffer() << "'";
  }
  for (Attribute param : params) {
    auto buffer = dyn_cast<BufferParamAttr>(param);
    if (!buffer)
      continue;
    for (auto [d, size] : llvm::enumerate(buffer.getShape()))
      if (ShapedType::isDynamic(size) &&
          !dimParams.count({buffer, static_cast<int64_t>(d)}))
        return emitError() << "expected a dim parameter for dimension " << d
                           << " of '" << buffer.getName()
                           << "' (dynamic), but there is none";
  }

  // A tensor map's box has one extent per dimension of its buffer.
  for (auto [i, param] : llvm::enumerate(params)) {
    auto map = dyn_cast<TensorMapParamAttr>(param);
    if (!map)
      continue;
    std::string what =
        ("params[" + Twine(i) + "] ('" + map.getName() + "')").str();
    FailureOr<BufferParamAttr> buffer = sizes.check(what, map.getBuffer(), 0);
    if (failed(buffer))
      return failure();
    if (buffer->getShape().size() != map.getBox().size())
      return emitError() << "expected " << what << " to have a box of rank "
                         << buffer->getShape().size() << " (that of '"
                         << map.getBuffer() << "'), but got rank "
                         << map.getBox().size();
    // A swizzled box row fits the swizzle pattern (cuTensorMapEncodeTiled
    // refuses wider ones).
    int64_t rowBytes =
        map.getBox().back() * getElementByteWidth(buffer->getDtype());
    if (map.getSwizzle() != 0 && rowBytes > map.getSwizzle())
      return emitError() << "expected " << what << "'s box rows to fit its "
                         << map.getSwizzle() << "-byte swizzle, but they are "
                         << rowBytes << " bytes";
  }

  for (auto [i, relation] : llvm::enumerate(contract)) {
    std::string what = ("contract[" + Twine(i) + "]").str();
    if (failed(sizes.check(what + "'s left side", relation.getLhsParam(),
                           relation.getLhsDim())) ||
        (!relation.isConstant() &&
         failed(sizes.check(what + "'s right side", relation.getRhsParam(),
                            relation.getRhsDim()))))
      return failure();
  }
  return success();
}
