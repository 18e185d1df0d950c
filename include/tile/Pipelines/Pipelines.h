//===- Pipelines.h - Named tile compilation pipelines -----------*- C++ -*-===//
//
// The pass pipelines that take a tile module to the NVVM-level module that
// tile-translate serializes to PTX or a cubin.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_PIPELINES_PIPELINES_H
#define TILE_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir {
class OpPassManager;

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

/// Stage 1, tile -> gpu: software pipelining, layouts, then
/// `convert-tile-to-gpu` and cleanup.
std::string getTileToGPUPipeline();
/// Stage 2, gpu -> NVVM: target attachment and the upstream NVVM lowering.
std::string getGPUToNVVMPipeline(const TargetOptions &options);
/// Both stages.
std::string getTileToNVVMPipeline(const TargetOptions &options);

/// Adds the textual pipeline to `pm` (passes must be registered); explains
/// a failure on `errors`.
LogicalResult addPipeline(OpPassManager &pm, StringRef pipeline,
                          llvm::raw_ostream &errors);

/// Registers `tile-to-gpu`, `tile-gpu-to-nvvm` and `tile-to-nvvm`.
void registerTilePipelines();

} // namespace tile
} // namespace mlir

#endif // TILE_PIPELINES_PIPELINES_H
