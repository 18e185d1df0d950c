//===- PrintDemo.cpp - Device printing, the example -----------------------===//
//
// tile.print from the C++ frontend: what docs/Introspection.md shows, and
// what test/gpu/PrintGpuTest.cpp checks line by line on the GPU.
//
//===----------------------------------------------------------------------===//

#include "tile/Frontend/Kernels.h"

#include "ConfigCheck.h"

namespace tile::fe {

std::string PrintDemoConfig::kernelName() const {
  return "print_demo_" + std::to_string(rows) + "x" + std::to_string(cols) +
         "_t" + std::to_string(threads);
}

void PrintDemoConfig::validate() const {
  ConfigCheck check(config::print_demo::generator);
  check.fields(*this);
  check.sharedMemory(checkedProduct({rows, cols, 4}),
                     "its " + shapeText(rows, cols) + " f32 tile");
  check.registers(registersPerThread(checkedProduct({rows, cols}), 4, threads),
                  "its " + shapeText(rows, cols) + " f32 fragment over " +
                      std::to_string(threads) + " threads");
}

std::string buildPrintDemo(Program &program, const PrintDemoConfig &config) {
  config.validate();
  std::string name = config.kernelName();
  Kernel k = program.kernel(name, config.threads);
  Buffer X = k.tensor("X", {kDynamic, config.cols}, program.f32());
  // No launch contract: X is the only tensor, its columns static (checked
  // per argument) and its rows covered by the grid; the copy masks rows past
  // the end and the kernel writes nothing to global memory.
  k.body({ceildiv(X, 0, config.rows)}, [&](Kernel &k) {
    Expr row = k.blockIndex(0) * double(config.rows);
    Buffer s = k.allocShared({config.rows, config.cols}, program.f32());
    Buffer f = k.allocFragment({config.rows, config.cols}, program.f32());
    k.copy(X.at({row, k.index(0)}), s);
    k.copy(s, f);
    k.print("block", k.blockIndex(0), PrintFrom::thread(0));
    k.print("s", s, PrintFrom::thread(3));
    k.print("f", f, PrintFrom::warp(1));
  });
  return name;
}

} // namespace tile::fe
