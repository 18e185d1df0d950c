//===- FrontendTest.cpp - Tests of the C++ frontend -----------------------===//
//
// The frontend builds valid tile IR, reports verifier errors at the user's
// C++ source line, and its vector-add generator compiles to vectorized PTX.
//
//===----------------------------------------------------------------------===//

#include "tile/Frontend/Compile.h"
#include "tile/Frontend/Kernels.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>

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
  k.require(divides(size(A, 1), size(B, 1)));
  k.body({ceildiv(A, 0, 4)}, [&](Kernel &k) {
    Buffer a = k.allocFragment({4, 32}, program.f32());
    Expr row = k.blockIndex(0) * 4.0;
    k.copy(A.at({row, k.index(0)}), a);
    k.copy(a, B.at({row, k.index(0)}));
  });
  EXPECT_EQ(program.verify(), "");
  std::string ir = program.str();
  EXPECT_NE(ir.find("requires(%B[0] == %A[0], %B[1] >= %A[1], %A[1] <= 4096, "
                    "%A[0] >= 1, %A[1] divides %B[1])"),
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
  EXPECT_NE(compiled.manifest.find("\"op\": \"divides\""), std::string::npos)
      << compiled.manifest;
  EXPECT_NE(compiled.manifest.find("\"access\": \"write\""), std::string::npos)
      << compiled.manifest;
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

TEST(Frontend, StaticSizesThatDoNotDivideAreReportedAtTheKernel) {
  Program program;
  Kernel k = program.kernel("heads", 128);
  Buffer Q = k.tensor("Q", {8, kDynamic}, program.f32());
  Buffer K = k.tensor("K", {3, kDynamic}, program.f32());
  k.require(divides(size(K, 0), size(Q, 0)));
  k.body({constant(1)}, [&](Kernel &) {});
  EXPECT_NE(program.verify().find("requires 'K[0] divides Q[0]', which never "
                                  "holds: K[0] is 3 and Q[0] is 8 (static)"),
            std::string::npos)
      << program.verify();
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

TEST(Frontend, SquareRootsLowerToApproximateInstructions) {
  Program program;
  Kernel k = program.kernel("roots", 128);
  Buffer X = k.tensor("X", {kDynamic}, program.f32());
  k.body({ceildiv(X, 0, 512)}, [&](Kernel &k) {
    Expr start = k.blockIndex(0) * 512.0;
    Buffer f = k.allocFragment({512}, program.f32());
    k.copy(X.at({start}), f);
    k.parallel({512}, [&](const Indices &i) {
      f[i] = sqrt(f[i]) * rsqrt(f[i] + 1.0);
    });
    k.copy(f, X.at({start}));
  });
  ASSERT_EQ(program.verify(), "");
  std::string ir = program.str();
  EXPECT_NE(ir.find("math.sqrt"), std::string::npos) << ir;
  EXPECT_NE(ir.find("math.rsqrt"), std::string::npos) << ir;
  CompiledModule compiled = compile(program.module(), CompileOptions());
  ASSERT_TRUE(compiled.ok) << compiled.error;
  EXPECT_NE(compiled.ptx.find("sqrt.approx"), std::string::npos);
  EXPECT_NE(compiled.ptx.find("rsqrt.approx"), std::string::npos);

  // Of an index: the math dialect's operand check, at the caller's line.
  Program bad;
  Kernel b = bad.kernel("bad", 128);
  Buffer Y = b.tensor("Y", {kDynamic}, bad.f32());
  b.body({ceildiv(Y, 0, 128)}, [&](Kernel &b) { rsqrt(b.blockIndex(0)); });
  EXPECT_NE(bad.verify().find("FrontendTest.cpp"), std::string::npos)
      << bad.verify();
  EXPECT_NE(bad.verify().find("'math.rsqrt' op operand #0 must be"),
            std::string::npos)
      << bad.verify();
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

TEST(Frontend, SwappedGemmRunsTheTransposedProductAndStoresCAcross) {
  // 16 rows of C: a 64 x 16 tile of C^T = B^T A^T, one wgmma m64n16k16 per
  // 16 of K (no products of zero rows), C stored through shared memory.
  GemmConfig c{16, 64, 64, 256, "f16", 8, 0, false, "f16"};
  c.divisibility = 8;
  c.warpSpecialized = c.swapAB = true;
  c.epilogue = "bias_gelu_tanh";
  Program program;
  std::string name = buildGemm(program, c);
  EXPECT_EQ(name,
            "gemm_f16_f16_16x64x64_t256_s8_bias_gelu_tanh_div8_ws_swapab");
  ASSERT_EQ(program.verify(), "");
  std::string ir = program.str();
  EXPECT_NE(ir.find("{transpose_a, transpose_b} : !tile.buffer<64x64xf16, "
                    "shared>, !tile.buffer<16x64xf16, shared>, "
                    "!tile.buffer<64x16xf32, fragment>"),
            std::string::npos)
      << ir;
  CompileOptions options;
  options.target.chip = "sm_90a";
  CompiledModule compiled = compile(program.module(), options, name);
  ASSERT_TRUE(compiled.ok) << compiled.error;
  EXPECT_NE(compiled.ptx.find("wgmma.mma_async.sync.aligned.m64n16k16.f32."
                              "f16.f16"),
            std::string::npos);
  EXPECT_EQ(compiled.ptx.find("m64n64k16"), std::string::npos);
  EXPECT_EQ(compiled.ptx.find(".local"), std::string::npos);
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

//===----------------------------------------------------------------------===//
// Misuse and hostile configurations: an exception at the caller's line or
// a diagnostic there, never a crash, a hang or a silently accepted type.
//===----------------------------------------------------------------------===//

namespace {

/// Runs `statement`, expects it to throw `Exception` whose message starts
/// with this file and the line of the macro (where the statement is) and
/// contains `text`.
#define EXPECT_THROW_AT(statement, Exception, text)                            \
  do {                                                                         \
    std::string at =                                                           \
        "FrontendTest.cpp:" + std::to_string(__LINE__) + ": error: ";          \
    try {                                                                      \
      statement;                                                               \
      ADD_FAILURE() << "no exception from " #statement;                        \
    } catch (const Exception &e) {                                             \
      std::string what = e.what();                                             \
      EXPECT_NE(what.find(at), std::string::npos) << what;                     \
      EXPECT_NE(what.find(text), std::string::npos) << what;                   \
    }                                                                          \
  } while (false)

TEST(FrontendMisuse, LaunchContractMisuseThrowsAtTheCallersLine) {
  Program program;
  Kernel k = program.kernel("contract_misuse", 128);
  Buffer A = k.tensor("A", {kDynamic, kDynamic}, program.f32());
  Kernel other = program.kernel("other", 128);
  Buffer X = other.tensor("X", {kDynamic}, program.f32());
  EXPECT_THROW_AT(k.require(size(A, 2) <= 8), std::invalid_argument,
                  "Kernel::require: expected a dimension of 'A' (0 to 1), but "
                  "got 2");
  EXPECT_THROW_AT(k.require(size(A, 0) == size(X, 0)), std::invalid_argument,
                  "Kernel::require: expected sizes of tensor parameters of "
                  "kernel 'contract_misuse', but got a size of another "
                  "kernel's");
  k.body({constant(1)}, [&](Kernel &k) {
    Buffer s = k.allocShared({128}, program.f32());
    EXPECT_THROW_AT(size(s, 0), std::invalid_argument,
                    "size: expected a tensor parameter (a launch contract "
                    "relates the sizes of tensor parameters), but got a tile");
  });
  EXPECT_THROW_AT(k.require(size(A, 0) <= 8), std::logic_error,
                  "Kernel::require: expected a call before Kernel::body, but "
                  "the body has been built");
}

TEST(FrontendMisuse, BodyOnlyCallsThrowOutsideTheBody) {
  Program program;
  Kernel k = program.kernel("k", 128);
  Buffer A = k.tensor("A", {kDynamic}, program.f32());
  EXPECT_THROW_AT(k.blockIndex(0), std::logic_error,
                  "Kernel::blockIndex: expected a call inside the build "
                  "function of Kernel::body, but body was not called");
  EXPECT_THROW_AT(k.index(0), std::logic_error, "Kernel::index");
  EXPECT_THROW_AT(k.allocFragment({128}, program.f32()), std::logic_error,
                  "Kernel::allocFragment");
  EXPECT_THROW_AT(A.dim(0), std::logic_error, "Buffer::dim");
  Expr kept;
  k.body({ceildiv(A, 0, 128)}, [&](Kernel &k) {
    kept = k.index(1);
    EXPECT_THROW_AT(k.tensor("B", {kDynamic}, program.f32()), std::logic_error,
                    "parameters must be declared before Kernel::body");
  });
  // After the body: the kernel is closed.
  EXPECT_THROW_AT(k.blockIndex(0), std::logic_error,
                  "but the body has been built");
  EXPECT_THROW_AT(kept + 1.0, std::logic_error,
                  "expected an expression inside its kernel's body");
  EXPECT_EQ(program.verify(), "");
}

TEST(FrontendMisuse, BadArgumentsThrowAtTheCallersLine) {
  Program program;
  Kernel k = program.kernel("k", 128);
  Buffer A = k.tensor("A", {kDynamic}, program.f32());
  int s = k.scalarParam("s", program.f32());
  EXPECT_THROW_AT(k.rasterPanel(-1), std::invalid_argument,
                  "Kernel::rasterPanel: expected 0 (off) or a number of grid "
                  "rows, but got -1");
  Program other;
  Kernel o = other.kernel("other", 128);
  Buffer X = o.tensor("X", {kDynamic}, other.f32());
  Expr foreign;
  o.body({ceildiv(X, 0, 128)}, [&](Kernel &o) {
    k.body({ceildiv(A, 0, 128)}, [&](Kernel &k) {
      foreign = o.index(3);
      EXPECT_THROW_AT(k.blockIndex(2), std::invalid_argument,
                      "Kernel::blockIndex: expected a dimension of the 1-D "
                      "grid of kernel 'k' (0 to 0), but got 2");
      EXPECT_THROW_AT(k.blockIndex(-1), std::invalid_argument, "but got -1");
      EXPECT_THROW_AT(k.scalar(7), std::invalid_argument,
                      "Kernel::scalar: expected a parameter index of kernel "
                      "'k' (0 to 1), but got 7");
      EXPECT_THROW_AT(k.scalar(0), std::invalid_argument,
                      "parameter 0 ('A') is a tensor");
      EXPECT_NO_THROW(k.scalar(s));
      EXPECT_THROW_AT(k.index(1) + Expr(), std::logic_error,
                      "operator+: expected an expression, but got a "
                      "default-constructed Expr");
      EXPECT_THROW_AT(exp(Expr()), std::logic_error, "exp:");
      EXPECT_THROW_AT(k.index(1) * foreign, std::invalid_argument,
                      "operator*: expected operands of one kernel");
      EXPECT_THROW_AT(k.index(1) - k.constant(1.0, program.f32()),
                      std::invalid_argument,
                      "operator-: expected operands of one type, but got "
                      "index and f32");
      // A literal that an integer operand cannot take exactly.
      EXPECT_THROW_AT(k.index(1) + 0.5, std::invalid_argument,
                      "Kernel::constant: expected an integer that index can "
                      "hold, but got 0.5");
      EXPECT_THROW_AT(k.constant(1e12, program.i32()), std::invalid_argument,
                      "an integer that i32 can hold, but got 1000000000000");
      EXPECT_THROW_AT(k.constant(1.0, mlir::Type()), std::invalid_argument,
                      "expected an index, integer or float type");
      Buffer f = k.allocFragment({128}, program.f32());
      EXPECT_THROW_AT(k.copy(A.at({foreign}), f), std::invalid_argument,
                      "Kernel::copy: expected an expression of kernel 'k', "
                      "but got one of kernel 'other'");
      EXPECT_THROW_AT(k.copy(X.at({k.index(0)}), f), std::invalid_argument,
                      "Kernel::copy: expected a tensor or tile of kernel 'k', "
                      "but got one of kernel 'other'");
      EXPECT_THROW_AT(k.fill(Buffer(), k.constant(0.0, program.f32())),
                      std::logic_error,
                      "Kernel::fill: expected a tensor or tile, but got a "
                      "default-constructed Buffer");
      EXPECT_THROW_AT(k.subview(A, {k.index(0)}), std::invalid_argument,
                      "Kernel::subview: expected 1 to 0 leading indices of a "
                      "rank-1 tensor, but got 1");
      EXPECT_THROW_AT(
          k.forLoop(k.index(0), k.index(4), 0, [](Expr) {}),
          std::invalid_argument,
          "Kernel::forLoop: expected a step of at least 1, but got 0");
      EXPECT_THROW_AT(k.pipelined(k.index(0), k.index(4), -3, [](Expr) {}),
                      std::invalid_argument,
                      "Kernel::pipelined: expected at least 1 stage, but got "
                      "-3");
      EXPECT_THROW_AT(k.forLoop(k.constant(0, program.i32()),
                                k.constant(4, program.i32()), 1, [](Expr) {}),
                      std::invalid_argument,
                      "Kernel::forLoop: expected index bounds, but got i32 "
                      "and i32");
      EXPECT_THROW_AT(k.when(k.index(1), [] {}), std::invalid_argument,
                      "Kernel::when: expected an i1 condition, but got index");
      EXPECT_THROW_AT(cast(k.index(1), f.type()), std::invalid_argument,
                      "cast: expected index, integer or float types");
      // The hardware tanh is f32 only (tanh.approx.f32).
      EXPECT_THROW_AT(approximateTanh(k.constant(0.5, program.f16())),
                      std::invalid_argument,
                      "approximateTanh: expected an f32 operand, but got f16");
      k.copy(A.at({k.index(0)}), f);
      k.copy(f, A.at({k.index(0)}));
    });
    o.fill(o.allocFragment({128}, other.f32()), o.constant(0, other.f32()));
  });
}

TEST(FrontendMisuse, TypesTheDialectRejectsThrowWithItsMessage) {
  Program program;
  Kernel k = program.kernel("k", 128);
  EXPECT_THROW_AT(k.tensor("R0", {}, program.f32()), std::invalid_argument,
                  "Kernel::tensor: expected a buffer of rank 1 to 4, but got "
                  "rank 0");
  EXPECT_THROW_AT(k.tensor("R5", {1, 2, 3, 4, 5}, program.f32()),
                  std::invalid_argument, "but got rank 5");
  EXPECT_THROW_AT(k.tensor("N", {kDynamic, -4}, program.f32()),
                  std::invalid_argument,
                  "expected positive dimension sizes, but got -4");
  EXPECT_THROW_AT(k.tensor("T", {kDynamic}, mlir::Type()),
                  std::invalid_argument,
                  "expected an element type, but got a null mlir::Type");
  Buffer A = k.tensor("A", {kDynamic}, program.f32());
  k.body({ceildiv(A, 0, 128)}, [&](Kernel &k) {
    mlir::OpBuilder &b = k.builder();
    EXPECT_THROW_AT(k.allocFragment({128}, b.getI1Type()),
                    std::invalid_argument,
                    "Kernel::allocFragment: expected element type f16, bf16, "
                    "f32, f64, i8, i16, i32 or i64, but got 'i1'");
    EXPECT_THROW_AT(k.allocFragment({128}, b.getIndexType()),
                    std::invalid_argument, "but got 'index'");
    // A dynamic shared tile made compile() loop forever.
    EXPECT_THROW_AT(k.allocShared({kDynamic}, program.f32()),
                    std::invalid_argument,
                    "Kernel::allocShared: expected a static shape for a "
                    "shared tile, but got a dynamic dimension");
    EXPECT_THROW_AT(k.allocFragment({-128}, program.f32()),
                    std::invalid_argument,
                    "expected positive dimension sizes, but got -128");
    EXPECT_THROW_AT(k.allocFragment({0}, program.f32()), std::invalid_argument,
                    "but got 0");
    EXPECT_THROW_AT(k.allocShared({}, program.f32()), std::invalid_argument,
                    "rank 1 to 4, but got rank 0");
    EXPECT_THROW_AT(k.allocShared({2, 2, 2, 2, 2}, program.f32()),
                    std::invalid_argument, "but got rank 5");
  });
  EXPECT_EQ(program.verify(), "");
}

TEST(FrontendMisuse, ExpressionErrorsPointAtTheUsersLine) {
  Program program;
  Kernel k = program.kernel("k", 128);
  Buffer A = k.tensor("A", {kDynamic}, program.f32());
  int indexLine = 0, expLine = 0, selectLine = 0;
  k.body({ceildiv(A, 0, 128)}, [&](Kernel &k) {
    Buffer f = k.allocFragment({128}, program.f32());
    k.copy(A.at({k.index(0)}), f);
    k.parallel({128}, [&](const Indices &i) {
      // A fragment indexed by anything but its loop's index.
      indexLine = __LINE__ + 1;
      f[i] = f[i[0] + 1.0];
    });
    expLine = __LINE__ + 1;
    Expr bad = exp(k.index(2));
    selectLine = __LINE__ + 1;
    Expr picked = select(k.constant(1.0, program.f32()), bad, k.index(3));
    (void)picked;
    k.copy(f, A.at({k.index(0)}));
  });
  std::string errors = program.verify();
  EXPECT_EQ(errors.find("loc(unknown)"), std::string::npos) << errors;
  EXPECT_NE(errors.find("FrontendTest.cpp:" + std::to_string(indexLine) +
                        ":1: error: 'tile.load' op expected fragment index"),
            std::string::npos)
      << errors;
  // Verified one op at a time: fix the first error to see the next.
  Program math;
  Kernel m = math.kernel("m", 128);
  Buffer B = m.tensor("B", {kDynamic}, math.f32());
  m.body({ceildiv(B, 0, 128)}, [&](Kernel &m) {
    expLine = __LINE__ + 1;
    (void)exp(m.index(2));
  });
  errors = math.verify();
  EXPECT_NE(errors.find("FrontendTest.cpp:" + std::to_string(expLine) +
                        ":1: error: 'math.exp' op operand #0 must be "
                        "floating-point-like"),
            std::string::npos)
      << errors;
  Program choose;
  Kernel c = choose.kernel("c", 128);
  Buffer C = c.tensor("C", {kDynamic}, choose.f32());
  c.body({ceildiv(C, 0, 128)}, [&](Kernel &c) {
    selectLine = __LINE__ + 1;
    (void)select(c.constant(1.0, choose.f32()), c.index(1), c.index(2));
  });
  errors = choose.verify();
  EXPECT_NE(errors.find("FrontendTest.cpp:" + std::to_string(selectLine) +
                        ":1: error: 'arith.select' op"),
            std::string::npos)
      << errors;
}

TEST(Frontend, CastConvertsBetweenIndicesAndFloats) {
  Program program;
  Kernel k = program.kernel("k", 128);
  Buffer A = k.tensor("A", {kDynamic}, program.f32());
  k.body({ceildiv(A, 0, 128)}, [&](Kernel &k) {
    Buffer f = k.allocFragment({128}, program.f32());
    k.copy(A.at({k.index(0)}), f);
    k.parallel({128}, [&](const Indices &i) {
      f[i] = Expr(f[i]) + cast(i[0], program.f32());
    });
    Expr back =
        cast(k.constant(2.0, program.f32()), k.builder().getIndexType());
    k.copy(f, A.at({back}));
  });
  EXPECT_EQ(program.verify(), "");
  std::string ir = program.str();
  EXPECT_NE(ir.find("arith.index_cast"), std::string::npos) << ir;
  EXPECT_NE(ir.find("arith.sitofp"), std::string::npos) << ir;
  EXPECT_NE(ir.find("arith.fptosi"), std::string::npos) << ir;
}

/// Expects `build` to throw std::invalid_argument with `text`.
template <typename Config, typename Build>
void expectRefused(Config config, Build build, const std::string &text) {
  try {
    config.validate();
    ADD_FAILURE() << "validate() accepted a configuration: " << text;
  } catch (const std::invalid_argument &e) {
    EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
  }
  // The build function refuses it too, before building anything.
  Program program;
  EXPECT_THROW(build(program, config), std::invalid_argument) << text;
  EXPECT_EQ(program.str().find("tile.kernel"), std::string::npos);
}

TEST(Generators, RefuseConfigurationsTheyDoNotSupport) {
  // The defaults are supported.
  EXPECT_NO_THROW(VectorAddConfig().validate());
  EXPECT_NO_THROW(GemmConfig().validate());
  EXPECT_NO_THROW(GemmSoftmaxConfig().validate());
  EXPECT_NO_THROW(AttentionConfig().validate());
  EXPECT_NO_THROW(SoftmaxConfig().validate());
  EXPECT_NO_THROW(BiasGeluConfig().validate());
  EXPECT_NO_THROW(PrintDemoConfig().validate());

  auto gemm = [](auto change) {
    GemmConfig c;
    change(c);
    return c;
  };
  // block_k 0 divided by zero; raster panel -1 named the kernel "..._r-1".
  expectRefused(gemm([](GemmConfig &c) { c.blockK = 0; }), buildGemm,
                "gemm: block_k must be at least 16 (the K of one m16n8k16 "
                "MMA), but got 0");
  expectRefused(gemm([](GemmConfig &c) { c.rasterPanel = -1; }), buildGemm,
                "gemm: raster_panel must be from 0 to 65535");
  expectRefused(gemm([](GemmConfig &c) { c.stages = 100000; }), buildGemm,
                "gemm: stages must be from 1 to 8");
  expectRefused(gemm([](GemmConfig &c) { c.stages = 0; }), buildGemm,
                "but got 0");
  expectRefused(gemm([](GemmConfig &c) { c.blockK = 4096; }), buildGemm,
                "gemm: needs at least 6144 KiB of shared memory per block (3 "
                "stages of its 128x4096 A and 4096x128 B f16 tiles), but a "
                "block has at most 227 KiB");
  expectRefused(gemm([](GemmConfig &c) { c.blockM = c.blockN = 1 << 30; }),
                buildGemm, "shared memory");
  expectRefused(gemm([](GemmConfig &c) {
                  c.blockM = c.blockN = 256;
                  c.blockK = 16;
                  c.stages = 1;
                }),
                buildGemm,
                "gemm: needs at least 512 registers per thread (its 256x256 "
                "f32 accumulator over 128 threads), a thread has 255");
  expectRefused(gemm([](GemmConfig &c) { c.threads = 0; }), buildGemm,
                "gemm: threads must be a multiple of 32 from 32 to 1024");
  expectRefused(gemm([](GemmConfig &c) { c.outDtype = "i8"; }), buildGemm,
                "gemm: out_dtype must be one of f32, f16, bf16, but got 'i8'");
  expectRefused(gemm([](GemmConfig &c) { c.epilogue = "relu"; }), buildGemm,
                "gemm: epilogue must be one of none, bias, bias_gelu, "
                "bias_gelu_tanh, bias_relu, but got 'relu'");
  expectRefused(gemm([](GemmConfig &c) { c.divisibility = 0; }), buildGemm,
                "gemm: divisibility must be at least 1");
  // A negative band width would allocate negative tiles; one that does not
  // divide block_n would leave columns unstored.
  expectRefused(
      gemm([](GemmConfig &c) { c.tmaStoreColumns = -64; }), buildGemm,
      "gemm: tma_store_columns must be at least 8 (0: the whole tile");
  expectRefused(gemm([](GemmConfig &c) {
                  c.blockM = 128;
                  c.blockN = 256;
                  c.blockK = 64;
                  c.threads = 384;
                  c.stages = 4;
                  c.divisibility = 8;
                  c.outDtype = "f16";
                  c.warpSpecialized = c.tmaStore = true;
                  c.tmaStoreColumns = 96;
                }),
                buildGemm,
                "gemm: tma_store_columns expects a proper divisor of block_n "
                "256 that is a multiple of 16 (32 bytes of f16), but got 96");

  // stream_k: shares of the persistent tile loop, one set of compute
  // threads per block.
  auto streamed = [&](auto change) {
    return gemm([&](GemmConfig &c) {
      c = GemmConfig{128, 256, 64, 384, "f16", 4, 8, false, "f16"};
      c.divisibility = 8;
      c.warpSpecialized = c.persistent = c.streamK = true;
      change(c);
    });
  };
  expectRefused(streamed([](GemmConfig &c) { c.persistent = false; }),
                buildGemm,
                "gemm: stream_k deals out the persistent tile loop's last "
                "rounds to one set of compute threads per block: expected "
                "persistent, cluster_m 1 and consumers 1, but got persistent "
                "false, cluster_m 1 and consumers 1");
  expectRefused(streamed([](GemmConfig &c) { c.clusterM = 2; }), buildGemm,
                "but got persistent true, cluster_m 2 and consumers 1");

  // swap_ab: the products' M is block_n, in compute warpgroups of 64.
  auto swapped = [&](auto change) {
    return gemm([&](GemmConfig &c) {
      c = GemmConfig{16, 64, 64, 256, "f32", 8, 0, false, "f16"};
      c.divisibility = 8;
      c.warpSpecialized = c.swapAB = true;
      change(c);
    });
  };
  expectRefused(swapped([](GemmConfig &c) { c.warpSpecialized = false; }),
                buildGemm,
                "gemm: swap_ab runs the warp-specialized pipeline on an NN "
                "GEMM");
  expectRefused(swapped([](GemmConfig &c) {
                  c.transposeB = true;
                  c.splitK = 2;
                }),
                buildGemm,
                "expected warp_specialized and no transposes, persistent, "
                "tma_store, split_k, cluster_m, consumers or staged "
                "epilogue, but got transpose_b, split_k > 1");
  expectRefused(swapped([](GemmConfig &c) { c.blockN = 96; }), buildGemm,
                "gemm: swap_ab expects block_n 64 or 128 (the products' M, "
                "a compute warpgroup per 64) with threads = 128 x (1 + "
                "block_n / 64), block_m a multiple of 8 up to 256 (their N) "
                "and block_k a multiple of 64, but got 16x96 x 64 over 256 "
                "threads");
  expectRefused(swapped([](GemmConfig &c) { c.blockM = 20; }), buildGemm,
                "but got 20x64 x 64 over 256 threads");
  expectRefused(swapped([](GemmConfig &c) { c.divisibility = 1; }), buildGemm,
                "expected divisibility a multiple of 8, but got 1");

  GemmSoftmaxConfig gs;
  gs.headDim = -64; // made compile() run out of memory
  expectRefused(gs, buildGemmSoftmax,
                "gemm_softmax: head_dim must be at least 8 (0: no V; else "
                "the N of one m16n8k16 MMA), but got -64");
  AttentionConfig attention;
  attention.blockN = 0;
  expectRefused(attention, buildAttention,
                "attention: block_n must be at least 16");
  attention = AttentionConfig();
  attention.headDim = 1 << 20;
  expectRefused(attention, buildAttention, "attention: needs at least");
  SoftmaxConfig softmax;
  softmax.online = true;
  softmax.stages = 100000;
  expectRefused(softmax, buildSoftmax, "softmax: stages must be from 1 to 8");
  softmax = SoftmaxConfig();
  softmax.stages = 2;
  expectRefused(softmax, buildSoftmax,
                "softmax: stages must be 1 without online");
  softmax = SoftmaxConfig();
  softmax.blockN = int64_t(1) << 40;
  expectRefused(softmax, buildSoftmax,
                "softmax: needs at least 4294967296 registers per thread");
  VectorAddConfig va;
  va.blockN = int64_t(1) << 40; // made compile() run out of memory
  expectRefused(va, buildVectorAdd, "vector_add: needs at least");
  va = VectorAddConfig();
  va.dtype = "f8";
  expectRefused(va, buildVectorAdd,
                "vector_add: dtype must be one of f16, bf16, f32, f64, i32, "
                "i64, but got 'f8'");
  BiasGeluConfig bg;
  bg.blockN = -1;
  expectRefused(bg, buildBiasGelu, "bias_gelu: block_n must be at least 1");
  PrintDemoConfig pd;
  pd.cols = 0;
  expectRefused(pd, buildPrintDemo, "print_demo: cols must be at least 1");
}

TEST(Generators, ValidConfigurationsHaveIdentifierNames) {
  // Every value validate() lets through makes a name that is a PTX
  // identifier ([A-Za-z_][A-Za-z0-9_]*): no '-', no unchecked type names.
  auto identifier = [](const std::string &name) {
    if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0])))
      return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    });
  };
  std::vector<std::string> names;
  for (int64_t raster : {int64_t(0), int64_t(1), int64_t(65535)})
    for (int64_t divisibility : {int64_t(1), int64_t(8), int64_t(1) << 40})
      for (const tile::config::gemm::EpilogueInfo &epilogue :
           tile::config::gemm::epilogues) {
        GemmConfig c{16, 8, 16, 32, "bf16", 8, raster, true, "bf16", true};
        c.divisibility = divisibility;
        c.epilogue = epilogue.name;
        c.stagedEpilogue = true;
        c.validate();
        names.push_back(c.kernelName());
      }
  auto valid = [](const auto &config) {
    config.validate();
    return config.kernelName();
  };
  names.push_back(
      valid(AttentionConfig{16, 16, 16, 32, 8, "bf16", true, true}));
  names.push_back(valid(GemmSoftmaxConfig{16, 8, 16, 32, 1, "bf16", 8}));
  names.push_back(valid(SoftmaxConfig{1, 1, 32, "f32", true, 8}));
  names.push_back(valid(BiasGeluConfig{1, 1, 32, "bf16", true}));
  names.push_back(valid(VectorAddConfig{1, 32, "i64"}));
  names.push_back(valid(PrintDemoConfig{1, 1, 32}));
  for (const std::string &name : names)
    EXPECT_TRUE(identifier(name)) << name;
}

TEST(Generators, SharedMemoryEstimateIsALowerBoundOfTheManifests) {
  // What validate() and tile-tune compare with a block's limit, against
  // what the compiler plans (the manifests of the library's GEMMs).
  GemmConfig plain;
  EXPECT_EQ(plain.sharedMemoryBytes(), 49152); // as GemmCompilesTo...
  GemmConfig fused{128, 128, 64, 128, "f16", 3, 0};
  fused.epilogue = "bias_gelu";
  fused.divisibility = 8;
  EXPECT_EQ(fused.sharedMemoryBytes(), 98560); // tile-kernels.mlir STAGEDSMEM
}

} // namespace
