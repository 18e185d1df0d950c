//===- GemmArgs.h - Launch arguments of a compiled GEMM ---------*- C++ -*-===//
//
// How a GEMM variant from the kernel index is launched, from its recorded
// configuration: A is M x K (K x M with transpose_a), B is K x N (N x K with
// transpose_b), C is M x N of the output type, and a variant whose
// epilogue adds a bias also takes it (N elements of the output type).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_BENCHMARKS_COMMON_GEMMARGS_H
#define TILE_BENCHMARKS_COMMON_GEMMARGS_H

#include "tile/runtime/KernelIndex.h"
#include "tile/runtime/Runtime.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace tile::bench {

/// The variant's epilogue, from the generator's table (ConfigKeys.h);
/// throws for a name the table lacks.
inline const config::gemm::EpilogueInfo &
gemmEpilogue(const rt::KernelConfig &config) {
  std::string name = config.getOrDefault(config::gemm::epilogue);
  const config::gemm::EpilogueInfo *epilogue = config::gemm::findEpilogue(name);
  if (!epilogue)
    throw std::invalid_argument("gemm config with an unknown epilogue '" +
                                name + "'");
  return *epilogue;
}

/// The name of the same GEMM without its epilogue: the variant's name less
/// "_<epilogue>" and "_staged" (a "_div8" and the rest after them kept);
/// the name itself without an epilogue.
inline std::string plainGemmName(const rt::KernelVariant &variant) {
  const config::gemm::EpilogueInfo &epilogue = gemmEpilogue(variant.config);
  std::string name = variant.name;
  if (epilogue.kind == config::gemm::Epilogue::none)
    return name;
  std::string suffix = std::string("_") + epilogue.name;
  if (size_t at = name.rfind(suffix); at != std::string::npos)
    name.erase(at, suffix.size());
  if (size_t staged = name.rfind("_staged"); staged != std::string::npos)
    name.erase(staged, 7);
  return name;
}

inline std::vector<rt::Arg>
gemmArgs(const rt::KernelConfig &config, const rt::DeviceBuffer &a,
         const rt::DeviceBuffer &b, const rt::DeviceBuffer &c,
         const rt::DeviceBuffer *bias, int64_t m, int64_t n, int64_t k) {
  rt::DType in = config.getOrDefault(config::gemm::inDtype) == "bf16"
                     ? rt::DType::bf16
                     : rt::DType::f16;
  std::optional<rt::DType> out =
      rt::parseDType(config.getOrDefault(config::gemm::outDtype));
  if (!out)
    throw std::invalid_argument("gemm config with an unknown out_dtype");
  std::vector<rt::Arg> args = {
      rt::Arg::buffer(a, in,
                      config.getOrDefault(config::gemm::transposeA)
                          ? std::vector<int64_t>{k, m}
                          : std::vector<int64_t>{m, k}),
      rt::Arg::buffer(b, in,
                      config.getOrDefault(config::gemm::transposeB)
                          ? std::vector<int64_t>{n, k}
                          : std::vector<int64_t>{k, n}),
      rt::Arg::buffer(c, *out, {m, n})};
  if (gemmEpilogue(config).hasBias) {
    if (!bias)
      throw std::invalid_argument("gemm variant with a bias needs one");
    args.push_back(rt::Arg::buffer(*bias, *out, {n}));
  }
  return args;
}

/// The cols x rows transpose of a row-major rows x cols matrix: how a
/// transposed operand is stored (A as K x M, B as N x K).
template <typename T>
std::vector<T> transposed(const std::vector<T> &matrix, int64_t rows,
                          int64_t cols) {
  std::vector<T> result(matrix.size());
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      result[c * rows + r] = matrix[r * cols + c];
  return result;
}

/// Whether an M x N x K problem keeps the variant's `divisibility` promise:
/// the rows of A (K, or M with transpose_a), B (N, or K with transpose_b)
/// and C (N) are multiples of it. The runtime refuses to launch otherwise.
inline bool keepsDivisibility(const rt::KernelConfig &config, int64_t m,
                              int64_t n, int64_t k) {
  int64_t d = config.getOrDefault(config::gemm::divisibility);
  if (d < 1)
    throw std::invalid_argument("gemm config with divisibility " +
                                std::to_string(d) + ", expected at least 1");
  int64_t rowA = config.getOrDefault(config::gemm::transposeA) ? m : k;
  int64_t rowB = config.getOrDefault(config::gemm::transposeB) ? k : n;
  return rowA % d == 0 && rowB % d == 0 && n % d == 0;
}

} // namespace tile::bench

#endif // TILE_BENCHMARKS_COMMON_GEMMARGS_H
