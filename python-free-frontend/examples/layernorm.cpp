//===- layernorm.cpp - A LayerNorm generator written from scratch ---------===//
//
// The cookbook's kernel (docs/Cookbook.md) with the C++ frontend:
//   Y[r, :] = (X[r, :] - mean_r) / sqrt(var_r + eps) * W + B
// over the rows of an M x N tensor, each row held on chip, math in f32. It
// builds the `layernorm` generator's variants, compiles them, writes them
// into a kernel folder that the runtime's KernelLibrary::call reads, and
// prints each kernel's report:
//
//   tile-layernorm-example --out-dir=build/cookbook-kernels [--chip=sm_90]
//
//===----------------------------------------------------------------------===//

#include "tile/Frontend/Compile.h"
#include "tile/Frontend/Frontend.h"
#include "tile/Frontend/KernelDirectory.h"
#include "tile/Frontend/Kernels.h"
#include "tile/Frontend/Variants.h"
#include "tile/Target/KernelReport.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <exception>
#include <string>
#include <vector>

namespace cl = llvm::cl;
using namespace tile::fe;

static cl::opt<std::string>
    outDir("out-dir", cl::desc("Folder to write the kernels and index.json to"),
           cl::Required);
static cl::opt<std::string> chip("chip", cl::desc("Target chip"),
                                 cl::init("sm_90"));

namespace {

/// One variant of the generator; index.json records it as the "config".
struct LayerNormConfig {
  std::string dtype; // of X, W, B and Y: "f16", "bf16" or "f32"
  int64_t rows;      // rows per block
  int64_t blockN;    // columns a block holds: the longest row it takes
  int64_t threads;

  std::string kernelName() const {
    return "layernorm_" + dtype + "_" + std::to_string(rows) + "x" +
           std::to_string(blockN) + "_t" + std::to_string(threads);
  }
  llvm::json::Object json() const {
    return llvm::json::Object{{"dtype", dtype},
                              {"rows", rows},
                              {"block_n", blockN},
                              {"threads", threads}};
  }
};

std::string buildLayerNorm(Program &program, const LayerNormConfig &config) {
  mlir::Type type = parseElementType(program, config.dtype);
  mlir::Type f32 = program.f32();
  int64_t rows = config.rows, bN = config.blockN;
  std::string name = config.kernelName();

  Kernel k = program.kernel(name, config.threads);
  Buffer X = k.tensor("X", {kDynamic, kDynamic}, type);
  Buffer W = k.tensor("W", {kDynamic}, type);
  Buffer B = k.tensor("B", {kDynamic}, type);
  Buffer Y = k.tensor("Y", {kDynamic, kDynamic}, type);
  int eps = k.scalarParam("eps", f32);
  // Launch contract. A block holds bN columns of each row: a longer row
  // would be cut off and its statistics taken over its first bN columns.
  // W and B are read at every column of a row, Y written where X is read.
  k.require(size(X, 1) <= bN);
  k.require(size(W, 0) == size(X, 1));
  k.require(size(B, 0) == size(X, 1));
  k.require(size(Y, 0) == size(X, 0));
  k.require(size(Y, 1) == size(X, 1));

  k.body({ceildiv(X, 0, rows)}, [&](Kernel &k) {
    Expr row = k.blockIndex(0) * double(rows);
    Expr zero = k.index(0);
    Expr n = X.dim(1);
    // Divide by N, the row's length, not by the tile's bN columns.
    Expr invN = k.constant(1.0, f32) / cast(n, f32);
    Buffer x = k.allocFragment({rows, bN}, f32);
    Buffer sq = k.allocFragment({rows, bN}, f32);
    Buffer mean = k.allocFragment({rows}, f32);
    Buffer rstd = k.allocFragment({rows}, f32);
    Buffer w = k.allocShared({bN}, type);
    Buffer b = k.allocShared({bN}, type);
    k.copy(X.at({row, zero}), x); // to f32; 0 past N and past M
    k.copy(W.at({zero}), w);
    k.copy(B.at({zero}), b);

    k.reduceSum(x, mean); // the padded zeros add nothing to the sum
    k.parallel({rows},
               [&](const Indices &i) { mean[i] = Expr(mean[i]) * invN; });
    k.parallel({rows, bN}, [&](const Indices &i) {
      // A padded column holds 0, so its x - mean is -mean: unmasked, each
      // one would add mean^2 to the variance.
      Expr centered =
          select(less(i[1], n), x[i] - mean[i[0]], k.constant(0.0, f32));
      x[i] = centered;
      sq[i] = centered * centered;
    });
    k.reduceSum(sq, rstd);
    k.parallel({rows}, [&](const Indices &i) {
      rstd[i] = rsqrt(Expr(rstd[i]) * invN + k.scalar(eps));
    });
    k.parallel({rows, bN}, [&](const Indices &i) {
      x[i] = fma(x[i] * rstd[i[0]], cast(w[i[1]], f32), cast(b[i[1]], f32));
    });
    k.copy(x, Y.at({row, zero})); // to the output type, masked at M and N
  });
  return name;
}

/// Narrow tiles first: KernelLibrary::call takes the first variant in the
/// index whose contract accepts the call, so rows of up to 256 columns run
/// in the small tile and longer ones pass it over (X[1] <= 256) for the
/// 1024-column one.
const std::vector<LayerNormConfig> variants = {{"f16", 4, 256, 128},
                                               {"f16", 4, 1024, 256},
                                               {"f32", 4, 256, 128},
                                               {"f32", 4, 1024, 256}};

int compileVariants() {
  const std::string tool = "tile-layernorm-example";
  KernelDirectory out(tool, outDir, chip);
  if (!out.create())
    return 1;
  std::vector<mlir::tile::KernelReport> reports;
  for (const LayerNormConfig &config : variants) {
    Program program;
    std::string name = buildLayerNorm(program, config);
    if (std::string errors = program.verify(); !errors.empty()) {
      llvm::errs() << errors;
      return 1;
    }
    CompileOptions options;
    options.target.chip = chip;
    CompiledModule compiled =
        compile(program.module(), options, name + ".cubin");
    if (!compiled.ok) {
      llvm::errs() << compiled.error;
      return 1;
    }
    Variant variant{"layernorm", name, config.json()};
    if (!out.add(variant, name, compiled, program.str()))
      return 1;
    reports.insert(reports.end(), compiled.kernels.begin(),
                   compiled.kernels.end());
  }
  if (!out.writeIndex())
    return 1;
  llvm::outs() << mlir::tile::formatReports(reports) << "wrote " << out.size()
               << " layernorm kernels: " << outDir << "/index.json\n";
  return flushStandardOutput(tool) ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv,
                              "tile-layernorm-example: compile the cookbook's "
                              "layernorm kernels into a kernel folder\n");
  try {
    return compileVariants();
  } catch (const std::exception &e) {
    // The frontend throws for misuse, at the caller's line.
    llvm::errs() << "tile-layernorm-example: " << e.what() << "\n";
    return 1;
  }
}
