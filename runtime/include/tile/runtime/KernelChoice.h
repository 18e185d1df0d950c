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
///   2. split-K variants first when C has at most 64 rows (one row of
///      tiles leaves most multiprocessors idle otherwise), last when more;
///   3. then the library's order (tile-kernels lists the leading shapes
///      first).
std::vector<KernelVariant>
gemmCandidates(const std::vector<KernelVariant> &library,
               const GemmRequest &request, const std::string &deviceChip);

/// gemmCandidates, then chooseVariant with the request's arguments in the
/// gemm generator's order (A, B, C, then the bias). With no candidate at
/// all, `noCandidates` says what was asked. Throws tile::rt::Error for a
/// request that contradicts itself: an unknown epilogue, or a bias given
/// to an epilogue without one (or missing for one with one).
KernelChoice chooseGemm(const std::vector<KernelVariant> &library,
                        const GemmRequest &request,
                        const std::string &deviceChip);

} // namespace tile::rt

#endif // TILE_RUNTIME_KERNELCHOICE_H
