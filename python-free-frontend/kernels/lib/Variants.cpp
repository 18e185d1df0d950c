//===- Variants.cpp - Kernel generators with their configuration ----------===//

#include "tile/Frontend/Variants.h"

namespace tile::fe {

Variant vectorAddVariant(const VectorAddConfig &c) {
  return {"vector_add", c.kernelName(),
          llvm::json::Object{{"block_n", c.blockN},
                             {"threads", c.threads},
                             {"dtype", c.dtype}},
          [c](Program &p) { return buildVectorAdd(p, c); }};
}

Variant printDemoVariant(const PrintDemoConfig &c) {
  return {"print_demo", c.kernelName(),
          llvm::json::Object{
              {"rows", c.rows}, {"cols", c.cols}, {"threads", c.threads}},
          [c](Program &p) { return buildPrintDemo(p, c); }};
}

Variant biasGeluVariant(const BiasGeluConfig &c) {
  return {"bias_gelu", c.kernelName(),
          llvm::json::Object{{"block_m", c.blockM},
                             {"block_n", c.blockN},
                             {"threads", c.threads},
                             {"dtype", c.dtype},
                             {"tanh", c.tanhApproximation}},
          [c](Program &p) { return buildBiasGelu(p, c); }};
}

Variant gemmSoftmaxVariant(const GemmSoftmaxConfig &c) {
  return {"gemm_softmax", c.kernelName(),
          llvm::json::Object{{"block_m", c.blockM},
                             {"block_n", c.blockN},
                             {"block_k", c.blockK},
                             {"threads", c.threads},
                             {"stages", c.stages},
                             {"in_dtype", c.inDtype},
                             {"head_dim", c.headDim}},
          [c](Program &p) { return buildGemmSoftmax(p, c); }};
}

Variant attentionVariant(const AttentionConfig &c) {
  return {"attention", c.kernelName(),
          llvm::json::Object{{"block_m", c.blockM},
                             {"block_n", c.blockN},
                             {"head_dim", c.headDim},
                             {"threads", c.threads},
                             {"stages", c.stages},
                             {"dtype", c.dtype},
                             {"causal", c.causal},
                             {"lse", c.lse}},
          [c](Program &p) { return buildAttention(p, c); }};
}

Variant softmaxVariant(const SoftmaxConfig &c) {
  return {"softmax", c.kernelName(),
          llvm::json::Object{{"rows", c.rows},
                             {"block_n", c.blockN},
                             {"threads", c.threads},
                             {"dtype", c.dtype},
                             {"online", c.online},
                             {"stages", c.stages}},
          [c](Program &p) { return buildSoftmax(p, c); }};
}

Variant gemmVariant(const GemmConfig &c) {
  return {"gemm", c.kernelName(),
          llvm::json::Object{{"block_m", c.blockM},
                             {"block_n", c.blockN},
                             {"block_k", c.blockK},
                             {"threads", c.threads},
                             {"out_dtype", c.outDtype},
                             {"stages", c.stages},
                             {"raster_panel", c.rasterPanel},
                             {"transpose_b", c.transposeB},
                             {"in_dtype", c.inDtype},
                             {"transpose_a", c.transposeA},
                             {"epilogue", c.epilogue},
                             {"divisibility", c.divisibility},
                             {"staged_epilogue", c.stagedEpilogue}},
          [c](Program &p) { return buildGemm(p, c); }, c.sharedMemoryBytes()};
}

} // namespace tile::fe
