//===- Tuning.h - Configuration spaces and static pruning -------*- C++ -*-===//
//
// The compile-side half of the autotuner: a generator declares its
// configuration space; each candidate is pruned before compiling when it
// cannot run on the target (threads and shared memory against the target's
// limits, the generator's validate(): sizes, stages, registers; the
// dialect's verifier: MMA tile divisibility and layout rules) and after
// compiling when ptxas gives it more registers than a block may hold; each
// pruned candidate keeps its reason. The survivors compile in parallel on the
// CPU into a kernel directory that the GPU side times and validates.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_FRONTEND_TUNING_H
#define TILE_FRONTEND_TUNING_H

#include "tile/Frontend/Compile.h"
#include "tile/Frontend/Variants.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tile::fe {

/// What a target allows one block.
struct DeviceLimits {
  std::string name; // e.g. "NVIDIA H200" or "sm_90 (table)"
  std::string chip = "sm_90";
  int64_t maxSharedPerBlock = 0; // bytes, with the opt-in
  int64_t registersPerBlock = 0; // 32-bit registers
  int64_t maxThreadsPerBlock = 1024;
};

/// The limits of a chip from the CUDA programming guide's table (sm_80,
/// sm_86, sm_89, sm_90); nullopt for other chips.
std::optional<DeviceLimits> limitsForChip(const std::string &chip);

/// The limits of the first device in a `tile-device-info --json` file
/// (written on the GPU machine); nullopt with the reason in `error` (also
/// for JSON nested deeper than such a file is, refused before parsing).
std::optional<DeviceLimits> readDeviceLimits(const std::string &path,
                                             std::string &error);

/// A generator's configuration space. Each candidate's shared memory
/// (Variant::sharedMemoryBytes) is checked against the target's limit; its
/// generator's validate() checks the rest.
struct TuneSpace {
  std::string generator;
  std::vector<Variant> candidates;
};

/// The values a GEMM space takes per parameter.
struct GemmSpaceAxes {
  std::vector<int64_t> blockM = {64, 128, 256}, blockN = {64, 128, 256},
                       blockK = {32, 64}, stages = {2, 3, 4},
                       threads = {128, 256}, rasterPanel = {0, 8},
                       divisibility = {8};
  /// With true, the sm_90a warp-specialized form of each tile shape too
  /// (TMA + wgmma; its threads follow from block_m, the threads axis does
  /// not apply).
  std::vector<bool> warpSpecialized = {false};
  /// Split-K slices (1: off); more than 1 needs f32 output (atomic adds).
  std::vector<int64_t> splitK = {1};
  /// With true, the persistent form of each warp-specialized candidate
  /// without split-K too.
  std::vector<bool> persistent = {false};
  /// With true, the TMA-store epilogue of each warp-specialized candidate
  /// without split-K too.
  std::vector<bool> tmaStore = {false};
  /// The band widths of each TMA-store candidate (0: the whole tile); the
  /// candidates without a TMA store take none.
  std::vector<int64_t> tmaStoreColumns = {0};
  /// The cluster sizes along M of each persistent candidate (1: none); the
  /// others take 1.
  std::vector<int64_t> clusterM = {1};
  /// The compute sets of each persistent candidate without a cluster (1:
  /// cooperative; 2: ping-pong); the others take 1.
  std::vector<int64_t> consumers = {1};
  /// With true, the swap_ab form of each warp-specialized NN candidate
  /// without split-K, persistence or TMA store too (its threads follow
  /// from block_n).
  std::vector<bool> swapAB = {false};
  /// With true, the stream-K form of each persistent candidate with one
  /// set of compute threads and no cluster too.
  std::vector<bool> streamK = {false};
  /// The problem's operand layout, the same for every candidate: A stored
  /// K x M, B stored N x K.
  bool transposeA = false, transposeB = false;
};

/// GEMM tile shapes, K steps, stages, threads, rasterization and row
/// divisibility promises (8 by default: half the code and compile time; the
/// GPU side skips them for shapes that break the promise) for one
/// input/output type pair: the cross product of `axes` (users can append
/// their own configurations to `candidates`).
TuneSpace gemmTuneSpace(const std::string &inDtype, const std::string &outDtype,
                        const GemmSpaceAxes &axes = {});

/// One configuration on its way through the tuner.
struct TuneCandidate {
  Variant variant;
  std::string name;                // the kernel's name, once built
  std::vector<std::string> pruned; // why it cannot run ("" = alive)
  CompiledModule compiled;
  std::optional<int64_t> registers; // ptxas
  int64_t spillBytes = 0;           // ptxas, stores + loads

  bool alive() const { return pruned.empty(); }
};

/// Builds every candidate of `space` and prunes, with reasons, the ones
/// whose threads or shared memory exceed `limits`, whose generator refuses
/// the configuration or whose program does not verify.
std::vector<TuneCandidate> pruneStatically(const TuneSpace &space,
                                           const DeviceLimits &limits);

/// Called after each compiled candidate with how many are done, how many
/// there are and the candidate, pruned or not (one call at a time).
using CompileProgress =
    std::function<void(size_t done, size_t total, const TuneCandidate &)>;

/// Compiles the live candidates on `jobs` threads (at most one per
/// candidate; `progress` after each), pruning those that do not compile
/// (with the compiler's first error) and those whose registers exceed the
/// block's register file (ptxas -v).
void compileCandidates(std::vector<TuneCandidate> &candidates,
                       const CompileOptions &options,
                       const DeviceLimits &limits, unsigned jobs,
                       const CompileProgress &progress);

} // namespace tile::fe

#endif // TILE_FRONTEND_TUNING_H
