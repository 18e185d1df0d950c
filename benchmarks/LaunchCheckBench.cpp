//===- LaunchCheckBench.cpp - Host cost of the launch checks --------------===//
//
// What checkAndPack costs on the host for the library's kernels: the
// kernel description validated (a KernelInfo may be built by hand), every
// argument checked (dtype, rank, sizes, divisibility, alignment, bytes), the
// launch contract's relations, the aliasing of written buffers, the grid,
// the packing; and the same without the validation, as Kernel::launch runs
// it (launchChecks). Needs no GPU: raw device addresses, far apart. Kernels come
// from the build's kernel folder (or $TILE_KERNEL_DIR): one vector add, one
// GEMM with a fused epilogue and one attention kernel with its log-sum-exp.
//
//===----------------------------------------------------------------------===//

#include "common/Timing.h"

#include "tile/runtime/KernelIndex.h"
#include "tile/runtime/Launch.h"

#include <benchmark/benchmark.h>

#include <iostream>
#include <map>
#include <string>
#include <vector>

using namespace tile;

namespace {

/// Buffer arguments at distinct, 16-byte aligned addresses 2^40 apart.
rt::Arg at(int index, rt::DType dtype, std::vector<int64_t> shape) {
  return rt::Arg::buffer(CUdeviceptr(index + 1) << 40, dtype,
                         std::move(shape));
}

struct Case {
  const char *generator;
  /// The first variant whose name contains this.
  const char *nameHas;
  std::vector<rt::Arg> args;
};

std::vector<Case> cases() {
  using rt::DType;
  int64_t n = 1 << 24, m = 4096, k = 4096, b = 4, h = 32, s = 4096, d = 64;
  return {
      {"vector_add",
       "vector_add_f32",
       {at(0, DType::f32, {n}), at(1, DType::f32, {n}),
        at(2, DType::f32, {n})}},
      {"gemm",
       "_bias_gelu",
       {at(0, DType::f16, {m, k}), at(1, DType::f16, {k, m}),
        at(2, DType::f16, {m, m}), at(3, DType::f16, {m})}},
      {"attention",
       "_lse",
       {at(0, DType::f16, {b, h, s, d}), at(1, DType::f16, {b, h, s, d}),
        at(2, DType::f16, {b, h, s, d}), at(3, DType::f16, {b, h, s, d}),
        at(4, DType::f32, {b, h, s}), rt::Arg::scalar(0.125f)}},
  };
}

void benchCheckAndPack(benchmark::State &state, const rt::KernelInfo *kernel,
                       const std::vector<rt::Arg> *args) {
  for (auto _ : state) {
    rt::PackedLaunch packed = rt::checkAndPack(*kernel, *args);
    benchmark::DoNotOptimize(packed);
  }
  state.counters["relations"] = double(kernel->relations.size());
  state.counters["params"] = double(kernel->params.size());
}

/// What Kernel::launch runs: the same checks of the arguments, without
/// validating the description again (Module::load did).
void benchLaunchChecks(benchmark::State &state, const rt::KernelInfo *kernel,
                       const std::vector<rt::Arg> *args) {
  for (auto _ : state) {
    rt::PackedLaunch packed =
        rt::detail::checkAndPackValidated(*kernel, *args, nullptr);
    benchmark::DoNotOptimize(packed);
  }
}

} // namespace

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  std::vector<rt::KernelVariant> variants =
      bench::requireVariants(TILE_KERNEL_DIR_DEFAULT, "");
  // Kept alive for the registered benchmarks.
  static std::map<std::string, rt::KernelInfo> kernels;
  static std::vector<Case> all = cases();
  for (const Case &c : all) {
    const rt::KernelVariant *found = nullptr;
    for (const rt::KernelVariant &v : variants)
      if (v.generator == c.generator &&
          v.name.find(c.nameHas) != std::string::npos &&
          v.name.find("_staged") == std::string::npos) {
        found = &v;
        break;
      }
    if (!found) {
      std::cerr << "no " << c.generator << " kernel with '" << c.nameHas
                << "' in its name\n";
      return 1;
    }
    rt::ManifestInfo manifest = rt::loadManifestFile(found->manifestPath);
    kernels[found->name] = *manifest.findKernel(found->name);
    benchmark::RegisterBenchmark(("checkAndPack/" + found->name).c_str(),
                                 benchCheckAndPack, &kernels[found->name],
                                 &c.args);
    benchmark::RegisterBenchmark(("launchChecks/" + found->name).c_str(),
                                 benchLaunchChecks, &kernels[found->name],
                                 &c.args);
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
