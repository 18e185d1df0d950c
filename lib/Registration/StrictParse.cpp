//===- StrictParse.cpp - Parsing that fails on every reported error -------===//

#include "tile/Registration/StrictParse.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

using namespace mlir;

OwningOpRef<ModuleOp>
tile::parseModuleStrictly(const std::shared_ptr<llvm::SourceMgr> &sources,
                          const ParserConfig &config) {
  DiagnosticEngine &engine = config.getContext()->getDiagEngine();
  bool reportedError = false;
  DiagnosticEngine::HandlerID handler =
      engine.registerHandler([&](Diagnostic &diagnostic) {
        reportedError |= diagnostic.getSeverity() == DiagnosticSeverity::Error;
        return failure(); // Printed by the handlers registered before.
      });
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sources, config);
  engine.eraseHandler(handler);
  if (reportedError)
    return nullptr;
  return module;
}
