//===- BiasGelu.cpp - The bias + GELU epilogue as its own kernel ----------===//
//
// C = gelu(C + bias) over a row-major tensor: what a GEMM without a fused
// epilogue needs after it. Each block copies a blockM x blockN tile of C and
// its blockN bias values on chip, applies the epilogue in registers and
// stores the tile back.
//
//===----------------------------------------------------------------------===//

#include "tile/Frontend/Kernels.h"

#include "ConfigCheck.h"

namespace tile::fe {

std::string BiasGeluConfig::kernelName() const {
  return std::string(tanhApproximation ? "bias_gelu_tanh_" : "bias_gelu_") +
         dtype + "_" + std::to_string(blockM) + "x" + std::to_string(blockN) +
         "_t" + std::to_string(threads);
}

void BiasGeluConfig::validate() const {
  ConfigCheck check(config::bias_gelu::generator);
  check.fields(*this);
  check.sharedMemory(checkedProduct({blockN, bytesOf(dtype)}),
                     "its bias tile of " + std::to_string(blockN) + " " +
                         dtype);
  check.registers(registersPerThread(checkedProduct({blockM, blockN}),
                                     bytesOf(dtype), threads),
                  "its " + shapeText(blockM, blockN) + " " + dtype +
                      " fragment over " + std::to_string(threads) + " threads");
}

std::string buildBiasGelu(Program &program, const BiasGeluConfig &config) {
  config.validate();
  mlir::Type type = parseElementType(program, config.dtype);
  mlir::Type f32 = program.f32();
  int64_t bM = config.blockM, bN = config.blockN;
  std::string name = config.kernelName();

  Kernel k = program.kernel(name, config.threads);
  Buffer C = k.tensor("C", {kDynamic, kDynamic}, type);
  Buffer bias = k.tensor("Bias", {kDynamic}, type);
  // Launch contract. The grid covers C (read and written in place) in
  // bM x bN tiles, each with the bias values of its bN columns; copies mask
  // at their own tensor's sizes, so nothing leaves a buffer, but a shorter
  // bias would add zeros to C's last columns and a longer one belongs to
  // another C: one bias value per column.
  k.require(size(bias, 0) == size(C, 1));
  k.body({ceildiv(C, 1, bN), ceildiv(C, 0, bM)}, [&](Kernel &k) {
    Expr row = k.blockIndex(1) * double(bM);
    Expr col = k.blockIndex(0) * double(bN);
    Buffer tile = k.allocFragment({bM, bN}, type);
    Buffer biasTile = k.allocShared({bN}, type);
    k.copy(C.at({row, col}), tile);
    k.copy(bias.at({col}), biasTile);
    k.parallel({bM, bN}, [&](const Indices &i) {
      Expr x = cast(tile[i], f32) + cast(biasTile[i[1]], f32);
      tile[i] = cast(config.tanhApproximation ? geluTanh(x) : gelu(x), type);
    });
    k.copy(tile, C.at({row, col}));
  });
  return name;
}

} // namespace tile::fe
