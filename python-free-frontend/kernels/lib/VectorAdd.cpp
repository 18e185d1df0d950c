//===- VectorAdd.cpp - The vector-add generator ---------------------------===//
//
// TileLang's first example, in the C++ frontend. The same kernel written in
// the tile dialect is test/Examples/vector-add.mlir.
//
//===----------------------------------------------------------------------===//

#include "tile/Frontend/Kernels.h"

#include "ConfigCheck.h"

#include <stdexcept>

namespace tile::fe {

mlir::Type parseElementType(Program &program, const std::string &name) {
  if (name == "f16")
    return program.f16();
  if (name == "bf16")
    return program.bf16();
  if (name == "f32")
    return program.f32();
  if (name == "f64")
    return program.f64();
  if (name == "i32")
    return program.i32();
  if (name == "i64")
    return program.i64();
  throw std::invalid_argument("unknown element type '" + name +
                              "' (expected f16, bf16, f32, f64, i32 or i64)");
}

std::string VectorAddConfig::kernelName() const {
  return "vector_add_" + dtype + "_" + std::to_string(blockN) + "x" +
         std::to_string(threads);
}

void VectorAddConfig::validate() const {
  ConfigCheck check(config::vector_add::generator);
  check.fields(*this);
  // A fragment's share of a thread lives in its registers.
  check.registers(registersPerThread(blockN, bytesOf(dtype), threads),
                  "each of its fragments of " + std::to_string(blockN) + " " +
                      dtype + " over " + std::to_string(threads) + " threads");
}

std::string buildVectorAdd(Program &program, const VectorAddConfig &config) {
  config.validate();
  mlir::Type dtype = parseElementType(program, config.dtype);
  int64_t blockN = config.blockN;
  std::string name = config.kernelName();

  Kernel k = program.kernel(name, config.threads);
  Buffer A = k.tensor("A", {kDynamic}, dtype);
  Buffer B = k.tensor("B", {kDynamic}, dtype);
  Buffer C = k.tensor("C", {kDynamic}, dtype);
  // Launch contract. The grid covers A in blocks of blockN; B is read and
  // C written at A's offsets, each copy masked at its own tensor's size, so
  // no access leaves a buffer, but a shorter B would add zeros, a shorter C
  // drop sums and a longer C keep stale values past A's end. With the sizes
  // equal, every element of C is A + B. (A[0] = 0 is an empty grid.)
  k.require(size(B, 0) == size(A, 0));
  k.require(size(C, 0) == size(A, 0));
  k.body({ceildiv(A, 0, blockN)}, [&](Kernel &k) {
    Expr offset = k.blockIndex(0) * static_cast<double>(blockN);
    Buffer a = k.allocFragment({blockN}, dtype);
    Buffer b = k.allocFragment({blockN}, dtype);
    Buffer c = k.allocFragment({blockN}, dtype);
    k.copy(A.at({offset}), a);
    k.copy(B.at({offset}), b);
    k.parallel({blockN}, [&](const Indices &i) { c[i] = a[i] + b[i]; });
    k.copy(c, C.at({offset}));
  });
  return name;
}

} // namespace tile::fe
