//===- Promises.cpp - The combinations the kernel library promises --------===//
//
// The one list of what the library (tile-kernels --out-dir) must cover:
// each line promises every combination of one value per axis of its
// generator (the axes of Coverage.cpp, in order), and each such combination
// must have a variant for any shape. `tile-library coverage --check` fails
// naming each one without; docs/Coverage.md shows the table. To promise
// more, add a line, e.g. LSE for bf16 attention:
//
//   {"attention", {{"bf16"}, {"64", "128"}, {"non-causal + LSE", "causal +
//   LSE"}}},
//
//===----------------------------------------------------------------------===//

#include "Coverage.h"

using namespace tile;
using namespace tile::library;

const std::vector<Promise> &tile::library::promises() {
  static const std::vector<Promise> list = [] {
    std::vector<std::string> everyEpilogue;
    for (const config::gemm::EpilogueInfo &epilogue : config::gemm::epilogues)
      everyEpilogue.push_back(epilogue.name);
    return std::vector<Promise>{
        // Issue 19: f16 and bf16 in, f32 or the input type out (no f16 ->
        // bf16 or bf16 -> f16: docs/Coverage.md says why), every operand
        // layout, every epilogue of the generator.
        {"gemm",
         {{"f16 -> f32", "f16 -> f16", "bf16 -> f32", "bf16 -> bf16"},
          {"NN", "NT", "TN", "TT"},
          everyEpilogue}},
        // D = 64 and 128, f16 and bf16, causal or not, each with and
        // without the log-sum-exp output (every variant takes a scale and
        // grouped-query K/V heads).
        {"attention",
         {{"f16", "bf16"},
          {"64", "128"},
          {"non-causal", "causal", "non-causal + LSE", "causal + LSE"}}},
        // Rows held in registers up to 1024, 4096, 8192 and 32768 elements,
        // and rows of any length.
        {"softmax",
         {{"f16", "bf16", "f32"},
          {"up to 1024", "up to 4096", "up to 8192", "up to 32768",
           "any (online)"}}},
    };
  }();
  return list;
}
