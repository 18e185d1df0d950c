//===- Registration.cpp - What the tile tools register --------------------===//
//
// The only translation unit that includes the heavy upstream GPU/NVVM
// headers for registration; keep it that way for build time.
//
//===----------------------------------------------------------------------===//

#include "tile/Registration/Registration.h"

#include "tile/Conversion/Passes.h"
#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"
#include "tile/Pipelines/Pipelines.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

#include <mutex>

using namespace mlir;

void tile::registerTileDialects(DialectRegistry &registry) {
  registry.insert<tile::TileDialect, affine::AffineDialect, arith::ArithDialect,
                  cf::ControlFlowDialect, func::FuncDialect, gpu::GPUDialect,
                  index::IndexDialect, LLVM::LLVMDialect, math::MathDialect,
                  memref::MemRefDialect, NVVM::NVVMDialect, nvgpu::NVGPUDialect,
                  scf::SCFDialect, ub::UBDialect, vector::VectorDialect>();
  // Lowering to LLVM goes through the ConvertToLLVM interfaces.
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  NVVM::registerConvertGpuToNVVMInterface(registry);
  index::registerConvertIndexToLLVMInterface(registry);
  registerConvertMathToLLVMInterface(registry);
  registerConvertMemRefToLLVMInterface(registry);
  registerConvertNVVMToLLVMInterface(registry);
  ub::registerConvertUBToLLVMInterface(registry);
  vector::registerConvertVectorToLLVMInterface(registry);
  // Serialization of gpu.module to PTX and cubins.
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
}

void tile::registerTilePasses() {
  static std::once_flag once;
  std::call_once(once, [] {
    registerTileTransformsPasses();
    registerTileConversionPasses();
    registerTilePipelines();
    // Upstream passes used by the pipelines, and a few handy for reading IR.
    registerCanonicalizerPass();
    registerCSEPass();
    registerSymbolDCEPass();
    registerGpuNVVMAttachTarget();
    registerGpuModuleToBinaryPass();
    registerConvertNVGPUToNVVMPass();
    registerConvertNVVMToLLVMPass();
    registerSCFToControlFlowPass();
    memref::registerExpandStridedMetadataPass();
    registerLowerAffinePass();
    registerConvertGpuOpsToNVVMOps();
    registerReconcileUnrealizedCastsPass();
  });
}
