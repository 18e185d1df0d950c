//===- MarkGridConstants.cpp - Tensor maps as grid-constant parameters ----===//
//
// Implements -tile-mark-grid-constants (Passes.td): after convert-gpu-to-nvvm,
// the tensor-map parameters of TMA kernels become 128-byte grid constants
// and their modules' dynamic shared memory 1024-byte aligned.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/Passes.h"
#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEMARKGRIDCONSTANTS
#include "tile/Conversion/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

struct TileMarkGridConstantsPass
    : public tile::impl::TileMarkGridConstantsBase<TileMarkGridConstantsPass> {
  void runOnOperation() override {
    getOperation().walk([&](gpu::GPUModuleOp module) { mark(module); });
  }

  void mark(gpu::GPUModuleOp module) {
    MLIRContext *ctx = module.getContext();
    Builder builder(ctx);
    auto launches = module->getAttrOfType<ArrayAttr>("tile.kernels");
    if (!launches)
      return;
    bool any = false;
    // The launch description lists one parameter per argument.
    for (auto launch : launches.getAsRange<LaunchAttr>()) {
      auto func = module.lookupSymbol<LLVM::LLVMFuncOp>(launch.getName());
      if (!func)
        continue;
      for (auto [i, param] : llvm::enumerate(launch.getParams())) {
        if (!isa<TensorMapParamAttr>(param) || i >= func.getNumArguments())
          continue;
        func.setArgAttr(i, LLVM::LLVMDialect::getByValAttrName(),
                        TypeAttr::get(LLVM::LLVMArrayType::get(
                            IntegerType::get(ctx, 8), 128)));
        func.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                        builder.getI64IntegerAttr(64));
        func.setArgAttr(i, NVVM::NVVMDialect::getGridConstantAttrName(),
                        builder.getUnitAttr());
        any = true;
      }
    }
    if (!any)
      return;
    // The dynamic shared memory: a 0-size array in address space 3. As a
    // private global the back end would demote it to a 16-byte aligned
    // static one; external, it keeps its alignment.
    for (auto global : module.getOps<LLVM::GlobalOp>()) {
      auto array = dyn_cast<LLVM::LLVMArrayType>(global.getType());
      if (global.getAddrSpace() != 3 || !array || array.getNumElements() != 0)
        continue;
      global.setAlignment(kNvmmaAlignment);
      global.setLinkage(LLVM::Linkage::External);
      global.setVisibility_(LLVM::Visibility::Default);
    }
  }
};

} // namespace
