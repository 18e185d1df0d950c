//===- Kernels.h - Parameterized kernel generators --------------*- C++ -*-===//
//
// Every kernel of the toolchain is a C++ generator with a configuration, so
// tests, benchmarks and the autotuner produce every variant from one source.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_FRONTEND_KERNELS_H
#define TILE_FRONTEND_KERNELS_H

#include "tile/Frontend/Frontend.h"
#include "tile/runtime/ConfigKeys.h"

#include <string>

namespace tile::fe {

// What a generator's configuration may ask for. Every config has a
// `validate()` that its build function calls first (and tile-kernels and
// tile-tune through it): it throws std::invalid_argument naming the field,
// the value and the limit when the generator does not support the
// configuration, before any IR is built. The limits of each field on its
// own are its key's (ConfigKeys.h); validate() checks them all, then what
// involves several fields and the resources below. Layout rules that need the
// IR (MMA tile multiples, fragment sizes against the thread count) stay with
// the dialect's verifier, reported at the generator's line.

/// Shared memory of one block on the largest supported chip (sm_90, with
/// the opt-in; sm_80 has 163 KiB, sm_86/89 99 KiB): a configuration whose
/// tiles need more cannot run anywhere. tile-tune prunes against the
/// target's own limit.
constexpr int64_t kMaxSharedMemoryPerBlock = 227 * 1024;
/// Registers of one thread: a configuration whose fragments (at 32 bits
/// per register) need more cannot run without spilling all of them.
constexpr int64_t kMaxRegistersPerThread = 255;
/// The deepest software pipeline a generator builds (the `stages` keys'
/// limit, ConfigKeys.h).
constexpr int64_t kMaxStages = config::kMaxStages;

/// A key's limits (ConfigKeys.h) as validation messages and tile-kernels
/// --help write them: "at least 16", "from 1 to 8", "a multiple of 32 from
/// 32 to 1024", "one of f16, bf16"; "" when the key has none. (A key that
/// also takes 0, `orZero`, says so in its `why`.)
std::string limitText(const config::IntLimits &limits);
std::string limitText(const config::StringLimits &limits);
inline std::string limitText(const config::NoLimits &) { return ""; }

/// C = A + B for 1-D tensors of any length; each block handles `blockN`
/// elements with `threads` threads.
struct VectorAddConfig {
  int64_t blockN = config::vector_add::blockN.defaultValue;
  int64_t threads = config::vector_add::threads.defaultValue;
  /// Element type name: "f32", "f16", "bf16".
  std::string dtype = config::vector_add::dtype.defaultValue;

  /// A kernel name that encodes the configuration, e.g.
  /// vector_add_f32_1024x256.
  std::string kernelName() const;
  /// Throws std::invalid_argument when the generator does not support
  /// this configuration (the field, its value and the limit).
  void validate() const;

  /// Every field with its key (ConfigKeys.h: JSON key, type, default,
  /// flag, help, limits), in declaration order: `visit(key, field)`. The
  /// JSON form (index.json), the tile-kernels options and their help, the
  /// field checks of validate() and the tests are derived from it.
  template <typename Self, typename Visit>
  static void forEachField(Self &c, Visit &&visit) {
    visit(config::vector_add::blockN, c.blockN);
    visit(config::vector_add::threads, c.threads);
    visit(config::vector_add::dtype, c.dtype);
  }
};

/// Adds the vector-add kernel to `program`; returns its name.
std::string buildVectorAdd(Program &program, const VectorAddConfig &config);

/// Device printing, the example: copies a rows x cols f32 tile of X (block
/// 0) to shared memory and to a fragment and prints, with tile.print, the
/// block index (thread 0), the shared tile (thread 3) and the fragment
/// elements that warp 1 holds.
struct PrintDemoConfig {
  int64_t rows = config::print_demo::rows.defaultValue;
  int64_t cols = config::print_demo::cols.defaultValue;
  int64_t threads = config::print_demo::threads.defaultValue;
  /// e.g. print_demo_16x8_t64
  std::string kernelName() const;
  /// Throws std::invalid_argument when the generator does not support
  /// this configuration (the field, its value and the limit).
  void validate() const;

  /// Every field with its key (as VectorAddConfig::forEachField).
  template <typename Self, typename Visit>
  static void forEachField(Self &c, Visit &&visit) {
    visit(config::print_demo::rows, c.rows);
    visit(config::print_demo::cols, c.cols);
    visit(config::print_demo::threads, c.threads);
  }
};
std::string buildPrintDemo(Program &program, const PrintDemoConfig &config);

/// C = A x B on tensor cores for row-major A (M x K) and B (K x N, or N x K
/// with transposeB), any M,
/// N, K (tails masked; K a multiple of 8 keeps every global load 16-byte
/// vectorized): blockM x blockN output tiles per block, K in steps of
/// blockK, f16 or bf16 inputs, f32 accumulation, `outDtype` output.
struct GemmConfig {
  int64_t blockM = config::gemm::blockM.defaultValue;
  int64_t blockN = config::gemm::blockN.defaultValue;
  int64_t blockK = config::gemm::blockK.defaultValue;
  int64_t threads = config::gemm::threads.defaultValue;
  std::string outDtype = config::gemm::outDtype.defaultValue;
  /// Software-pipeline depth of the K loop (1: synchronous copies).
  int64_t stages = config::gemm::stages.defaultValue;
  /// Block rasterization panel (grid rows per panel; 0: off).
  int64_t rasterPanel = config::gemm::rasterPanel.defaultValue;
  /// B is given N x K (row-major), i.e. C = A x B^T ("NT" GEMM).
  bool transposeB = config::gemm::transposeB.defaultValue;
  /// Input type: "f16" or "bf16".
  std::string inDtype = config::gemm::inDtype.defaultValue;
  /// A is given K x M (row-major), i.e. C = A^T x B.
  bool transposeA = config::gemm::transposeA.defaultValue;
  /// Applied to the accumulator in registers before the store, one of
  /// config::gemm::epilogues: "none", "bias" (C = A x B + bias),
  /// "bias_gelu" (C = gelu(A x B + bias), exact erf form),
  /// "bias_gelu_tanh" (tanh approximation) or "bias_relu" (C = max(A x B +
  /// bias, 0)). The bias is a vector of N elements of the output type,
  /// parameter "Bias".
  std::string epilogue = config::gemm::epilogue.defaultValue;
  /// Rows of every tensor (K of A, N of B, C and the bias; M of a
  /// transposed A) are promised to be multiples of this (the kernel's
  /// `divisible`, checked at launch): 8 drops the unaligned fallbacks, so
  /// the kernel is half the code and compiles about twice as fast; 1 runs
  /// on any shape.
  int64_t divisibility = config::gemm::divisibility.defaultValue;
  /// With an epilogue: stage the accumulator in shared memory (in the
  /// pipeline's freed stages) and run the epilogue as a loop over it, each
  /// 16-byte chunk of C computed and stored from registers (`_staged`):
  /// about a third of the PTX and half the compile time; as fast where two
  /// blocks share an SM, a few percent slower with one block per SM.
  bool stagedEpilogue = config::gemm::stagedEpilogue.defaultValue;
  /// sm_90a: TMA copies in a producer warpgroup, wgmma in block_m / 64
  /// compute warpgroups (`_ws`).
  bool warpSpecialized = config::gemm::warpSpecialized.defaultValue;
  /// Split-K (`_skN`): N blocks per C tile (the grid's z), each running one
  /// slice of the K loop and adding its partial product into C with f32
  /// atomics; C is an "accumulate" parameter the runtime zero-fills. For
  /// shapes with too few C tiles to fill the GPU (small M).
  int64_t splitK = config::gemm::splitK.defaultValue;
  /// With warpSpecialized (`_persistent`): one block per multiprocessor,
  /// each walking the C tiles in raster order; the producer loads the next
  /// tile while the compute warpgroups store the last one.
  bool persistent = config::gemm::persistent.defaultValue;
  /// With persistent (`_cmN`): thread-block clusters of N blocks along M,
  /// running tiles one above the other; each loads 1/N of their common B
  /// tile and multicasts it to all (half the L2 traffic for B with 2).
  int64_t clusterM = config::gemm::clusterM.defaultValue;
  /// With persistent (`_pingpong`): two sets of compute threads, each one
  /// warpgroup holding a whole block_m x block_n tile, take the tiles in
  /// turn: one set's epilogue runs while the other's wgmma products use
  /// the tensor cores (threads = 256: the producer and one set).
  int64_t consumers = config::gemm::consumers.defaultValue;
  /// With warpSpecialized (`_tma`): the compute warpgroups stage C in a
  /// #tile.nvmma shared tile of the output type and one thread stores it
  /// with TMA (whole 128-byte lines; in a persistent kernel the store runs
  /// on while the next tile's products start). Needs block_m x block_n of
  /// the output type in shared memory beside the stages.
  bool tmaStore = config::gemm::tmaStore.defaultValue;
  /// With tmaStore (`_tma<columns>`): C leaves in bands of this many
  /// columns, staged alternately in two block_m x columns shared tiles, a
  /// band's stores overlapping the staging of the next: a fraction of the
  /// whole tile's shared memory, so a 128x256 tile keeps its 4 stages. 0:
  /// the whole tile at once.
  int64_t tmaStoreColumns = config::gemm::tmaStoreColumns.defaultValue;
  /// With warpSpecialized (`_swapab`): the block computes its tile of C^T
  /// = B^T A^T, block_n columns of C as the wgmma's M (a compute warpgroup
  /// per 64) and block_m rows as its N, a multiple of 8 up to 256: a
  /// 16-row tile for a C of 16 rows runs no products of zero rows, and
  /// N / block_n blocks share the reads of B. C leaves transposed through
  /// shared memory.
  bool swapAB = config::gemm::swapAB.defaultValue;
  /// With persistent (`_streamk`): when the C tiles do not fill whole
  /// rounds of the launched blocks, the partial round's tiles are split into
  /// 2 to 4 K chunks that the blocks take in turn, so that fewer blocks idle
  /// through the last round; the blocks that ran a tile's chunks sum them
  /// through a workspace the runtime allocates (tile.stream_k_fixup).
  bool streamK = config::gemm::streamK.defaultValue;

  /// e.g. gemm_f16_f32_128x128x32_t128_s3 (input, output, tile, threads,
  /// stages[, raster panel][, _nt][, _<epilogue>][, _div8][, _ws][, _tma
  /// [columns]][, _skN][, _persistent][, _cmN][, _pingpong][, _streamk]).
  std::string kernelName() const;
  /// The shared memory its tiles need at least (the pipeline's stages of
  /// the A and B tiles, or the staged accumulator, and the bias), in
  /// bytes: what validate() and tile-tune compare with a block's limit.
  int64_t sharedMemoryBytes() const;
  /// The threads of a warpSpecialized kernel with block_m rows: a producer
  /// warpgroup and a compute warpgroup per 64 rows, or with consumers > 1
  /// one warpgroup per set, as the kernel's body sees the block (the block
  /// launches 128 more per further set).
  static int64_t warpSpecializedThreads(int64_t blockM, int64_t consumers = 1) {
    return consumers > 1 ? 256 : 128 * (1 + blockM / 64);
  }
  /// The chip the configuration needs ("sm_90a" for warpSpecialized), or
  /// empty when any supported chip runs it.
  std::string requiredChip() const { return warpSpecialized ? "sm_90a" : ""; }
  /// The epilogue's entry in config::gemm::epilogues, or nullptr for a
  /// name validate() refuses.
  const config::gemm::EpilogueInfo *epilogueInfo() const {
    return config::gemm::findEpilogue(epilogue);
  }
  /// Throws std::invalid_argument when the generator does not support
  /// this configuration (the field, its value and the limit).
  void validate() const;

  /// Every field with its key (as VectorAddConfig::forEachField).
  template <typename Self, typename Visit>
  static void forEachField(Self &c, Visit &&visit) {
    visit(config::gemm::blockM, c.blockM);
    visit(config::gemm::blockN, c.blockN);
    visit(config::gemm::blockK, c.blockK);
    visit(config::gemm::threads, c.threads);
    visit(config::gemm::outDtype, c.outDtype);
    visit(config::gemm::stages, c.stages);
    visit(config::gemm::rasterPanel, c.rasterPanel);
    visit(config::gemm::transposeB, c.transposeB);
    visit(config::gemm::inDtype, c.inDtype);
    visit(config::gemm::transposeA, c.transposeA);
    visit(config::gemm::epilogue, c.epilogue);
    visit(config::gemm::divisibility, c.divisibility);
    visit(config::gemm::stagedEpilogue, c.stagedEpilogue);
    visit(config::gemm::warpSpecialized, c.warpSpecialized);
    visit(config::gemm::splitK, c.splitK);
    visit(config::gemm::persistent, c.persistent);
    visit(config::gemm::clusterM, c.clusterM);
    visit(config::gemm::consumers, c.consumers);
    visit(config::gemm::tmaStore, c.tmaStore);
    visit(config::gemm::tmaStoreColumns, c.tmaStoreColumns);
    visit(config::gemm::swapAB, c.swapAB);
    visit(config::gemm::streamK, c.streamK);
  }
};

/// Adds the GEMM kernel to `program`; returns its name.
std::string buildGemm(Program &program, const GemmConfig &config);

/// C = gelu(C + bias) in place, for a row-major M x N tensor C and a bias
/// of N elements (both `dtype`), computed in f32: the separate epilogue
/// kernel that a fused GEMM epilogue is measured against. blockM x blockN
/// elements per block.
struct BiasGeluConfig {
  int64_t blockM = config::bias_gelu::blockM.defaultValue;
  int64_t blockN = config::bias_gelu::blockN.defaultValue;
  int64_t threads = config::bias_gelu::threads.defaultValue;
  std::string dtype = config::bias_gelu::dtype.defaultValue;
  /// The tanh approximation instead of the exact (erf) GELU.
  bool tanhApproximation = config::bias_gelu::tanh.defaultValue;

  /// e.g. bias_gelu_f16_4x1024_t256 (bias_gelu_tanh_... for the tanh form).
  std::string kernelName() const;
  /// Throws std::invalid_argument when the generator does not support
  /// this configuration (the field, its value and the limit).
  void validate() const;

  /// Every field with its key (as VectorAddConfig::forEachField).
  template <typename Self, typename Visit>
  static void forEachField(Self &c, Visit &&visit) {
    visit(config::bias_gelu::blockM, c.blockM);
    visit(config::bias_gelu::blockN, c.blockN);
    visit(config::bias_gelu::threads, c.threads);
    visit(config::bias_gelu::dtype, c.dtype);
    visit(config::bias_gelu::tanh, c.tanhApproximation);
  }
};

/// Adds the bias + GELU kernel to `program`; returns its name.
std::string buildBiasGelu(Program &program, const BiasGeluConfig &config);

/// Y = softmax(A x B^T) along rows, for A (M x K) and B (N x K) f16/bf16,
/// N up to `blockN`, Y f32 (M x N): one key block of attention. The scores
/// stay in the MMA accumulator; tile.reduce takes their row maximum and
/// sum in that layout (shuffles within the quad of lanes sharing a row,
/// shared memory across the warps along N). Columns past N are masked.
struct GemmSoftmaxConfig {
  int64_t blockM = config::gemm_softmax::blockM.defaultValue;
  int64_t blockN = config::gemm_softmax::blockN.defaultValue;
  int64_t blockK = config::gemm_softmax::blockK.defaultValue;
  int64_t threads = config::gemm_softmax::threads.defaultValue;
  int64_t stages = config::gemm_softmax::stages.defaultValue;
  std::string inDtype = config::gemm_softmax::inDtype.defaultValue;
  /// With headDim > 0: Y = softmax(A x B^T) x V for V (N x headDim, the
  /// input type), Y M x headDim f32 - one key block of attention. The
  /// probabilities, cast to the input type in registers, are the A operand
  /// of the second gemm (no trip through shared memory).
  int64_t headDim = config::gemm_softmax::headDim.defaultValue;

  /// e.g. gemm_softmax_f16_64x64x32_t128_s2 (gemm_softmax_pv64_... with
  /// headDim 64).
  std::string kernelName() const;
  /// Throws std::invalid_argument when the generator does not support
  /// this configuration (the field, its value and the limit).
  void validate() const;

  /// Every field with its key (as VectorAddConfig::forEachField).
  template <typename Self, typename Visit>
  static void forEachField(Self &c, Visit &&visit) {
    visit(config::gemm_softmax::blockM, c.blockM);
    visit(config::gemm_softmax::blockN, c.blockN);
    visit(config::gemm_softmax::blockK, c.blockK);
    visit(config::gemm_softmax::threads, c.threads);
    visit(config::gemm_softmax::stages, c.stages);
    visit(config::gemm_softmax::inDtype, c.inDtype);
    visit(config::gemm_softmax::headDim, c.headDim);
  }
};

/// Adds the GEMM + row softmax kernel to `program`; returns its name.
std::string buildGemmSoftmax(Program &program, const GemmSoftmaxConfig &config);

/// FlashAttention forward: O = softmax(scale Q K^T [+ causal mask]) V for
/// Q, O of shape [batch, heads, sequence, headDim] and K, V of shape
/// [batch, kvHeads, keys, headDim] (the key sequence may differ from Q's;
/// any lengths, tails masked), f16 or bf16, f32 accumulation. `scale` is
/// the kernel's f32 parameter after the tensors (1 / sqrt(headDim) in
/// standard attention; positive). kvHeads divides heads (grouped-query
/// attention; equal for multi-head attention): query head h reads K/V head
/// h / (heads / kvHeads). One block per blockM query rows of one (batch,
/// head); blockN keys per step, `stages`-deep cp.async pipeline for K and
/// V. Causal: query i sees keys j <= i (top-left aligned, as torch's
/// is_causal), and key blocks past the diagonal are skipped.
struct AttentionConfig {
  int64_t blockM = config::attention::blockM.defaultValue;
  int64_t blockN = config::attention::blockN.defaultValue;
  int64_t headDim = config::attention::headDim.defaultValue;
  int64_t threads = config::attention::threads.defaultValue;
  int64_t stages = config::attention::stages.defaultValue;
  std::string dtype = config::attention::dtype.defaultValue;
  bool causal = config::attention::causal.defaultValue;
  /// Also write the log-sum-exp of each query row's scaled scores,
  /// LSE[batch, heads, sequence] (f32, natural log), the statistic a
  /// backward pass needs (a tensor parameter after O, before `scale`).
  bool lse = config::attention::lse.defaultValue;

  /// e.g. attention_causal_f16_d64_64x64_t128_s2 (_lse with lse).
  std::string kernelName() const;
  /// Throws std::invalid_argument when the generator does not support
  /// this configuration (the field, its value and the limit).
  void validate() const;

  /// Every field with its key (as VectorAddConfig::forEachField).
  template <typename Self, typename Visit>
  static void forEachField(Self &c, Visit &&visit) {
    visit(config::attention::blockM, c.blockM);
    visit(config::attention::blockN, c.blockN);
    visit(config::attention::headDim, c.headDim);
    visit(config::attention::threads, c.threads);
    visit(config::attention::stages, c.stages);
    visit(config::attention::dtype, c.dtype);
    visit(config::attention::causal, c.causal);
    visit(config::attention::lse, c.lse);
  }
};

/// Adds the attention kernel to `program`; returns its name.
std::string buildAttention(Program &program, const AttentionConfig &config);

/// Row softmax Y = softmax(X) along each row of a row-major M x N tensor
/// (f16, bf16 or f32; computed in f32 with the row maximum subtracted), for
/// N up to `blockN`: each block holds `rows` whole rows on chip, so X is
/// read once and Y written once. Columns past N are masked (-inf).
struct SoftmaxConfig {
  int64_t rows = config::softmax::rows.defaultValue;
  int64_t blockN = config::softmax::blockN.defaultValue;
  int64_t threads = config::softmax::threads.defaultValue;
  std::string dtype = config::softmax::dtype.defaultValue;
  /// Rows of any length: blockN-wide column chunks, a first pass keeping a
  /// running maximum and a running sum rescaled to it (online softmax), a
  /// second pass writing exp(x - max) / sum. X is read twice.
  bool online = config::softmax::online.defaultValue;
  /// Online only: with stages > 1 each pass streams its chunks through
  /// `stages`-deep shared tiles, the loads of the next stages - 1 chunks in
  /// flight (cp.async, tile-pipeline) while one is reduced.
  int64_t stages = config::softmax::stages.defaultValue;

  /// e.g. softmax_f16_1x4096_t256 (softmax_online_... when online, with
  /// _s<stages> when staged).
  std::string kernelName() const;
  /// Throws std::invalid_argument when the generator does not support
  /// this configuration (the field, its value and the limit).
  void validate() const;

  /// Every field with its key (as VectorAddConfig::forEachField).
  template <typename Self, typename Visit>
  static void forEachField(Self &c, Visit &&visit) {
    visit(config::softmax::rows, c.rows);
    visit(config::softmax::blockN, c.blockN);
    visit(config::softmax::threads, c.threads);
    visit(config::softmax::dtype, c.dtype);
    visit(config::softmax::online, c.online);
    visit(config::softmax::stages, c.stages);
  }
};

/// Adds the softmax kernel to `program`; returns its name.
std::string buildSoftmax(Program &program, const SoftmaxConfig &config);

/// The element type named by "f16", "bf16", "f32", "f64", "i32" or "i64".
mlir::Type parseElementType(Program &program, const std::string &name);

} // namespace tile::fe

#endif // TILE_FRONTEND_KERNELS_H
