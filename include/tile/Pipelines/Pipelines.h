//===- Pipelines.h - Named tile compilation pipelines -----------*- C++ -*-===//
//
// The pass pipelines that take a tile module to the NVVM-level module that
// the compile driver (tile/Compiler/Compile.h) serializes to PTX or a cubin,
// and their registration as tile-opt's named pipelines.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_PIPELINES_PIPELINES_H
#define TILE_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir {
class OpPassManager;
class PassManager;

namespace tile {

/// Target of the NVVM lowering.
struct TargetOptions {
  std::string chip = "sm_90";
  std::string features = "+ptx80";
  unsigned optLevel = 3;
};

/// Options of the `tile-to-nvvm` and `tile-gpu-to-nvvm` pipelines.
struct TargetPipelineOptions
    : public PassPipelineOptions<TargetPipelineOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("target chip, e.g. sm_80, sm_90"),
                           llvm::cl::init("sm_90")};
  Option<std::string> features{*this, "features",
                               llvm::cl::desc("PTX features, e.g. +ptx80"),
                               llvm::cl::init("+ptx80")};
  Option<unsigned> optLevel{
      *this, "O", llvm::cl::desc("LLVM optimization level"), llvm::cl::init(3)};
  TargetOptions toTargetOptions() const { return {chip, features, optLevel}; }
};

/// Checks a target before anything is built for it: `chip` one of the
/// chips of sm_80 or newer that LLVM's NVPTX back end and ptxas both know
/// (sm_80, sm_86, ..., sm_90, sm_90a, sm_100, ...), `features` empty or
/// `+ptxNN`, a PTX ISA version that LLVM knows and that has the chip. Fails
/// with the reason in `error`. The one check of tile-opt's pipelines,
/// tile-translate and the frontend's compile().
LogicalResult verifyTarget(StringRef chip, StringRef features,
                           std::string &error);
LogicalResult verifyTargetOptions(const TargetOptions &options,
                                  std::string &error);

/// The pipelines, built in C++ from the passes' own constructors and option
/// structs (no pipeline text is parsed). Each adds its passes to `pm`, which
/// is anchored on the builtin.module.
///
/// Stage 1, tile -> gpu: software pipelining, layouts, then
/// `convert-tile-to-gpu` (buildTileLoweringPipeline) and the cleanup
/// (`canonicalize`, `cse`; buildTileCleanupPipeline).
void buildTileLoweringPipeline(OpPassManager &pm);
void buildTileCleanupPipeline(OpPassManager &pm);
void buildTileToGPUPipeline(OpPassManager &pm);
/// Stage 2, gpu -> NVVM: `nvvm-attach-target` for `options` and the
/// upstream NVVM lowering nested on the gpu.module. `options` must have
/// passed verifyTargetOptions.
void buildGPUToNVVMPipeline(OpPassManager &pm, const TargetOptions &options);
/// Both stages.
void buildTileToNVVMPipeline(OpPassManager &pm, const TargetOptions &options);

/// Adds `tile-to-nvvm` (`fromTile`) or `tile-gpu-to-nvvm` for `options`
/// to `pm` after verifyTargetOptions; explains a failure on `errors`.
LogicalResult addTargetPipeline(OpPassManager &pm, const TargetOptions &options,
                                bool fromTile, llvm::raw_ostream &errors);

/// Appends a pass that fails when an error diagnostic was reported while
/// the passes before it ran: a pass that reports an error must not let the
/// run succeed.
void addErrorDiagnosticsCheck(PassManager &pm);

/// Registers `tile-to-gpu`, `tile-gpu-to-nvvm` and `tile-to-nvvm`.
void registerTilePipelines();

} // namespace tile
} // namespace mlir

#endif // TILE_PIPELINES_PIPELINES_H
