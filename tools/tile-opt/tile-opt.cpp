//===- tile-opt.cpp - The tile optimizer driver ---------------------------===//
//
// mlir-opt for tile programs: the tile dialect, its passes and pipelines,
// and the upstream dialects and passes they lower through. Unlike plain
// mlir-opt, a pass that reports an error fails the run even when it
// returns success, a write error on the output is an error, not an
// abort, and input nested deeper than the parser's stack allows is refused
// before it is parsed (tile/Registration/InputLimits.h).
//
//===----------------------------------------------------------------------===//

#include "tile/Pipelines/Pipelines.h"
#include "tile/Registration/InputLimits.h"
#include "tile/Registration/Registration.h"
#include "tile/Registration/StrictParse.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  DialectRegistry registry;
  tile::registerTileDialects(registry);
  tile::registerTilePasses();
  auto [inputFilename, outputFilename] = registerAndParseCLIOptions(
      argc, argv, "Tile optimizer driver\n", registry);

  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects()) {
    llvm::outs() << "Available Dialects: ";
    llvm::interleave(registry.getDialectNames(), llvm::outs(), ",");
    llvm::outs() << "\n";
    return 0;
  }
  if (config.shouldListPasses()) {
    printRegisteredPasses();
    return 0;
  }
  MlirOptMainConfig options = config;
  config.setPassPipelineSetupFn([options](PassManager &pm) {
    if (failed(options.setupPassPipeline(pm)))
      return failure();
    tile::addErrorDiagnosticsCheck(pm);
    return success();
  });

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &error);
  if (!input) {
    llvm::errs() << error << "\n";
    return 1;
  }
  if (failed(tile::checkInputLimits(input->getMemBufferRef(), llvm::errs())))
    return 1;
  // Parsed once more, strictly, where the first error is the run's result
  // (not with -split-input-file or -verify-diagnostics, which handle
  // errors themselves): MlirOptMain would print a lexer error the parser
  // goes on after (StrictParse.h) and exit 0.
  if (config.inputSplitMarker().empty() && !config.shouldVerifyDiagnostics()) {
    auto sources = std::make_shared<llvm::SourceMgr>();
    sources->AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(input->getMemBufferRef(),
                                         /*RequiresNullTerminator=*/false),
        llvm::SMLoc());
    MLIRContext context(registry);
    context.allowUnregisteredDialects(config.shouldAllowUnregisteredDialects());
    SourceMgrDiagnosticHandler diagnostics(*sources, &context);
    if (!tile::parseModuleStrictly(sources, ParserConfig(&context)))
      return 1;
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &error);
  if (!output) {
    llvm::errs() << error << "\n";
    return 1;
  }
  if (failed(MlirOptMain(output->os(), std::move(input), registry, config)))
    return 1;
  output->os().flush();
  if (std::error_code ec = output->os().error()) {
    llvm::errs() << "tile-opt: cannot write '" << outputFilename
                 << "': " << ec.message() << "\n";
    output->os().clear_error();
    return 1;
  }
  output->keep();
  return 0;
}
