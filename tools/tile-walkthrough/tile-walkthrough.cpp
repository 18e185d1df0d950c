//===- tile-walkthrough.cpp - The whole workflow, section by section ------===//
//
//   tile-walkthrough [--kernels=DIR] [--report=FILE] [--quick]
//
// The README's main job: walks the workflow of the project's mission (vector
// add, GEMM with a short autotune, the fused epilogue, softmax, attention
// causal and not), each section compiling its kernels and printing what
// they got (when the compiler is next to this program), checking them
// against float64 references, timing and profiling them (when there is a
// GPU). Every
// step is a program of this build run as a child process: its status, exit
// code and wall time are recorded, a failure fails its section and the
// walk goes on. A table ends the run, and --report writes the same as JSON.
// Without a GPU the GPU steps are marked skipped, with the reason.
//
//===----------------------------------------------------------------------===//

#include "common/Flags.h"

#include "tile/runtime/Runtime.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <sys/wait.h>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct Step {
  std::string what;
  bool needsGpu;
  std::string program; // in the bin folder
  std::vector<std::string> args;
};

struct Section {
  std::string name;
  std::vector<Step> steps;
};

struct StepResult {
  std::string what, status; // ok, failed, skipped
  std::string reason;       // why skipped or failed
  int exitCode = 0;
  double seconds = 0;
  std::string log;
};

std::string quote(const std::string &s) {
  std::string out = "'";
  for (char c : s)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// Why a GPU step that exited with 0 did not do its work, from its output
/// (empty if it did): GoogleTest's "[  SKIPPED ]", the benchmarks',
/// tile-tune-run's and tile-profile's "SKIPPED:", or a benchmark filter
/// that matched nothing (Google Benchmark still exits with 0).
std::string didNotRun(const std::string &logPath) {
  std::ifstream in(logPath);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("[  SKIPPED ]", 0) == 0 || line.rfind("SKIPPED:", 0) == 0)
      return "it skipped although a GPU was found";
    if (line.rfind("Failed to match any benchmarks", 0) == 0)
      return "its benchmark filter matched nothing";
  }
  return "";
}

/// The sections of the walkthrough; `kernels` is the compiled library,
/// `work` a scratch folder.
std::vector<Section> sections(const std::string &kernels,
                              const std::string &work, bool quick) {
  auto filter = [](const std::string &f) { return "--gtest_filter=" + f; };
  auto bench = [](const std::string &f) {
    return std::vector<std::string>{"--benchmark_filter=" + f};
  };
  // tile-profile on the kernels matching `regex` at `shape`: time, rates
  // against this GPU's ceilings, resources, occupancy (and SASS counts).
  auto profile = [&](const std::string &regex, const std::string &shape,
                     bool sass = false) {
    std::vector<std::string> args = {"--kernels=" + kernels,
                                     "--kernel=" + regex, "--shape=" + shape,
                                     "--runs=20"};
    if (sass)
      args.push_back("--sass");
    return args;
  };
  std::string tune = work + "/tune-gemm";
  return {
      {"compile the kernel library",
       {{"tile IR -> PTX -> cubin for every variant, compile times",
         false,
         "tile-kernels",
         {"--out-dir=" + kernels}}}},
      {"vector add",
       {{"kernel report (vector loads, registers)",
         false,
         "tile-translate",
         {kernels + "/vector_add_f32_1024x256.mlir", "--emit=report"}},
        {"exact on edge and large lengths",
         true,
         "tile-gpu-tests",
         {filter("VectorAddGpu.*")}},
        {"GB/s vs the device copy", true, "tile-bench-vector-add", bench(".*")},
        {"profile: time, GB/s vs ceiling, occupancy", true, "tile-profile",
         profile("^vector_add_f32_1024x256$", "33554432")}}},
      {"gemm + autotune",
       {{"kernel report",
         false,
         "tile-translate",
         {kernels + "/gemm_f16_f32_128x128x64_t128_s3_div8.mlir",
          "--emit=report"}},
        {"short search: prune, compile (one wrong candidate added)",
         false,
         "tile-tune",
         {"--out-dir=" + tune, "--block-m=128,256", "--block-n=128,256",
          "--block-k=64", "--stages=3", "--num-threads=128,256",
          "--raster-panel=8", "--divisibility=8", "--add-wrong-candidate"}},
        {"correct on odd and large shapes",
         true,
         "tile-gpu-tests",
         {filter("GemmGpu.*")}},
        {"search on the GPU: validate, time, cache",
         true,
         "tile-tune-run",
         {tune, "--shape=4096x4096x4096", "--cache=" + work + "/tune.json"}},
        {"cached winner reused",
         true,
         "tile-tune-run",
         {tune, "--shape=4096x4096x4096", "--cache=" + work + "/tune.json"}},
        {"TFLOP/s vs cuBLAS", true, "tile-bench-gemm",
         bench("^(gemm_f16_f32_128x128x64_t128_s3_div8|cublas_f16_f32)/"
               "4096x4096x4096")},
        {"profile: TFLOP/s vs ceiling, occupancy, SASS", true, "tile-profile",
         profile("^gemm_f16_f32_(128x128x64_t128|128x256x64_t256)_s3_r8_div8$",
                 "4096x4096x4096", /*sass=*/true)}}},
      {"fused epilogue (bias + GELU)",
       {{"kernel report",
         false,
         "tile-translate",
         {kernels +
              "/gemm_f16_f16_128x128x64_t128_s3_bias_gelu_staged_div8.mlir",
          "--emit=report"}},
        {"matches float64", true, "tile-gpu-tests", {filter("BiasGeluGpu.*")}},
        {"fused vs unfused", true, "tile-bench-gemm",
         bench("epilogue_.*4096x4096x4096")},
        {"profile: with and without the epilogue", true, "tile-profile",
         profile("^gemm_f16_f16_128x128x64_t128_s3(_bias_gelu_staged)?_div8$",
                 "4096x4096x4096")}}},
      {"softmax",
       {{"kernel report",
         false,
         "tile-translate",
         {kernels + "/softmax_f16_1x4096_t128.mlir", "--emit=report"}},
        {"matches float64",
         true,
         "tile-gpu-tests",
         {filter("SoftmaxGpu.*:GemmSoftmaxGpu.*")}},
        {"GB/s vs the copy", true, "tile-bench-softmax",
         bench("^(softmax_f16_1x4096_t128|copy_f16)/4096x4096/")},
        {"profile: GB/s vs ceiling, occupancy", true, "tile-profile",
         profile("^softmax_f16_1x4096_t128$", "4096x4096")}}},
      {"attention (causal and not)",
       {{"kernel report",
         false,
         "tile-translate",
         {kernels + "/attention_causal_f16_d64_128x64_t128_s2.mlir",
          "--emit=report"}},
        {"matches float64 (odd and large shapes)",
         true,
         "tile-gpu-tests",
         {filter(quick ? "AttentionGpu.MatchesFloat64" : "AttentionGpu.*")}},
        {"TFLOP/s", true, "tile-bench-attention",
         bench("attention_(causal_)?f16_d(64_128x64|128_128x64)_t128_s2/4096")},
        {"profile: TFLOP/s vs ceiling, occupancy, SASS", true, "tile-profile",
         profile("^attention_(causal_)?f16_d(64|128)_128x64_t128_s2$",
                 "4x32x4096", /*sass=*/true)}}},
  };
}

} // namespace

int main(int argc, char **argv) {
  fs::path bin = fs::canonical("/proc/self/exe").parent_path();
  std::string kernels = (bin.parent_path() / "kernels").string();
  std::string report;
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (auto v = tile::bench::flagValue(arg, "--kernels"))
      kernels = *v;
    else if (auto v = tile::bench::flagValue(arg, "--report"))
      report = *v;
    else if (arg == "--quick")
      quick = true;
    else {
      std::cerr << "usage: tile-walkthrough [--kernels=DIR] [--report=FILE] "
                   "[--quick]\n";
      return 2;
    }
  }
  // The GPU tests and benchmarks find the kernels through this variable.
  setenv("TILE_KERNEL_DIR", kernels.c_str(), 1);
  std::string work = kernels + "/walkthrough";
  fs::create_directories(work);

  std::string whyNoGpu;
  bool gpu =
      tile::rt::isDriverAvailable(&whyNoGpu) && tile::rt::deviceCount() > 0;
  if (gpu)
    std::cout << "== GPU: " << tile::rt::Device::open().name() << "\n";
  else
    std::cout << "== no GPU (" << (whyNoGpu.empty() ? "no device" : whyNoGpu)
              << "): GPU steps are skipped\n";

  nlohmann::json sectionsJson = nlohmann::json::array();
  struct Summary {
    std::string name, status;
    int ok = 0, failed = 0, skipped = 0;
    double seconds = 0;
  };
  std::vector<Summary> summary;
  int stepNumber = 0;
  for (const Section &section : sections(kernels, work, quick)) {
    std::cout << "\n== " << section.name << "\n";
    Summary s{section.name};
    nlohmann::json steps = nlohmann::json::array();
    for (const Step &step : section.steps) {
      StepResult r{step.what};
      fs::path program = bin / step.program;
      if (step.needsGpu && !gpu) {
        r.status = "skipped";
        r.reason = "no GPU";
      } else if (!fs::exists(program)) {
        r.status = "skipped";
        r.reason = step.program + " is not in " + bin.string() +
                   (step.needsGpu ? "" : " (no compiler on this machine)");
      } else {
        r.log = work + "/step" + std::to_string(++stepNumber) + ".log";
        std::string command = quote(program.string());
        for (const std::string &arg : step.args)
          command += " " + quote(arg);
        command += " > " + quote(r.log) + " 2>&1";
        auto start = std::chrono::steady_clock::now();
        int raw = std::system(command.c_str());
        r.seconds = std::chrono::duration<double>(
                        std::chrono::steady_clock::now() - start)
                        .count();
        r.exitCode = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128;
        r.status = r.exitCode == 0 ? "ok" : "failed";
        if (r.exitCode != 0)
          r.reason =
              "exit code " + std::to_string(r.exitCode) + ", see " + r.log;
        // A GPU test or benchmark that skips (no device, no compiled
        // kernels) or matches nothing exits with 0; a GPU was found here,
        // so that is a failure, not a pass.
        else if (std::string why = step.needsGpu ? didNotRun(r.log) : "";
                 !why.empty()) {
          r.status = "failed";
          r.reason = why + ", see " + r.log;
        }
      }
      s.ok += r.status == "ok";
      s.failed += r.status == "failed";
      s.skipped += r.status == "skipped";
      s.seconds += r.seconds;
      std::printf("  %-8s %6.1f s  %s%s\n", r.status.c_str(), r.seconds,
                  r.what.c_str(),
                  r.reason.empty() ? "" : ("  (" + r.reason + ")").c_str());
      // The last lines of what the step printed.
      if (!r.log.empty()) {
        std::ifstream in(r.log);
        std::vector<std::string> lines;
        for (std::string line; std::getline(in, line);)
          lines.push_back(line);
        size_t from = lines.size() > 6 ? lines.size() - 6 : 0;
        for (size_t i = from; i < lines.size(); ++i)
          std::cout << "      | " << lines[i].substr(0, 150) << "\n";
      }
      steps.push_back({{"what", r.what},
                       {"program", step.program},
                       {"status", r.status},
                       {"reason", r.reason},
                       {"exit_code", r.exitCode},
                       {"seconds", r.seconds},
                       {"log", r.log}});
    }
    // "ok, no GPU": what could run here passed, the GPU steps were skipped.
    s.status = s.failed     ? "FAILED"
               : !s.skipped ? "ok"
               : s.ok       ? (gpu ? "ok, partial" : "ok, no GPU")
                            : "skipped";
    summary.push_back(s);
    sectionsJson.push_back({{"name", section.name},
                            {"status", s.status},
                            {"seconds", s.seconds},
                            {"steps", steps}});
  }

  std::cout << "\n== summary\n";
  std::printf("%-32s %-11s %4s %6s %7s %8s\n", "section", "status", "ok",
              "failed", "skipped", "seconds");
  bool anyFailed = false;
  for (const Summary &s : summary) {
    std::printf("%-32s %-11s %4d %6d %7d %8.1f\n", s.name.c_str(),
                s.status.c_str(), s.ok, s.failed, s.skipped, s.seconds);
    anyFailed |= s.failed > 0;
  }
  if (!gpu)
    std::cout << "No GPU found: the kernels were compiled and inspected; "
                 "correctness and timing steps were skipped.\n";
  if (!report.empty()) {
    std::ofstream out(report);
    out << nlohmann::json{{"format", "tile-walkthrough"},
                          {"version", 1},
                          {"gpu", gpu ? tile::rt::Device::open().name() : ""},
                          {"no_gpu_reason", gpu ? "" : whyNoGpu},
                          {"sections", sectionsJson}}
               .dump(2)
        << "\n";
    std::cout << "report: " << report << "\n";
  }
  return anyFailed ? 1 : 0;
}
