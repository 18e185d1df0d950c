//===- Variants.cpp - Kernel generators with their configuration ----------===//

#include "tile/Frontend/Variants.h"

namespace tile::fe {

Variant vectorAddVariant(const VectorAddConfig &c) {
  return {"vector_add", c.kernelName(), configToJson(c),
          [c](Program &p) { return buildVectorAdd(p, c); }};
}

Variant printDemoVariant(const PrintDemoConfig &c) {
  return {"print_demo", c.kernelName(), configToJson(c),
          [c](Program &p) { return buildPrintDemo(p, c); }};
}

Variant biasGeluVariant(const BiasGeluConfig &c) {
  return {"bias_gelu", c.kernelName(), configToJson(c),
          [c](Program &p) { return buildBiasGelu(p, c); }};
}

Variant gemmSoftmaxVariant(const GemmSoftmaxConfig &c) {
  return {"gemm_softmax", c.kernelName(), configToJson(c),
          [c](Program &p) { return buildGemmSoftmax(p, c); }};
}

Variant attentionVariant(const AttentionConfig &c) {
  return {"attention", c.kernelName(), configToJson(c),
          [c](Program &p) { return buildAttention(p, c); }};
}

Variant softmaxVariant(const SoftmaxConfig &c) {
  return {"softmax", c.kernelName(), configToJson(c),
          [c](Program &p) { return buildSoftmax(p, c); }};
}

Variant gemmVariant(const GemmConfig &c) {
  return {"gemm", c.kernelName(), configToJson(c),
          [c](Program &p) { return buildGemm(p, c); }, c.sharedMemoryBytes()};
}

} // namespace tile::fe
