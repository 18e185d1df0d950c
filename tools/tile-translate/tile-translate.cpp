//===- tile-translate.cpp - Tile IR to PTX, cubins and manifests ----------===//
//
// Reads a tile module at any stage (tile, gpu or NVVM level), finishes the
// lowering for the requested chip, and writes PTX, a cubin, a fatbinary or
// the kernel manifest that the runtime loads with the binary; or a report of
// what each kernel got (instruction counts, ptxas registers and spills,
// warnings).
//
//===----------------------------------------------------------------------===//

#include "tile/Registration/InputLimits.h"
#include "tile/Registration/Registration.h"
#include "tile/Target/KernelReport.h"
#include "tile/Target/Target.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory category("tile-translate options");

static cl::opt<std::string> inputFilename(cl::Positional,
                                          cl::desc("<input .mlir file>"),
                                          cl::init("-"), cl::cat(category));
static cl::opt<std::string> outputFilename("o", cl::desc("Output file"),
                                           cl::value_desc("filename"),
                                           cl::init("-"), cl::cat(category));
static cl::opt<std::string>
    emit("emit",
         cl::desc("What to write: ptx, cubin, fatbin, sass (the cubin "
                  "disassembled by cuobjdump, where the toolkit has it), "
                  "manifest, "
                  "report (a table per kernel: MMAs, ldmatrix, "
                  "cp.async, barriers, global vector/scalar "
                  "accesses, ptxas registers and spills, warnings) "
                  "or report-json"),
         cl::init("ptx"), cl::cat(category));
static cl::opt<std::string>
    manifestOut("manifest-out",
                cl::desc("Also write the kernel manifest (JSON) to this file"),
                cl::value_desc("filename"), cl::cat(category));
static cl::opt<std::string> chip("chip",
                                 cl::desc("Target chip when the input is not "
                                          "lowered yet (sm_80, sm_90, ...)"),
                                 cl::init("sm_90"), cl::cat(category));
static cl::opt<std::string> features("features",
                                     cl::desc("PTX features (e.g. +ptx80)"),
                                     cl::init("+ptx80"), cl::cat(category));
static cl::opt<std::string>
    cudaToolkit("cuda-toolkit",
                cl::desc("CUDA toolkit root (ptxas, libdevice)"),
                cl::init(TILE_CUDA_TOOLKIT_ROOT), cl::cat(category));

static LogicalResult writeFile(StringRef path, StringRef contents) {
  std::string error;
  auto file = openOutputFile(path, &error);
  if (!file) {
    llvm::errs() << "tile-translate: " << error << "\n";
    return failure();
  }
  file->os() << contents;
  // A write error (a full disk, /dev/full) is reported here; left on the
  // stream it would abort the tool when the stream closes.
  file->os().flush();
  if (std::error_code ec = file->os().error()) {
    llvm::errs() << "tile-translate: cannot write '" << path
                 << "': " << ec.message() << "\n";
    file->os().clear_error();
    return failure();
  }
  file->keep();
  return success();
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "tile-translate: tile IR -> PTX / cubin / fatbin / kernel manifest\n");

  // The target, before any work: the same check as the pipelines'.
  std::string targetError;
  if (failed(tile::verifyTarget(chip, features, targetError))) {
    llvm::errs() << "tile-translate: " << targetError << "\n";
    return 1;
  }
  // The toolkit, for what is serialized: libdevice for PTX, ptxas too for
  // the rest (the manifest needs neither).
  if (emit == "ptx" || emit == "cubin" || emit == "fatbin" || emit == "sass" ||
      emit == "report" || emit == "report-json") {
    std::string toolkitError;
    if (failed(tile::verifyCudaToolkit(cudaToolkit, /*needPtxas=*/emit != "ptx",
                                       toolkitError))) {
      llvm::errs() << "tile-translate: " << toolkitError
                   << " (--cuda-toolkit)\n";
      return 1;
    }
  }

  DialectRegistry registry;
  tile::registerTileDialects(registry);
  tile::registerTilePasses();
  MLIRContext context(registry);

  std::string error;
  auto input = openInputFile(inputFilename, &error);
  if (!input) {
    llvm::errs() << "tile-translate: " << error << "\n";
    return 1;
  }
  if (failed(tile::checkInputLimits(input->getMemBufferRef(), llvm::errs())))
    return 1;
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  // Verified after the targets of an NVVM-level input are checked: the
  // upstream verifier of #nvvm.target crashes on some malformed chips.
  ParserConfig config(&context, /*verifyAfterParse=*/false);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, config);
  if (!module || failed(tile::verifyNVVMTargets(*module)) ||
      failed(verify(*module)))
    return 1;

  // What the tile ops ask for, read before they are lowered.
  std::map<std::string, tile::KernelExpectations> expected =
      tile::collectExpectations(*module);
  tile::TargetOptions target;
  target.chip = chip;
  target.features = features;
  if (failed(tile::lowerToNVVM(*module, target)))
    return 1;

  if (emit == "report" || emit == "report-json") {
    FailureOr<std::string> ptx =
        tile::serializeGPUModule(*module, tile::BinaryFormat::PTX, cudaToolkit);
    if (failed(ptx))
      return 1;
    std::vector<tile::KernelReport> reports = tile::analyzePtx(*ptx);
    std::string ptxasError;
    if (failed(tile::addPtxasResourceUsage(reports, *ptx, chip, cudaToolkit,
                                           ptxasError))) {
      llvm::errs() << "tile-translate: " << ptxasError << "\n";
      return 1;
    }
    tile::addLaunchResources(reports, *module);
    tile::addWarnings(reports, expected);
    std::string text =
        emit == "report"
            ? tile::formatReports(reports)
            : llvm::formatv("{0:2}\n", tile::toJSON(reports)).str();
    return failed(writeFile(outputFilename, text));
  }

  if (emit == "sass") {
    FailureOr<std::string> ptx =
        tile::serializeGPUModule(*module, tile::BinaryFormat::PTX, cudaToolkit);
    if (failed(ptx))
      return 1;
    std::string toolError;
    FailureOr<tile::PtxasOutput> cubin =
        tile::runPtxas(*ptx, chip, /*optLevel=*/3, cudaToolkit, toolError);
    FailureOr<std::string> sass =
        succeeded(cubin)
            ? tile::disassembleCubin(cubin->cubin, cudaToolkit, toolError)
            : FailureOr<std::string>(failure());
    if (failed(sass)) {
      llvm::errs() << "tile-translate: " << toolError << "\n";
      return 1;
    }
    return failed(writeFile(outputFilename, *sass));
  }

  std::string binaryName =
      outputFilename == "-" ? std::string()
                            : llvm::sys::path::filename(outputFilename).str();
  if (emit == "manifest") {
    FailureOr<std::string> manifest =
        tile::buildKernelManifest(*module, /*binaryName=*/"");
    return failed(manifest) || failed(writeFile(outputFilename, *manifest));
  }
  std::optional<tile::BinaryFormat> format = tile::parseBinaryFormat(emit);
  if (!format) {
    llvm::errs() << "tile-translate: expected --emit=ptx, cubin, fatbin, "
                    "sass, manifest, report or report-json, but got '"
                 << emit << "'\n";
    return 1;
  }
  FailureOr<std::string> binary =
      tile::serializeGPUModule(*module, *format, cudaToolkit);
  if (failed(binary) || failed(writeFile(outputFilename, *binary)))
    return 1;
  if (!manifestOut.empty()) {
    FailureOr<std::string> manifest =
        tile::buildKernelManifest(*module, binaryName);
    if (failed(manifest) || failed(writeFile(manifestOut, *manifest)))
      return 1;
  }
  return 0;
}
