//===- ConfigKeys.h - The generators' configuration schema ------*- C++ -*-===//
//
// The one description of every kernel generator's configuration: for each
// field its key in index.json's "config" objects, its type, the generator's
// default, the tile-kernels flag that sets it, its help text and the values
// it may take on its own (its limits). Header-only and without
// dependencies, because both sides need it: the frontend's config structs
// (tile/Frontend/Kernels.h) take their defaults and JSON keys from here,
// their validate() checks each field against its limits, tile-kernels
// makes its options and their help from the keys, and the programs that run
// on the GPU machine without the frontend (GPU tests, benchmarks,
// tile-profile, tile-tune-run) read a variant's configuration through these
// keys instead of spelling the strings:
//
//   namespace key = tile::config::gemm;
//   auto variants = loadKernelIndex(dir, key::generator);
//   int64_t bm = variant.config.get(key::blockM);
//   bool ta = variant.config.getOrDefault(key::transposeA);
//
// Limits that involve several fields or a resource (shared memory,
// registers) stay with the generator's validate().
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_CONFIGKEYS_H
#define TILE_RUNTIME_CONFIGKEYS_H

#include <cstdint>
#include <iterator>
#include <string_view>

namespace tile::config {

/// The deepest software pipeline a generator builds: each stage holds
/// another copy of the pipelined tiles and unrolls another copy of the
/// loop's prologue (the library uses 1 to 4).
inline constexpr int64_t kMaxStages = 8;

/// The values an integer field may take on its own: from `min` to `max`, a
/// multiple of `multipleOf`, or 0 where 0 turns the field off. `why` says
/// where the limits come from (validation messages quote it).
struct IntLimits {
  int64_t min = INT64_MIN;
  int64_t max = INT64_MAX;
  int64_t multipleOf = 1;
  /// 0 is also allowed, whatever `min` says (the field is off).
  bool orZero = false;
  const char *why = nullptr;

  constexpr bool isLimited() const {
    return min != INT64_MIN || max != INT64_MAX || multipleOf != 1;
  }
  constexpr bool allows(int64_t value) const {
    return (orZero && value == 0) ||
           (value >= min && value <= max && value % multipleOf == 0);
  }
};

/// `value >= min`, for sizes whose upper limit is a resource (shared
/// memory, registers) that the generator checks.
constexpr IntLimits atLeast(int64_t min, const char *why) {
  IntLimits limits;
  limits.min = min;
  limits.why = why;
  return limits;
}
/// `min <= value <= max`.
constexpr IntLimits between(int64_t min, int64_t max, const char *why) {
  IntLimits limits = atLeast(min, why);
  limits.max = max;
  return limits;
}
/// 0 (off), or at least `min`.
constexpr IntLimits offOrAtLeast(int64_t min, const char *why) {
  IntLimits limits = atLeast(min, why);
  limits.orZero = true;
  return limits;
}
/// A block of 1 to 32 warps (the dialect's rule).
constexpr IntLimits threadsPerBlock() {
  IntLimits limits = between(32, 1024, "1 to 32 warps per block");
  limits.multipleOf = 32;
  return limits;
}

/// The values a string field may take: one of `allowed` (none listed: any).
struct StringLimits {
  static constexpr int kMaxAllowed = 8;
  const char *allowed[kMaxAllowed] = {};

  constexpr bool isLimited() const { return allowed[0] != nullptr; }
  constexpr bool allows(const char *value) const {
    if (!isLimited())
      return true;
    for (const char *name : allowed) {
      if (!name)
        break;
      int i = 0;
      while (name[i] && name[i] == value[i])
        ++i;
      if (name[i] == value[i])
        return true;
    }
    return false;
  }
};
template <typename... Names> constexpr StringLimits oneOf(Names... names) {
  static_assert(sizeof...(names) <= StringLimits::kMaxAllowed,
                "more names than StringLimits holds");
  return StringLimits{{names...}};
}

/// A boolean field takes either value.
struct NoLimits {
  constexpr bool isLimited() const { return false; }
};

template <typename T> struct LimitsOf { using type = NoLimits; };
template <> struct LimitsOf<int64_t> { using type = IntLimits; };
template <> struct LimitsOf<const char *> { using type = StringLimits; };

/// One field of a generator's configuration. `T` is int64_t, bool or
/// `const char *` (a string).
template <typename T> struct Key {
  /// The key in index.json ("block_m"); validation messages name it too.
  const char *name;
  /// The generator's default, also what a reader assumes when an older
  /// index lacks the key.
  T defaultValue;
  /// The tile-kernels option that sets it ("block-m"), or nullptr.
  const char *flag = nullptr;
  /// What the field means, for tile-kernels --help ("M of the block tile").
  const char *help = nullptr;
  /// The values it may take on its own; validate() checks them first.
  typename LimitsOf<T>::type limits = {};
};
using IntKey = Key<int64_t>;
using BoolKey = Key<bool>;
using StringKey = Key<const char *>;

/// vector_add: C = A + B.
namespace vector_add {
/// The generator's name in index.json ("generator") and tile-kernels.
inline constexpr const char *generator = "vector_add";
inline constexpr IntKey blockN{"block_n", 1024, "block-n", "elements per block",
                               atLeast(1, "elements per block")};
inline constexpr IntKey threads{"threads", 256, "num-threads",
                                "threads per block", threadsPerBlock()};
inline constexpr StringKey dtype{
    "dtype", "f32", "dtype", "element type",
    oneOf("f16", "bf16", "f32", "f64", "i32", "i64")};
} // namespace vector_add

/// print_demo: device printing (no flags: tile-kernels builds its default).
namespace print_demo {
/// The generator's name in index.json ("generator") and tile-kernels.
inline constexpr const char *generator = "print_demo";
inline constexpr IntKey rows{"rows", 16, nullptr, "rows of the printed tile",
                             atLeast(1, "rows of the tile")};
inline constexpr IntKey cols{"cols", 8, nullptr, "columns of the printed tile",
                             atLeast(1, "columns of the tile")};
inline constexpr IntKey threads{"threads", 64, nullptr, "threads per block",
                                threadsPerBlock()};
} // namespace print_demo

/// gemm: C = A x B on tensor cores.
namespace gemm {
/// The generator's name in index.json ("generator") and tile-kernels.
inline constexpr const char *generator = "gemm";
inline constexpr IntKey blockM{"block_m", 128, "block-m",
                               "M of the block tile, rows of C per block",
                               atLeast(16, "the M of one m16n8k16 MMA")};
inline constexpr IntKey blockN{"block_n", 128, "block-n",
                               "N of the block tile, columns of C per block",
                               atLeast(8, "the N of one m16n8k16 MMA")};
inline constexpr IntKey blockK{"block_k", 32, "block-k",
                               "K step of the main loop",
                               atLeast(16, "the K of one m16n8k16 MMA")};
inline constexpr IntKey threads{"threads", 128, "num-threads",
                                "threads per block", threadsPerBlock()};
inline constexpr StringKey outDtype{"out_dtype", "f32", "out-dtype",
                                    "type of C and the bias",
                                    oneOf("f32", "f16", "bf16")};
inline constexpr IntKey stages{
    "stages", 3, "stages",
    "software-pipeline depth of the K loop, 1: synchronous copies",
    between(1, kMaxStages,
            "1: synchronous copies; the K loop's cp.async pipeline depth")};
inline constexpr IntKey rasterPanel{
    "raster_panel", 0, "raster-panel",
    "block rasterization panel in grid rows, 0: off",
    between(0, 65535,
            "0: off; grid rows per panel, and a grid has at most 65535")};
inline constexpr BoolKey transposeB{"transpose_b", false, "transpose-b",
                                    "B is N x K: C = A B^T"};
inline constexpr StringKey inDtype{"in_dtype", "f16", "in-dtype",
                                   "type of A and B", oneOf("f16", "bf16")};
inline constexpr BoolKey transposeA{"transpose_a", false, "transpose-a",
                                    "A is K x M: C = A^T B"};

/// What the generator applies to the f32 accumulator before C is stored:
/// the values of the "epilogue" key (the key's help says what each
/// computes). This table is the one list of them: the key's limits, the
/// generator, the runtime's choice of variant (KernelChoice.h), the GPU
/// tests' float64 reference, the benchmarks and tile-library's coverage
/// table read it, and their switches over `Epilogue` make the compiler
/// name each place a new one must be handled.
enum class Epilogue { none, bias, biasGelu, biasGeluTanh, biasRelu };
struct EpilogueInfo {
  Epilogue kind;
  /// The "epilogue" value, also the suffix of the kernel's name.
  const char *name;
  /// Whether the kernel takes the bias: N values of C's type, its
  /// parameter "Bias" after C.
  bool hasBias;
};
inline constexpr EpilogueInfo epilogues[] = {
    {Epilogue::none, "none", false},
    {Epilogue::bias, "bias", true},
    {Epilogue::biasGelu, "bias_gelu", true},
    {Epilogue::biasGeluTanh, "bias_gelu_tanh", true},
    {Epilogue::biasRelu, "bias_relu", true},
};

/// The epilogue named `name`, or nullptr.
constexpr const EpilogueInfo *findEpilogue(std::string_view name) {
  for (const EpilogueInfo &epilogue : epilogues)
    if (name == epilogue.name)
      return &epilogue;
  return nullptr;
}

namespace detail {
constexpr StringLimits epilogueNames() {
  StringLimits limits;
  int i = 0;
  for (const EpilogueInfo &epilogue : epilogues)
    limits.allowed[i++] = epilogue.name;
  return limits;
}
/// Kernel names (and the scripts that read benchmark results by them) tell
/// the variants with a bias by the "_bias" of their epilogue.
constexpr bool biasEpiloguesAreNamedBias() {
  for (const EpilogueInfo &epilogue : epilogues)
    if (epilogue.hasBias != (std::string_view(epilogue.name).substr(0, 4) ==
                             std::string_view("bias")))
      return false;
  return true;
}
} // namespace detail
static_assert(std::size(epilogues) <= StringLimits::kMaxAllowed,
              "more epilogues than StringLimits holds");
static_assert(epilogues[0].kind == Epilogue::none,
              "the first epilogue is the key's default, none");
static_assert(detail::biasEpiloguesAreNamedBias(),
              "an epilogue takes a bias exactly when its name starts with "
              "bias");

inline constexpr StringKey epilogue{
    "epilogue", epilogues[0].name, "epilogue",
    "applied to the f32 accumulator before the store; each but none first "
    "adds the bias (N values of the output type): C = A x B + bias (bias), "
    "gelu of it, exact (bias_gelu) or the tanh approximation "
    "(bias_gelu_tanh), or max(it, 0) (bias_relu)",
    detail::epilogueNames()};
inline constexpr IntKey divisibility{
    "divisibility", 1, "divisibility",
    "promise that every tensor's rows (K, N) are multiples of this (checked "
    "at launch; 8 drops the unaligned fallbacks); 1: any shape",
    atLeast(1, "1: any shape; the promised row multiple")};
inline constexpr BoolKey stagedEpilogue{
    "staged_epilogue", false, "staged-epilogue",
    "run the epilogue as a loop over the accumulator staged in shared "
    "memory"};
inline constexpr BoolKey warpSpecialized{
    "warp_specialized", false, "warp-specialized",
    "sm_90a: a TMA producer warpgroup and wgmma compute warpgroups (threads "
    "= 128 x (1 + block_m / 64)); needs --chip=sm_90a"};
inline constexpr BoolKey persistent{
    "persistent", false, "persistent",
    "sm_90a: one block per multiprocessor, each walking the C tiles (its "
    "producer loads the next tile during the last one's epilogue); with "
    "--warp-specialized"};
inline constexpr IntKey clusterM{
    "cluster_m", 1, "cluster-m",
    "sm_90a: blocks per thread-block cluster along M: the cluster's tiles, "
    "one above the other, share their B tiles, which each block loads a "
    "share of and multicasts to all; 1: no clusters; with --persistent",
    between(1, 8, "1: off; the blocks of a cluster")};
inline constexpr IntKey consumers{
    "consumers", 1, "consumers",
    "sm_90a: sets of compute threads that take the tiles in turn (2: "
    "ping-pong, one set's epilogue overlapping the other's products); each "
    "set holds the whole block_m x block_n accumulator (threads = 256); "
    "with --persistent",
    between(1, 2, "1: off; 2: ping-pong")};
inline constexpr BoolKey tmaStore{
    "tma_store", false, "tma-store",
    "sm_90a: the epilogue stages C in a swizzled shared tile of the output "
    "type and stores it with TMA (persistent: overlapping the next tile); "
    "with --warp-specialized"};
inline constexpr IntKey tmaStoreColumns{
    "tma_store_columns", 0, "tma-store-columns",
    "with --tma-store: stage C in bands of this many columns through two "
    "shared tiles (the stores of one band overlap the staging of the next, "
    "and the pipeline keeps its stages); 0: the whole tile at once",
    offOrAtLeast(8, "0: the whole tile; the columns of a band")};
inline constexpr BoolKey swapAB{
    "swap_ab", false, "swap-ab",
    "sm_90a: compute C^T = B^T A^T, so that block_n columns of C are the "
    "wgmma's M and block_m rows its N (a multiple of 8 up to 256): tiles of "
    "few rows for a C "
    "of few rows, without the products of a 64-row tile's zero rows; C "
    "leaves transposed through shared memory; with --warp-specialized"};
inline constexpr BoolKey streamK{
    "stream_k", false, "stream-k",
    "sm_90a: when the C tiles do not fill whole rounds of the blocks, split "
    "the partial round's tiles into 2 to 4 K chunks that the blocks take in "
    "turn, summed through a workspace the runtime allocates; with "
    "--persistent"};
inline constexpr IntKey splitK{
    "split_k", 1, "split-k",
    "blocks per C tile, each summing one slice of the K loop into C with "
    "f32 atomic adds (C is zero-filled at launch); 1: off",
    between(1, 64, "1: off; the slices of the K loop, a grid's z")};
} // namespace gemm

/// bias_gelu: C = gelu(C + bias) in place.
namespace bias_gelu {
/// The generator's name in index.json ("generator") and tile-kernels.
inline constexpr const char *generator = "bias_gelu";
inline constexpr IntKey blockM{"block_m", 4, "block-m", "rows per block",
                               atLeast(1, "rows per block")};
inline constexpr IntKey blockN{"block_n", 1024, "block-n", "columns per block",
                               atLeast(1, "columns per block")};
inline constexpr IntKey threads{"threads", 256, "num-threads",
                                "threads per block", threadsPerBlock()};
inline constexpr StringKey dtype{"dtype", "f16", "dtype",
                                 "element type of C and the bias",
                                 oneOf("f16", "bf16", "f32")};
inline constexpr BoolKey tanh{
    "tanh", false, "tanh",
    "the tanh approximation instead of the exact (erf) GELU"};
} // namespace bias_gelu

/// gemm_softmax: Y = softmax(A x B^T) [x V].
namespace gemm_softmax {
/// The generator's name in index.json ("generator") and tile-kernels.
inline constexpr const char *generator = "gemm_softmax";
inline constexpr IntKey blockM{"block_m", 64, "block-m",
                               "M of the block tile, rows per block",
                               atLeast(16, "the M of one m16n8k16 MMA")};
inline constexpr IntKey blockN{
    "block_n", 64, "block-n",
    "N of the block tile: the longest row, reduced in the accumulator",
    atLeast(8, "the N of one m16n8k16 MMA")};
inline constexpr IntKey blockK{"block_k", 32, "block-k",
                               "K step of the main loop",
                               atLeast(16, "the K of one m16n8k16 MMA")};
inline constexpr IntKey threads{"threads", 128, "num-threads",
                                "threads per block", threadsPerBlock()};
inline constexpr IntKey stages{
    "stages", 2, "stages",
    "software-pipeline depth of the K loop, 1: synchronous copies",
    between(1, kMaxStages,
            "1: synchronous copies; the K loop's cp.async pipeline depth")};
inline constexpr StringKey inDtype{"in_dtype", "f16", "in-dtype",
                                   "type of A, B and V", oneOf("f16", "bf16")};
inline constexpr IntKey headDim{
    "head_dim", 0, "head-dim",
    "also multiply by V (N x head_dim), the probabilities in registers; "
    "0: no",
    offOrAtLeast(8, "0: no V; else the N of one m16n8k16 MMA")};
} // namespace gemm_softmax

/// attention: FlashAttention forward.
namespace attention {
/// The generator's name in index.json ("generator") and tile-kernels.
inline constexpr const char *generator = "attention";
inline constexpr IntKey blockM{"block_m", 64, "block-m", "query rows per block",
                               atLeast(16, "the M of one m16n8k16 MMA")};
inline constexpr IntKey blockN{"block_n", 64, "block-n", "keys per step",
                               atLeast(16, "the K of one m16n8k16 MMA in P V")};
inline constexpr IntKey headDim{
    "head_dim", 64, "head-dim", "head dimension D of Q, K, V and O",
    atLeast(16, "the K of one m16n8k16 MMA in Q K^T")};
inline constexpr IntKey threads{"threads", 128, "num-threads",
                                "threads per block", threadsPerBlock()};
inline constexpr IntKey stages{
    "stages", 2, "stages",
    "cp.async pipeline depth of the K/V loop, 1: no pipeline",
    between(1, kMaxStages,
            "1: no pipeline; the K/V loop's cp.async pipeline depth")};
inline constexpr StringKey dtype{"dtype", "f16", "dtype",
                                 "element type of Q, K, V and O",
                                 oneOf("f16", "bf16")};
inline constexpr BoolKey causal{"causal", false, "causal",
                                "causal: query i sees keys j <= i"};
inline constexpr BoolKey lse{
    "lse", false, "lse",
    "also write the log-sum-exp of each query row, LSE[batch, heads, seq]"};
} // namespace attention

/// softmax: Y = softmax(X) along rows.
namespace softmax {
/// The generator's name in index.json ("generator") and tile-kernels.
inline constexpr const char *generator = "softmax";
inline constexpr IntKey rows{"rows", 1, "block-m", "rows per block",
                             atLeast(1, "rows per block")};
inline constexpr IntKey blockN{
    "block_n", 4096, "block-n",
    "columns held on chip: the longest row, or with online the chunk width",
    atLeast(1, "columns held on chip")};
inline constexpr IntKey threads{"threads", 256, "num-threads",
                                "threads per block", threadsPerBlock()};
inline constexpr StringKey dtype{"dtype", "f16", "dtype",
                                 "element type of X and Y",
                                 oneOf("f16", "bf16", "f32")};
inline constexpr BoolKey online{
    "online", false, "online",
    "rows of any length: two passes over block_n-wide chunks"};
inline constexpr IntKey stages{
    "stages", 1, "stages",
    "with online: shared tiles each pass streams its chunks through; 1: "
    "none, straight from global memory",
    between(1, kMaxStages,
            "1: chunks straight from global memory; more: chunks through "
            "that many shared tiles")};
} // namespace softmax

} // namespace tile::config

#endif // TILE_RUNTIME_CONFIGKEYS_H
