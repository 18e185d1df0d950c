//===- GemmBench.cpp - Tensor-core GEMM against cuBLAS --------------------===//
//
// Times every compiled GEMM variant and cublasGemmEx (tensor ops, f16
// inputs, f32 compute, same output type) on the same random row-major
// inputs, in one process: CUDA events around each launch (Google Benchmark
// manual time), warm-up first, median of the repetitions. Reports TFLOP/s
// (2 M N K / time). The library's choice (`library_*`, `epilogue_library_*`)
// and each fused kernel (`epilogue_paired_*`) are launched alternately with
// their peer (cuBLAS, cuBLASLt's GELU_BIAS, the same GEMM without the
// epilogue), whose time and ratio each pair reports.
//
//===----------------------------------------------------------------------===//

#include "common/Flags.h"
#include "common/GemmArgs.h"
#include "common/Timing.h"

#include "tile/runtime/Half.h"
#include "tile/runtime/KernelChoice.h"
#include "tile/runtime/KernelIndex.h"
#include "tile/runtime/Runtime.h"

#include <benchmark/benchmark.h>
#include <cublasLt.h>
#include <cublas_v2.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <sstream>

using namespace tile;

namespace {

constexpr int kRepetitions = 20;

struct Problem {
  int64_t m, n, k;
  std::string label() const {
    return std::to_string(m) + "x" + std::to_string(n) + "x" +
           std::to_string(k);
  }
};

/// The problems of `--shapes=MxNxK[,MxNxK...]`; nullopt (and a message)
/// for a malformed list.
std::optional<std::vector<Problem>> parseShapes(const std::string &list) {
  std::vector<Problem> problems;
  std::stringstream in(list);
  for (std::string item; std::getline(in, item, ',');) {
    std::vector<int64_t> dims = bench::parseDims(item);
    if (dims.size() != 3 || dims[0] < 1 || dims[1] < 1 || dims[2] < 1) {
      std::cerr << "--shapes: expected MxNxK with positive sizes, but got '"
                << item << "'\n";
      return std::nullopt;
    }
    problems.push_back({dims[0], dims[1], dims[2]});
  }
  if (problems.empty() || list.back() == ',') {
    std::cerr << "--shapes: expected MxNxK[,MxNxK...], but got '" << list
              << "'\n";
    return std::nullopt;
  }
  return problems;
}

struct Fixture {
  explicit Fixture(rt::Device device) : device(device), timer(device) {
    if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
      throw rt::Error("cublasCreate failed");
    if (cublasLtCreate(&ltHandle) != CUBLAS_STATUS_SUCCESS)
      throw rt::Error("cublasLtCreate failed");
    cublasSetStream(handle,
                    reinterpret_cast<cudaStream_t>(timer.stream.handle()));
  }
  ~Fixture() {
    cublasLtDestroy(ltHandle);
    cublasDestroy(handle);
  }

  /// Random f16 inputs for the largest problem; outputs big enough for all.
  void allocate(int64_t maxA, int64_t maxB, int64_t maxC) {
    std::mt19937 rng(99);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<uint16_t> host(std::max(maxA, maxB));
    for (auto &x : host)
      x = rt::floatToHalf(dist(rng));
    A = rt::DeviceBuffer(device, maxA * 2);
    A.copyFromHost(host.data(), maxA * 2);
    B = rt::DeviceBuffer(device, maxB * 2);
    B.copyFromHost(host.data(), maxB * 2);
    C = rt::DeviceBuffer(device, maxC * 4);
    // The epilogues' bias: random f16 values, their bits also read as
    // bf16, or pairwise as f32 (enough for an f32 bias).
    bias = rt::DeviceBuffer(device, maxN * 4);
    bias.copyFromHost(host.data(), maxN * 4);
    workspace = rt::DeviceBuffer(device, kWorkspaceBytes);
  }
  static constexpr size_t kWorkspaceBytes = 64 << 20;
  int64_t maxN = 0;

  rt::Device device;
  bench::EventTimer timer;
  rt::DeviceBuffer A, B, C, bias, workspace;
  cublasHandle_t handle = nullptr;
  cublasLtHandle_t ltHandle = nullptr;
};

std::unique_ptr<Fixture> fixture;

void runTimed(benchmark::State &state, const std::function<void()> &work,
              const Problem &p) {
  bench::runTimed(state, fixture->timer, work, /*warmup=*/5, "TFLOP/s",
                  2.0 * p.m * p.n * p.k);
}

/// Times `work` and `peer` alternately so that clock drift (the card runs
/// at its power cap) hits both alike: each iteration launches peer, work,
/// work, peer (each launch timed alone), so that neither always goes first.
/// The iteration time (and TFLOP/s) is `work`'s mean; counter `peerUs` is
/// the peer's, `ratio` work's time over the peer's, and second_over_first
/// the time of the second launch of each pair over the first's (1.00 when
/// the order does not matter).
void runAlternately(benchmark::State &state, const std::function<void()> &work,
                    const std::function<void()> &peer, const Problem &p,
                    const std::string &peerUs, const std::string &ratio) {
  auto &timer = fixture->timer;
  try {
    for (int i = 0; i < 5; ++i) {
      peer();
      work();
    }
    timer.stream.synchronize();
    double peerMs = 0, workMs = 0, secondOverFirst = 0;
    for (auto _ : state) {
      double peer1 = timer.timeOnceMs(peer), work1 = timer.timeOnceMs(work);
      double work2 = timer.timeOnceMs(work), peer2 = timer.timeOnceMs(peer);
      peerMs = (peer1 + peer2) / 2;
      workMs = (work1 + work2) / 2;
      secondOverFirst = (work1 + peer2) / (peer1 + work2);
      state.SetIterationTime(workMs / 1e3);
    }
    state.counters[peerUs] = peerMs * 1e3;
    state.counters[ratio] = workMs / peerMs;
    state.counters["second_over_first"] = secondOverFirst;
    state.counters["TFLOP/s"] = bench::perSecond(2.0 * p.m * p.n * p.k);
  } catch (const rt::Error &error) {
    state.SkipWithError(error.what());
  }
}

cudaDataType cudaType(const std::string &dtype) {
  return dtype == "f16"    ? CUDA_R_16F
         : dtype == "bf16" ? CUDA_R_16BF
                           : CUDA_R_32F;
}

/// Row-major C = A B is column-major C^T = B^T A^T. bf16 runs read the same
/// random bits as the f16 ones (as bf16 values: small, random, non-zero).
/// With `transposeA`, A is stored K x M (column-major M x K, so cuBLAS
/// transposes it); with `transposeB`, B is stored N x K.
void cublasGemm(const Problem &p, const std::string &in, const std::string &out,
                bool transposeA = false, bool transposeB = false) {
  float alpha = 1, beta = 0;
  cublasStatus_t status = cublasGemmEx(
      fixture->handle, transposeB ? CUBLAS_OP_T : CUBLAS_OP_N,
      transposeA ? CUBLAS_OP_T : CUBLAS_OP_N, p.n, p.m, p.k, &alpha,
      reinterpret_cast<void *>(fixture->B.ptr()), cudaType(in),
      transposeB ? p.k : p.n, reinterpret_cast<void *>(fixture->A.ptr()),
      cudaType(in), transposeA ? p.m : p.k, &beta,
      reinterpret_cast<void *>(fixture->C.ptr()), cudaType(out), p.n,
      CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  if (status != CUBLAS_STATUS_SUCCESS)
    throw rt::Error("cublasGemmEx failed with status " +
                    std::to_string(status));
}

void benchCublas(benchmark::State &state, Problem p, const std::string &in,
                 const std::string &out, bool transposeA, bool transposeB) {
  runTimed(
      state, [&] { cublasGemm(p, in, out, transposeA, transposeB); }, p);
}

/// cuBLASLt with its fused GELU_BIAS epilogue (`in` in and out: f16 or
/// bf16; f32 compute, bias of C's type), the best algorithm of its
/// heuristic, set up once and launched by launch().
class CublasLtGeluBias {
public:
  CublasLtGeluBias(Problem p, const std::string &in) {
    try {
      setUp(p, in);
    } catch (...) {
      release(); // No destructor runs after a throwing constructor.
      throw;
    }
  }
  CublasLtGeluBias(const CublasLtGeluBias &) = delete;
  CublasLtGeluBias &operator=(const CublasLtGeluBias &) = delete;
  ~CublasLtGeluBias() { release(); }

  void launch() {
    float alpha = 1, beta = 0;
    check(cublasLtMatmul(
              fixture->ltHandle, desc, &alpha,
              reinterpret_cast<void *>(fixture->B.ptr()), aLayout,
              reinterpret_cast<void *>(fixture->A.ptr()), bLayout, &beta,
              reinterpret_cast<void *>(fixture->C.ptr()), cLayout,
              reinterpret_cast<void *>(fixture->C.ptr()), cLayout,
              &heuristic.algo,
              reinterpret_cast<void *>(fixture->workspace.ptr()),
              workspaceBytes,
              reinterpret_cast<cudaStream_t>(fixture->timer.stream.handle())),
          "cublasLtMatmul");
  }

private:
  void setUp(Problem p, const std::string &in) {
    // Row-major C = A B is column-major C^T = B^T A^T: the Lt "A" is our B
    // (n x k), its "B" our A (k x m), and the bias runs along C^T's rows,
    // i.e. along our columns.
    check(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F),
          "cublasLtMatmulDescCreate");
    cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_GELU_BIAS;
    check(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE,
                                         &epilogue, sizeof(epilogue)),
          "setting the epilogue");
    void *biasPointer = reinterpret_cast<void *>(fixture->bias.ptr());
    check(cublasLtMatmulDescSetAttribute(desc,
                                         CUBLASLT_MATMUL_DESC_BIAS_POINTER,
                                         &biasPointer, sizeof(biasPointer)),
          "setting the bias");
    cudaDataType type = cudaType(in);
    check(cublasLtMatrixLayoutCreate(&aLayout, type, p.n, p.k, p.n),
          "layout A");
    check(cublasLtMatrixLayoutCreate(&bLayout, type, p.k, p.m, p.k),
          "layout B");
    check(cublasLtMatrixLayoutCreate(&cLayout, type, p.n, p.m, p.n),
          "layout C");
    check(cublasLtMatmulPreferenceCreate(&preference), "preference");
    check(cublasLtMatmulPreferenceSetAttribute(
              preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
              &workspaceBytes, sizeof(workspaceBytes)),
          "workspace preference");
    int found = 0;
    check(cublasLtMatmulAlgoGetHeuristic(fixture->ltHandle, desc, aLayout,
                                         bLayout, cLayout, cLayout, preference,
                                         1, &heuristic, &found),
          "cublasLtMatmulAlgoGetHeuristic");
    if (found == 0)
      throw rt::Error("cuBLASLt found no GELU_BIAS algorithm");
  }

  void release() {
    if (preference)
      cublasLtMatmulPreferenceDestroy(preference);
    for (cublasLtMatrixLayout_t layout : {cLayout, bLayout, aLayout})
      if (layout)
        cublasLtMatrixLayoutDestroy(layout);
    if (desc)
      cublasLtMatmulDescDestroy(desc);
  }

  static void check(cublasStatus_t status, const char *what) {
    if (status != CUBLAS_STATUS_SUCCESS)
      throw rt::Error(std::string(what) + " failed with status " +
                      std::to_string(status));
  }

  cublasLtMatmulDesc_t desc = nullptr;
  cublasLtMatrixLayout_t aLayout = nullptr, bLayout = nullptr,
                         cLayout = nullptr;
  cublasLtMatmulPreference_t preference = nullptr;
  cublasLtMatmulHeuristicResult_t heuristic = {};
  size_t workspaceBytes = Fixture::kWorkspaceBytes;
};

void benchCublasLtGeluBias(benchmark::State &state, Problem p,
                           const std::string &in) {
  try {
    CublasLtGeluBias lt(p, in);
    runTimed(
        state, [&] { lt.launch(); }, p);
  } catch (const rt::Error &error) {
    state.SkipWithError(error.what());
  }
}

/// The launch arguments of `variant` for problem `p` on the fixture's
/// buffers.
std::vector<rt::Arg> gemmArgs(const rt::KernelVariant &variant, Problem p) {
  return bench::gemmArgs(variant.config, fixture->A, fixture->B, fixture->C,
                         &fixture->bias, p.m, p.n, p.k);
}

void benchTile(benchmark::State &state, const rt::KernelVariant &variant,
               Problem p) {
  std::optional<rt::Kernel> kernel =
      bench::loadKernel(state, fixture->device, variant);
  if (!kernel)
    return;
  std::vector<rt::Arg> args = gemmArgs(variant, p);
  runTimed(
      state, [&] { kernel->launch(fixture->timer.stream, args); }, p);
}

/// What a user of the library gets: the variant rt::chooseGemm picks among
/// `variants` for an NN `in` -> `out` launch of `p` with `epilogue` on this
/// device (its name is the benchmark's label), launched alternately with
/// its peer: cuBLAS of the same types, or with an epilogue (bias + GELU)
/// cuBLASLt's GELU_BIAS. Counters peer_us and over_peer (the chosen
/// kernel's time over the peer's, per pair).
void benchLibraryChoice(benchmark::State &state,
                        const std::vector<rt::KernelVariant> &variants,
                        Problem p, const std::string &in,
                        const std::string &out,
                        const std::string &epilogue = "none") {
  rt::DType inType = *rt::parseDType(in), outType = *rt::parseDType(out);
  rt::GemmRequest request{rt::Arg::buffer(fixture->A, inType, {p.m, p.k}),
                          rt::Arg::buffer(fixture->B, inType, {p.k, p.n}),
                          rt::Arg::buffer(fixture->C, outType, {p.m, p.n})};
  request.epilogue = epilogue;
  // The peer computes the same epilogue: cuBLAS none, cuBLASLt's GELU_BIAS
  // a bias + GELU (its tanh form; the erf one is compared with it too).
  using config::gemm::Epilogue;
  const config::gemm::EpilogueInfo &info =
      *config::gemm::findEpilogue(epilogue);
  bool gelu =
      info.kind == Epilogue::biasGelu || info.kind == Epilogue::biasGeluTanh;
  if (info.kind != Epilogue::none && !gelu) {
    state.SkipWithError(
        ("no peer library computes epilogue " + epilogue).c_str());
    return;
  }
  if (info.hasBias)
    request.bias = rt::Arg::buffer(fixture->bias, outType, {p.n});
  rt::KernelChoice choice =
      rt::chooseGemm(variants, request, fixture->device.chip());
  if (!choice.chosen) {
    state.SkipWithError(choice.explain().c_str());
    return;
  }
  state.SetLabel(choice.chosen->name);
  std::optional<rt::Kernel> kernel =
      bench::loadKernel(state, fixture->device, *choice.chosen);
  if (!kernel)
    return;
  std::vector<rt::Arg> args = gemmArgs(*choice.chosen, p);
  auto launch = [&] { kernel->launch(fixture->timer.stream, args); };
  try {
    if (!gelu) {
      runAlternately(
          state, launch, [&] { cublasGemm(p, in, out); }, p, "peer_us",
          "over_peer");
      return;
    }
    CublasLtGeluBias lt(p, in);
    runAlternately(
        state, launch, [&] { lt.launch(); }, p, "peer_us", "over_peer");
  } catch (const rt::Error &error) {
    state.SkipWithError(error.what());
  }
}

/// A fused-epilogue GEMM and the same GEMM without the epilogue, launched
/// alternately: each iteration times one of each, so clock drift (the card
/// runs at its power cap) hits both alike. Reports the fused time, the
/// plain one (plain_us) and their ratio (fused_over_plain), per pair.
void benchPaired(benchmark::State &state, const rt::KernelVariant &fused,
                 const rt::KernelVariant &plain, Problem p) {
  std::optional<rt::Kernel> fusedKernel =
      bench::loadKernel(state, fixture->device, fused);
  std::optional<rt::Kernel> plainKernel =
      bench::loadKernel(state, fixture->device, plain);
  if (!fusedKernel || !plainKernel)
    return;
  std::vector<rt::Arg> fusedArgs = gemmArgs(fused, p),
                       plainArgs = gemmArgs(plain, p);
  auto &stream = fixture->timer.stream;
  runAlternately(
      state, [&] { fusedKernel->launch(stream, fusedArgs); },
      [&] { plainKernel->launch(stream, plainArgs); }, p, "plain_us",
      "fused_over_plain");
}

/// A GEMM (this project's `gemm`, or cuBLAS when null) followed by the
/// separate bias + GELU kernel on C: the unfused epilogue.
void benchUnfused(benchmark::State &state, const rt::KernelVariant *gemm,
                  const rt::KernelVariant &biasGelu, Problem p) {
  std::optional<rt::Kernel> gemmKernel;
  if (gemm && !(gemmKernel = bench::loadKernel(state, fixture->device, *gemm)))
    return;
  std::optional<rt::Kernel> epilogueKernel =
      bench::loadKernel(state, fixture->device, biasGelu);
  if (!epilogueKernel)
    return;
  std::vector<rt::Arg> gemmArgs = {
      rt::Arg::buffer(fixture->A, rt::DType::f16, {p.m, p.k}),
      rt::Arg::buffer(fixture->B, rt::DType::f16, {p.k, p.n}),
      rt::Arg::buffer(fixture->C, rt::DType::f16, {p.m, p.n})};
  std::vector<rt::Arg> epilogueArgs = {
      rt::Arg::buffer(fixture->C, rt::DType::f16, {p.m, p.n}),
      rt::Arg::buffer(fixture->bias, rt::DType::f16, {p.n})};
  runTimed(
      state,
      [&] {
        if (gemmKernel)
          gemmKernel->launch(fixture->timer.stream, gemmArgs);
        else
          cublasGemm(p, "f16", "f16");
        epilogueKernel->launch(fixture->timer.stream, epilogueArgs);
      },
      p);
}

} // namespace

int main(int argc, char **argv) {
  std::vector<rt::KernelVariant> variants;
  if (std::optional<int> exitCode =
          bench::startBenchmark(argc, argv, TILE_KERNEL_DIR_DEFAULT,
                                config::gemm::generator, variants))
    return *exitCode;
  std::vector<Problem> problems = {{1024, 1024, 1024},
                                   {2048, 2048, 2048},
                                   {4096, 4096, 4096},
                                   {8192, 8192, 8192},
                                   {4096, 1024, 8192},
                                   // LLM-like: an MLP up-projection, a
                                   // projection whose sizes are not
                                   // multiples of 256, and decoding with
                                   // 16 and 64 tokens.
                                   {8192, 8192, 28672},
                                   {4000, 3000, 4096},
                                   {16, 8192, 8192},
                                   {64, 8192, 8192}};
  std::vector<Problem> epilogueProblems = {
      {4096, 4096, 4096}, {8192, 8192, 8192}, {16, 8192, 8192}};
  // --shapes=MxNxK,...: these problems instead, for the GEMMs and the
  // epilogues alike.
  for (int i = 1; i < argc; ++i)
    if (std::optional<std::string> list =
            bench::flagValue(argv[i], "--shapes")) {
      std::optional<std::vector<Problem>> given = parseShapes(*list);
      if (!given)
        return 2;
      problems = epilogueProblems = *given;
    } else {
      std::cerr << "unknown argument '" << argv[i]
                << "' (flags: --shapes=MxNxK,... and Google Benchmark's)\n";
      return 2;
    }
  // The fused variants with a transposed operand are the library's fallbacks
  // for those combinations (docs/Coverage.md): their GEMM costs what their
  // plain twins' does and their epilogue what the NN one's does, both timed
  // here.
  variants.erase(
      std::remove_if(variants.begin(), variants.end(),
                     [](const rt::KernelVariant &v) {
                       return bench::gemmEpilogue(v.config).kind !=
                                  config::gemm::Epilogue::none &&
                              (v.config.getOrDefault(
                                   config::gemm::transposeA) ||
                               v.config.getOrDefault(config::gemm::transposeB));
                     }),
      variants.end());
  fixture = std::make_unique<Fixture>(rt::Device::open());
  int64_t maxA = 0, maxB = 0, maxC = 0;
  for (const Problem &p : problems) {
    maxA = std::max(maxA, p.m * p.k);
    maxB = std::max(maxB, p.k * p.n);
    maxC = std::max(maxC, p.m * p.n);
  }
  for (const Problem &p : problems)
    fixture->maxN = std::max(fixture->maxN, p.n);
  fixture->allocate(maxA, maxB, maxC);
  std::cout << "device: " << fixture->device.name() << " ("
            << fixture->device.chip() << ")\n";

  auto configure = [](benchmark::internal::Benchmark *b) {
    bench::configureRuns(b, kRepetitions);
  };
  // cuBLAS in every operand layout that a variant has ("_tn": A given
  // K x M, as the variants' names say), so that each variant has its peer.
  std::set<std::pair<bool, bool>> layouts{{false, false}};
  for (const auto &variant : variants)
    layouts.insert({variant.config.getOrDefault(config::gemm::transposeA),
                    variant.config.getOrDefault(config::gemm::transposeB)});
  for (const Problem &p : problems) {
    for (std::string in : {"f16", "bf16"})
      for (std::string out : {std::string("f32"), in})
        for (auto [ta, tb] : layouts)
          configure(benchmark::RegisterBenchmark(
              ("cublas_" + in + "_" + out +
               (ta || tb
                    ? std::string("_") + (ta ? "t" : "n") + (tb ? "t" : "n")
                    : std::string()) +
               "/" + p.label())
                  .c_str(),
              [p, in, out, ta, tb](benchmark::State &state) {
                benchCublas(state, p, in, out, ta, tb);
              }));
    for (const auto &variant : variants)
      configure(
          benchmark::RegisterBenchmark((variant.name + "/" + p.label()).c_str(),
                                       [variant, p](benchmark::State &state) {
                                         benchTile(state, variant, p);
                                       }));
    for (std::string in : {"f16", "bf16"})
      for (std::string out : {std::string("f32"), in})
        configure(benchmark::RegisterBenchmark(
            ("library_" + in + "_" + out + "/" + p.label()).c_str(),
            [&variants, p, in, out](benchmark::State &state) {
              benchLibraryChoice(state, variants, p, in, out);
            }));
    // The pairing's own control: cuBLAS timed alternately with itself
    // (over_peer should be 1.00).
    configure(benchmark::RegisterBenchmark(
        ("control_cublas_paired_with_itself_f16_f16/" + p.label()).c_str(),
        [p](benchmark::State &state) {
          auto launch = [&] { cublasGemm(p, "f16", "f16"); };
          runAlternately(state, launch, launch, p, "peer_us", "over_peer");
        }));
  }
  // The bias + GELU epilogue at 4096^3, 8192^3 and 16x8192x8192 (the
  // swap_ab tiles' shape), f16: fused into this project's GEMM (the gemm
  // variants with an epilogue, registered above), against the same GEMM
  // followed by the separate bias_gelu kernel, cuBLAS followed by it, and
  // cuBLASLt's own GELU_BIAS epilogue.
  std::string indexError;
  auto epilogueKernels =
      rt::loadKernelIndex(rt::kernelDir(TILE_KERNEL_DIR_DEFAULT),
                          config::bias_gelu::generator, &indexError);
  if (!epilogueKernels)
    std::cerr << indexError << "\n";
  const rt::KernelVariant *biasGelu = nullptr;
  if (epilogueKernels)
    for (const auto &v : *epilogueKernels)
      if (!v.config.getOrDefault(config::bias_gelu::tanh))
        biasGelu = &v;
  // Each fused variant with the same GEMM without its epilogue (its name
  // less the epilogue suffix), timed in pairs. (b) runs each such GEMM of an
  // f16 -> f16 GELU variant followed by the bias_gelu kernel (f16, as
  // benchUnfused launches them); the summary takes the fastest.
  std::map<std::string, const rt::KernelVariant *> byName;
  for (const auto &v : variants)
    byName[v.name] = &v;
  std::vector<std::pair<const rt::KernelVariant *, const rt::KernelVariant *>>
      fusedAndPlain;
  std::vector<const rt::KernelVariant *> plainGemms;
  for (const auto &v : variants) {
    const config::gemm::EpilogueInfo &epilogue = bench::gemmEpilogue(v.config);
    using config::gemm::Epilogue;
    if (epilogue.kind == Epilogue::none)
      continue;
    auto plain = byName.find(bench::plainGemmName(v));
    if (plain == byName.end())
      continue;
    fusedAndPlain.emplace_back(&v, plain->second);
    bool gelu = epilogue.kind == Epilogue::biasGelu ||
                epilogue.kind == Epilogue::biasGeluTanh;
    bool f16 = v.config.getOrDefault(config::gemm::inDtype) == "f16" &&
               v.config.getOrDefault(config::gemm::outDtype) == "f16";
    if (gelu && f16 &&
        std::find(plainGemms.begin(), plainGemms.end(), plain->second) ==
            plainGemms.end())
      plainGemms.push_back(plain->second);
  }
  for (Problem p : epilogueProblems) {
    // Launched alternately, so clock drift hits both alike.
    for (auto [fused, plain] : fusedAndPlain)
      configure(benchmark::RegisterBenchmark(
          ("epilogue_paired_" + fused->name.substr(5) + "/" + p.label())
              .c_str(),
          [p, fused, plain](benchmark::State &state) {
            benchPaired(state, *fused, *plain, p);
          }));
    for (const rt::KernelVariant *plainGemm : plainGemms)
      if (biasGelu)
        configure(benchmark::RegisterBenchmark(
            ("epilogue_tile_gemm_then_bias_gelu_" + plainGemm->name.substr(5) +
             "/" + p.label())
                .c_str(),
            [p, plainGemm, biasGelu](benchmark::State &state) {
              benchUnfused(state, plainGemm, *biasGelu, p);
            }));
    if (biasGelu)
      configure(benchmark::RegisterBenchmark(
          ("epilogue_cublas_then_bias_gelu/" + p.label()).c_str(),
          [p, biasGelu](benchmark::State &state) {
            benchUnfused(state, nullptr, *biasGelu, p);
          }));
    // Both GELUs: cuBLASLt's GELU_BIAS computes the tanh form.
    for (std::string in : {"f16", "bf16"})
      for (auto [prefix, gelu] :
           {std::pair<std::string, std::string>{"epilogue_library_",
                                                "bias_gelu"},
            {"epilogue_library_gelu_tanh_", "bias_gelu_tanh"}})
        configure(benchmark::RegisterBenchmark(
            (prefix + in + "/" + p.label()).c_str(),
            [&variants, p, in, gelu](benchmark::State &state) {
              benchLibraryChoice(state, variants, p, in, in, gelu);
            }));
    for (std::string in : {"f16", "bf16"})
      configure(benchmark::RegisterBenchmark(
          ("epilogue_cublaslt_gelu_bias" +
           (in == "f16" ? std::string() : "_" + in) + "/" + p.label())
              .c_str(),
          [p, in](benchmark::State &state) {
            benchCublasLtGeluBias(state, p, in);
          }));
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  fixture.reset();
  return 0;
}
