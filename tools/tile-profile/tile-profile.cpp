//===- tile-profile.cpp - Per-kernel profiler -----------------------------===//
//
//   tile-profile --kernel=REGEX --shape=SHAPE [--kernels=DIR] [--runs=N]
//                [--warmup=N] [--sass] [--no-ceilings] [--json=FILE]
//
// For every compiled kernel whose name matches REGEX (kernel index of DIR,
// else $TILE_KERNEL_DIR): the time of one launch on random inputs (warm-up,
// CUDA events, median / min / max of --runs), the achieved TFLOP/s and
// GB/s next to the ceilings measured on the same GPU in the same run (a
// device-to-device copy for memory, cuBLAS f16 GEMM 8192^3 for tensor
// cores), and what limits it: registers, shared and local memory per block
// and the theoretical occupancy with its limiting resource. --sass counts
// the tensor-core, ldmatrix, async-copy, barrier, shuffle and local-memory
// instructions of the cubin with cuobjdump (where the CUDA toolkit has it).
//
// SHAPE by generator: vector_add N; gemm, gemm_softmax MxNxK; softmax,
// bias_gelu MxN; attention BxHxS or BxHxSQxSK (head dim from the kernel, K
// and V with H heads, the scale 1/sqrt(head dim)).
// FLOPs are the tensor-core work, multiply-adds counted as 2 (attention:
// 4 B H SQ SK D, halved when causal; vector_add, softmax and bias_gelu have
// none and are rated by GB/s); bytes are what must cross DRAM at least once
// (inputs read, outputs written).
//
//===----------------------------------------------------------------------===//

#include "common/Flags.h"

#include "tile/runtime/Half.h"
#include "tile/runtime/KernelIndex.h"
#include "tile/runtime/Runtime.h"

#include <cublas_v2.h>
#include <nlohmann/json.hpp>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <random>
#include <regex>
#include <sstream>

using namespace tile;
namespace fs = std::filesystem;

namespace {

struct Options {
  std::string dir, kernel, shape, json;
  int runs = 50, warmup = 10;
  bool sass = false, ceilings = true;
};

std::optional<Options> parseOptions(int argc, char **argv) {
  Options o;
  o.dir = rt::kernelDir(TILE_KERNEL_DIR_DEFAULT);
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const char *flag) { return bench::flagValue(arg, flag); };
    if (auto v = value("--kernels"))
      o.dir = *v;
    else if (auto v = value("--kernel"))
      o.kernel = *v;
    else if (auto v = value("--shape"))
      o.shape = *v;
    else if (auto v = value("--json"))
      o.json = *v;
    else if (auto v = value("--runs"))
      o.runs = std::max(1, std::stoi(*v));
    else if (auto v = value("--warmup"))
      o.warmup = std::max(0, std::stoi(*v));
    else if (arg == "--sass")
      o.sass = true;
    else if (arg == "--no-ceilings")
      o.ceilings = false;
    else {
      std::cerr << "tile-profile: unknown argument '" << arg << "'\n";
      return std::nullopt;
    }
  }
  if (o.kernel.empty() || o.shape.empty()) {
    std::cerr << "usage: tile-profile --kernel=REGEX --shape=SHAPE "
                 "[--kernels=DIR] [--runs=N] [--warmup=N] [--sass] "
                 "[--no-ceilings] [--json=FILE]\n";
    return std::nullopt;
  }
  return o;
}

/// The buffers' shapes, the f32 scalars, the FLOPs and the minimal DRAM
/// bytes of one launch.
struct Workload {
  std::map<std::string, std::vector<int64_t>> shapes;
  std::map<std::string, float> scalars;
  double flops = 0, bytes = 0;
};

/// The workload of `variant` for `shape`; the error says what is expected.
std::optional<Workload> workloadFor(const rt::KernelVariant &variant,
                                    const rt::KernelInfo &info,
                                    const std::vector<int64_t> &shape,
                                    std::string &error) {
  const std::string &g = variant.generator;
  const rt::KernelConfig &c = variant.config;
  auto want = [&](size_t rank, const char *form) {
    if (shape.size() == rank)
      return true;
    error = g + " takes --shape=" + form;
    return false;
  };
  Workload w;
  if (g == "vector_add") {
    if (!want(1, "N"))
      return std::nullopt;
    for (const char *name : {"A", "B", "C"})
      w.shapes[name] = {shape[0]};
  } else if (g == "gemm" || g == "gemm_softmax") {
    if (!want(3, "MxNxK"))
      return std::nullopt;
    int64_t m = shape[0], n = shape[1], k = shape[2];
    bool ta = c.getOrDefault(config::gemm::transposeA);
    // gemm_softmax takes B as N x K.
    bool tb = g == "gemm_softmax" || c.getOrDefault(config::gemm::transposeB);
    w.shapes["A"] = ta ? std::vector<int64_t>{k, m} : std::vector{m, k};
    w.shapes["B"] = tb ? std::vector<int64_t>{n, k} : std::vector{k, n};
    w.flops = 2.0 * m * n * k;
    int64_t headDim = c.getOrDefault(config::gemm_softmax::headDim);
    if (g == "gemm_softmax" && headDim > 0) {
      w.shapes["V"] = {n, headDim};
      w.shapes["Y"] = {m, headDim};
      w.flops += 2.0 * m * n * headDim;
    } else {
      w.shapes[g == "gemm" ? "C" : "Y"] = {m, n};
    }
    w.shapes["Bias"] = {n};
  } else if (g == "softmax" || g == "bias_gelu") {
    if (!want(2, "MxN"))
      return std::nullopt;
    for (const char *name : {"X", "Y", "C"})
      w.shapes[name] = {shape[0], shape[1]};
    w.shapes["Bias"] = {shape[1]};
  } else if (g == "attention") {
    if (shape.size() != 3 && shape.size() != 4) {
      error = "attention takes --shape=BxHxS or BxHxSQxSK";
      return std::nullopt;
    }
    int64_t b = shape[0], h = shape[1], sq = shape[2];
    int64_t sk = shape.size() == 4 ? shape[3] : sq;
    int64_t d = c.getOrDefault(config::attention::headDim);
    w.shapes["Q"] = w.shapes["O"] = {b, h, sq, d};
    w.shapes["K"] = w.shapes["V"] = {b, h, sk, d};
    w.shapes["LSE"] = {b, h, sq};
    w.scalars["scale"] = float(1.0 / std::sqrt(double(d)));
    w.flops = 4.0 * b * h * sq * sk * d *
              (c.getOrDefault(config::attention::causal) ? 0.5 : 1);
  } else {
    error = "the profiler does not know the shapes of " + g + " kernels";
    return std::nullopt;
  }
  // Keep the shapes of this kernel's parameters only; every buffer must
  // have one. Inputs are read once, outputs written once; bias_gelu reads
  // and writes C in place.
  std::map<std::string, std::vector<int64_t>> used;
  for (const rt::ParamInfo *param : info.userParams()) {
    if (param->kind != rt::ParamKind::Buffer) {
      if (param->dtype == rt::DType::f32 && w.scalars.count(param->name))
        continue;
      error = "no value for scalar parameter '" + param->name + "'";
      return std::nullopt;
    }
    auto it = w.shapes.find(param->name);
    if (it == w.shapes.end()) {
      error = "no shape for parameter '" + param->name + "'";
      return std::nullopt;
    }
    double elements = 1;
    for (int64_t dim : it->second)
      elements *= double(dim);
    double bytes = elements * rt::dtypeSize(param->dtype);
    w.bytes += g == "bias_gelu" && param->name == "C" ? 2 * bytes : bytes;
    used.insert(*it);
  }
  w.shapes = std::move(used);
  return w;
}

/// A buffer of `count` random values in [-1, 1) of `type`.
rt::DeviceBuffer randomBuffer(const rt::Device &device, rt::DType type,
                              int64_t count, std::mt19937 &rng) {
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  size_t size = rt::dtypeSize(type);
  std::vector<uint8_t> host(std::max<int64_t>(count, 1) * size);
  for (int64_t i = 0; i < count; ++i) {
    float x = dist(rng);
    uint8_t *p = host.data() + i * size;
    if (type == rt::DType::f16 || type == rt::DType::bf16) {
      uint16_t bits =
          type == rt::DType::f16 ? rt::floatToHalf(x) : rt::floatToBf16(x);
      std::memcpy(p, &bits, 2);
    } else if (type == rt::DType::f32) {
      std::memcpy(p, &x, 4);
    } else if (type == rt::DType::f64) {
      double d = x;
      std::memcpy(p, &d, 8);
    } else {
      std::memset(p, int(rng() % 8), size);
    }
  }
  rt::DeviceBuffer buffer(device, host.size());
  buffer.copyFromHost(host.data(), host.size());
  return buffer;
}

/// What this GPU reaches, measured now: copy GB/s (bytes read + written)
/// and the tensor-core TFLOP/s of cuBLAS on a large f16 GEMM.
struct Ceilings {
  double copyGBs = 0, tensorTFlops = 0;
  std::string tensorNote;
};

Ceilings measureCeilings(const rt::Device &device, rt::Stream &stream) {
  Ceilings c;
  const size_t copyBytes = size_t(1) << 30;
  {
    rt::DeviceBuffer src(device, copyBytes), dst(device, copyBytes);
    src.fill32(0x3c003c00u);
    rt::TimingResult t = rt::timeIt(
        stream, [&] { dst.copyFromAsync(src, copyBytes, stream); }, 3, 20);
    c.copyGBs = 2.0 * copyBytes / (t.medianMs * 1e6);
  }
  const int64_t n = 8192;
  std::mt19937 rng(7);
  rt::DeviceBuffer a = randomBuffer(device, rt::DType::f16, n * n, rng);
  rt::DeviceBuffer b = randomBuffer(device, rt::DType::f16, n * n, rng);
  rt::DeviceBuffer out(device, n * n * 4);
  cublasHandle_t handle = nullptr;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) {
    c.tensorNote = "cublasCreate failed";
    return c;
  }
  cublasSetStream(handle, reinterpret_cast<cudaStream_t>(stream.handle()));
  float alpha = 1, beta = 0;
  cublasStatus_t status = CUBLAS_STATUS_SUCCESS;
  auto gemm = [&] {
    status =
        cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha,
                     reinterpret_cast<void *>(b.ptr()), CUDA_R_16F, n,
                     reinterpret_cast<void *>(a.ptr()), CUDA_R_16F, n, &beta,
                     reinterpret_cast<void *>(out.ptr()), CUDA_R_32F, n,
                     CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  };
  rt::TimingResult t = rt::timeIt(stream, gemm, 3, 10);
  cublasDestroy(handle);
  if (status != CUBLAS_STATUS_SUCCESS)
    c.tensorNote = "cublasGemmEx failed: " + std::to_string(status);
  else
    c.tensorTFlops = 2.0 * n * n * n / (t.medianMs * 1e9);
  return c;
}

/// cuobjdump in the CUDA toolkit or on PATH; empty if there is none.
std::string findCuobjdump() {
  std::vector<std::string> places;
  if (const char *home = std::getenv("CUDA_HOME"))
    places.push_back(std::string(home) + "/bin/cuobjdump");
  places.push_back("/usr/local/cuda/bin/cuobjdump");
  if (const char *path = std::getenv("PATH")) {
    std::stringstream in(path);
    for (std::string dir; std::getline(in, dir, ':');)
      places.push_back(dir + "/cuobjdump");
  }
  for (const std::string &place : places)
    if (fs::exists(place))
      return place;
  return "";
}

/// Instruction counts in the SASS of `cubin` (by opcode prefix).
std::optional<std::map<std::string, int>> sassCounts(const std::string &tool,
                                                     const std::string &cubin) {
  std::string command = "'" + tool + "' -sass '" + cubin + "' 2>/dev/null";
  FILE *pipe = popen(command.c_str(), "r");
  if (!pipe)
    return std::nullopt;
  // The opcode prefixes counted (LDG also counts LDGSTS, as in the SASS).
  const std::array<const char *, 10> prefixes = {
      "HMMA",     "LDSM", "LDGSTS", "BAR", "SHFL",
      "MUFU.EX2", "LDL",  "STL",    "LDG", "STG"};
  std::map<std::string, int> counts;
  for (const char *prefix : prefixes)
    counts[prefix] = 0;
  std::array<char, 4096> line;
  int instructions = 0;
  while (fgets(line.data(), line.size(), pipe)) {
    // "        /*0040*/                   HMMA.16816.F32 R4, R8, ..."
    std::string text = line.data();
    size_t close = text.find("*/");
    if (text.find("/*") == std::string::npos || close == std::string::npos)
      continue;
    std::stringstream in(text.substr(close + 2));
    std::string opcode;
    in >> opcode;
    if (!opcode.empty() && opcode[0] == '@') // predicate
      in >> opcode;
    if (opcode.empty() || opcode[0] == '/' || opcode == "{" || opcode == "}")
      continue;
    ++instructions;
    for (const char *prefix : prefixes)
      if (opcode.rfind(prefix, 0) == 0)
        ++counts[prefix];
  }
  int status = pclose(pipe);
  if (status != 0 || instructions == 0)
    return std::nullopt;
  counts["instructions"] = instructions;
  return counts;
}

std::string percent(double value, double ceiling) {
  if (ceiling <= 0 || value <= 0)
    return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.0f%%", 100 * value / ceiling);
  return text;
}

} // namespace

int main(int argc, char **argv) {
  std::optional<Options> options = parseOptions(argc, argv);
  if (!options)
    return 2;
  std::vector<int64_t> shape = bench::parseDims(options->shape);
  if (shape.empty()) {
    std::cerr << "tile-profile: malformed --shape '" << options->shape
              << "' (expected numbers joined by 'x', e.g. 4096x4096x4096)\n";
    return 2;
  }
  std::regex pattern;
  try {
    pattern = std::regex(options->kernel);
  } catch (const std::regex_error &e) {
    std::cerr << "tile-profile: bad --kernel regex: " << e.what() << "\n";
    return 2;
  }
  std::string why;
  if (!rt::isDriverAvailable(&why) || rt::deviceCount() == 0) {
    std::cout << "SKIPPED: no CUDA GPU (" << (why.empty() ? "no device" : why)
              << ")\n";
    return 0;
  }
  std::string indexError;
  auto all = rt::loadKernelIndex(options->dir, "", &indexError);
  if (!all) {
    std::cerr << "tile-profile: " << indexError
              << " (run tile-kernels --out-dir=" << options->dir << ")\n";
    return 1;
  }
  std::vector<rt::KernelVariant> chosen;
  for (const auto &variant : *all)
    if (std::regex_search(variant.name, pattern))
      chosen.push_back(variant);
  if (chosen.empty()) {
    std::cerr << "tile-profile: no kernel in " << options->dir
              << "/index.json matches '" << options->kernel << "'\n";
    return 1;
  }

  rt::Device device = rt::Device::open();
  rt::Stream stream(device);
  std::cout << "device: " << device.name() << " (" << device.chip() << ", "
            << device.multiProcessorCount() << " SMs)\n";
  Ceilings ceilings;
  if (options->ceilings) {
    ceilings = measureCeilings(device, stream);
    std::printf("ceilings measured now: copy %.0f GB/s (device-to-device, "
                "read + write); tensor cores %.0f TFLOP/s (cuBLAS f16->f32 "
                "8192^3)%s\n",
                ceilings.copyGBs, ceilings.tensorTFlops,
                ceilings.tensorNote.empty()
                    ? ""
                    : ("; " + ceilings.tensorNote).c_str());
  }
  std::string cuobjdump = options->sass ? findCuobjdump() : "";
  if (options->sass && cuobjdump.empty())
    std::cout << "SASS: no cuobjdump in $CUDA_HOME/bin, /usr/local/cuda/bin "
                 "or PATH; instruction counts skipped\n";

  nlohmann::json results = nlohmann::json::array();
  int failures = 0;
  std::mt19937 rng(2026);
  std::printf("\n%-44s %9s %9s %9s %8s %6s %8s %6s %4s %6s %6s %4s %6s %s\n",
              "kernel", "median us", "min us", "max us", "TFLOP/s", "ceil",
              "GB/s", "ceil", "regs", "smem K", "local", "blk", "occup",
              "limited by");
  for (const auto &variant : chosen) {
    nlohmann::json row = {{"kernel", variant.name},
                          {"generator", variant.generator},
                          {"shape", options->shape}};
    try {
      rt::Kernel kernel =
          rt::Module::load(device, variant.cubinPath, variant.manifestPath)
              .kernel(variant.name);
      std::string error;
      std::optional<Workload> work =
          workloadFor(variant, kernel.info(), shape, error);
      if (!work)
        throw rt::Error(error);
      std::vector<rt::DeviceBuffer> buffers;
      std::vector<rt::Arg> args;
      buffers.reserve(work->shapes.size());
      for (const rt::ParamInfo *param : kernel.info().userParams()) {
        if (param->kind == rt::ParamKind::Scalar) {
          args.push_back(rt::Arg::scalar(work->scalars.at(param->name)));
          continue;
        }
        const std::vector<int64_t> &dims = work->shapes.at(param->name);
        int64_t count = 1;
        for (int64_t d : dims)
          count *= d;
        buffers.push_back(randomBuffer(device, param->dtype, count, rng));
        args.push_back(rt::Arg::buffer(buffers.back(), param->dtype, dims));
      }
      rt::TimingResult t = rt::timeIt(
          stream, [&] { kernel.launch(stream, args); }, options->warmup,
          options->runs);
      rt::KernelResources res = kernel.resources();
      rt::Occupancy occ = kernel.occupancy();
      int driverBlocks = kernel.maxActiveBlocksPerMultiprocessor();
      double tflops = work->flops / (t.medianMs * 1e9);
      double gbs = work->bytes / (t.medianMs * 1e6);
      bool computeBound = work->flops > 0;
      int shared = res.staticSharedBytes + res.dynamicSharedBytes;
      std::printf(
          "%-44s %9.1f %9.1f %9.1f %8s %6s %8.0f %6s %4d %6.1f %6d %4d %5.0f%% "
          "%s\n",
          variant.name.c_str(), t.medianMs * 1e3, t.minMs * 1e3, t.maxMs * 1e3,
          computeBound ? std::to_string(int(tflops + 0.5)).c_str() : "-",
          computeBound ? percent(tflops, ceilings.tensorTFlops).c_str() : "-",
          gbs, percent(gbs, ceilings.copyGBs).c_str(), res.registersPerThread,
          shared / 1024.0, res.localBytesPerThread, driverBlocks,
          100 * occ.fraction, occ.limiter.c_str());
      if (driverBlocks != occ.blocksPerMultiprocessor)
        std::printf("  note: the driver allows %d blocks per SM, the "
                    "estimate %d (the limiter may be off)\n",
                    driverBlocks, occ.blocksPerMultiprocessor);
      if (res.localBytesPerThread > 0)
        std::printf("  warning: %d bytes of local memory per thread (spilled "
                    "registers or stack arrays)\n",
                    res.localBytesPerThread);
      row.update({{"median_us", t.medianMs * 1e3},
                  {"min_us", t.minMs * 1e3},
                  {"max_us", t.maxMs * 1e3},
                  {"runs", t.runs},
                  {"flops", work->flops},
                  {"bytes", work->bytes},
                  {"tflops", tflops},
                  {"gbs", gbs},
                  {"registers", res.registersPerThread},
                  {"static_shared_bytes", res.staticSharedBytes},
                  {"dynamic_shared_bytes", res.dynamicSharedBytes},
                  {"local_bytes_per_thread", res.localBytesPerThread},
                  {"threads_per_block", res.threadsPerBlock},
                  {"blocks_per_sm", driverBlocks},
                  {"warps_per_sm", occ.warpsPerMultiprocessor},
                  {"occupancy", occ.fraction},
                  {"limited_by", occ.limiter}});
      if (!cuobjdump.empty()) {
        if (auto counts = sassCounts(cuobjdump, variant.cubinPath)) {
          std::string line = "  SASS:";
          for (const auto &[name, count] : *counts)
            line += " " + name + " " + std::to_string(count);
          std::cout << line << "\n";
          row["sass"] = *counts;
        } else {
          std::cout << "  SASS: cuobjdump could not read " << variant.cubinPath
                    << "\n";
        }
      }
    } catch (const std::exception &e) {
      ++failures;
      std::printf("%-44s failed: %s\n", variant.name.c_str(), e.what());
      row["error"] = e.what();
    }
    results.push_back(row);
  }
  if (!options->json.empty()) {
    std::ofstream out(options->json);
    out << nlohmann::json{{"format", "tile-profile"},
                          {"version", 1},
                          {"gpu", device.name()},
                          {"chip", device.chip()},
                          {"ceilings",
                           {{"copy_gbs", ceilings.copyGBs},
                            {"tensor_tflops", ceilings.tensorTFlops}}},
                          {"kernels", results}}
               .dump(2)
        << "\n";
  }
  return failures ? 1 : 0;
}
