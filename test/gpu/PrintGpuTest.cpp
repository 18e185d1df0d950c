//===- PrintGpuTest.cpp - tile.print on the GPU ---------------------------===//
//
// Runs the print_demo kernel (block index from thread 0, a 16x8 shared tile
// from thread 3, the fragment elements of warp 1) with device printf going
// to a file, and checks the printed lines one by one: every shared element
// once with its value, exactly the fragment elements warp 1 holds (with
// their values and a thread of warp 1), and nothing from other blocks.
// Skips visibly without a GPU.
//
//===----------------------------------------------------------------------===//

#include "GpuTest.h"

#include "tile/runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>

using namespace tile;
/// The configuration keys of the print_demo generator's variants.
namespace key = config::print_demo;

namespace {

struct PrintDemoKernels {
  static const char *name() { return key::generator; }
};
using PrintGpu = test::VariantTest<PrintDemoKernels>;

/// Runs `work` with the process's stdout (where the driver writes device
/// printf output) going to a file; returns what was written.
std::string captureStdout(const std::function<void()> &work) {
  std::fflush(stdout);
  char path[] = "/tmp/tile-print-XXXXXX";
  int file = mkstemp(path);
  int saved = dup(1);
  dup2(file, 1);
  work();
  std::fflush(stdout);
  dup2(saved, 1);
  close(saved);
  close(file);
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)),
                   std::istreambuf_iterator<char>());
  std::remove(path);
  return text;
}

TEST_F(PrintGpu, PrintsScalarsSharedTilesAndFragments) {
  rt::Device device = rt::Device::open();
  for (const auto &variant : variants) {
    int64_t rows = variant.config.get(key::rows),
            cols = variant.config.get(key::cols);
    int64_t threads = variant.config.get(key::threads);
    // Two blocks: only block 0 prints.
    std::vector<float> x(2 * rows * cols);
    for (size_t i = 0; i < x.size(); ++i)
      x[i] = 0.5f * float(i);
    rt::DeviceBuffer X = rt::DeviceBuffer::fromHost(device, x);
    rt::Module module =
        rt::Module::load(device, variant.cubinPath, variant.manifestPath);
    rt::Stream stream(device);
    std::string out = captureStdout([&] {
      module.kernel(variant.name)
          .launch(stream,
                  {rt::Arg::buffer(X, rt::DType::f32, {2 * rows, cols})});
      stream.synchronize();
    });

    std::map<std::pair<int, int>, float> shared, fragment;
    std::set<int> fragmentThreads;
    int blockLines = 0, other = 0;
    std::istringstream lines(out);
    for (std::string line; std::getline(lines, line);) {
      int i, j, t, b;
      float v;
      if (std::sscanf(line.c_str(), "s[%d][%d] = %g", &i, &j, &v) == 3) {
        EXPECT_TRUE(shared.emplace(std::pair{i, j}, v).second) << line;
      } else if (std::sscanf(line.c_str(), "f[%d][%d] = %g (thread %d)", &i, &j,
                             &v, &t) == 4) {
        EXPECT_TRUE(fragment.emplace(std::pair{i, j}, v).second) << line;
        fragmentThreads.insert(t);
      } else if (std::sscanf(line.c_str(), "block = %d", &b) == 1) {
        EXPECT_EQ(b, 0) << line;
        ++blockLines;
      } else {
        ++other;
      }
    }
    EXPECT_EQ(blockLines, 1) << out;
    EXPECT_EQ(other, 0) << out;
    // The whole shared tile of block 0, each element once, right values.
    EXPECT_EQ(shared.size(), size_t(rows * cols)) << out;
    for (auto [at, v] : shared)
      EXPECT_EQ(v, x[at.first * cols + at.second])
          << "s[" << at.first << "][" << at.second << "]";
    // Warp 1's share of the fragment: some elements, each with its value,
    // from threads 32..63 only, together less than the whole tile.
    EXPECT_FALSE(fragment.empty()) << out;
    EXPECT_LT(fragment.size(), size_t(rows * cols));
    EXPECT_EQ(fragment.size(), size_t(rows * cols * 32 / threads));
    for (auto [at, v] : fragment)
      EXPECT_EQ(v, x[at.first * cols + at.second])
          << "f[" << at.first << "][" << at.second << "]";
    for (int t : fragmentThreads) {
      EXPECT_GE(t, 32);
      EXPECT_LT(t, 64);
    }
  }
}

} // namespace
