//===- tile-translate.cpp - Tile IR to PTX, cubins and manifests ----------===//
//
// Translations registered in upstream's registry (TranslateRegistration),
// one per output and chosen with --emit=<kind> (ptx when none is given):
// each reads a tile module at any stage (tile, gpu or NVVM level), compiles
// it with the compile driver (tile/Compiler/Compile.h) for the requested
// chip, and writes PTX, a cubin, a fat binary, SASS, the kernel manifest
// that the runtime loads with the binary, or a report of what each kernel
// got (instruction counts, ptxas registers and spills, warnings).
//
// The main is ours, not upstream's mlirTranslateMain (the cuda-tile-translate
// model), for two behaviours the tests and scripts rely on that it cannot
// give: it writes the output through a ToolOutputFile whose write error
// (-o /dev/full, a full disk) ends in LLVM's fatal "IO failure on output
// stream" instead of a diagnostic; and it names each translation as a flag
// of its own (--emit-ptx), with no default, where this tool has always had
// --emit=<kind> defaulting to ptx. The same registry and parser
// (TranslationParser) select the translation here, as --emit's values.
//
//===----------------------------------------------------------------------===//

#include "tile/Compiler/Compile.h"
#include "tile/Registration/InputLimits.h"
#include "tile/Registration/Registration.h"
#include "tile/Registration/StrictParse.h"
#include "tile/Target/Target.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "mlir/Tools/mlir-translate/Translation.h"
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

static cl::opt<bool> allowPerformanceLoss(
    "allow-performance-loss",
    cl::desc("Accept ptxas' performance-loss lines (C75xx: serialized "
             "wgmma, ignored setmaxnreg) on sm_90a instead of failing"),
    cl::init(false), cl::cat(category));

static cl::opt<bool> noSpills(
    "no-spills",
    cl::desc("Fail when ptxas spills registers in a kernel (the kernel "
             "library's rule for sm_90a)"),
    cl::init(false), cl::cat(category));

namespace {
/// What a translation writes.
enum class Emit { PTX, Cubin, Fatbin, SASS, Manifest, Report, ReportJSON };
} // namespace

/// Writes `contents` to `path` ("-": standard output), or says why not.
static LogicalResult writeFile(StringRef path, StringRef contents) {
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(path, &error);
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

/// The options of the driver for `emit`.
static tile::CompileOptions getCompileOptions(Emit emit) {
  tile::CompileOptions options;
  options.target.chip = chip;
  options.target.features = features;
  options.cudaToolkit = cudaToolkit;
  options.allowPerformanceLoss = allowPerformanceLoss;
  options.refuseSpills = noSpills;
  options.emitPTX = emit == Emit::PTX;
  options.emitCubin = emit == Emit::Cubin || emit == Emit::Fatbin ||
                      emit == Emit::SASS || emit == Emit::Report ||
                      emit == Emit::ReportJSON;
  options.emitFatbin = emit == Emit::Fatbin;
  options.emitReport = emit == Emit::Report || emit == Emit::ReportJSON;
  // The manifest alone needs no toolkit: nothing is serialized for it.
  if (emit == Emit::Manifest)
    options.emitPTX = options.emitCubin = false;
  options.emitManifest = emit == Emit::Manifest || !manifestOut.empty();
  // --emit=manifest describes no file; --manifest-out the binary of -o.
  if (emit != Emit::Manifest && outputFilename != "-")
    options.binaryName = llvm::sys::path::filename(outputFilename).str();
  return options;
}

/// The root of --mlir-timing's report (times nothing without it); set by
/// main before any translation runs.
static TimingScope *timing = nullptr;

static LogicalResult translate(Emit emit,
                               const std::shared_ptr<llvm::SourceMgr> &sources,
                               llvm::raw_ostream &os, MLIRContext *context) {
  tile::CompileOptions options = getCompileOptions(emit);
  // The target and the toolkit, before anything is read or built.
  std::string error;
  if (failed(tile::verifyCompileOptions(options, "--cuda-toolkit", error))) {
    llvm::errs() << "tile-translate: " << error << "\n";
    return failure();
  }
  // Before parsing: the parser recurses once per level of nesting.
  const llvm::MemoryBuffer *input =
      sources->getMemoryBuffer(sources->getMainFileID());
  if (failed(tile::checkInputLimits(input->getMemBufferRef(), llvm::errs())))
    return failure();
  DialectRegistry registry;
  tile::registerTileDialects(registry);
  context->appendDialectRegistry(registry);
  // Verified after the targets of an NVVM-level input are checked: the
  // upstream verifier of #nvvm.target crashes on some malformed chips.
  ParserConfig config(context, /*verifyAfterParse=*/false);
  TimingScope parsing = timing->nest("parse");
  OwningOpRef<ModuleOp> module = tile::parseModuleStrictly(sources, config);
  if (!module || failed(tile::verifyNVVMTargets(*module)) ||
      failed(verify(*module)))
    return failure();
  parsing.stop();

  FailureOr<tile::CompileResult> compiled =
      tile::compile(*module, options, timing);
  if (failed(compiled))
    return failure();
  std::string text;
  switch (emit) {
  case Emit::PTX:
    text = std::move(compiled->ptx);
    break;
  case Emit::Cubin:
    text = std::move(compiled->cubin);
    break;
  case Emit::Fatbin:
    text = std::move(compiled->fatbin);
    break;
  case Emit::SASS: {
    FailureOr<std::string> sass =
        tile::disassembleCubin(compiled->cubin, cudaToolkit, error);
    if (failed(sass)) {
      llvm::errs() << "tile-translate: " << error << "\n";
      return failure();
    }
    text = std::move(*sass);
    break;
  }
  case Emit::Manifest:
    text = std::move(compiled->manifest);
    break;
  case Emit::Report:
    text = tile::formatReports(compiled->reports);
    break;
  case Emit::ReportJSON:
    text = llvm::formatv("{0:2}\n", tile::toJSON(compiled->reports)).str();
    break;
  }
  os << text;
  if (emit != Emit::Manifest && !manifestOut.empty() &&
      failed(writeFile(manifestOut, compiled->manifest)))
    return failure();
  return success();
}

/// Registers the translation `name` (--emit=`name`) for `emit`.
static void registerTranslation(StringRef name, StringRef description,
                                Emit emit) {
  // Registers on construction (in upstream's registry, for --emit's parser).
  TranslateRegistration registration(
      name, description,
      [emit](const std::shared_ptr<llvm::SourceMgr> &sources,
             llvm::raw_ostream &os, MLIRContext *context) {
        return translate(emit, sources, os, context);
      });
}

static void registerTileTranslations() {
  registerTranslation("ptx", "PTX of the module's kernels", Emit::PTX);
  registerTranslation("cubin", "a cubin (ptxas on the PTX)", Emit::Cubin);
  registerTranslation("fatbin", "a fat binary (cubin and PTX)", Emit::Fatbin);
  registerTranslation("sass",
                      "the cubin disassembled by cuobjdump, where the "
                      "toolkit has it",
                      Emit::SASS);
  registerTranslation("manifest", "the kernel manifest (JSON)", Emit::Manifest);
  registerTranslation("report",
                      "a table per kernel: MMAs, ldmatrix, cp.async, "
                      "barriers, global vector/scalar accesses, ptxas "
                      "registers and spills, warnings",
                      Emit::Report);
  registerTranslation("report-json", "the report as JSON", Emit::ReportJSON);
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // Before the option: its parser lists the translations registered then.
  registerTileTranslations();
  cl::opt<const Translation *, /*ExternalStorage=*/false, TranslationParser>
      emit("emit", cl::desc("What to write"), cl::cat(category));
  // As mlir-translate: the context's options (--mlir-disable-threading,
  // ...), the printer's and --mlir-timing; usable, but hidden from --help
  // with the other options that are not this tool's.
  registerMLIRContextCLOptions();
  registerAsmPrinterCLOptions();
  registerDefaultTimingManagerCLOptions();
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "tile-translate: tile IR -> PTX / cubin / fatbin / kernel manifest\n");
  const Translation *translation = emit;
  if (emit.getNumOccurrences() == 0 &&
      emit.getParser().parse(emit, "emit", "ptx", translation))
    return 1;

  // Per phase (parse, lowering with each pass, LLVM, ptxas, ...), printed
  // at exit with --mlir-timing.
  DefaultTimingManager timingManager;
  applyDefaultTimingManagerCLOptions(timingManager);
  TimingScope root = timingManager.getRootScope();
  timing = &root;

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &error);
  if (!input) {
    llvm::errs() << "tile-translate: " << error << "\n";
    return 1;
  }
  auto sources = std::make_shared<llvm::SourceMgr>();
  sources->AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  MLIRContext context;
  SourceMgrDiagnosticHandler diagnostics(*sources, &context);
  // The output is written once the translation succeeded: no partial file.
  std::string output;
  llvm::raw_string_ostream os(output);
  if (failed((*translation)(sources, os, &context)))
    return 1;
  return failed(writeFile(outputFilename, output)) ? 1 : 0;
}
