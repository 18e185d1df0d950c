//===- RobustnessManifest.cpp - Hostile manifests and launches ------------===//
//
// The robustness suite's driver for the runtime (docs/Robustness.md):
//
//   tile-robustness-manifest FILE [--launch=MODE]
//   tile-robustness-manifest --probe=NAME
//
// With FILE it loads the manifest with tile::rt::loadManifestFile and, for
// every kernel, builds launches (raw device addresses, no GPU needed) and
// runs checkAndPack, gridFor and estimateOccupancy on them. MODE picks the
// launch: plausible (dynamic sizes 256, rounded up to the divisibility),
// zero, one, huge (2^40), negative, rank (one dimension short), dtype (the
// wrong element type), count (one argument short), grid (explicit grids of
// 0 and 2^31 blocks) or all (default: every one of them). With --probe it
// runs one hand-built misuse of the public structs (a KernelInfo the
// manifest parser would never produce).
//
// Exit status: 0 when the manifest loads (each launch is accepted or
// refused with a tile::rt::Error, printed), 1 when loadManifestFile refuses
// it with a tile::rt::Error (the clean outcome that Error.h promises), 3
// when any other exception escapes from the runtime (a defect: it says
// which call and what was thrown). Signals are the harness's business.
//
//===----------------------------------------------------------------------===//

#include "tile/runtime/Error.h"
#include "tile/runtime/Launch.h"
#include "tile/runtime/Manifest.h"
#include "tile/runtime/Occupancy.h"

#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <string>
#include <typeinfo>
#include <vector>

using namespace tile::rt;

namespace {

/// Runs `call`; a tile::rt::Error is a clean refusal (printed, returns
/// false), anything else escapes as a defect report.
struct EscapedException {
  std::string what;
};

bool attempt(const std::string &what, const std::function<void()> &call) {
  try {
    call();
    std::printf("%s: accepted\n", what.c_str());
    return true;
  } catch (const Error &e) {
    std::printf("%s: refused: %.300s\n", what.c_str(), e.what());
    return false;
  } catch (const std::exception &e) {
    throw EscapedException{what + ": " + typeid(e).name() + ": " + e.what()};
  } catch (...) {
    throw EscapedException{what + ": an exception of unknown type"};
  }
}

int64_t dynamicSize(const std::string &mode, int64_t divisor) {
  if (mode == "zero")
    return 0;
  if (mode == "one")
    return 1;
  if (mode == "huge")
    return int64_t(1) << 40;
  if (mode == "negative")
    return -5;
  int64_t size = 256;
  if (divisor > 1 && divisor <= (int64_t(1) << 20))
    size = (size + divisor - 1) / divisor * divisor;
  return size;
}

Arg scalarArg(DType type) {
  switch (type) {
  case DType::f32:
    return Arg::scalar(1.0f);
  case DType::f64:
    return Arg::scalar(1.0);
  case DType::i64:
    return Arg::scalar(int64_t(1));
  default:
    return Arg::scalar(int32_t(1));
  }
}

/// The arguments of one launch of `kernel` in `mode`, and the buffer shapes
/// (for gridFor).
std::vector<Arg> buildArgs(const KernelInfo &kernel, const std::string &mode,
                           std::vector<std::vector<int64_t>> &shapes) {
  std::vector<Arg> args;
  uint64_t nextAddress = uint64_t(1) << 40;
  for (const ParamInfo *param : kernel.userParams()) {
    if (param->kind != ParamKind::Buffer) {
      args.push_back(scalarArg(param->dtype));
      continue;
    }
    std::vector<int64_t> shape;
    for (size_t d = 0; d < param->shape.size(); ++d) {
      int64_t divisor =
          d < param->divisibility.size() ? param->divisibility[d] : 1;
      shape.push_back(param->shape[d] >= 0 ? param->shape[d]
                                           : dynamicSize(mode, divisor));
    }
    if (mode == "rank" && !shape.empty())
      shape.pop_back();
    DType dtype = param->dtype;
    if (mode == "dtype")
      dtype = dtype == DType::f32 ? DType::f16 : DType::f32;
    shapes.push_back(shape);
    // Buffers 1 TiB apart, 256-byte aligned: disjoint for any plausible
    // shape.
    args.push_back(Arg::buffer(CUdeviceptr(nextAddress), dtype, shape));
    nextAddress += uint64_t(1) << 40;
  }
  if (mode == "count" && !args.empty())
    args.pop_back();
  return args;
}

void launchAll(const KernelInfo &kernel, const std::string &mode) {
  std::vector<std::vector<int64_t>> shapes;
  std::vector<Arg> args = buildArgs(kernel, mode, shapes);
  std::string what = "kernel '" + kernel.name + "' launch " + mode;
  if (mode == "grid") {
    attempt(what + " grid 0", [&] {
      checkAndPack(kernel, args, Dim3{0, 1, 1});
    });
    attempt(what + " grid 2^31", [&] {
      checkAndPack(kernel, args, Dim3{2147483648u, 65536, 65536});
    });
    return;
  }
  attempt(what, [&] { checkAndPack(kernel, args); });
  attempt(what + " gridFor", [&] { kernel.gridFor(shapes); });
}

void inspect(const KernelInfo &kernel, const std::string &launch) {
  attempt("kernel '" + kernel.name + "' occupancy", [&] {
    KernelResources resources;
    resources.threadsPerBlock =
        int(kernel.block.x * kernel.block.y * kernel.block.z);
    resources.registersPerThread = 32;
    resources.dynamicSharedBytes = int(kernel.dynamicSharedMemory);
    Occupancy o = estimateOccupancy(resources, MultiprocessorLimits());
    std::printf("kernel '%s': %d blocks per multiprocessor (%s)\n",
                kernel.name.c_str(), o.blocksPerMultiprocessor,
                o.limiter.c_str());
  });
  for (const ParamInfo &param : kernel.params)
    (void)kernel.findParam(param.name);
  const char *modes[] = {"plausible", "zero",  "one",   "huge", "negative",
                         "rank",      "dtype", "count", "grid"};
  for (const char *mode : modes)
    if (launch == "all" || launch == mode)
      launchAll(kernel, mode);
}

/// Hand-built KernelInfos: what a program that fills the public structs
/// itself (as runtime/test/LaunchTest.cpp does) can pass.
int probe(const std::string &name) {
  KernelInfo k;
  k.name = "k";
  k.block = {128, 1, 1};
  ParamInfo A;
  A.name = "A";
  A.kind = ParamKind::Buffer;
  A.dtype = DType::f32;
  A.shape = {-1};
  ParamInfo dimA;
  dimA.name = "A.dim0";
  dimA.kind = ParamKind::Dim;
  dimA.dtype = DType::i64;
  dimA.buffer = "A";
  dimA.dim = 0;
  GridExtent ceil;
  ceil.kind = GridExtent::Kind::CeilDiv;
  ceil.param = "A";
  ceil.dim = 0;
  ceil.divisor = 128;
  k.grid = {ceil};
  k.params = {A, dimA};
  std::vector<Arg> args = {
      Arg::buffer(CUdeviceptr(uint64_t(1) << 40), DType::f32, {1024})};
  auto launch = [&] {
    attempt("probe " + name, [&] { checkAndPack(k, args); });
  };
  if (name == "divisibility-zero") {
    k.params[0].divisibility = {0};
    launch();
  } else if (name == "divisibility-negative") {
    k.params[0].divisibility = {-8};
    launch();
  } else if (name == "divisibility-longer-than-shape") {
    k.params[0].divisibility = {8, 8, 8};
    launch();
  } else if (name == "grid-divisor-zero") {
    k.grid[0].divisor = 0;
    launch();
  } else if (name == "grid-divisor-negative") {
    k.grid[0].divisor = -1;
    launch();
  } else if (name == "grid-unknown-param") {
    k.grid[0].param = "nope";
    launch();
  } else if (name == "grid-dim-out-of-range") {
    k.grid[0].dim = 7;
    launch();
  } else if (name == "grid-dim-negative") {
    k.grid[0].dim = -1;
    launch();
  } else if (name == "grid-four-extents") {
    k.grid = {ceil, ceil, ceil, ceil};
    launch();
  } else if (name == "grid-empty") {
    k.grid.clear();
    launch();
  } else if (name == "dim-param-unknown-buffer") {
    k.params[1].buffer = "nope";
    launch();
  } else if (name == "dim-param-out-of-range") {
    k.params[1].dim = 5;
    launch();
  } else if (name == "dim-param-missing") {
    k.params.pop_back();
    launch();
  } else if (name == "dim-param-twice") {
    k.params.push_back(dimA);
    launch();
  } else if (name == "shape-negative") {
    k.params[0].shape = {-7};
    launch();
  } else if (name == "block-zero") {
    k.block = {0, 0, 0};
    launch();
  } else if (name == "too-many-args") {
    args.push_back(args[0]);
    launch();
  } else if (name == "no-args") {
    args.clear();
    launch();
  } else if (name == "null-pointer") {
    args = {Arg::buffer(CUdeviceptr(0), DType::f32, {1024})};
    launch();
  } else if (name == "shape-int64-max") {
    args = {
        Arg::buffer(CUdeviceptr(uint64_t(1) << 40), DType::f32, {INT64_MAX})};
    launch();
  } else if (name == "occupancy-warp-size-zero") {
    attempt("probe " + name, [&] {
      MultiprocessorLimits limits;
      limits.warpSize = 0;
      estimateOccupancy({128, 32, 0, 0, 0}, limits);
    });
  } else if (name == "occupancy-zero-limits") {
    attempt("probe " + name, [&] {
      MultiprocessorLimits limits;
      limits.maxThreads = limits.maxBlocks = limits.registers = 0;
      limits.sharedBytes = limits.registerAllocationUnit = 0;
      limits.schedulers = limits.sharedAllocationUnit = 0;
      estimateOccupancy({128, 32, 0, 0, 0}, limits);
    });
  } else if (name == "occupancy-zero-threads") {
    attempt("probe " + name, [&] {
      estimateOccupancy({0, 0, 0, 0, 0}, MultiprocessorLimits());
    });
  } else if (name == "occupancy-int-max") {
    attempt("probe " + name, [&] {
      estimateOccupancy({INT32_MAX, INT32_MAX, INT32_MAX, INT32_MAX, 0},
                        MultiprocessorLimits());
    });
  } else if (name == "parse-chip") {
    for (const char *chip : {"", "sm_", "sm_9", "sm_99999999999999999999",
                             "sm_-90", "garbage", "sm_90a", "sm_100f"})
      (void)parseChip(chip);
    std::printf("probe parse-chip: done\n");
  } else {
    std::fprintf(stderr, "tile-robustness-manifest: unknown probe '%s'\n",
                 name.c_str());
    return 2;
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  std::string file, launch = "all", probeName;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--launch=", 0) == 0)
      launch = arg.substr(9);
    else if (arg.rfind("--probe=", 0) == 0)
      probeName = arg.substr(8);
    else
      file = arg;
  }
  if (file.empty() && probeName.empty()) {
    std::fprintf(stderr, "usage: tile-robustness-manifest FILE "
                         "[--launch=MODE] | --probe=NAME\n");
    return 2;
  }
  try {
    if (!probeName.empty())
      return probe(probeName);
    ManifestInfo manifest;
    try {
      manifest = loadManifestFile(file);
    } catch (const Error &e) {
      std::fprintf(stderr, "tile::rt::Error: %.1000s\n", e.what());
      return 1;
    } catch (const std::exception &e) {
      throw EscapedException{std::string("loadManifestFile: ") +
                             typeid(e).name() + ": " + e.what()};
    } catch (...) {
      throw EscapedException{"loadManifestFile: an exception of unknown type"};
    }
    std::printf("loaded: %zu kernels\n", manifest.kernels.size());
    for (const std::string &name : manifest.kernelNames())
      (void)manifest.findKernel(name);
    for (const KernelInfo &kernel : manifest.kernels)
      inspect(kernel, launch);
  } catch (const EscapedException &e) {
    std::fprintf(stderr,
                 "tile-robustness-manifest: FAIL: not a tile::rt::Error "
                 "escaped from %.1000s\n",
                 e.what.c_str());
    return 3;
  }
  return 0;
}
