//===- CompileDriverTest.cpp - Tests of the compile driver ----------------===//
//
// compile() makes what its options ask for and only that (PTX, cubin, fat
// binary, manifest, report), times each phase that ran, checks its options
// before anything is built, keeps an NVVM-level module's own target, and
// answers an invalid module with diagnostics and a failure, not a crash.
//
//===----------------------------------------------------------------------===//

#include "tile/Compiler/Compile.h"
#include "tile/Registration/Registration.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

using namespace mlir;

namespace {

/// A context with the tile dialects that collects the error diagnostics.
class CompileDriver : public ::testing::Test {
protected:
  CompileDriver() : context(makeRegistry()) {
    context.getDiagEngine().registerHandler([this](Diagnostic &diag) {
      if (diag.getSeverity() == DiagnosticSeverity::Error)
        errors += diag.str() + "\n";
      return success();
    });
  }

  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    tile::registerTileDialects(registry);
    return registry;
  }

  /// Parses `text` without verifying it (compile() must verify).
  OwningOpRef<ModuleOp> parse(StringRef text) {
    ParserConfig config(&context, /*verifyAfterParse=*/false);
    return parseSourceString<ModuleOp>(text, config);
  }

  /// test/Examples/`name`.
  OwningOpRef<ModuleOp> parseExample(StringRef name) {
    auto buffer = llvm::MemoryBuffer::getFile(
        (Twine(TILE_EXAMPLES_DIR) + "/" + name).str(), /*IsText=*/true);
    if (!buffer)
      return nullptr;
    return parse((*buffer)->getBuffer());
  }

  static tile::CompileOptions defaultOptions() {
    tile::CompileOptions options;
    options.cudaToolkit = TILE_CUDA_TOOLKIT_ROOT;
    return options;
  }

  MLIRContext context;
  std::string errors;
};

TEST_F(CompileDriver, MakesPtxCubinManifestAndReportWithTimings) {
  OwningOpRef<ModuleOp> module = parseExample("vector-add.mlir");
  ASSERT_TRUE(module);
  tile::CompileOptions options = defaultOptions();
  options.emitReport = true;
  options.binaryName = "va.cubin";
  FailureOr<tile::CompileResult> result = tile::compile(*module, options);
  ASSERT_TRUE(succeeded(result)) << errors;
  EXPECT_EQ(errors, "");
  EXPECT_NE(result->ptx.find(".visible .entry vector_add("), std::string::npos);
  EXPECT_NE(result->ptx.find(".target sm_90"), std::string::npos);
  ASSERT_GE(result->cubin.size(), 4u);
  const char elfMagic[] = {0x7f, 'E', 'L', 'F'};
  EXPECT_EQ(result->cubin.substr(0, 4), std::string(elfMagic, 4));
  EXPECT_NE(result->ptxasLog.find("vector_add"), std::string::npos);
  EXPECT_TRUE(result->fatbin.empty()); // not asked for
  EXPECT_NE(result->manifest.find("\"vector_add\""), std::string::npos);
  EXPECT_NE(result->manifest.find("va.cubin"), std::string::npos);
  // The report: counted in the PTX, with ptxas' registers.
  ASSERT_EQ(result->reports.size(), 1u);
  EXPECT_EQ(result->reports[0].name, "vector_add");
  EXPECT_GT(result->reports[0].globalVectorLoads, 0);
  EXPECT_TRUE(result->reports[0].registers.has_value());
  // Every phase ran and was timed; the total holds them.
  const tile::CompileTimings &t = result->timings;
  EXPECT_GT(t.lower, 0);
  EXPECT_GT(t.llvm, 0);
  EXPECT_GT(t.ptxas, 0);
  EXPECT_EQ(t.fatbinary, 0);
  EXPECT_GE(t.total, t.lower + t.llvm + t.ptxas);
}

TEST_F(CompileDriver, MakesAFatBinary) {
  OwningOpRef<ModuleOp> module = parseExample("vector-add.mlir");
  ASSERT_TRUE(module);
  tile::CompileOptions options = defaultOptions();
  options.emitFatbin = true;
  FailureOr<tile::CompileResult> result = tile::compile(*module, options);
  ASSERT_TRUE(succeeded(result)) << errors;
  EXPECT_FALSE(result->fatbin.empty());
  EXPECT_GT(result->timings.fatbinary, 0);
}

TEST_F(CompileDriver, TheManifestAloneNeedsNoToolkit) {
  OwningOpRef<ModuleOp> module = parseExample("gemm.mlir");
  ASSERT_TRUE(module);
  tile::CompileOptions options;
  options.cudaToolkit = "/nonexistent";
  options.emitPTX = options.emitCubin = false;
  FailureOr<tile::CompileResult> result = tile::compile(*module, options);
  ASSERT_TRUE(succeeded(result)) << errors;
  EXPECT_TRUE(result->ptx.empty());
  EXPECT_TRUE(result->cubin.empty());
  EXPECT_FALSE(result->manifest.empty());
  EXPECT_EQ(result->timings.llvm, 0);
  EXPECT_EQ(result->timings.ptxas, 0);
}

TEST_F(CompileDriver, ChecksItsOptionsFirst) {
  tile::CompileOptions options = defaultOptions();
  options.target.chip = "sm_75";
  std::string error;
  EXPECT_TRUE(failed(tile::verifyCompileOptions(options, "--x", error)));
  EXPECT_NE(error.find("expected a target chip of sm_80 or newer"),
            std::string::npos)
      << error;
  OwningOpRef<ModuleOp> module = parseExample("vector-add.mlir");
  ASSERT_TRUE(module);
  EXPECT_TRUE(failed(tile::compile(*module, options)));
  EXPECT_NE(errors.find("but got 'sm_75'"), std::string::npos) << errors;

  // A toolkit problem names the caller's setting.
  options = defaultOptions();
  options.cudaToolkit = "/nonexistent";
  EXPECT_TRUE(
      failed(tile::verifyCompileOptions(options, "--cuda-toolkit", error)));
  EXPECT_EQ(error, "expected a CUDA toolkit at '/nonexistent', but it does "
                   "not exist (--cuda-toolkit)");
}

TEST_F(CompileDriver, AnInvalidModuleGivesDiagnosticsNotACrash) {
  // Fails the verifier (compile() verifies what it is given).
  OwningOpRef<ModuleOp> module =
      parse("func.func @f() -> i32 {\n  func.return\n}\n");
  ASSERT_TRUE(module);
  EXPECT_TRUE(failed(tile::compile(*module, defaultOptions())));
  EXPECT_NE(errors.find("has 0 operands, but enclosing function"),
            std::string::npos)
      << errors;

  // Nothing to compile.
  errors.clear();
  module = parse("module {}\n");
  ASSERT_TRUE(module);
  EXPECT_TRUE(failed(tile::compile(*module, defaultOptions())));
  EXPECT_NE(errors.find("expected tile kernels or a gpu.module to compile"),
            std::string::npos)
      << errors;
}

TEST_F(CompileDriver, AnNVVMLevelModuleKeepsItsOwnTarget) {
  OwningOpRef<ModuleOp> module = parseExample("vector-add.mlir");
  ASSERT_TRUE(module);
  tile::TargetOptions sm80;
  sm80.chip = "sm_80";
  ASSERT_TRUE(succeeded(tile::lowerToNVVM(*module, sm80))) << errors;
  // The options' sm_90 is for modules that are not lowered yet.
  FailureOr<tile::CompileResult> result =
      tile::compile(*module, defaultOptions());
  ASSERT_TRUE(succeeded(result)) << errors;
  EXPECT_NE(result->ptx.find(".target sm_80"), std::string::npos);
  EXPECT_EQ(result->timings.llvm > 0, true);
}

} // namespace
