//===- KernelReport.h - What a compiled kernel got --------------*- C++ -*-===//
//
// Introspection for kernel engineers: per kernel, the instructions that
// decide its speed (tensor-core MMAs, ldmatrix, cp.async, barriers,
// shuffles, vector and scalar global accesses) counted in the PTX, the
// resources ptxas gives it (registers, spills, stack, shared memory), and
// warnings where the kernel did not get what its tile ops ask for (a gemm
// without MMAs, global copies without a single vector access, spills).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TARGET_KERNELREPORT_H
#define TILE_TARGET_KERNELREPORT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/JSON.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mlir::tile {

/// What the tile ops of one kernel ask of the generated code.
struct KernelExpectations {
  bool hasGemm = false;      // tile.gemm: tensor-core MMAs
  bool copiesGlobal = false; // tile.copy from or to global memory
};

/// One compiled kernel.
struct KernelReport {
  std::string name;
  // Static instruction counts in the kernel's PTX: mma counts mma.sync and
  // wgmma.mma_async, cpAsync cp.async and TMA (cp.async.bulk.tensor) copies.
  int64_t mma = 0, ldmatrix = 0, cpAsync = 0, barriers = 0, shuffles = 0,
          exp2 = 0;
  int64_t globalVectorLoads = 0, globalScalarLoads = 0;
  int64_t globalVectorStores = 0, globalScalarStores = 0;
  bool usesLocalMemory = false;
  int64_t ptxBytes = 0;
  // From ptxas -v (absent when ptxas was not run).
  std::optional<int64_t> registers, spillStores, spillLoads, stackFrame;
  // From the launch description (the manifest's dynamic_shared_memory).
  std::optional<int64_t> dynamicSharedBytes;
  std::vector<std::string> warnings;
};

/// The expectations of every tile.kernel in `module` (tile level), by name.
std::map<std::string, KernelExpectations> collectExpectations(ModuleOp module);

/// Counts per `.entry` of `ptx`: the toolchain's one reading of PTX
/// instructions (tile-translate's report, tile-kernels' table and tile-tune
/// all get theirs from here, through the compile driver).
std::vector<KernelReport> analyzePtx(StringRef ptx);

/// Fills registers, spills and stack frames from a `ptxas -v` log (as
/// runPtxas returns it: the cubin's own ptxas run, not a second one).
void addPtxasInfo(std::vector<KernelReport> &reports, StringRef log);

/// ptxas' performance-loss lines of a `ptxas -v` log: "(C75xx)" lines, which
/// say that wgmma was serialized (C7510-C7520), that ptxas fenced a wgmma
/// itself (C7519) or that setmaxnreg was ignored (C7508). On sm_90a they mean
/// the kernel silently lost its asynchrony, so the compile driver refuses
/// them there.
std::vector<std::string> findPtxasPerformanceLoss(StringRef log);

/// Dynamic shared memory per kernel from the gpu.module's launch
/// descriptions (after convert-tile-to-gpu).
void addLaunchResources(std::vector<KernelReport> &reports, ModuleOp module);

/// Adds the warnings: expectations not met (by kernel name), spills, local
/// memory.
void addWarnings(std::vector<KernelReport> &reports,
                 const std::map<std::string, KernelExpectations> &expected);

/// A table, one kernel per row, then the warnings.
std::string formatReports(ArrayRef<KernelReport> reports);
llvm::json::Value toJSON(ArrayRef<KernelReport> reports);

} // namespace mlir::tile

#endif // TILE_TARGET_KERNELREPORT_H
