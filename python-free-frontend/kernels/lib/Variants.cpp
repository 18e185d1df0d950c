//===- Variants.cpp - Kernel generators with their configuration ----------===//

#include "tile/Frontend/Variants.h"

namespace tile::fe {

Variant vectorAddVariant(const VectorAddConfig &c) {
  return {config::vector_add::generator, c.kernelName(), configToJson(c),
          [c](Program &p) { return buildVectorAdd(p, c); }};
}

Variant printDemoVariant(const PrintDemoConfig &c) {
  return {config::print_demo::generator, c.kernelName(), configToJson(c),
          [c](Program &p) { return buildPrintDemo(p, c); }};
}

Variant biasGeluVariant(const BiasGeluConfig &c) {
  return {config::bias_gelu::generator, c.kernelName(), configToJson(c),
          [c](Program &p) { return buildBiasGelu(p, c); }};
}

Variant gemmSoftmaxVariant(const GemmSoftmaxConfig &c) {
  return {config::gemm_softmax::generator, c.kernelName(), configToJson(c),
          [c](Program &p) { return buildGemmSoftmax(p, c); }};
}

Variant attentionVariant(const AttentionConfig &c) {
  return {config::attention::generator, c.kernelName(), configToJson(c),
          [c](Program &p) { return buildAttention(p, c); }};
}

Variant softmaxVariant(const SoftmaxConfig &c) {
  return {config::softmax::generator, c.kernelName(), configToJson(c),
          [c](Program &p) { return buildSoftmax(p, c); }};
}

Variant gemmVariant(const GemmConfig &c) {
  return {config::gemm::generator, c.kernelName(),
          configToJson(c),         [c](Program &p) { return buildGemm(p, c); },
          c.sharedMemoryBytes(),   c.requiredChip()};
}

} // namespace tile::fe
