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
// prints a compile report (time, PTX size, vector accesses, spills, local
// memory; an sm_90a kernel that spills fails).
//
//===----------------------------------------------------------------------===//

#include "tile/Frontend/Compile.h"
#include "tile/Frontend/KernelDirectory.h"
#include "tile/Frontend/Kernels.h"
#include "tile/Frontend/Variants.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <type_traits>
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
// The options that set generator fields are made from the keys
// (tile/runtime/ConfigKeys.h), not declared here: one option per flag, its
// help joined from the keys of every generator that has the flag (their
// help and limits), its default the key's of the first generator
// (forEachGenerator's order) that has it.
namespace key = tile::config;

namespace {

/// The option type of a key type.
template <typename T> struct OptionType { using type = T; };
template <> struct OptionType<const char *> { using type = std::string; };

/// The option of one flag, and what each generator's key says about it.
template <typename T> struct FieldOption {
  /// (generators, text) in generator order; generators with the same text
  /// share an entry.
  std::vector<std::pair<std::string, std::string>> uses;
  T defaultValue{};
  /// The help (cl::desc keeps a reference: the text lives here).
  std::string help;
  std::unique_ptr<cl::opt<T>> option;
};

/// The field options by flag, one map per option type.
struct FieldOptions {
  std::map<std::string, FieldOption<int64_t>> ints;
  std::map<std::string, FieldOption<bool>> bools;
  std::map<std::string, FieldOption<std::string>> strings;
  /// The generators that have flags.
  size_t generators = 0;

  std::map<std::string, FieldOption<int64_t>> &of(int64_t) { return ints; }
  std::map<std::string, FieldOption<bool>> &of(bool) { return bools; }
  std::map<std::string, FieldOption<std::string>> &of(const std::string &) {
    return strings;
  }
  /// Whether `flag` has an option of another type than `T`'s.
  template <typename T> bool hasOtherType(const std::string &flag) {
    return (!std::is_same_v<T, int64_t> && ints.count(flag)) ||
           (!std::is_same_v<T, bool> && bools.count(flag)) ||
           (!std::is_same_v<T, std::string> && strings.count(flag));
  }
};

FieldOptions &fieldOptions() {
  static FieldOptions options;
  return options;
}

/// --stages and --head-dim keep each generator's default when they are not
/// given; every other option's value, given or its default, applies to
/// every generator it sets.
bool keepsGeneratorDefault(llvm::StringRef flag) {
  return flag == key::gemm::stages.flag ||
         flag == key::gemm_softmax::headDim.flag;
}

std::string valueText(int64_t value) { return std::to_string(value); }
std::string valueText(const std::string &value) { return value; }

/// What a key's limits allow, for the help.
std::string limitHelp(const key::IntLimits &limits) {
  return (limits.orZero ? "0 or " : "") + limitText(limits);
}
template <typename Limits> std::string limitHelp(const Limits &limits) {
  return limitText(limits);
}

/// Adds what `k` of `generator` says to its flag's option.
template <typename T>
void addUse(const char *generator, const tile::config::Key<T> &k) {
  using Option = typename OptionType<T>::type;
  FieldOptions &options = fieldOptions();
  if (options.hasOtherType<Option>(k.flag))
    llvm::report_fatal_error(llvm::Twine("tile-kernels: --") + k.flag +
                             " sets fields of different types");
  auto [it, first] = options.of(Option()).try_emplace(k.flag);
  FieldOption<Option> &option = it->second;
  if (first)
    option.defaultValue = Option(k.defaultValue);
  std::string details = limitHelp(k.limits);
  if constexpr (!std::is_same_v<T, bool>)
    if (keepsGeneratorDefault(k.flag))
      details += (details.empty() ? "default " : ", default ") +
                 valueText(Option(k.defaultValue));
  std::string text =
      std::string(k.help) + (details.empty() ? "" : " (" + details + ")");
  auto same = llvm::find_if(
      option.uses, [&](const auto &use) { return use.second == text; });
  if (same != option.uses.end())
    same->first += std::string(", ") + generator;
  else
    option.uses.emplace_back(generator, text);
}

/// Makes the option of every flag, with its help.
template <typename T> void createOptions(cl::OptionCategory &category) {
  for (auto &[flag, option] : fieldOptions().of(T())) {
    size_t generators = 0;
    for (const auto &[names, text] : option.uses) {
      generators += llvm::count(names, ',') + 1;
      if (!option.help.empty())
        option.help += "; ";
      option.help += names + ": " + text;
    }
    // Every generator says the same: no need to name them.
    if (option.uses.size() == 1 && generators == fieldOptions().generators)
      option.help = option.uses.front().second;
    if constexpr (!std::is_same_v<T, bool>)
      if (!keepsGeneratorDefault(flag))
        option.help += "; default " + valueText(option.defaultValue) +
                       (generators > 1 ? " for every generator" : "");
    option.option = std::make_unique<cl::opt<T>>(
        llvm::StringRef(flag), cl::desc(option.help),
        cl::init(option.defaultValue), cl::cat(category));
  }
}

/// The options of every key with a flag, before the command line is parsed.
void createFieldOptions() {
  forEachGenerator([](const auto &generator) {
    using Config = typename std::decay_t<decltype(generator)>::ConfigType;
    Config c;
    bool hasFlags = false;
    Config::forEachField(c, [&](const auto &k, const auto &) {
      if (k.flag)
        addUse(generator.name, k);
      hasFlags |= k.flag != nullptr;
    });
    fieldOptions().generators += hasFlags;
  });
  createOptions<int64_t>(category);
  createOptions<bool>(category);
  createOptions<std::string>(category);
}

/// Sets `field` from the option that its key's flag names.
template <typename Field> void setFromOption(const char *flag, Field &field) {
  auto &options = fieldOptions().of(Field());
  auto it = options.find(flag);
  if (it == options.end() || !it->second.option)
    llvm::report_fatal_error(llvm::Twine("tile-kernels: no option --") + flag);
  cl::opt<Field> &option = *it->second.option;
  if (!keepsGeneratorDefault(flag) || option.getNumOccurrences())
    field = option.getValue();
}

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
  // sm_90a (in a library for sm_90): TMA in a producer warpgroup, wgmma
  // m64n256k16 in two compute warpgroups, 4 stages; rows of multiples of 8
  // (TMA's 16-byte row strides).
  for (const char *in : {"f16", "bf16"}) {
    // The TMA store in bands (`_tma<columns>`): two 128-row shared tiles of
    // 128-byte rows, 32 KiB, so the 128x256 tile keeps its 4 stages; a
    // band's store overlaps the staging of the next. First, because the
    // runtime takes the first variant that accepts a launch: on the H200
    // they beat every other sm_90a variant of their types at 4096^3,
    // 8192^3 and 4000x3000x4096 (f32 out: within noise at the cubes;
    // benchmarks/results/2026-12-05-tma-store-bands). Fused bias + GELU
    // (erf and tanh) persistent first: with the GELUs of half the
    // instructions (fe::gelu, fe::geluTanh) it no longer spills.
    auto banded = [&](int64_t blockM, int64_t blockN, const std::string &out,
                      int64_t columns, const char *epilogue, bool persistent,
                      int64_t clusterM = 1, bool streamK = false) {
      int64_t threads = GemmConfig::warpSpecializedThreads(blockM);
      GemmConfig c{blockM, blockN, 64, threads, out, 4, 8, false, in};
      c.divisibility = 8;
      c.warpSpecialized = true;
      c.persistent = persistent;
      c.tmaStore = true;
      c.tmaStoreColumns = columns;
      c.epilogue = epilogue;
      c.clusterM = clusterM;
      c.streamK = streamK;
      variants.push_back(gemmVariant(c));
    };
    // Stream-K (`_streamk`) first: the tiles of a partial round split into
    // K chunks that all blocks take in turn. Where the tiles make whole
    // rounds they run as their twins below do. On an H100, paired with
    // cuBLAS / cuBLASLt in one call with their twins: 1.044-1.054x against
    // 1.026-1.034x at 8192x8192x28672, the tanh GELU at 8192^3
    // 1.002-1.013x against 0.997-0.999x
    // (benchmarks/results/2026-12-06-stream-k, call 6). Not the erf
    // GELU: its epilogue and the fixup spill at the compute role's 224
    // registers (a stream-K producer keeps 56).
    for (auto [out, columns, epilogue] :
         {std::tuple<std::string, int64_t, const char *>{in, 64, "none"},
          {in, 64, "bias_gelu_tanh"},
          {"f32", 32, "none"}})
      banded(128, 256, out, columns, epilogue, true, 1, /*streamK=*/true);
    banded(128, 256, in, 64, "none", true);
    banded(128, 256, in, 64, "none", false);
    for (const char *gelu : {"bias_gelu", "bias_gelu_tanh"})
      for (bool persistent : {true, false})
        banded(128, 256, in, 64, gelu, persistent);
    banded(128, 256, "f32", 32, "none", true);
    // Clusters of two tiles one above the other (`_cm2`), B loaded once
    // for both and multicast, as cuBLAS's 128x256 kernels do.
    banded(128, 256, in, 64, "none", true, 2);
    banded(128, 256, "f32", 32, "none", true, 2);
    banded(256, 128, in, 32, "none", true, 2);
    {
      GemmConfig c{128, 256, 64, 384, in, 4, 8, false, in};
      c.divisibility = 8;
      c.warpSpecialized = true;
      c.epilogue = "bias_gelu";
      c.persistent = true;
      c.clusterM = 2;
      variants.push_back(gemmVariant(c));
    }
    // Ping-pong (`_pingpong`): two compute warpgroups, each holding a
    // whole 128x128 tile, take the tiles in turn, so that one's epilogue
    // (bias + GELU: MUFU-bound, about 2 us a tile) runs while the other's
    // wgmma products use the tensor cores. 5 stages of 32 KiB beside the
    // two sets' 32 KiB bands.
    auto pingPong = [&](const std::string &out, int64_t columns,
                        const char *epilogue) {
      GemmConfig c{128, 128, 64, 256, out, 5, 8, false, in};
      c.divisibility = 8;
      c.warpSpecialized = true;
      c.persistent = true;
      c.consumers = 2;
      c.tmaStore = true;
      c.tmaStoreColumns = columns;
      c.epilogue = epilogue;
      variants.push_back(gemmVariant(c));
    };
    for (const char *epilogue : {"none", "bias_gelu", "bias_gelu_tanh"})
      pingPong(in, 64, epilogue);
    pingPong("f32", 32, "none");
    // The transposed tile, 256x128 over four compute warpgroups (640
    // threads, 104 registers each), in bands of 32 (16-bit C) or 16 (f32)
    // columns: 9-18% faster than 128x256 at 4000x3000x4096 on the H200,
    // up to 13% slower at 4096^3 (2026-12-05), so after it, for the tuner.
    banded(256, 128, in, 32, "none", true);
    banded(256, 128, "f32", 16, "none", true);
    for (int64_t panel : {0, 8}) {
      GemmConfig c{128, 256, 64, 384, "f32", 4, panel, false, in};
      c.divisibility = 8;
      c.warpSpecialized = true;
      variants.push_back(gemmVariant(c));
    }
    // A 128x128 tile: twice the blocks, for shapes with few 128x256 tiles
    // (small M).
    {
      GemmConfig c{128, 128, 64, 384, "f32", 4, 8, false, in};
      c.divisibility = 8;
      c.warpSpecialized = true;
      variants.push_back(gemmVariant(c));
    }
    // Small M (C of at most 64 rows): 64x128 tiles over one compute
    // warpgroup, 6 stages, no split of K, in f32 and the input type. At
    // 16 and 64 x 8192 x 8192 they led 64x64 and 64x256 tiles, with or
    // without split-K (which adds a zero fill and atomics), and cuBLAS on
    // an H100 (2026-12-05; benchmarks/results/2026-12-05-small-m).
    // And 64x64 tiles, 8 stages: twice the blocks to read B. On the H200
    // at 64x8192x8192 the 64x128 tile's 64 blocks ran at 0.82-0.87x of
    // cuBLAS, whose memory bandwidth there needs more SMs reading
    // (benchmarks/results/2026-12-06-h200-closing); when C has at most 64
    // rows, rt::chooseGemm takes the 64x128 tile only where its tiles
    // across N fill a wave, the narrower one otherwise.
    for (auto [blockN, stages] :
         {std::pair<int64_t, int64_t>{128, 6}, {64, 8}})
      for (const std::string &out : {std::string("f32"), std::string(in)}) {
        GemmConfig c{64, blockN, 64, 256, out, stages, 0, false, in};
        c.divisibility = 8;
        c.warpSpecialized = true;
        variants.push_back(gemmVariant(c));
      }
    // C of at most 16 or 32 rows: C^T = B^T A^T in 64 x 16 / 64 x 32
    // tiles (swap_ab: 64 columns of C as the wgmma's M), 8 stages. A
    // 64-row tile would run three or two products of zero rows for each
    // one of C's, and only N / 128 blocks read B. With f32 or the input
    // type out; the epilogues with the input type out, as the 128x256
    // fused variants (without them, 16 rows of bias + GELU ran 128x256
    // tiles).
    for (int64_t rows : {16, 32}) {
      auto swapped = [&](const std::string &out, const char *epilogue) {
        GemmConfig c{rows, 64, 64, 256, out, 8, 0, false, in};
        c.divisibility = 8;
        c.warpSpecialized = true;
        c.swapAB = true;
        c.epilogue = epilogue;
        variants.push_back(gemmVariant(c));
      };
      swapped("f32", "none");
      swapped(in, "none");
      namespace key = tile::config::gemm;
      for (const key::EpilogueInfo &epilogue : key::epilogues)
        if (epilogue.kind != key::Epilogue::none)
          swapped(in, epilogue.name);
    }
    // Split-K for small M (a single row of C tiles), C (f32) zero-filled
    // at launch and summed into with atomics: 4 slices of K over 128x256
    // tiles (one block per SM at N = 8192), and 2 over 64x256 tiles with
    // one compute warpgroup and 5 stages, the tuner's pick for M <= 64
    // (benchmarks/results/2026-12-03-hopper-gemm-splitk).
    for (auto [blockM, splits, stages] :
         {std::tuple<int64_t, int64_t, int64_t>{128, 4, 4}, {64, 2, 5}}) {
      int64_t threads = GemmConfig::warpSpecializedThreads(blockM);
      GemmConfig c{blockM, 256, 64, threads, "f32", stages, 0, false, in};
      c.divisibility = 8;
      c.warpSpecialized = true;
      c.splitK = splits;
      variants.push_back(gemmVariant(c));
    }
    // Fused bias + GELU (erf and tanh), C in the input type: the bias
    // slice read into shared memory by the compute warpgroups after the
    // loop, the epilogue on the accumulator in registers.
    // Also persistent: the next tile's loads overlap the epilogue (a
    // barrier of the compute role after it keeps the bias slice until every
    // thread has read it).
    // Persistent first: as fast or faster on the H200 (2026-12-05).
    for (bool persistent : {true, false})
      for (const char *epilogue : {"bias_gelu", "bias_gelu_tanh"}) {
        GemmConfig c{128, 256, 64, 384, in, 4, 8, false, in};
        c.divisibility = 8;
        c.warpSpecialized = true;
        c.epilogue = epilogue;
        c.persistent = persistent;
        variants.push_back(gemmVariant(c));
      }
    // The cheaper epilogues, bias alone and bias + ReLU, likewise.
    for (const char *epilogue : {"bias", "bias_relu"}) {
      GemmConfig c{128, 256, 64, 384, in, 4, 8, false, in};
      c.divisibility = 8;
      c.warpSpecialized = true;
      c.epilogue = epilogue;
      variants.push_back(gemmVariant(c));
    }
    // The input type out (f32 accumulation), and the transposed operands:
    // A given K x M, B given N x K, with f32 or the input type out.
    for (auto [out, transposeA, transposeB] :
         {std::tuple<std::string, bool, bool>{in, false, false},
          {"f32", false, true},
          {"f32", true, false},
          {"f32", true, true},
          {in, false, true},
          {in, true, false},
          {in, true, true}}) {
      GemmConfig c{128, 256, 64, 384, out, 4, 8, transposeB, in, transposeA};
      c.divisibility = 8;
      c.warpSpecialized = true;
      variants.push_back(gemmVariant(c));
    }
    // Persistent: one block per SM walking the C tiles in raster order, the
    // next tile's loads overlapping the last one's epilogue.
    for (const std::string &out : {std::string("f32"), std::string(in)}) {
      GemmConfig c{128, 256, 64, 384, out, 4, 8, false, in};
      c.divisibility = 8;
      c.warpSpecialized = true;
      c.persistent = true;
      variants.push_back(gemmVariant(c));
    }
    // The TMA-store epilogue (`_tma`): C staged in a swizzled shared tile
    // of the output type beside the stages and stored in whole lines, in a
    // persistent kernel while the next tile's products start. 128x256 in
    // the input type takes 64 KiB (3 stages beside it), f32 128x128 as
    // much (4 stages of the smaller tiles).
    for (auto [blockN, out, stages, persistent] :
         {std::tuple<int64_t, std::string, int64_t, bool>{256, in, 3, true},
          {256, in, 3, false},
          {128, "f32", 4, true}}) {
      GemmConfig c{128, blockN, 64, 384, out, stages, 8, false, in};
      c.divisibility = 8;
      c.warpSpecialized = true;
      c.persistent = persistent;
      c.tmaStore = true;
      variants.push_back(gemmVariant(c));
    }
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
  // Coverage (docs/Coverage.md, `tile-library coverage --check`): every
  // input type, output type (f32 or the input type), operand layout and
  // epilogue has a variant for any shape on any chip, so that the runtime
  // always has a fallback; a 64 x 64 tile (the quickest to compile) where
  // the variants above have none. No f16 -> bf16 or bf16 -> f16: no
  // framework asks for them (docs/Coverage.md); --out-dtype builds them.
  std::set<std::string> names;
  for (const Variant &variant : variants)
    names.insert(variant.name);
  for (const char *in : {"f16", "bf16"})
    for (const std::string &out : {std::string("f32"), std::string(in)})
      for (auto [transposeA, transposeB] : {std::pair{false, false},
                                            {false, true},
                                            {true, false},
                                            {true, true}})
        for (const key::gemm::EpilogueInfo &epilogue : key::gemm::epilogues) {
          GemmConfig c{64, 64, 32, 128, out, 3, 0, transposeB, in, transposeA};
          c.epilogue = epilogue.name;
          if (!names.count(c.kernelName()))
            variants.push_back(gemmVariant(c));
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
  // With the log-sum-exp output, for every type, head dimension and mode,
  // on the 128x64 tile (the fastest but for f16 D=64, within a few
  // percent there).
  for (bool causal : {false, true})
    for (auto [dtype, d] : {std::pair<const char *, int64_t>{"f16", 64},
                            {"bf16", 64},
                            {"f16", 128},
                            {"bf16", 128}}) {
      AttentionConfig c{128, 64, d, 128, 2, dtype, causal, /*lse=*/true};
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
  /// ptxas' spill stores, in bytes.
  int64_t spillBytes = 0;
  bool usesLocal = false;
};

KernelCounts countKernels(const CompiledModule &compiled) {
  KernelCounts counts;
  for (const mlir::tile::KernelReport &kernel : compiled.kernels) {
    counts.vectorLoads += kernel.globalVectorLoads;
    counts.vectorStores += kernel.globalVectorStores;
    counts.mma += kernel.mma;
    counts.usesLocal |= kernel.usesLocalMemory;
    counts.spillBytes += kernel.spillStores.value_or(0);
  }
  return counts;
}

/// The options `variant` compiles with: the library's chip unless it
/// needs its own.
CompileOptions compileOptions(const Variant &variant) {
  CompileOptions options;
  options.target.chip = variant.chip.empty() ? chip : variant.chip;
  options.cudaToolkit = cudaToolkit;
  return options;
}

/// The options of `variant` in the library (--out-dir): its sm_90a kernels
/// hold a 128-register accumulator per thread beside the pipeline's state,
/// so a spill there lands in the main loop, and the library refuses one
/// (docs/Hopper.md).
CompileOptions libraryCompileOptions(const Variant &variant) {
  CompileOptions options = compileOptions(variant);
  options.refuseSpills = llvm::StringRef(options.target.chip).ends_with("a");
  return options;
}

/// Whether a library for --chip holds `variant`: a variant that needs its
/// own chip joins only the library of the chip it extends (sm_90a: sm_90).
bool inLibrary(const Variant &variant) {
  return variant.chip.empty() || variant.chip == chip ||
         variant.chip == chip + "a";
}

int compileAll() {
  KernelDirectory out("tile-kernels", outDir, chip);
  if (!out.create())
    return 1;
  int failures = 0;
  llvm::outs() << llvm::formatv(
      "{0,-38} {1,10} {2,15} {3,9} {4,6} {5,6} {6,6} {7,6} {8,6}  {9}\n",
      "kernel", "compile ms", "mlir/llvm/ptxas", "PTX B", "ld.g.v", "st.g.v",
      "mma", "spill", "local", "status");
  std::vector<std::pair<double, std::string>> times;
  for (const Variant &variant : defaultVariants()) {
    if (!inLibrary(variant))
      continue;
    Program program;
    std::string name = variant.build(program);
    std::string diagnostics = program.verify();
    CompiledModule compiled;
    if (diagnostics.empty())
      compiled = compile(program.module(), libraryCompileOptions(variant),
                         name + ".cubin");
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
        "{0,-38} {1,10:f1} {2,15} {3,9} {4,6} {5,6} {6,6} {7,6} {8,6}  {9}\n",
        name, compiled.compileSeconds * 1e3, phases, compiled.ptx.size(),
        counts.vectorLoads, counts.vectorStores, counts.mma, counts.spillBytes,
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
  bool known = false;
  forEachGenerator([&](const auto &generator) {
    using Config = typename std::decay_t<decltype(generator)>::ConfigType;
    if (kernelName != generator.name)
      return;
    known = true;
    variant = generator.variant(configFromOptions<Config>());
  });
  if (!known) {
    llvm::errs() << "tile-kernels: unknown kernel '" << kernelName
                 << "'; --list shows the generators\n";
    return 1;
  }
  if (printConfig) {
    llvm::outs() << llvm::formatv("{0}\n",
                                  llvm::json::Value(std::move(variant.config)));
    return flushStandardOutput("tile-kernels") ? 0 : 1;
  }
  if (!inLibrary(variant)) {
    llvm::errs() << "tile-kernels: " << variant.name << " needs "
                 << variant.chip << ", but --chip is " << chip << "\n";
    return 1;
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
    CompileOptions options = compileOptions(variant);
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

/// One line per generator: its name, what it computes and its flags
/// (--help describes them).
void listGenerators() {
  forEachGenerator([](const auto &generator) {
    using Config = typename std::decay_t<decltype(generator)>::ConfigType;
    std::string flags;
    Config c;
    Config::forEachField(c, [&](const auto &k, const auto &) {
      if (k.flag)
        flags += (flags.empty() ? "" : ", ") + std::string("--") + k.flag;
    });
    llvm::outs() << llvm::formatv("{0,-12} {1}", generator.name,
                                  generator.summary)
                 << (flags.empty() ? "" : " (" + flags + ")") << "\n";
  });
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  createFieldOptions();
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv,
                              "tile-kernels: build and compile kernels "
                              "with the C++ frontend generators\n");
  if (list) {
    listGenerators();
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
