//===- KernelChoice.h - Which compiled variant runs a launch ----*- C++ -*-===//
//
// A kernel library has several variants of one computation: sm_90a ones
// (TMA + wgmma) that run only on compute capability 9.0, portable mma.sync
// ones, variants that promise rows divisible by 8 and ones for any shape.
// chooseVariant tries candidates in order of preference and takes the first
// whose cubin runs on the device and whose launch contract accepts the
// arguments; every variant tried before it is reported with the reason it
// was passed over (the contract check's own message), so a fallback is
// never silent:
//
//   auto library = loadKernelIndex(kernelDir("build/kernels"), "gemm");
//   GemmRequest request{Arg::buffer(a, DType::f16, {m, k}),
//                       Arg::buffer(b, DType::f16, {k, n}),
//                       Arg::buffer(c, DType::f32, {m, n})};
//   KernelChoice choice = chooseGemm(*library, request, device.chip());
//   std::cout << choice.explain();
//   if (!choice.chosen) return;  // explain() said why
//   Module module = Module::load(device, choice.chosen->cubinPath,
//                                choice.chosen->manifestPath);
//   module.kernel(choice.chosen->name).launch(stream, choice.args);
//
// No device is needed to choose: the chip is a string and the checks read
// the manifests.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_KERNELCHOICE_H
#define TILE_RUNTIME_KERNELCHOICE_H

#include "tile/runtime/KernelIndex.h"
#include "tile/runtime/Launch.h"

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tile::rt {

/// A variant that was not taken, and why: its cubin does not run on the
/// device, or its launch contract refuses the arguments (the Error of
/// checkAndPack: a broken divisibility promise, a row stride TMA cannot
/// describe, shapes that disagree, ...).
struct PassedOver {
  std::string variant;
  std::string reason;
};

/// The outcome of a choice: the variant (none when no candidate suits),
/// its launch arguments, and the candidates passed over before it (all of
/// them when none was chosen), in the order they were tried.
struct KernelChoice {
  std::optional<KernelVariant> chosen;
  std::vector<Arg> args;
  std::vector<PassedOver> passedOver;
  /// What was asked when no candidate existed at all ("no gemm variant
  /// for f16 -> f32, A K x M, ..."); empty otherwise.
  std::string noCandidates;

  /// A readable account: "chose NAME (CHIP)" or "no variant suits", then
  /// one "  passed over NAME: REASON" line per variant passed over.
  std::string explain() const;
};

/// Tries `candidates` in order for a device of `deviceChip` ("sm_90"): the
/// first whose cubin runs there (chipRunsOn) and whose manifest's launch
/// contract accepts argsOf(variant) (checkAndPack, no device needed) is
/// chosen. A manifest that cannot be read passes its variant over too.
KernelChoice chooseVariant(
    const std::vector<KernelVariant> &candidates, const std::string &deviceChip,
    const std::function<std::vector<Arg>(const KernelVariant &)> &argsOf);

/// The kernel description of a variant; throws Error when it has none (its
/// manifest is missing, broken or lacks the kernel).
using KernelInfoSource =
    std::function<const KernelInfo &(const KernelVariant &)>;
/// A call's arguments in a variant's parameter order; an Error it throws
/// passes the variant over with its message.
using ArgsOf =
    std::function<std::vector<Arg>(const KernelVariant &, const KernelInfo &)>;
/// The same with the descriptions from `infoOf` (a KernelCatalog keeps
/// them parsed) and arguments that may depend on the kernel's parameters
/// (argsByName).
KernelChoice chooseVariant(const std::vector<KernelVariant> &candidates,
                           const std::string &deviceChip, const ArgsOf &argsOf,
                           const KernelInfoSource &infoOf);

/// The kernel's arguments in its parameter order (KernelInfo::userParams),
/// taken by name from `named` ("Q", "scale"). Throws Error naming the
/// kernel for a parameter with no argument and for an argument the kernel
/// has no parameter for.
std::vector<Arg>
argsByName(const KernelInfo &kernel,
           const std::vector<std::pair<std::string, Arg>> &named);

/// C = op(A) op(B) (+ the epilogue) on operands as stored: A is M x K (K x M
/// with transposeA), B is K x N (N x K with transposeB), C is M x N; the
/// epilogue one of config::gemm::epilogues (ConfigKeys.h), with the bias (N
/// values of C's type) exactly when it takes one (every one but "none").
struct GemmRequest {
  Arg a, b, c;
  bool transposeA = false, transposeB = false;
  std::string epilogue = "none";
  std::optional<Arg> bias;
};

/// The gemm variants of `library` that compute `request` (A's dtype in,
/// C's out, its transposes and epilogue), best first for `deviceChip`:
///   1. arch-specific cubins for the device's chip (sm_90a on sm_90: TMA and
///      wgmma) before portable ones (mma.sync);
///   2. when C has at most kFewRows rows, or fewer than kFewTiles tiles
///      of 128x256, variants whose tile has at most kFewRows rows (no split
///      of K) first: so few big tiles leave most multiprocessors idle; with
///      few rows split-K variants next. On the H100 (2026-12-05) the 64x128
///      tiles led split-K, which adds a zero fill and atomics, at 16 and 64 x
///      8192 x 8192, and the 128x256 leaders by 1.2-1.4x at 1024^3 (32 tiles);
///      at 2048^3 (128 tiles) the leaders were 1.6-1.9x faster (docs/Gemm.md).
///      Both last otherwise. Among those row tiles, the fewest rows that
///      hold C's (a 16-row swap_ab tile for 16 rows: no products of zero
///      rows), or the most when none does; of those, when C has at most
///      kFewRows rows, the widest whose tiles across N number at least
///      kWaveOfRowTiles, else the narrowest. At 64x8192x8192 that is
///      64x64 (128 tiles; 64x128 gives 64, too few blocks to read B at the
///      H200's bandwidth), at 64x28672x8192 64x128 (224 tiles; on the
///      H100 0.98x of cuBLAS against 0.93x for 64x64). With more rows, the
///      library's order;
///   3. thread-block cluster variants (`cluster_m` > 1, B multicast to a
///      pair of tiles) first when M or N is not a multiple of
///      kClusterFirstUnless, last otherwise: on the H100 (2026-12-05) the
///      pairs ran 1.33-1.43x faster than their twins at 4000x3000x4096 and
///      1-9% slower at 4096^3, within 1% at 8192^3 and 8192x8192x28672
///      (docs/Gemm.md);
///   4. then the library's order (tile-kernels lists the leading shapes
///      first).
inline constexpr int64_t kFewRows = 64;
inline constexpr int64_t kFewTiles = 64;
/// About one wave of blocks on the H100 and H200 (132 multiprocessors);
/// N = 8192 in 64-column tiles (128) counts as one.
inline constexpr int64_t kWaveOfRowTiles = 128;
/// The tile whose count kFewTiles bounds: the library's leading shape.
inline constexpr int64_t kLeadingTileRows = 128, kLeadingTileCols = 256;
inline constexpr int64_t kClusterFirstUnless = 256;
std::vector<KernelVariant>
gemmCandidates(const std::vector<KernelVariant> &library,
               const GemmRequest &request, const std::string &deviceChip);

/// Throws Error unless the request's epilogue is one of the generator's
/// and it has a bias exactly when that epilogue takes one.
void checkGemmRequest(const GemmRequest &request);

/// The request's arguments in the gemm generator's order: A, B, C, then
/// the bias.
ArgsOf gemmArgs(const GemmRequest &request);

/// gemmCandidates, then chooseVariant with the request's arguments in the
/// gemm generator's order (A, B, C, then the bias). With no candidate at
/// all, `noCandidates` says what was asked. The choose* functions read the
/// manifests from their files unless `infoOf` gives them. Throws
/// tile::rt::Error for a request that contradicts itself: an unknown
/// epilogue, or a bias given to an epilogue without one (or missing for one
/// with one).
KernelChoice chooseGemm(const std::vector<KernelVariant> &library,
                        const GemmRequest &request,
                        const std::string &deviceChip,
                        const KernelInfoSource &infoOf = {});

/// Y = softmax(X) along the rows of row-major M x N tensors of one type.
struct SoftmaxRequest {
  Arg x, y;
};

/// The softmax variants of X's type, best first for rows of X's length N
/// (measured on the H200, docs/Reductions.md; the fastest kernels hold 16
/// to 32 elements per thread):
///   1. the kernels that hold a whole row on chip (block_n >= N), the
///      narrowest first, then those closest to 32 elements per thread,
///      then more rows per block; for 16-bit types with N > 8192 the online
///      kernels come first (a row of 32768 takes 64 registers per thread of
///      512, and the staged online kernel was faster);
///   2. the online kernels (any N), staged ones first;
///   3. last, the on-chip kernels too narrow for N (their contract refuses
///      them, with the bound).
std::vector<KernelVariant>
softmaxCandidates(const std::vector<KernelVariant> &library,
                  const SoftmaxRequest &request);
/// X, Y.
ArgsOf softmaxArgs(const SoftmaxRequest &request);
KernelChoice chooseSoftmax(const std::vector<KernelVariant> &library,
                           const SoftmaxRequest &request,
                           const std::string &deviceChip,
                           const KernelInfoSource &infoOf = {});

/// O = softmax(Q K^T * scale [+ causal mask]) V for Q, K, V, O of shape
/// [batch, heads, sequence, head_dim]; LSE [batch, heads, sequence] (f32)
/// when asked. `scale` is 1/sqrt(head_dim) when not given.
struct AttentionRequest {
  Arg q, k, v, o;
  bool causal = false;
  std::optional<float> scale;
  std::optional<Arg> lse;
};

/// The attention variants of Q's type and head dimension, causal or not,
/// with the log-sum-exp output exactly when it is asked for, best first:
/// the tiles that were fastest on the H200
/// (benchmarks/results/2026-11-30-h200-attention-final: 128x128 with 128
/// threads for f16 at head dimension 64, 128x64 with 128 threads
/// otherwise), then 128-row tiles, then the library's order.
std::vector<KernelVariant>
attentionCandidates(const std::vector<KernelVariant> &library,
                    const AttentionRequest &request);
/// By the kernel's parameter names: Q, K, V, O, LSE when asked, and the
/// scale where the kernel takes one (a kernel with 1/sqrt(head_dim) built
/// in refuses another scale).
ArgsOf attentionArgs(const AttentionRequest &request);
KernelChoice chooseAttention(const std::vector<KernelVariant> &library,
                             const AttentionRequest &request,
                             const std::string &deviceChip,
                             const KernelInfoSource &infoOf = {});

/// C = A + B element-wise on vectors of one type.
struct VectorAddRequest {
  Arg a, b, c;
};

/// The vector_add variants of A's type, in the library's order.
std::vector<KernelVariant>
vectorAddCandidates(const std::vector<KernelVariant> &library,
                    const VectorAddRequest &request);
/// A, B, C.
ArgsOf vectorAddArgs(const VectorAddRequest &request);
KernelChoice chooseVectorAdd(const std::vector<KernelVariant> &library,
                             const VectorAddRequest &request,
                             const std::string &deviceChip,
                             const KernelInfoSource &infoOf = {});

} // namespace tile::rt

#endif // TILE_RUNTIME_KERNELCHOICE_H
