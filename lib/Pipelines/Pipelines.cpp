//===- Pipelines.cpp - Named tile compilation pipelines -------------------===//
//
// The pipelines are kept as text so that the documentation, `tile-opt
// --dump-pass-pipeline` and the code show the same passes.
//
//===----------------------------------------------------------------------===//

#include "tile/Pipelines/Pipelines.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

std::string tile::getTileToGPUPipeline() {
  return "tile-pipeline,tile-assign-layouts,convert-tile-to-gpu,canonicalize,"
         "cse";
}

std::string tile::getGPUToNVVMPipeline(const TargetOptions &options) {
  return llvm::formatv("nvvm-attach-target{{chip={0} features={1} O={2}},"
                       "gpu.module(convert-nvgpu-to-nvvm,convert-nvvm-to-llvm,"
                       "convert-scf-to-cf,expand-strided-metadata,lower-affine,"
                       "convert-gpu-to-nvvm{{use-bare-ptr-memref-call-conv=1},"
                       "canonicalize,cse),reconcile-unrealized-casts",
                       options.chip, options.features, options.optLevel);
}

std::string tile::getTileToNVVMPipeline(const TargetOptions &options) {
  return getTileToGPUPipeline() + "," + getGPUToNVVMPipeline(options);
}

LogicalResult tile::addPipeline(OpPassManager &pm, StringRef pipeline,
                                llvm::raw_ostream &errors) {
  return parsePassPipeline(pipeline, pm, errors);
}

void tile::registerTilePipelines() {
  PassPipelineRegistration<>(
      "tile-to-gpu", "Stage 1: tile -> gpu.func over scf/vector/memref/arith",
      [](OpPassManager &pm) {
        (void)addPipeline(pm, getTileToGPUPipeline(), llvm::errs());
      });
  PassPipelineRegistration<TargetPipelineOptions>(
      "tile-gpu-to-nvvm",
      "Stage 2: attach the NVVM target and lower gpu.module to NVVM/LLVM",
      [](OpPassManager &pm, const TargetPipelineOptions &options) {
        (void)addPipeline(pm, getGPUToNVVMPipeline(options.toTargetOptions()),
                          llvm::errs());
      });
  PassPipelineRegistration<TargetPipelineOptions>(
      "tile-to-nvvm",
      "The whole lowering: tile -> gpu -> NVVM, ready for tile-translate",
      [](OpPassManager &pm, const TargetPipelineOptions &options) {
        (void)addPipeline(pm, getTileToNVVMPipeline(options.toTargetOptions()),
                          llvm::errs());
      });
}
