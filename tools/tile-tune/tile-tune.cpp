//===- tile-tune.cpp - Search a generator's configuration space -----------===//
//
//   tile-tune --kernel=gemm --in-dtype=f16 --out-dtype=f32 --out-dir=DIR
//
// The compile-side half of the autotuner: enumerates the generator's
// configuration space, prunes what cannot run on the target (each with its
// reason), compiles the rest in parallel, prunes what ptxas says does not
// fit (one progress line per candidate on standard error: k of n, elapsed
// time, compile time, registers and spills or why it was pruned), and writes
// the survivors as a kernel directory (index.json + cubins + manifests, the
// format of tile-kernels --out-dir) with tune.json describing the search. The
// limits come from the chip's table, or from the GPU itself: `tile-device-info
// --json > gpu.json` on the GPU machine, then `tile-tune --device=gpu.json`
// here. tile-tune-run (runtime only) validates and times the candidates on the
// GPU.
//
//===----------------------------------------------------------------------===//

#include "tile/Frontend/KernelDirectory.h"
#include "tile/Frontend/Tuning.h"
#include "tile/Target/Target.h"
#include "tile/runtime/Progress.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <thread>

namespace cl = llvm::cl;
using namespace tile::fe;

static cl::OptionCategory category("tile-tune options");
// The options that name a GEMM field take its flag and default from its key
// (tile/runtime/ConfigKeys.h); the lists' help gives the search's defaults.
namespace key = tile::config::gemm;
/// The option name of a key (cl::opt takes no `const char *`).
template <typename T>
static llvm::StringRef flag(const tile::config::Key<T> &k) {
  return k.flag;
}
static cl::opt<std::string> kernel("kernel",
                                   cl::desc("Generator to tune (gemm)"),
                                   cl::init("gemm"), cl::cat(category));
static cl::opt<std::string> inDtype(flag(key::inDtype),
                                    cl::desc("gemm: f16 or bf16"),
                                    cl::init(key::inDtype.defaultValue),
                                    cl::cat(category));
static cl::opt<std::string> outDtype(flag(key::outDtype),
                                     cl::desc("gemm: f32, f16 or bf16"),
                                     cl::init(key::outDtype.defaultValue),
                                     cl::cat(category));
static cl::opt<bool> transposeA(flag(key::transposeA),
                                cl::desc("gemm: A is stored K x M (C = A^T B)"),
                                cl::init(false), cl::cat(category));
static cl::opt<bool> transposeB(flag(key::transposeB),
                                cl::desc("gemm: B is stored N x K (C = A B^T)"),
                                cl::init(false), cl::cat(category));
static cl::opt<std::string> chip("chip", cl::desc("Target chip"),
                                 cl::init("sm_90"), cl::cat(category));
static cl::opt<std::string>
    outDir("out-dir",
           cl::desc("Write the compiled candidates here (kernel index)"),
           cl::cat(category));
static cl::opt<unsigned>
    jobs("jobs", cl::desc("Parallel compilations (default: CPU cores)"),
         cl::init(std::max(1u, std::thread::hardware_concurrency())),
         cl::cat(category));
static cl::opt<bool> dryRun("dry-run",
                            cl::desc("Prune only: list the candidates and "
                                     "why each pruned one was, compile "
                                     "nothing"),
                            cl::cat(category));
static cl::opt<std::string> deviceFile(
    "device",
    cl::desc("Prune against the limits of a GPU: the output of "
             "`tile-device-info --json` run on it (its first device; "
             "sets --chip)"),
    cl::value_desc("file"), cl::cat(category));
static cl::opt<int64_t> maxShared(
    "max-shared-kib",
    cl::desc("Shared memory per block in KiB (default: the chip's table; "
             "tile-device-info prints the device's)"),
    cl::init(0), cl::cat(category));
static cl::list<int64_t> blockMs(flag(key::blockM),
                                 cl::desc("gemm: block tile M values (default "
                                          "64,128,256)"),
                                 cl::CommaSeparated, cl::cat(category));
static cl::list<int64_t> blockNs(flag(key::blockN),
                                 cl::desc("gemm: block tile N values (default "
                                          "64,128,256)"),
                                 cl::CommaSeparated, cl::cat(category));
static cl::list<int64_t>
    blockKs(flag(key::blockK), cl::desc("gemm: K step values (default 32,64)"),
            cl::CommaSeparated, cl::cat(category));
static cl::list<int64_t> stageCounts(flag(key::stages),
                                     cl::desc("gemm: pipeline depths (default "
                                              "2,3,4)"),
                                     cl::CommaSeparated, cl::cat(category));
static cl::list<int64_t> threadCounts(flag(key::threads),
                                      cl::desc("threads per block (default "
                                               "128,256)"),
                                      cl::CommaSeparated, cl::cat(category));
static cl::list<int64_t> rasterPanels(flag(key::rasterPanel),
                                      cl::desc("gemm: rasterization panels "
                                               "(default 0,8)"),
                                      cl::CommaSeparated, cl::cat(category));
static cl::list<int64_t> divisibilities(
    flag(key::divisibility),
    cl::desc("gemm: row divisibility promises (default 8: the rows of A, B "
             "and C are multiples of 8, checked at launch; 1: any shape)"),
    cl::CommaSeparated, cl::cat(category));
static cl::list<int64_t>
    splitKs(flag(key::splitK),
            cl::desc("gemm: split-K slices (default 1: off; more need "
                     "--out-dtype=f32)"),
            cl::CommaSeparated, cl::cat(category));
static cl::opt<bool> warpSpecialized(
    "warp-specialized",
    cl::desc("gemm: also search the sm_90a warp-specialized form of each "
             "tile shape (TMA + wgmma, threads = 128 x (1 + block_m / 64)), "
             "compiled for sm_90a"),
    cl::init(false));
static cl::opt<bool> persistent(
    flag(key::persistent),
    cl::desc("gemm: with --warp-specialized, also the persistent form of "
             "each warp-specialized candidate without split-K"),
    cl::init(false), cl::cat(category));
static cl::opt<bool> swapAB(
    flag(key::swapAB),
    cl::desc("gemm: with --warp-specialized, also the swap_ab form (C^T = "
             "B^T A^T, block_n columns of C as the wgmma's M) of each "
             "warp-specialized NN candidate without split-K, persistence or "
             "TMA store"),
    cl::init(false), cl::cat(category));
static cl::opt<bool> streamK(
    flag(key::streamK),
    cl::desc("gemm: with --persistent, also the stream-K form (the partial "
             "round of tiles in K chunks) of each persistent candidate with "
             "one set of compute threads and no cluster"),
    cl::init(false), cl::cat(category));
static cl::opt<bool> tmaStore(
    flag(key::tmaStore),
    cl::desc("gemm: with --warp-specialized, also the TMA-store epilogue of "
             "each warp-specialized candidate without split-K"),
    cl::init(false), cl::cat(category));
static cl::list<int64_t> tmaStoreColumns(
    flag(key::tmaStoreColumns),
    cl::desc("gemm: with --tma-store, the band widths of each TMA-store "
             "candidate, 0 for the whole tile (default 0)"),
    cl::CommaSeparated, cl::cat(category));
static cl::list<int64_t> clusterMs(
    flag(key::clusterM),
    cl::desc("gemm: with --persistent, the cluster sizes along M of each "
             "persistent candidate, 1 for none (default 1)"),
    cl::CommaSeparated, cl::cat(category));
static cl::list<int64_t> consumerCounts(
    flag(key::consumers),
    cl::desc("gemm: with --persistent, the compute sets of each persistent "
             "candidate without a cluster, 1 for cooperative, 2 for "
             "ping-pong (default 1)"),
    cl::CommaSeparated, cl::cat(category));
static cl::opt<bool> addWrongCandidate(
    "add-wrong-candidate",
    cl::desc("Add a deliberately wrong candidate (an NT kernel recorded as "
             "NN) to check that the GPU side rejects it"),
    cl::cat(category));
static cl::opt<bool>
    quiet("quiet",
          cl::desc("No progress lines on standard error while compiling"),
          cl::cat(category));
static cl::opt<std::string> cudaToolkit("cuda-toolkit",
                                        cl::desc("CUDA toolkit root"),
                                        cl::cat(category));

/// What compiled the candidates, for the tuning cache's key: LLVM's and
/// ptxas's versions and a hash of the candidates' PTX (any compiler change
/// that changes the code changes the key).
static std::string toolchainId(const std::vector<TuneCandidate> &candidates,
                               const std::string &toolkit) {
  std::string ptxas = mlir::tile::ptxasVersion(toolkit);
  uint64_t hash = 0;
  for (const TuneCandidate &c : candidates)
    if (c.alive())
      hash = llvm::xxh3_64bits(c.compiled.ptx) ^ (hash * 31);
  return llvm::formatv("LLVM {0}; ptxas {1}; PTX {2:x16}", LLVM_VERSION_STRING,
                       ptxas.empty() ? "?" : ptxas, hash)
      .str();
}

/// What a progress line says of a candidate the compiler is done with:
/// "compiled in 812.3 ms, 128 registers, 0 spill bytes; ok", the same
/// ending in "; pruned: REASON" when ptxas's registers do not fit, or the
/// compiler's first error.
static std::string compileDetail(const TuneCandidate &c) {
  if (!c.compiled.ok)
    return c.pruned.empty() ? "does not compile" : c.pruned.back();
  std::string detail = llvm::formatv("compiled in {0:f1} ms, {1} registers, "
                                     "{2} spill bytes",
                                     c.compiled.compileSeconds * 1e3,
                                     c.registers ? std::to_string(*c.registers)
                                                 : std::string("?"),
                                     c.spillBytes);
  return detail + (c.alive() ? "; ok" : "; pruned: " + c.pruned.back());
}

int main(int argc, char **argv) {
  tile::rt::Stopwatch clock;
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv,
                              "tile-tune: search a kernel generator's "
                              "configuration space\n");
  if (kernel != "gemm") {
    llvm::errs() << "tile-tune: no configuration space for '" << kernel
                 << "' yet (gemm has one)\n";
    return 1;
  }
  std::optional<DeviceLimits> device;
  if (!deviceFile.empty()) {
    std::string error;
    device = readDeviceLimits(deviceFile, error);
    if (!device) {
      llvm::errs() << "tile-tune: " << deviceFile << ": " << error << "\n";
      return 1;
    }
    if (chip.getNumOccurrences() && chip != device->chip) {
      llvm::errs() << "tile-tune: --chip=" << chip << " but " << deviceFile
                   << " describes a " << device->chip << " GPU ("
                   << device->name << ")\n";
      return 1;
    }
    chip = device->chip;
  }
  std::optional<DeviceLimits> limits = device ? device : limitsForChip(chip);
  if (!limits) {
    llvm::errs() << "tile-tune: no limits known for chip '" << chip
                 << "' (sm_80, sm_86, sm_89, sm_90)\n";
    return 1;
  }
  if (maxShared < 0 || maxShared > 1024 * 1024) {
    llvm::errs() << "tile-tune: expected --max-shared-kib from 1 to 1048576 "
                    "(0: the chip's table), but got "
                 << maxShared << "\n";
    return 1;
  }
  if (maxShared > 0) {
    limits->maxSharedPerBlock = maxShared * 1024;
    limits->name = chip + " (--max-shared-kib)";
  }
  // The types hold for every candidate: the generator's own check of them
  // (on its default configuration) says at once what it takes.
  {
    GemmConfig types;
    types.inDtype = inDtype;
    types.outDtype = outDtype;
    try {
      types.validate();
    } catch (const std::invalid_argument &e) {
      llvm::errs() << "tile-tune: " << e.what() << "\n";
      return 1;
    }
  }
  if (!dryRun && outDir.empty()) {
    llvm::errs() << "tile-tune: give --out-dir (or --dry-run)\n";
    return 1;
  }
  std::string toolkit =
      cudaToolkit.empty() ? defaultCudaToolkit() : std::string(cudaToolkit);
  // Before compiling anything: ptxas must run and the folder be writable.
  KernelDirectory out("tile-tune", outDir, chip);
  if (!dryRun) {
    if (mlir::tile::ptxasVersion(toolkit).empty()) {
      llvm::errs() << "tile-tune: cannot run " << toolkit
                   << "/bin/ptxas --version (the CUDA toolkit"
                   << (cudaToolkit.empty() ? " found at build time"
                                           : " of --cuda-toolkit")
                   << "): no candidate could be compiled to a cubin\n";
      return 1;
    }
    if (!out.create())
      return 1;
  }

  GemmSpaceAxes axes;
  auto restrict = [](std::vector<int64_t> &axis, const cl::list<int64_t> &l) {
    if (!l.empty())
      axis.assign(l.begin(), l.end());
  };
  restrict(axes.blockM, blockMs);
  restrict(axes.blockN, blockNs);
  restrict(axes.blockK, blockKs);
  restrict(axes.stages, stageCounts);
  restrict(axes.threads, threadCounts);
  restrict(axes.rasterPanel, rasterPanels);
  restrict(axes.divisibility, divisibilities);
  restrict(axes.splitK, splitKs);
  if (warpSpecialized)
    axes.warpSpecialized = {false, true};
  if (persistent)
    axes.persistent = {false, true};
  if (tmaStore)
    axes.tmaStore = {false, true};
  if (swapAB)
    axes.swapAB = {false, true};
  if (streamK)
    axes.streamK = {false, true};
  restrict(axes.tmaStoreColumns, tmaStoreColumns);
  restrict(axes.clusterM, clusterMs);
  restrict(axes.consumers, consumerCounts);
  axes.transposeA = transposeA;
  axes.transposeB = transposeB;
  TuneSpace space = gemmTuneSpace(inDtype, outDtype, axes);
  if (addWrongCandidate) {
    GemmConfig c;
    c.inDtype = inDtype;
    c.outDtype = outDtype;
    c.transposeB = true;
    Variant wrong = gemmVariant(c);
    wrong.config["transpose_b"] = false; // launched as C = A B: wrong
    space.candidates.push_back(std::move(wrong));
  }
  std::vector<TuneCandidate> candidates = pruneStatically(space, *limits);
  size_t alive = llvm::count_if(candidates, [](auto &c) { return c.alive(); });
  llvm::outs() << llvm::formatv(
      "{0}: {1} configurations, {2} pruned before compiling, {3} to "
      "compile ({4}; shared memory per block {5} KiB)\n",
      space.generator, candidates.size(), candidates.size() - alive, alive,
      limits->name, limits->maxSharedPerBlock / 1024);
  for (const TuneCandidate &c : candidates)
    for (const std::string &reason : c.pruned)
      llvm::outs() << "  pruned " << c.name << ": " << reason << "\n";
  if (dryRun)
    return flushStandardOutput("tile-tune") ? 0 : 1;

  CompileOptions options;
  options.target.chip = chip;
  options.cudaToolkit = cudaToolkit;
  // Progress on standard error, one line per candidate (the tables on
  // standard output stay as they are): a long search shows how far it got.
  size_t threads = std::clamp<size_t>(jobs, 1, std::max<size_t>(1, alive));
  if (!quiet && alive)
    llvm::errs() << llvm::formatv(
        "tile-tune: compiling {0} candidate{1} on {2} thread{3} ({4} pruned "
        "before compiling)\n",
        alive, alive == 1 ? "" : "s", threads, threads == 1 ? "" : "s",
        candidates.size() - alive);
  compileCandidates(candidates, options, *limits, jobs,
                    [&](size_t done, size_t total, const TuneCandidate &c) {
                      if (quiet)
                        return;
                      llvm::errs()
                          << tile::rt::progressLine(done, total,
                                                    clock.seconds(), c.name,
                                                    compileDetail(c))
                          << "\n";
                      llvm::errs().flush();
                    });
  if (!quiet && alive) {
    size_t ok = llvm::count_if(candidates, [](auto &c) { return c.alive(); });
    size_t tooLarge = llvm::count_if(
        candidates, [](auto &c) { return c.compiled.ok && !c.alive(); });
    llvm::errs() << llvm::formatv(
        "tile-tune: done compiling after {0}: {1} ok, {2} pruned after "
        "compiling, {3} did not compile (of {4})\n",
        tile::rt::formatElapsed(clock.seconds()), ok, tooLarge,
        alive - ok - tooLarge, alive);
  }

  llvm::outs() << llvm::formatv("{0,-44} {1,5} {2,6} {3,8} {4,10}  {5}\n",
                                "candidate", "regs", "spill", "smem KiB",
                                "compile ms", "status");
  llvm::json::Array searched;
  std::string firstFailure;
  for (const TuneCandidate &c : candidates) {
    bool compiled = c.compiled.ok;
    std::string status = c.alive() ? "ok" : c.pruned.back();
    // Every candidate that went to the compiler: its resources, or why it
    // did not compile.
    bool failedToCompile = c.pruned.size() == 1 && !compiled &&
                           c.pruned[0].rfind("does not compile", 0) == 0;
    if (failedToCompile && firstFailure.empty())
      firstFailure = c.name + ": " + status;
    if (compiled || failedToCompile)
      llvm::outs() << llvm::formatv(
          "{0,-44} {1,5} {2,6} {3,8} {4,10}  {5}\n", c.name,
          c.registers ? std::to_string(*c.registers) : "-",
          compiled ? std::to_string(c.spillBytes) : "-",
          c.variant.sharedMemoryBytes / 1024,
          compiled
              ? llvm::formatv("{0:f1}", c.compiled.compileSeconds * 1e3).str()
              : "-",
          status);
    llvm::json::Array reasons;
    for (const std::string &r : c.pruned)
      reasons.push_back(r);
    searched.push_back(llvm::json::Object{
        {"name", c.name},
        {"config", llvm::json::Object(c.variant.config)},
        {"pruned", std::move(reasons)},
        {"compile_ms", compiled ? c.compiled.compileSeconds * 1e3 : 0.0}});
    if (!c.alive())
      continue;
    if (!out.add(c.variant, c.name, c.compiled))
      return 1;
  }
  size_t survivors = out.size();
  auto json = [](llvm::json::Object o) {
    return llvm::formatv("{0:2}\n", llvm::json::Value(std::move(o))).str();
  };
  if (!out.writeIndex() ||
      !out.write("tune.json",
                 json(llvm::json::Object{
                     {"format", "tile-tune-search"},
                     {"version", 1},
                     {"generator", space.generator},
                     {"dtypes", inDtype + "->" + outDtype},
                     {"layout", std::string(transposeA ? "t" : "n") +
                                    (transposeB ? "t" : "n")},
                     {"toolchain", toolchainId(candidates, toolkit)},
                     {"chip", std::string(chip)},
                     {"limits",
                      llvm::json::Object{
                          {"name", limits->name},
                          {"max_shared_per_block", limits->maxSharedPerBlock},
                          {"registers_per_block", limits->registersPerBlock}}},
                     {"candidates", std::move(searched)}})))
    return 1;
  llvm::outs() << survivors << " candidates compiled into " << outDir
               << " (index.json, tune.json)\n";
  if (!survivors)
    llvm::errs() << "tile-tune: no candidate survived"
                 << (firstFailure.empty() ? " pruning"
                                          : "; the first that did not "
                                            "compile: " +
                                                firstFailure)
                 << "\n";
  return survivors && flushStandardOutput("tile-tune") ? 0 : 1;
}
