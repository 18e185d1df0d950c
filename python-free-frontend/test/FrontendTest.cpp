//===- FrontendTest.cpp - Tests of the C++ frontend -----------------------===//
//
// The frontend builds valid tile IR, reports verifier errors at the user's
// C++ source line, and its vector-add generator compiles to vectorized PTX.
//
//===----------------------------------------------------------------------===//

#include "tile/Frontend/Compile.h"
#include "tile/Frontend/Kernels.h"

#include <gtest/gtest.h>

#include <functional>

using namespace tile::fe;

namespace {

TEST(Frontend, VectorAddBuildsTheSameIRAsTheMlirExample) {
  Program program;
  buildVectorAdd(program, {1024, 256, "f32"});
  EXPECT_EQ(program.verify(), "");
  std::string ir = program.str();
  // The same structure as test/Examples/vector-add.mlir.
  EXPECT_NE(ir.find("tile.kernel @vector_add_f32_1024x256(%A: "
                    "!tile.buffer<?xf32, global>"),
            std::string::npos)
      << ir;
  EXPECT_NE(ir.find("grid(%bx) = [ceildiv(%A[0], 1024)] threads(256)"),
            std::string::npos)
      << ir;
  EXPECT_NE(ir.find("tile.parallel"), std::string::npos) << ir;
  EXPECT_NE(ir.find("arith.addf"), std::string::npos) << ir;
  EXPECT_EQ(std::count(ir.begin(), ir.end(), '\n') > 10, true);
}

TEST(Frontend, VectorAddCompilesToVectorizedPTXAndCubin) {
  for (std::string dtype : {"f32", "f16", "bf16"}) {
    Program program;
    std::string name = buildVectorAdd(program, {2048, 256, dtype});
    CompileOptions options;
    CompiledModule compiled = compile(program.module(), options, name);
    ASSERT_TRUE(compiled.ok) << compiled.error;
    EXPECT_NE(compiled.ptx.find(".visible .entry " + name), std::string::npos);
    EXPECT_NE(compiled.ptx.find("ld.global.v4"), std::string::npos)
        << compiled.ptx;
    EXPECT_NE(compiled.ptx.find("st.global.v4"), std::string::npos);
    EXPECT_EQ(compiled.ptx.find(".local"), std::string::npos);
    // A cubin is an ELF file.
    ASSERT_GT(compiled.cubin.size(), 4u);
    EXPECT_EQ(compiled.cubin.substr(0, 4), "\x7f"
                                           "ELF");
    EXPECT_NE(compiled.manifest.find("\"name\": \"" + name + "\""),
              std::string::npos);
    EXPECT_LT(compiled.compileSeconds, 5.0);
  }
}

TEST(Frontend, CompileForSm80) {
  Program program;
  buildVectorAdd(program, {1024, 128, "f32"});
  CompileOptions options;
  options.target.chip = "sm_80";
  CompiledModule compiled = compile(program.module(), options);
  ASSERT_TRUE(compiled.ok) << compiled.error;
  EXPECT_NE(compiled.ptx.find(".target sm_80"), std::string::npos);
  EXPECT_NE(compiled.manifest.find("\"chip\": \"sm_80\""), std::string::npos);
}

TEST(Frontend, VerifierErrorsPointAtTheUsersSourceLine) {
  Program program;
  Kernel k = program.kernel("bad", /*threads=*/256);
  Buffer A = k.tensor("A", {kDynamic}, program.f32());
  int badLine = 0;
  k.body({ceildiv(A, 0, 1000)}, [&](Kernel &k) {
    // 1000 elements cannot be spread over 256 threads.
    badLine = __LINE__ + 1;
    Buffer a = k.allocFragment({1000}, program.f32());
    k.copy(A.at({k.index(0)}), a);
  });
  std::string errors = program.verify();
  EXPECT_NE(errors.find("FrontendTest.cpp:" + std::to_string(badLine)),
            std::string::npos)
      << errors;
  EXPECT_NE(errors.find("to be a multiple of the kernel's 256 threads"),
            std::string::npos)
      << errors;
}

TEST(Frontend, BadThreadCountIsReported) {
  Program program;
  Kernel k = program.kernel("bad_threads", /*threads=*/100);
  Buffer A = k.tensor("A", {kDynamic}, program.f32());
  k.body({ceildiv(A, 0, 128)}, [&](Kernel &) {});
  EXPECT_NE(program.verify().find("expected threads to be a multiple of 32"),
            std::string::npos);
}

TEST(Frontend, MisuseThrowsWithAClearMessage) {
  Program program;
  Kernel k = program.kernel("misuse", 128);
  Buffer A = k.tensor("A", {kDynamic}, program.f32());
  EXPECT_THROW(A.value(), std::logic_error);
  EXPECT_THROW(parseElementType(program, "f8"), std::invalid_argument);
  k.body({constant(4)}, [&](Kernel &k) {
    Buffer s = k.allocShared({128}, program.f32());
    EXPECT_THROW(ceildiv(s, 0, 2), std::invalid_argument);
    EXPECT_THROW(k.index(1) + k.constant(1.0, program.f32()),
                 std::invalid_argument);
    Expr one = k.constant(1.0, program.f32());
    EXPECT_THROW(one | one, std::invalid_argument);
    EXPECT_THROW(fma(one, one, k.index(1)), std::invalid_argument);
    EXPECT_THROW(k.when(k.index(1), [] {}), std::invalid_argument);
  });
  EXPECT_THROW(k.body({constant(1)}, [](Kernel &) {}), std::logic_error);
}

TEST(Frontend, LaunchContractGoesIntoTheIRAndTheManifest) {
  Program program;
  Kernel k = program.kernel("contract", 128);
  Buffer A = k.tensor("A", {kDynamic, kDynamic}, program.f32());
  Buffer B = k.tensor("B", {kDynamic, kDynamic}, program.f32());
  k.require(size(B, 0) == size(A, 0));
  k.require(size(B, 1) >= size(A, 1));
  k.require(size(A, 1) <= 4096);
  k.require(size(A, 0) >= 1);
  k.body({ceildiv(A, 0, 4)}, [&](Kernel &k) {
    Buffer a = k.allocFragment({4, 32}, program.f32());
    Expr row = k.blockIndex(0) * 4.0;
    k.copy(A.at({row, k.index(0)}), a);
    k.copy(a, B.at({row, k.index(0)}));
  });
  EXPECT_EQ(program.verify(), "");
  std::string ir = program.str();
  EXPECT_NE(ir.find("requires(%B[0] == %A[0], %B[1] >= %A[1], %A[1] <= 4096, "
                    "%A[0] >= 1)"),
            std::string::npos)
      << ir;
  CompiledModule compiled = compile(program.module(), CompileOptions());
  ASSERT_TRUE(compiled.ok) << compiled.error;
  EXPECT_NE(compiled.manifest.find("\"requires\": ["), std::string::npos)
      << compiled.manifest;
  EXPECT_NE(compiled.manifest.find("\"op\": \"<=\""), std::string::npos)
      << compiled.manifest;
  EXPECT_NE(compiled.manifest.find("\"value\": 4096"), std::string::npos)
      << compiled.manifest;
  EXPECT_NE(compiled.manifest.find("\"access\": \"write\""), std::string::npos)
      << compiled.manifest;
}

TEST(Frontend, LaunchContractMisuseThrowsWithAClearMessage) {
  Program program;
  Kernel k = program.kernel("contract_misuse", 128);
  Buffer A = k.tensor("A", {kDynamic, kDynamic}, program.f32());
  Kernel other = program.kernel("other", 128);
  Buffer X = other.tensor("X", {kDynamic}, program.f32());
  auto message = [](const std::function<void()> &call) {
    try {
      call();
    } catch (const std::logic_error &error) {
      return std::string(error.what());
    }
    return std::string("(no exception)");
  };
  EXPECT_EQ(message([&] { k.require(size(A, 2) <= 8); }),
            "tile::fe: require expects a dimension of 'A' from 0 to 1, but "
            "got 2");
  EXPECT_EQ(message([&] { k.require(size(A, 0) == size(X, 0)); }),
            "tile::fe: require expects sizes of this kernel's tensor "
            "parameters");
  k.body({constant(1)}, [&](Kernel &k) {
    Buffer s = k.allocShared({128}, program.f32());
    EXPECT_EQ(message([&] { size(s, 0); }),
              "tile::fe::size: a launch contract can only relate the sizes "
              "of tensor parameters");
  });
  EXPECT_EQ(message([&] { k.require(size(A, 0) <= 8); }),
            "tile::fe: require must be declared before Kernel::body");
}

TEST(Frontend, ContradictoryContractIsReportedAtTheKernel) {
  Program program;
  Kernel k = program.kernel("contradiction", 128);
  Buffer X = k.tensor("X", {kDynamic, 64}, program.f32());
  k.require(size(X, 1) <= 32);
  int line = __LINE__ + 1;
  k.body({constant(1)}, [&](Kernel &) {});
  std::string errors = program.verify();
  EXPECT_NE(errors.find("FrontendTest.cpp:" + std::to_string(line)),
            std::string::npos)
      << errors;
  EXPECT_NE(errors.find("requires 'X[1] <= 32', which never holds: X[1] is "
                        "64 (static)"),
            std::string::npos)
      << errors;
}

// Kernel and parameter names end up in the PTX and the manifest: the
// verifier rejects the ones those cannot hold.
TEST(Frontend, KernelAndParameterNamesAreChecked) {
  for (std::string name : {"my kernel", "gemm_r-1", "k\xE2\x82\xAC", ""}) {
    Program program;
    Kernel k = program.kernel(name, 128);
    k.tensor("A", {kDynamic}, program.f32());
    k.body({constant(1)}, [&](Kernel &) {});
    EXPECT_NE(program.verify().find(
                  "expected the kernel name to be a PTX identifier"),
              std::string::npos)
        << name;
  }
  Program program;
  Kernel k = program.kernel("twice", 128);
  k.tensor("A", {kDynamic}, program.f32());
  k.tensor("A", {kDynamic}, program.f32());
  k.body({constant(1)}, [&](Kernel &) {});
  EXPECT_NE(program.verify().find("expected unique parameter names, but 'A' "
                                  "names parameter #0 and parameter #1"),
            std::string::npos)
      << program.verify();
}

TEST(Frontend, WhenBranchesOnABlockUniformConditionAndFmaIsOneInstruction) {
  Program program;
  Kernel k = program.kernel("tail", 128);
  Buffer X = k.tensor("X", {kDynamic}, program.f32());
  k.body({ceildiv(X, 0, 512)}, [&](Kernel &k) {
    Expr start = k.blockIndex(0) * 512.0;
    Buffer f = k.allocFragment({512}, program.f32());
    k.copy(X.at({start}), f);
    // Only the last block (the one past the end) clamps its elements.
    Expr n = X.dim(0);
    k.when(less(n, start + 512.0) | less(n, k.index(0)), [&] {
      k.parallel({512}, [&](const Indices &i) {
        f[i] = select(less(start + i[0], n), Expr(f[i]),
                      k.constant(0, program.f32()));
      });
    });
    k.parallel({512}, [&](const Indices &i) {
      f[i] = fma(Expr(f[i]), k.constant(3.0, program.f32()),
                 k.constant(1.0, program.f32()));
    });
    k.copy(f, X.at({start}));
  });
  ASSERT_EQ(program.verify(), "");
  std::string ir = program.str();
  EXPECT_NE(ir.find("arith.ori"), std::string::npos) << ir;
  EXPECT_NE(ir.find("scf.if"), std::string::npos) << ir;
  EXPECT_NE(ir.find("math.fma"), std::string::npos) << ir;
  CompiledModule compiled = compile(program.module(), CompileOptions());
  ASSERT_TRUE(compiled.ok) << compiled.error;
  EXPECT_NE(compiled.ptx.find("fma.rn"), std::string::npos) << compiled.ptx;
  EXPECT_EQ(compiled.ptx.find("mul.rn.f32"), std::string::npos) << compiled.ptx;
}

TEST(Frontend, DevicePrintLowersToVprintf) {
  Program program;
  Kernel k = program.kernel("show", 128);
  Buffer X = k.tensor("X", {kDynamic, 64}, program.f32());
  k.body({ceildiv(X, 0, 16)}, [&](Kernel &k) {
    Buffer s = k.allocShared({16, 64}, program.f32());
    Buffer f = k.allocFragment({16, 64}, program.f32());
    k.copy(X.at({k.blockIndex(0) * 16.0, k.index(0)}), s);
    k.copy(s, f);
    k.print("s", s, PrintFrom::thread(0));
    k.print("f", f, PrintFrom::warp(1).inBlock(2));
    k.print("row", k.blockIndex(0) * 16.0, PrintFrom::thread(127));
  });
  ASSERT_EQ(program.verify(), "");
  std::string ir = program.str();
  EXPECT_NE(ir.find("tile.print \"f\" %"), std::string::npos) << ir;
  EXPECT_NE(ir.find("warp(1) block [2, 0, 0]"), std::string::npos) << ir;
  CompiledModule compiled = compile(program.module(), CompileOptions());
  ASSERT_TRUE(compiled.ok) << compiled.error;
  EXPECT_NE(compiled.ptx.find("vprintf"), std::string::npos);

  // A warp that the kernel does not have is reported where it was asked.
  Program bad;
  Kernel b = bad.kernel("bad", 64);
  Buffer Y = b.tensor("Y", {kDynamic}, bad.f32());
  b.body({ceildiv(Y, 0, 64)},
         [&](Kernel &b) { b.print("i", b.blockIndex(0), PrintFrom::warp(2)); });
  EXPECT_NE(bad.verify().find("expected warp in [0, 2), but got 2"),
            std::string::npos)
      << bad.verify();
}

TEST(Frontend, SharedTilesFillAndElementMath) {
  Program program;
  Kernel k = program.kernel("scale", 128);
  Buffer X = k.tensor("X", {kDynamic, 64}, program.f32());
  Buffer Y = k.tensor("Y", {kDynamic, 64}, program.f32());
  k.body({ceildiv(X, 0, 32)}, [&](Kernel &k) {
    Expr row = k.blockIndex(0) * 32.0;
    Buffer s = k.allocShared({32, 64}, program.f32());
    Buffer f = k.allocFragment({32, 64}, program.f32());
    k.clear(f);
    k.copy(X.at({row, k.index(0)}), s);
    k.parallel({32, 64}, [&](const Indices &i) {
      f[i] = max(s[i] * 2.0, exp(s[i]) - 1.0);
    });
    k.copy(f, Y.at({row, k.index(0)}));
  });
  ASSERT_EQ(program.verify(), "");
  CompiledModule compiled = compile(program.module(), CompileOptions());
  ASSERT_TRUE(compiled.ok) << compiled.error;
  EXPECT_NE(compiled.ptx.find("ld.global.v4"), std::string::npos);
  EXPECT_NE(compiled.ptx.find("st.shared.v4"), std::string::npos);
  EXPECT_NE(compiled.manifest.find("\"dynamic_shared_memory\": 8192"),
            std::string::npos)
      << compiled.manifest;
}

} // namespace

namespace {

TEST(Frontend, GemmCompilesToTensorCoreInstructions) {
  Program program;
  std::string name = buildGemm(program, GemmConfig{});
  ASSERT_EQ(program.verify(), "");
  EXPECT_NE(program.str().find("tile.gemm"), std::string::npos);
  CompiledModule compiled = compile(program.module(), CompileOptions(), name);
  ASSERT_TRUE(compiled.ok) << compiled.error;
  for (const char *instruction :
       {"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
        "ldmatrix.sync.aligned.m8n8.x4.shared.b16",
        "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16", "bar.sync",
        "cp.async.cg.shared.global", "cp.async.commit_group",
        "cp.async.wait_group"})
    EXPECT_NE(compiled.ptx.find(instruction), std::string::npos) << instruction;
  EXPECT_EQ(compiled.ptx.find(".local"), std::string::npos);
  // Three stages of the 128x32 and 32x128 f16 tiles.
  EXPECT_NE(compiled.manifest.find("\"dynamic_shared_memory\": 49152"),
            std::string::npos)
      << compiled.manifest;
}

TEST(Frontend, UnpipelinedGemmUsesSynchronousVectorCopies) {
  Program program;
  GemmConfig config;
  config.stages = 1;
  std::string name = buildGemm(program, config);
  CompiledModule compiled = compile(program.module(), CompileOptions(), name);
  ASSERT_TRUE(compiled.ok) << compiled.error;
  EXPECT_NE(compiled.ptx.find("ld.global.v4"), std::string::npos);
  EXPECT_EQ(compiled.ptx.find("cp.async"), std::string::npos);
  EXPECT_NE(compiled.manifest.find("\"dynamic_shared_memory\": 16384"),
            std::string::npos);
}

TEST(Frontend, GemmWithTooFewWarpsForTheTileIsReported) {
  Program program;
  // 16x8 MMA tiles cannot cover 48x40 with 4 warps in any grid.
  buildGemm(program, GemmConfig{48, 40, 32, 128, "f32"});
  CompiledModule compiled = compile(program.module(), CompileOptions());
  EXPECT_FALSE(compiled.ok);
  EXPECT_NE(compiled.error.find("cannot spread a 48x40 accumulator over 4 "
                                "warps"),
            std::string::npos)
      << compiled.error;
}

} // namespace
