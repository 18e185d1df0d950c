//===- tile-kernels.cpp - Generate and compile the kernel library ---------===//
//
// Builds kernels with the C++ frontend generators and compiles them:
//
//   tile-kernels --list
//   tile-kernels --kernel=vector_add --block-n=2048 --emit=mlir
//   tile-kernels --out-dir=build/kernels --chip=sm_90
//
// With --out-dir it compiles the default variants of every kernel, writes
// <name>.mlir/.ptx/.cubin/.manifest.json and an index.json listing them, and
// prints a compile report (time, PTX size, vector accesses, local memory).
//
//===----------------------------------------------------------------------===//

#include "tile/Frontend/Compile.h"
#include "tile/Frontend/KernelDirectory.h"
#include "tile/Frontend/Kernels.h"
#include "tile/Frontend/Variants.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <string>
#include <vector>

namespace cl = llvm::cl;
using namespace tile::fe;

static cl::OptionCategory category("tile-kernels options");
static cl::opt<bool> list("list", cl::desc("List the kernel generators"),
                          cl::cat(category));
static cl::opt<std::string>
    kernelName("kernel", cl::desc("Generator to run (--list shows them)"),
               cl::cat(category));
static cl::opt<std::string>
    emit("emit", cl::desc("With --kernel: mlir, ptx, cubin or manifest"),
         cl::init("mlir"), cl::cat(category));
static cl::opt<std::string> output("o", cl::desc("Output file (- = stdout)"),
                                   cl::init("-"), cl::cat(category));
static cl::opt<std::string>
    outDir("out-dir", cl::desc("Compile the default variants into this folder"),
           cl::cat(category));
// Hidden: for the round-trip test of the options (ConfigTest.cpp).
static cl::opt<bool>
    printConfig("print-config",
                cl::desc("With --kernel: print the configuration the options "
                         "make, as index.json has it, and build nothing"),
                cl::Hidden, cl::cat(category));
static cl::opt<std::string> chip("chip", cl::desc("Target chip"),
                                 cl::init("sm_90"), cl::cat(category));
static cl::opt<std::string> cudaToolkit("cuda-toolkit",
                                        cl::desc("CUDA toolkit root"),
                                        cl::cat(category));
// The options that set generator fields: their names and defaults are the
// keys' (tile/runtime/ConfigKeys.h) of the generator each one documents
// first; several generators share an option (--block-n is vector_add's
// elements per block and gemm's N tile), so the help stays here.
namespace key = tile::config;
/// The option name of a key (cl::opt takes no `const char *`).
template <typename T>
static llvm::StringRef flag(const tile::config::Key<T> &k) {
  return k.flag;
}
static cl::opt<int64_t> blockN(flag(key::vector_add::blockN),
                               cl::desc("vector_add: elements per block; "
                                        "gemm: block tile N"),
                               cl::init(key::vector_add::blockN.defaultValue),
                               cl::cat(category));
static cl::opt<int64_t> blockM(flag(key::gemm::blockM),
                               cl::desc("gemm: block tile M"),
                               cl::init(key::gemm::blockM.defaultValue),
                               cl::cat(category));
static cl::opt<int64_t> blockK(flag(key::gemm::blockK),
                               cl::desc("gemm: K step"),
                               cl::init(key::gemm::blockK.defaultValue),
                               cl::cat(category));
static cl::opt<int64_t> stages(flag(key::gemm::stages),
                               cl::desc("gemm: software-pipeline depth; "
                                        "softmax --online: shared-memory "
                                        "stages per pass (default: none)"),
                               cl::init(key::gemm::stages.defaultValue),
                               cl::cat(category));
static cl::opt<int64_t>
    headDim(flag(key::gemm_softmax::headDim),
            cl::desc("gemm_softmax: also multiply by V "
                     "(N x head-dim); 0: no"),
            cl::init(key::gemm_softmax::headDim.defaultValue),
            cl::cat(category));
static cl::opt<bool> causal(flag(key::attention::causal),
                            cl::desc("attention: causal (query i sees keys "
                                     "j <= i)"),
                            cl::cat(category));
static cl::opt<bool> lse(flag(key::attention::lse),
                         cl::desc("attention: also write the log-sum-exp "
                                  "of each query row (LSE[batch, heads, seq])"),
                         cl::cat(category));
static cl::opt<int64_t> divisibility(
    flag(key::gemm::divisibility),
    cl::desc("gemm: promise that every tensor's rows (K, N) are multiples of "
             "this (checked at launch; 8 drops the unaligned fallbacks); 1: "
             "any shape"),
    cl::init(key::gemm::divisibility.defaultValue), cl::cat(category));
static cl::opt<bool> stagedEpilogue(
    flag(key::gemm::stagedEpilogue),
    cl::desc("gemm: run the epilogue as a loop over the accumulator staged "
             "in shared memory"),
    cl::cat(category));
static cl::opt<int64_t>
    rasterPanel(flag(key::gemm::rasterPanel),
                cl::desc("gemm: rasterization panel (grid rows; 0 = off)"),
                cl::init(key::gemm::rasterPanel.defaultValue),
                cl::cat(category));
static cl::opt<bool> transposeB(flag(key::gemm::transposeB),
                                cl::desc("gemm: B is N x K (C = A B^T)"),
                                cl::cat(category));
static cl::opt<bool> transposeA(flag(key::gemm::transposeA),
                                cl::desc("gemm: A is K x M (C = A^T B)"),
                                cl::cat(category));
static cl::opt<std::string> inDtype(flag(key::gemm::inDtype),
                                    cl::desc("gemm: input type (f16, bf16)"),
                                    cl::init(key::gemm::inDtype.defaultValue),
                                    cl::cat(category));
static cl::opt<std::string> outDtype(flag(key::gemm::outDtype),
                                     cl::desc("gemm: output type (f32, f16)"),
                                     cl::init(key::gemm::outDtype.defaultValue),
                                     cl::cat(category));
static cl::opt<std::string>
    epilogue(flag(key::gemm::epilogue),
             cl::desc("gemm: none, bias_gelu or bias_gelu_tanh (fused)"),
             cl::init(key::gemm::epilogue.defaultValue), cl::cat(category));
static cl::opt<bool> geluTanhForm(flag(key::bias_gelu::tanh),
                                  cl::desc("bias_gelu: the tanh approximation"),
                                  cl::cat(category));
static cl::opt<bool> online(flag(key::softmax::online),
                            cl::desc("softmax: rows of any length (two "
                                     "passes over --block-n-wide chunks)"),
                            cl::cat(category));
static cl::opt<int64_t> threads(flag(key::vector_add::threads),
                                cl::desc("Threads per block"),
                                cl::init(key::vector_add::threads.defaultValue),
                                cl::cat(category));
static cl::opt<std::string> dtype(flag(key::vector_add::dtype),
                                  cl::desc("Element type"),
                                  cl::init(key::vector_add::dtype.defaultValue),
                                  cl::cat(category));

namespace {

std::vector<Variant> defaultVariants() {
  std::vector<Variant> variants;
  for (auto [n, t] : {std::pair<int64_t, int64_t>{1024, 256},
                      {2048, 256},
                      {4096, 256},
                      {4096, 512},
                      {8192, 512}})
    variants.push_back(vectorAddVariant({n, t, "f32"}));
  // The tile shapes that lead on the H200 (benchmarks/results/README.md),
  // for every input / output type pair: which one wins depends on the
  // problem, and on rasterization at 4096^3. The big tiles promise rows
  // that are multiples of 8 (`_div8`: no unaligned fallback, half the code
  // and compile time); the 64 x 64 tiles run on any shape.
  for (auto [in, out] : {std::pair<const char *, const char *>{"f16", "f32"},
                         {"f16", "f16"},
                         {"bf16", "f32"},
                         {"bf16", "bf16"}}) {
    for (GemmConfig c : {GemmConfig{128, 128, 64, 128, out, 3, 0, false, in},
                         GemmConfig{128, 128, 64, 128, out, 3, 8, false, in},
                         GemmConfig{128, 256, 64, 256, out, 3, 8, false, in},
                         GemmConfig{256, 128, 64, 256, out, 3, 8, false, in}}) {
      c.divisibility = 8;
      variants.push_back(gemmVariant(c));
    }
    variants.push_back(
        gemmVariant(GemmConfig{64, 64, 32, 128, out, 3, 0, false, in}));
  }
  // f16 -> f32 only: no pipelining (the baseline, any shape), a K step of
  // 32 with 4 stages, and the transposed operands (also as 64 x 64 tiles
  // for any shape, so that odd strides of transposed operands stay tested).
  variants.push_back(gemmVariant(GemmConfig{128, 128, 32, 128, "f32", 1, 0}));
  for (auto [ta, tb] : {std::pair{false, true}, {true, false}, {true, true}})
    variants.push_back(
        gemmVariant(GemmConfig{64, 64, 32, 128, "f32", 3, 0, tb, "f16", ta}));
  for (GemmConfig c :
       {GemmConfig{128, 128, 32, 128, "f32", 4, 8},
        GemmConfig{128, 256, 64, 256, "f32", 3, 8, true},
        GemmConfig{128, 256, 64, 256, "f32", 3, 8, false, "f16", true},
        GemmConfig{128, 256, 64, 256, "f32", 3, 8, true, "f16", true}}) {
    c.divisibility = 8;
    variants.push_back(gemmVariant(c));
  }
  // Fused bias + GELU epilogues (f16 -> f16, the leading tile shapes; the
  // 64 x 64 one for any shape), and the same epilogue as a kernel of its
  // own to run after a GEMM. The leading shapes are staged (a loop over the
  // accumulator in shared memory): their unrolled forms (`tile-kernels
  // --epilogue=...` without --staged-epilogue) compile in 0.9-1.3 s with
  // 256 threads, the staged ones in about 0.7 s, and run within a point of
  // them (128x256: faster; benchmarks/results/2026-12-01-h200-epilogue-ncu).
  for (const char *epilogue : {"bias_gelu", "bias_gelu_tanh"}) {
    for (GemmConfig c : {GemmConfig{128, 128, 64, 128, "f16", 3, 0},
                         GemmConfig{128, 256, 64, 256, "f16", 3, 8},
                         GemmConfig{256, 128, 64, 256, "f16", 3, 8}}) {
      c.epilogue = epilogue;
      c.divisibility = 8;
      c.stagedEpilogue = true;
      variants.push_back(gemmVariant(c));
    }
    GemmConfig any{64, 64, 32, 128, "f16", 3, 0};
    any.epilogue = epilogue;
    variants.push_back(gemmVariant(any));
  }
  variants.push_back(printDemoVariant({}));
  for (bool tanh : {false, true}) {
    BiasGeluConfig c;
    c.tanhApproximation = tanh;
    variants.push_back(biasGeluVariant(c));
  }
  // FlashAttention forward, non-causal and causal. 128-row tiles on 4 warps
  // (32 query rows per warp) read each K/V fragment from shared memory once
  // for two MMA rows: the fastest at D=64; 64x64 is the small-problem tile.
  for (bool causal : {false, true})
    for (AttentionConfig c : {AttentionConfig{64, 64, 64, 128, 2, "f16"},
                              AttentionConfig{128, 64, 64, 128, 2, "f16"},
                              AttentionConfig{128, 128, 64, 128, 2, "f16"},
                              AttentionConfig{128, 64, 64, 128, 2, "bf16"},
                              AttentionConfig{64, 64, 128, 128, 2, "f16"},
                              AttentionConfig{128, 32, 128, 128, 2, "f16"},
                              AttentionConfig{128, 64, 128, 128, 2, "f16"},
                              AttentionConfig{128, 128, 128, 256, 2, "f16"},
                              AttentionConfig{64, 64, 128, 128, 2, "bf16"},
                              AttentionConfig{128, 32, 128, 128, 2, "bf16"},
                              AttentionConfig{128, 64, 128, 128, 2, "bf16"},
                              AttentionConfig{128, 128, 128, 256, 2, "bf16"}}) {
      c.causal = causal;
      variants.push_back(attentionVariant(c));
    }
  // With the log-sum-exp output, on the fastest D=64 tile.
  for (bool causal : {false, true}) {
    AttentionConfig c{128, 64, 64, 128, 2, "f16", causal, /*lse=*/true};
    variants.push_back(attentionVariant(c));
  }
  // Softmax over the columns of A x B^T in the MMA accumulator: warp grids
  // of 2x2 and 1x4 (cross-warp reductions), 4x2 with 8 warps, and bf16.
  for (GemmSoftmaxConfig c :
       {GemmSoftmaxConfig{64, 64, 32, 128, 2, "f16"},
        GemmSoftmaxConfig{16, 128, 32, 128, 2, "f16"},
        GemmSoftmaxConfig{128, 128, 32, 256, 2, "bf16"},
        // x V, the probabilities as the A operand in registers.
        GemmSoftmaxConfig{64, 64, 32, 128, 2, "f16", 64},
        GemmSoftmaxConfig{128, 64, 32, 256, 2, "bf16", 128}})
    variants.push_back(gemmSoftmaxVariant(c));
  // Softmax: rows of up to 1024, 4096, 8192 and 32768 elements on chip,
  // each in a few (rows per block, threads) shapes; the benchmark times
  // every variant that holds a row and reports the fastest.
  for (const char *dtype : {"f16", "bf16", "f32"}) {
    for (auto [rows, blockN, threads] :
         {std::tuple{1, 1024, 32}, std::tuple{2, 1024, 64},
          std::tuple{2, 1024, 128}, std::tuple{4, 1024, 128},
          std::tuple{4, 1024, 256}, std::tuple{1, 4096, 64},
          std::tuple{1, 4096, 128}, std::tuple{1, 4096, 256},
          std::tuple{1, 8192, 128}, std::tuple{1, 8192, 256},
          std::tuple{1, 8192, 512}, std::tuple{1, 32768, 512},
          std::tuple{1, 32768, 1024}})
      variants.push_back(softmaxVariant({rows, blockN, threads, dtype}));
    // Any row length: two passes over block_n-wide chunks, straight from
    // global memory or (stages > 1) streamed through shared memory.
    for (auto [blockN, threads, stages] :
         {std::tuple{4096, 128, 1}, std::tuple{8192, 256, 1},
          std::tuple{8192, 512, 1}, std::tuple{2048, 128, 3},
          std::tuple{4096, 128, 2}, std::tuple{4096, 256, 3},
          std::tuple{8192, 256, 2}})
      variants.push_back(
          softmaxVariant({1, blockN, threads, dtype, true, stages}));
  }
  return variants;
}

/// The sums over a module's kernels of what its table shows.
struct KernelCounts {
  int64_t vectorLoads = 0, vectorStores = 0, mma = 0;
  bool usesLocal = false;
};

KernelCounts countKernels(const CompiledModule &compiled) {
  KernelCounts counts;
  for (const mlir::tile::KernelReport &kernel : compiled.kernels) {
    counts.vectorLoads += kernel.globalVectorLoads;
    counts.vectorStores += kernel.globalVectorStores;
    counts.mma += kernel.mma;
    counts.usesLocal |= kernel.usesLocalMemory;
  }
  return counts;
}

CompileOptions compileOptions() {
  CompileOptions options;
  options.target.chip = chip;
  options.cudaToolkit = cudaToolkit;
  return options;
}

int compileAll() {
  KernelDirectory out("tile-kernels", outDir, chip);
  if (!out.create())
    return 1;
  int failures = 0;
  llvm::outs() << llvm::formatv(
      "{0,-38} {1,10} {2,15} {3,9} {4,6} {5,6} {6,6} {7,6}  {8}\n", "kernel",
      "compile ms", "mlir/llvm/ptxas", "PTX B", "ld.g.v", "st.g.v", "mma",
      "local", "status");
  std::vector<std::pair<double, std::string>> times;
  for (const Variant &variant : defaultVariants()) {
    Program program;
    std::string name = variant.build(program);
    std::string diagnostics = program.verify();
    CompiledModule compiled;
    if (diagnostics.empty())
      compiled = compile(program.module(), compileOptions(), name + ".cubin");
    else
      compiled.error = diagnostics;
    bool ok = compiled.ok && out.add(variant, name, compiled, program.str());
    KernelCounts counts = countKernels(compiled);
    std::string phases =
        llvm::formatv("{0:f0}/{1:f0}/{2:f0}", compiled.lowerSeconds * 1e3,
                      compiled.llvmSeconds * 1e3, compiled.ptxasSeconds * 1e3);
    if (ok)
      times.emplace_back(compiled.compileSeconds * 1e3, name);
    llvm::outs() << llvm::formatv(
        "{0,-38} {1,10:f1} {2,15} {3,9} {4,6} {5,6} {6,6} {7,6}  {8}\n", name,
        compiled.compileSeconds * 1e3, phases, compiled.ptx.size(),
        counts.vectorLoads, counts.vectorStores, counts.mma,
        counts.usesLocal ? "yes" : "no", ok ? "ok" : "FAILED");
    if (!ok) {
      ++failures;
      llvm::errs() << compiled.error;
    }
  }
  if (!out.writeIndex())
    return 1;
  if (!times.empty()) {
    llvm::sort(times);
    auto overOneSecond = llvm::count_if(
        times, [](const auto &entry) { return entry.first > 1000; });
    llvm::outs() << llvm::formatv(
        "compile time (tile IR -> cubin, one kernel at a time): median "
        "{0:f0} ms, slowest {1:f0} ms ({2}), {3} of {4} over 1 s\n",
        times[times.size() / 2].first, times.back().first, times.back().second,
        overOneSecond, times.size());
  }
  llvm::outs() << "compiled kernels: " << outDir << "/index.json ("
               << (failures ? "with failures" : "all ok") << ")\n";
  return failures || !flushStandardOutput("tile-kernels") ? 1 : 0;
}

/// Sets `field` from the option that its key names. An option's value,
/// given or its default, applies to every generator it sets, except
/// --stages and --head-dim: their defaults differ per generator, so when
/// they are not given a field keeps its generator's default.
template <typename T, typename Field>
void setFromOption(llvm::ArrayRef<cl::opt<T> *> options, const char *flag,
                   Field &field) {
  for (cl::opt<T> *option : options) {
    if (option->ArgStr != flag)
      continue;
    bool perGenerator =
        option->ArgStr == stages.ArgStr || option->ArgStr == headDim.ArgStr;
    if (!perGenerator || option->getNumOccurrences())
      field = option->getValue();
    return;
  }
  llvm::report_fatal_error(llvm::Twine("tile-kernels: no option --") + flag);
}
void setFromOption(const char *flag, int64_t &field) {
  setFromOption<int64_t>({&blockN, &blockM, &blockK, &stages, &headDim,
                          &divisibility, &rasterPanel, &threads},
                         flag, field);
}
void setFromOption(const char *flag, bool &field) {
  setFromOption<bool>({&causal, &lse, &stagedEpilogue, &transposeB, &transposeA,
                       &geluTanhForm, &online},
                      flag, field);
}
void setFromOption(const char *flag, std::string &field) {
  setFromOption<std::string>({&inDtype, &outDtype, &epilogue, &dtype}, flag,
                             field);
}

/// The generator's configuration from the command line: each field with a
/// flag (ConfigKeys.h) from its option, the others at their defaults.
template <typename Config> Config configFromOptions() {
  Config c;
  Config::forEachField(c, [](const auto &key, auto &field) {
    if (key.flag)
      setFromOption(key.flag, field);
  });
  return c;
}

int emitOne() {
  if (emit != "mlir" && emit != "ptx" && emit != "cubin" &&
      emit != "manifest") {
    llvm::errs() << "tile-kernels: expected --emit=mlir, ptx, cubin or "
                    "manifest, but got '"
                 << emit << "'\n";
    return 1;
  }
  Variant variant;
  if (kernelName == key::vector_add::generator)
    variant = vectorAddVariant(configFromOptions<VectorAddConfig>());
  else if (kernelName == key::print_demo::generator)
    variant = printDemoVariant(configFromOptions<PrintDemoConfig>());
  else if (kernelName == key::gemm::generator)
    variant = gemmVariant(configFromOptions<GemmConfig>());
  else if (kernelName == key::softmax::generator)
    variant = softmaxVariant(configFromOptions<SoftmaxConfig>());
  else if (kernelName == key::gemm_softmax::generator)
    variant = gemmSoftmaxVariant(configFromOptions<GemmSoftmaxConfig>());
  else if (kernelName == key::attention::generator)
    variant = attentionVariant(configFromOptions<AttentionConfig>());
  else if (kernelName == key::bias_gelu::generator)
    variant = biasGeluVariant(configFromOptions<BiasGeluConfig>());
  else {
    llvm::errs() << "tile-kernels: unknown kernel '" << kernelName
                 << "'; --list shows the generators\n";
    return 1;
  }
  if (printConfig) {
    llvm::outs() << llvm::formatv("{0}\n",
                                  llvm::json::Value(std::move(variant.config)));
    return flushStandardOutput("tile-kernels") ? 0 : 1;
  }
  Program program;
  std::string name = variant.build(program);
  std::string diagnostics = program.verify();
  if (!diagnostics.empty()) {
    llvm::errs() << diagnostics;
    return 1;
  }
  std::string out;
  if (emit == "mlir") {
    out = program.str();
  } else {
    CompileOptions options = compileOptions();
    options.emitCubin = emit == "cubin";
    // The manifest names the cubin only when it is written next to it.
    CompiledModule compiled =
        compile(program.module(), options,
                emit == "cubin" && output != "-"
                    ? llvm::sys::path::filename(output).str()
                    : std::string());
    if (!compiled.ok) {
      llvm::errs() << compiled.error;
      return 1;
    }
    out = emit == "ptx"     ? compiled.ptx
          : emit == "cubin" ? compiled.cubin
                            : compiled.manifest;
  }
  return writeTextFile("tile-kernels", output, out) ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv,
                              "tile-kernels: build and compile kernels "
                              "with the C++ frontend generators\n");
  if (list) {
    llvm::outs()
        << "vector_add   C = A + B, 1-D, any length "
           "(--block-n, --num-threads, --dtype)\n"
        << "gemm         C = A x B on tensor cores, f16/bf16 in, f32 "
           "accumulate, any M, N, K (--block-m, --block-n, "
           "--block-k, --num-threads, --out-dtype, --stages, "
           "--raster-panel, --transpose-a, --transpose-b, --in-dtype, "
           "--epilogue=none|bias_gelu|bias_gelu_tanh)\n"
        << "softmax      Y = softmax(X) along rows of up to --block-n "
           "elements (--block-m rows per block, --num-threads, --dtype; "
           "--online: any length, --stages=N: chunks through shared "
           "memory)\n"
        << "bias_gelu    C = gelu(C + bias) in place, row-major M x N "
           "(--block-m, --block-n, --num-threads, --dtype, --tanh)\n"
        << "gemm_softmax Y = softmax(A x B^T) along rows, N up to --block-n, "
           "reduced in the MMA accumulator (--block-m, --block-n, "
           "--block-k, --num-threads, --stages, --in-dtype; --head-dim=D: "
           "times V, N x D, the probabilities in registers)\n"
        << "attention    O = softmax(Q K^T / sqrt(D)) V, Q/K/V/O [batch, "
           "heads, seq, D], any lengths (--block-m query rows, --block-n "
           "keys per step, --head-dim, --num-threads, --stages, --dtype, "
           "--causal, --lse)\n"
        << "print_demo   device printing: an index, a shared tile and the "
           "fragment elements of a warp (tile.print)\n";
    return flushStandardOutput("tile-kernels") ? 0 : 1;
  }
  try {
    if (!outDir.empty())
      return compileAll();
    if (!kernelName.empty())
      return emitOne();
  } catch (const std::exception &e) {
    llvm::errs() << "tile-kernels: " << e.what() << "\n";
    return 1;
  }
  llvm::errs() << "tile-kernels: give --list, --kernel=NAME or "
                  "--out-dir=DIR\n";
  return 1;
}
