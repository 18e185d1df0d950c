//===- TileLaunchSyntax.h - Pieces of the launch attributes' syntax -*- C++
//-*-===//
//
// The parsers and printers that the declarative formats of the launch
// attributes (TileLaunchAttrs.td) call: bracketed lists that may be empty,
// shapes with `?`, grid rules and the right-hand side of a size relation.
// Included where the generated attribute definitions are (TileDialect.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_TILELAUNCHSYNTAX_H
#define TILE_DIALECT_TILE_IR_TILELAUNCHSYNTAX_H

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"

namespace mlir::tile {

/// `[a, b, ...]` or `[]`, each element read by its FieldParser (an
/// attribute in full, `#tile.grid_rule<...>`, or an integer).
template <typename T>
FailureOr<SmallVector<T>> parseSquareList(AsmParser &parser) {
  SmallVector<T> elements;
  if (parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square, [&]() -> ParseResult {
            FailureOr<T> element = FieldParser<T>::parse(parser);
            if (failed(element))
              return failure();
            elements.push_back(*element);
            return success();
          }))
    return failure();
  return elements;
}

template <typename T>
void printSquareList(AsmPrinter &printer, ArrayRef<T> elements) {
  printer << '[';
  llvm::interleaveComma(elements, printer,
                        [&](const T &element) { printer << element; });
  printer << ']';
}

/// `[?, 64]`: ShapedType::kDynamic for `?`.
FailureOr<SmallVector<int64_t>> parseLaunchShape(AsmParser &parser);
void printLaunchShape(AsmPrinter &printer, ArrayRef<int64_t> shape);

/// The body of a #tile.grid_rule: `ceildiv "A"[0] by 128` or `4` (no
/// `param`, dim 0).
ParseResult parseGridRule(AsmParser &parser, std::string &param, int64_t &dim,
                          int64_t &divisor);
void printGridRule(AsmPrinter &printer, StringRef param, int64_t dim,
                   int64_t divisor);

/// The right-hand side of a #tile.size_relation: a size `"B"[0]` (`param`,
/// `dim`) or an integer (`value`).
ParseResult parseSizeOrValue(AsmParser &parser, std::string &param,
                             int64_t &dim, std::optional<int64_t> &value);
void printSizeOrValue(AsmPrinter &printer, StringRef param, int64_t dim,
                      std::optional<int64_t> value);

} // namespace mlir::tile

#endif // TILE_DIALECT_TILE_IR_TILELAUNCHSYNTAX_H
