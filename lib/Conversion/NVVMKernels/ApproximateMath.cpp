//===- ApproximateMath.cpp - fastmath<afn> math ops to approximations -----===//
//
// Implements -tile-approximate-math (Passes.td): before convert-gpu-to-nvvm
// turns every math op into a libdevice call, the ones that allow an
// approximate function (fastmath<afn>) become LLVM intrinsics marked afn,
// which the NVPTX back end emits as single approximate instructions.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEAPPROXIMATEMATH
#include "tile/Conversion/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;

namespace {

/// f32 math.tanh {afn} -> llvm.intr.tanh {afn}: `tanh.approx.f32` (sm_75+).
struct ApproximateTanh : OpRewritePattern<math::TanhOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::TanhOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getType().isF32() ||
        !arith::bitEnumContainsAll(op.getFastmath(), arith::FastMathFlags::afn))
      return rewriter.notifyMatchFailure(op, "not an f32 tanh with afn");
    auto flags =
        LLVM::FastmathFlagsAttr::get(getContext(), LLVM::FastmathFlags::afn);
    rewriter.replaceOpWithNewOp<LLVM::TanhOp>(op, op.getType(), op.getOperand(),
                                              flags);
    return success();
  }
};

struct TileApproximateMathPass
    : public tile::impl::TileApproximateMathBase<TileApproximateMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ApproximateTanh>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
