//===- CompileTest.cpp - Tests of the frontend's compile() ----------------===//
//
// compile() checks its target before anything else, verifies the module it
// is given, and fails whenever an error is reported on the way; a valid
// kernel compiles without any diagnostic.
//
//===----------------------------------------------------------------------===//

#include "tile/Compiler/Compile.h"
#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Frontend/Compile.h"
#include "tile/Frontend/Frontend.h"
#include "tile/Frontend/Kernels.h"
#include "tile/Target/Target.h"

#include "mlir/IR/Builders.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

using namespace tile::fe;

namespace {

/// Parses `text` into `program`'s module (the frontend's own context).
void parseInto(Program &program, const std::string &text) {
  mlir::OwningOpRef<mlir::ModuleOp> parsed =
      mlir::parseSourceString<mlir::ModuleOp>(text, &program.context());
  ASSERT_TRUE(parsed) << text;
  mlir::Block *body = program.module().getBody();
  body->getOperations().splice(body->end(), parsed->getBody()->getOperations());
}

TEST(Compile, RejectsUnsupportedAndMalformedChipsUpFront) {
  for (std::string chip : {"", "garbage", "sm_75", "sm_90 O=0}"}) {
    Program program;
    buildVectorAdd(program, {1024, 256, "f32"});
    CompileOptions options;
    options.target.chip = chip;
    CompiledModule compiled = compile(program.module(), options);
    EXPECT_FALSE(compiled.ok) << chip;
    EXPECT_NE(compiled.error.find("expected a target chip of sm_80 or newer"),
              std::string::npos)
        << compiled.error;
    EXPECT_NE(compiled.error.find("but got '" + chip + "'"), std::string::npos)
        << compiled.error;
    EXPECT_TRUE(compiled.ptx.empty());
  }
  Program program;
  buildVectorAdd(program, {1024, 256, "f32"});
  CompileOptions options;
  options.target.features = "+ptx80}},foo{";
  CompiledModule compiled = compile(program.module(), options);
  EXPECT_FALSE(compiled.ok);
  EXPECT_NE(compiled.error.find("expected target features '+ptxNN'"),
            std::string::npos)
      << compiled.error;
}

TEST(Compile, RejectsAToolkitWithoutLibdeviceOrPtxasUpFront) {
  // With and without a cubin: the PTX links libdevice (upstream reported
  // its absence and went on, leaving calls to functions nothing defines).
  for (bool emitCubin : {false, true}) {
    Program program;
    buildVectorAdd(program, {1024, 256, "f32"});
    CompileOptions options;
    options.cudaToolkit = "/nonexistent";
    options.emitCubin = emitCubin;
    CompiledModule compiled = compile(program.module(), options);
    EXPECT_FALSE(compiled.ok);
    EXPECT_NE(compiled.error.find("expected a CUDA toolkit at '/nonexistent', "
                                  "but it does not exist "
                                  "(CompileOptions::cudaToolkit)"),
              std::string::npos)
        << compiled.error;
    EXPECT_TRUE(compiled.ptx.empty());
  }
  // A folder with libdevice but no ptxas: PTX, but no cubin.
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("tile-toolkit", dir));
  llvm::SmallString<128> libdevice(dir);
  llvm::sys::path::append(libdevice, "nvvm", "libdevice");
  ASSERT_FALSE(llvm::sys::fs::create_directories(libdevice));
  llvm::sys::path::append(libdevice, "libdevice.10.bc");
  llvm::SmallString<128> real(defaultCudaToolkit());
  llvm::sys::path::append(real, "nvvm", "libdevice", "libdevice.10.bc");
  ASSERT_FALSE(llvm::sys::fs::create_link(real, libdevice));
  Program program;
  buildVectorAdd(program, {1024, 256, "f32"});
  CompileOptions options;
  options.cudaToolkit = dir.str().str();
  options.emitCubin = false;
  CompiledModule ptxOnly = compile(program.module(), options);
  EXPECT_TRUE(ptxOnly.ok) << ptxOnly.error;
  options.emitCubin = true;
  CompiledModule cubin = compile(program.module(), options);
  EXPECT_FALSE(cubin.ok);
  EXPECT_NE(cubin.error.find("but it has no ptxas ('" + dir.str().str() +
                             "/bin/ptxas' is not an executable)"),
            std::string::npos)
      << cubin.error;
  llvm::sys::fs::remove_directories(dir);
}

TEST(Compile, AnErrorReportedWhileSerializingFailsIt) {
  // serializeToPTX without the up-front check of compile() and
  // tile-translate: upstream's serializer reports the missing toolkit and
  // goes on; the error fails the serialization.
  Program program;
  buildVectorAdd(program, {1024, 256, "f32"});
  mlir::OwningOpRef<mlir::ModuleOp> module = program.module().clone();
  ASSERT_TRUE(mlir::succeeded(
      mlir::tile::lowerToNVVM(*module, mlir::tile::TargetOptions())));
  std::string errors;
  mlir::ScopedDiagnosticHandler handler(&program.context(),
                                        [&](mlir::Diagnostic &diag) {
                                          errors += diag.str() + "\n";
                                          return mlir::success();
                                        });
  EXPECT_TRUE(
      mlir::failed(mlir::tile::serializeToPTX(*module, "/nonexistent")));
  EXPECT_NE(errors.find("/nonexistent"), std::string::npos) << errors;
  errors.clear();
  EXPECT_TRUE(mlir::succeeded(
      mlir::tile::serializeToPTX(*module, defaultCudaToolkit())));
  EXPECT_EQ(errors, "");
}

TEST(Compile, VerifiesItsInputFirst) {
  // 1000 elements cannot be spread over 256 threads; compile() is called
  // without Program::verify().
  Program program;
  Kernel k = program.kernel("bad", /*threads=*/256);
  Buffer A = k.tensor("A", {kDynamic}, program.f32());
  k.body({ceildiv(A, 0, 1000)}, [&](Kernel &k) {
    Buffer a = k.allocFragment({1000}, program.f32());
    k.copy(A.at({k.index(0)}), a);
  });
  CompileOptions options;
  options.emitCubin = false;
  CompiledModule compiled = compile(program.module(), options);
  EXPECT_FALSE(compiled.ok);
  EXPECT_NE(compiled.error.find("expected the fragment's 1000 elements to be "
                                "a multiple of the kernel's 256 threads"),
            std::string::npos)
      << compiled.error;
  EXPECT_TRUE(compiled.ptx.empty());
}

TEST(Compile, AValidKernelCompilesWithoutDiagnostics) {
  // A loop over a reduction's row values, then their copy to global memory
  // (the lowering once reported an error here and went on).
  Program program;
  parseInto(program, R"mlir(
tile.kernel @row_values(%X: !tile.buffer<?x?xf32, global>, %M: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(128) {
  %c0 = arith.constant 0 : index
  %x = tile.alloc_fragment : !tile.buffer<4x256xf32, fragment>
  %m = tile.alloc_fragment : !tile.buffer<4xf32, fragment>
  tile.copy %X[%c0, %c0] to %x : !tile.buffer<?x?xf32, global> to !tile.buffer<4x256xf32, fragment>
  tile.reduce max %x into %m dim(1) : !tile.buffer<4x256xf32, fragment>, !tile.buffer<4xf32, fragment>
  tile.parallel (%i) in [4] {
    %v = tile.load %m[%i] : !tile.buffer<4xf32, fragment>
    %w = arith.mulf %v, %v : f32
    tile.store %w, %m[%i] : !tile.buffer<4xf32, fragment>
  }
  tile.copy %m to %M[%c0] : !tile.buffer<4xf32, fragment> to !tile.buffer<?xf32, global>
}
)mlir");
  CompileOptions options;
  options.emitCubin = false;
  CompiledModule compiled = compile(program.module(), options);
  EXPECT_TRUE(compiled.ok) << compiled.error;
  EXPECT_EQ(compiled.error, "");
  EXPECT_NE(compiled.ptx.find(".entry row_values("), std::string::npos);
}

TEST(Compile, TypesBuiltInCppAreVerifiedByTheOpsThatIntroduceThem) {
  // BufferType::get does not verify (the frontend's own calls use the
  // checked construction and throw at the caller's line); the ops that
  // introduce a type do: here an allocation built with MLIR's builders
  // (2^64 elements were 0 in int64 and the copies vanished).
  using mlir::tile::BufferType;
  using mlir::tile::MemoryScope;
  for (auto [shape, expected] :
       {std::pair<std::vector<int64_t>, std::string>{
            {int64_t(1) << 32, int64_t(1) << 32},
            "'tile.alloc_shared' op expected a buffer of fewer than 2^63 "
            "bytes"},
        {{512, 512},
         "'tile.alloc_shared' op expected a shared tile of at "
         "most 232448 bytes"}}) {
    Program program;
    Kernel k = program.kernel("big", /*threads=*/128);
    Buffer A = k.tensor("A", {kDynamic, kDynamic}, program.f32());
    k.body({ceildiv(A, 0, 128)}, [&](Kernel &k) {
      mlir::OpBuilder &b = k.builder();
      mlir::tile::AllocSharedOp::create(
          b, b.getUnknownLoc(),
          BufferType::get(shape, program.f32(), MemoryScope::Shared));
    });
    std::string errors = program.verify();
    EXPECT_NE(errors.find(expected), std::string::npos) << errors;
    CompileOptions options;
    options.emitCubin = false;
    CompiledModule compiled = compile(program.module(), options);
    EXPECT_FALSE(compiled.ok);
    EXPECT_NE(compiled.error.find(expected), std::string::npos)
        << compiled.error;
  }
}

TEST(Compile, KernelParameterTypesBuiltInCppAreVerified) {
  // A tile.kernel built with MLIR's builders, whose parameter type was made
  // with the unchecked BufferType::get (rank 0): the kernel's verifier
  // checks its parameters' types.
  using mlir::tile::BufferType;
  using mlir::tile::MemoryScope;
  Program program;
  mlir::OpBuilder b(&program.context());
  b.setInsertionPointToEnd(program.module().getBody());
  mlir::Type scalarBuffer =
      BufferType::get({}, program.f32(), MemoryScope::Global);
  mlir::tile::KernelOp::create(
      b, b.getUnknownLoc(), "rank_zero", {scalarBuffer}, {"A"},
      {mlir::tile::GridExtentAttr::get(&program.context(), -1, 0, 1)}, 32);
  std::string errors = program.verify();
  EXPECT_NE(errors.find("expected a buffer of rank 1 to 4, but got rank 0"),
            std::string::npos)
      << errors;
  CompileOptions options;
  options.emitCubin = false;
  CompiledModule compiled = compile(program.module(), options);
  EXPECT_FALSE(compiled.ok);
}

} // namespace
