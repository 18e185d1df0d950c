//===- TileDialect.cpp - Tile dialect, types and attributes ---------------===//
//
// Registration of the tile dialect and the implementation of its buffer
// type and layout attributes (the launch attributes: TileLaunchAttrs.cpp).
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/Tile.h"
// What the generated formats of the launch attributes call.
#include "TileLaunchSyntax.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::tile;

#include "tile/Dialect/Tile/IR/TileOpsDialect.cpp.inc"

#include "tile/Dialect/Tile/IR/TileEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tile/Dialect/Tile/IR/TileAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tile/Dialect/Tile/IR/TileOpsTypes.cpp.inc"

void TileDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tile/Dialect/Tile/IR/TileOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "tile/Dialect/Tile/IR/TileOpsTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tile/Dialect/Tile/IR/TileAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Element types
//===----------------------------------------------------------------------===//

bool mlir::tile::isSupportedElementType(Type type) {
  if (type.isF16() || type.isBF16() || type.isF32() || type.isF64())
    return true;
  if (auto intType = dyn_cast<IntegerType>(type))
    return intType.isSignless() &&
           llvm::is_contained({8u, 16u, 32u, 64u}, intType.getWidth());
  return false;
}

bool mlir::tile::isSupportedScalarParamType(Type type) {
  // The types the runtime can pass (tile::rt::Arg::scalar).
  return type.isF32() || type.isF64() || type.isSignlessInteger(32) ||
         type.isSignlessInteger(64);
}

int64_t mlir::tile::getSizeDivisor(Value buffer, int64_t dim) {
  auto type = dyn_cast<BufferType>(buffer.getType());
  if (!type || dim < 0 || dim >= type.getRank())
    return 1;
  if (!type.isDynamicDim(dim))
    return type.getDimSize(dim);
  if (auto view = buffer.getDefiningOp<SubviewOp>())
    return getSizeDivisor(view.getSource(), dim + view.getIndices().size());
  auto arg = dyn_cast<BlockArgument>(buffer);
  auto kernel =
      arg ? dyn_cast<KernelOp>(arg.getOwner()->getParentOp()) : KernelOp();
  if (!kernel || arg.getArgNumber() >= kernel.getNumParams())
    return 1;
  return kernel.getDivisor(arg.getArgNumber(), dim);
}

int64_t mlir::tile::getWidestVector(int64_t rowLength, Type elementType) {
  int64_t vec = 16 / getElementByteWidth(elementType);
  while (vec > 1 && rowLength % vec != 0)
    vec /= 2;
  return vec;
}

unsigned mlir::tile::getElementByteWidth(Type type) {
  return type.getIntOrFloatBitWidth() / 8;
}

std::optional<int64_t> mlir::tile::getByteSize(ArrayRef<int64_t> shape,
                                               Type elementType) {
  std::optional<int64_t> bytes = getElementByteWidth(elementType);
  for (int64_t dim : shape)
    if (!ShapedType::isDynamic(dim))
      bytes = bytes ? llvm::checkedMul(*bytes, dim) : std::nullopt;
  return bytes;
}

std::string mlir::tile::getDTypeName(Type type) {
  if (type.isBF16())
    return "bf16";
  if (isa<FloatType>(type))
    return "f" + std::to_string(type.getIntOrFloatBitWidth());
  return "i" + std::to_string(type.getIntOrFloatBitWidth());
}

//===----------------------------------------------------------------------===//
// RowMajorLayoutAttr
//===----------------------------------------------------------------------===//

LogicalResult
RowMajorLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                           unsigned vec) {
  if (vec == 0 || vec > 16 || !llvm::isPowerOf2_32(vec))
    return emitError() << "expected vec to be a power of two from 1 to 16, "
                          "but got "
                       << vec;
  return success();
}

//===----------------------------------------------------------------------===//
// SliceLayoutAttr
//===----------------------------------------------------------------------===//

LogicalResult
SliceLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        unsigned dim, int64_t dimSize, Attribute parent) {
  if (!isa<RowMajorLayoutAttr, MmaLayoutAttr>(parent))
    return emitError() << "expected a #tile.row_major or #tile.mma parent, "
                          "but got "
                       << parent;
  if (dim != 1)
    return emitError() << "expected dim = 1 (the last dimension of a rank-2 "
                          "parent), but got "
                       << dim;
  if (dimSize <= 0)
    return emitError() << "expected a positive dim_size (the size of the "
                          "sliced dimension), but got "
                       << dimSize;
  return success();
}

//===----------------------------------------------------------------------===//
// MmaLayoutAttr
//===----------------------------------------------------------------------===//

LogicalResult
MmaLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      unsigned warpsM, unsigned warpsN) {
  // In 64 bits: 2^28 x 16 wraps to 0 in 32.
  if (warpsM == 0 || warpsN == 0 ||
      uint64_t(warpsM) * uint64_t(warpsN) > kMaxThreadsPerBlock / 32)
    return emitError() << "expected 1 to " << kMaxThreadsPerBlock / 32
                       << " warps in total, but got " << warpsM << "x"
                       << warpsN;
  return success();
}

//===----------------------------------------------------------------------===//
// SwizzleLayoutAttr
//===----------------------------------------------------------------------===//

// `#tile.swizzle` or `#tile.swizzle<staging>`.
Attribute SwizzleLayoutAttr::parse(AsmParser &parser, Type) {
  bool staging = false;
  if (succeeded(parser.parseOptionalLess())) {
    if (parser.parseKeyword("staging") || parser.parseGreater())
      return {};
    staging = true;
  }
  return SwizzleLayoutAttr::get(parser.getContext(), staging);
}

void SwizzleLayoutAttr::print(AsmPrinter &printer) const {
  if (getStaging())
    printer << "<staging>";
}

//===----------------------------------------------------------------------===//
// BufferType
//===----------------------------------------------------------------------===//

Type BufferType::parse(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t> shape;
  Type elementType;
  StringRef scopeName;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/true,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType) || parser.parseComma())
    return {};
  SMLoc scopeLoc = parser.getCurrentLocation();
  if (parser.parseKeyword(&scopeName))
    return {};
  std::optional<MemoryScope> scope = symbolizeMemoryScope(scopeName);
  if (!scope) {
    parser.emitError(scopeLoc, "expected memory scope 'global', 'shared' or "
                               "'fragment', but got '")
        << scopeName << "'";
    return {};
  }
  Attribute layout;
  if (succeeded(parser.parseOptionalComma()) && parser.parseAttribute(layout))
    return {};
  if (parser.parseGreater())
    return {};
  return parser.getChecked<BufferType>(loc, parser.getContext(), shape,
                                       elementType, *scope, layout);
}

void BufferType::print(AsmPrinter &printer) const {
  printer << '<';
  for (int64_t dim : getShape()) {
    if (ShapedType::isDynamic(dim))
      printer << '?';
    else
      printer << dim;
    printer << 'x';
  }
  printer << getElementType() << ", " << stringifyMemoryScope(getScope());
  if (getLayout())
    printer << ", " << getLayout();
  printer << '>';
}

LogicalResult BufferType::verify(function_ref<InFlightDiagnostic()> emitError,
                                 ArrayRef<int64_t> shape, Type elementType,
                                 MemoryScope scope, Attribute layout) {
  if (shape.empty() || shape.size() > 4)
    return emitError() << "expected a buffer of rank 1 to 4, but got rank "
                       << shape.size();
  if (!isSupportedElementType(elementType))
    return emitError() << "expected element type f16, bf16, f32, f64, i8, "
                          "i16, i32 or i64, but got "
                       << elementType;
  for (int64_t dim : shape) {
    if (ShapedType::isDynamic(dim)) {
      if (scope != MemoryScope::Global)
        return emitError() << "expected a static shape for a "
                           << stringifyMemoryScope(scope)
                           << " tile, but got a dynamic dimension";
      continue;
    }
    if (dim <= 0)
      return emitError() << "expected positive dimension sizes, but got "
                         << dim;
  }
  // Element counts and sizes in bytes are int64 everywhere: bounded here,
  // nothing downstream can overflow (a 2^32 x 2^32 tile has 0 elements in
  // int64).
  std::optional<int64_t> bytes = getByteSize(shape, elementType);
  if (!bytes)
    return emitError() << "expected a buffer of fewer than 2^63 bytes, but "
                          "its static sizes overflow that";
  if (scope == MemoryScope::Shared && *bytes > kMaxSharedMemoryBytes)
    return emitError() << "expected a shared tile of at most "
                       << kMaxSharedMemoryBytes
                       << " bytes (227 KiB, the shared memory of a block on "
                          "the largest GPU), but got "
                       << *bytes << " bytes";
  if (scope == MemoryScope::Fragment && *bytes > kMaxFragmentBytes)
    return emitError() << "expected a fragment of at most " << kMaxFragmentBytes
                       << " bytes (" << kMaxRegistersPerThread
                       << " 32-bit registers in each of " << kMaxThreadsPerBlock
                       << " threads), but got " << *bytes << " bytes";
  if (!layout)
    return success();
  // Which shapes a layout accepts is the layout's to say (TileLayouts.cpp).
  if (auto shared = dyn_cast<SharedLayoutAttrInterface>(layout)) {
    if (scope != MemoryScope::Shared)
      return emitError() << "expected " << layout
                         << " only on shared tiles, but got a "
                         << stringifyMemoryScope(scope) << " buffer";
    return shared.verifyShape(emitError, shape, elementType);
  }
  if (scope != MemoryScope::Fragment)
    return emitError() << "expected a layout only on fragments, but a "
                       << stringifyMemoryScope(scope) << " buffer has "
                       << layout;
  auto fragment = dyn_cast<FragmentLayoutAttrInterface>(layout);
  if (!fragment)
    return emitError() << "expected a fragment layout attribute, but got "
                       << layout;
  // The kernel's thread count is not known here: its verifier checks the
  // rest.
  return fragment.verifyShape(emitError, shape, elementType,
                              /*numThreads=*/0);
}

std::optional<std::string>
mlir::tile::getPTXIdentifierProblem(StringRef name) {
  if (name.empty())
    return std::string("it is empty");
  auto isIdentifierChar = [](char c) {
    return llvm::isAlnum(c) || c == '_' || c == '$';
  };
  std::string text;
  llvm::raw_string_ostream os(text);
  if (const char *bad = llvm::find_if_not(name, isIdentifierChar);
      bad != name.end()) {
    os << "'" << name << "' has ";
    if (llvm::isPrint(*bad))
      os << "'" << *bad << "'";
    else
      os << "the byte 0x" << llvm::utohexstr(uint8_t(*bad), false, 2);
    os << " at position " << bad - name.begin();
    return text;
  }
  if (llvm::isDigit(name.front()))
    return ("'" + name + "' starts with a digit").str();
  if (name.size() == 1 && !llvm::isAlpha(name.front()))
    return ("'" + name + "' is a lone '" + name +
            "' (PTX wants a letter, digit, '_' or '$' after it)")
        .str();
  return std::nullopt;
}

LogicalResult mlir::tile::verifyBufferType(Operation *op, BufferType type) {
  auto emitError = [op] { return op->emitOpError(); };
  Attribute layout = type.getLayout();
  if (auto mma = dyn_cast_or_null<MmaLayoutAttr>(layout)) {
    if (failed(
            MmaLayoutAttr::verify(emitError, mma.getWarpsM(), mma.getWarpsN())))
      return failure();
  } else if (auto rowMajor = dyn_cast_or_null<RowMajorLayoutAttr>(layout)) {
    if (failed(RowMajorLayoutAttr::verify(emitError, rowMajor.getVec())))
      return failure();
  } else if (auto slice = dyn_cast_or_null<SliceLayoutAttr>(layout)) {
    if (failed(SliceLayoutAttr::verify(emitError, slice.getDim(),
                                       slice.getDimSize(), slice.getParent())))
      return failure();
  }
  return BufferType::verify(emitError, type.getShape(), type.getElementType(),
                            type.getScope(), layout);
}

BufferType BufferType::cloneWith(std::optional<ArrayRef<int64_t>> shape,
                                 Type elementType) const {
  return BufferType::get(getContext(), shape ? *shape : getShape(), elementType,
                         getScope(), getLayout());
}

BufferType BufferType::withLayout(Attribute layout) const {
  return BufferType::get(getContext(), getShape(), getElementType(), getScope(),
                         layout);
}
