//===- StrictParse.h - Parsing that fails on every reported error -*- C++
//-*-===//
//
// MLIR 22's parser reports a lexer error right after the body of a dialect
// type (`!tile.buffer<32xf32, fragment>` followed by `.x`: "expected three
// consecutive dots for an ellipsis") and still returns the module, so a
// tool would print the error and exit 0. The tools parse through this
// instead: any error reported while parsing fails the parse.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_REGISTRATION_STRICTPARSE_H
#define TILE_REGISTRATION_STRICTPARSE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"

#include <memory>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mlir::tile {

/// parseSourceFile<ModuleOp>(sources, config), or null when it failed or an
/// error was reported while it ran (the errors reach the context's other
/// handlers as before).
OwningOpRef<ModuleOp>
parseModuleStrictly(const std::shared_ptr<llvm::SourceMgr> &sources,
                    const ParserConfig &config);

} // namespace mlir::tile

#endif // TILE_REGISTRATION_STRICTPARSE_H
