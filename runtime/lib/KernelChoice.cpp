//===- KernelChoice.cpp - Which compiled variant runs a launch ------------===//
//
// The preference order and the first-that-fits choice of KernelChoice.h.
// The fit is decided by the same checks a launch makes (checkAndPack on
// the variant's manifest), so a chosen variant never fails its launch for
// its arguments, and a passed-over one says what it refused.
//
//===----------------------------------------------------------------------===//

#include "tile/runtime/KernelChoice.h"
#include "tile/runtime/Error.h"
#include "tile/runtime/Manifest.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <tuple>

using namespace tile::rt;
namespace key = tile::config::gemm;

std::string KernelChoice::explain() const {
  std::string text;
  if (chosen)
    text = "chose " + chosen->name +
           (chosen->chip.empty() ? "" : " (" + chosen->chip + ")") + "\n";
  else if (!noCandidates.empty())
    text = noCandidates + "\n";
  else
    text = "no variant suits this launch\n";
  for (const PassedOver &p : passedOver)
    text += "  passed over " + p.variant + ": " + p.reason + "\n";
  return text;
}

KernelChoice
tile::rt::chooseVariant(const std::vector<KernelVariant> &candidates,
                        const std::string &deviceChip, const ArgsOf &argsOf,
                        const KernelInfoSource &infoOf) {
  KernelChoice choice;
  for (const KernelVariant &variant : candidates) {
    if (!chipRunsOn(variant.chip, deviceChip)) {
      choice.passedOver.push_back(
          {variant.name, "built for " + variant.chip +
                             ", which does not run on this " + deviceChip +
                             " device"});
      continue;
    }
    try {
      const KernelInfo &info = infoOf(variant);
      std::vector<Arg> args = argsOf(variant, info);
      checkAndPack(info, args);
      choice.chosen = variant;
      choice.args = std::move(args);
      return choice;
    } catch (const Error &error) {
      choice.passedOver.push_back({variant.name, error.what()});
    }
  }
  return choice;
}

/// Reads each variant's manifest from its file when asked (the manifest
/// read last stays alive until the next).
static KernelInfoSource readManifestFiles() {
  auto manifest = std::make_shared<ManifestInfo>();
  return [manifest](const KernelVariant &variant) -> const KernelInfo & {
    *manifest = loadManifestFile(variant.manifestPath);
    const KernelInfo *info = manifest->findKernel(variant.name);
    if (!info)
      throw Error(variant.manifestPath + " has no kernel '" + variant.name +
                  "'");
    return *info;
  };
}

/// chooseVariant with the descriptions of `infoOf`, or read from the
/// manifest files when it is empty.
static KernelChoice chooseWith(const std::vector<KernelVariant> &candidates,
                               const std::string &deviceChip,
                               const ArgsOf &argsOf,
                               const KernelInfoSource &infoOf) {
  return chooseVariant(candidates, deviceChip, argsOf,
                       infoOf ? infoOf : readManifestFiles());
}

/// Arguments that are the same for every variant.
static ArgsOf fixedArgs(std::vector<Arg> args) {
  return [args = std::move(args)](const KernelVariant &, const KernelInfo &) {
    return args;
  };
}

KernelChoice tile::rt::chooseVariant(
    const std::vector<KernelVariant> &candidates, const std::string &deviceChip,
    const std::function<std::vector<Arg>(const KernelVariant &)> &argsOf) {
  return chooseVariant(
      candidates, deviceChip,
      [&](const KernelVariant &variant, const KernelInfo &) {
        return argsOf(variant);
      },
      readManifestFiles());
}

std::vector<Arg>
tile::rt::argsByName(const KernelInfo &kernel,
                     const std::vector<std::pair<std::string, Arg>> &named) {
  std::vector<Arg> args;
  for (const ParamInfo *param : kernel.userParams()) {
    auto found = std::find_if(named.begin(), named.end(), [&](const auto &n) {
      return n.first == param->name;
    });
    if (found == named.end())
      throw Error("kernel '" + kernel.name + "' takes parameter '" +
                  param->name + "', which this call does not provide");
    args.push_back(found->second);
  }
  for (const auto &[name, arg] : named)
    if (!kernel.findParam(name))
      throw Error("kernel '" + kernel.name + "' has no parameter '" + name +
                  "' for this call's argument");
  return args;
}

/// Whether a cubin for `kernelChip` is specific to `deviceChip`'s
/// architecture ("sm_90a" on "sm_90"): it uses features the portable
/// variants lack.
static bool isArchSpecificFor(const std::string &kernelChip,
                              const std::string &deviceChip) {
  return !kernelChip.empty() && kernelChip.back() == 'a' &&
         kernelChip.substr(0, kernelChip.size() - 1) == deviceChip;
}

/// The request's operand layout, as the GEMM's documentation writes it.
static std::string layoutText(const GemmRequest &request) {
  return std::string(request.transposeA ? "A K x M" : "A M x K") +
         (request.transposeB ? ", B N x K" : ", B K x N");
}

std::vector<KernelVariant>
tile::rt::gemmCandidates(const std::vector<KernelVariant> &library,
                         const GemmRequest &request,
                         const std::string &deviceChip) {
  std::string in = dtypeName(request.a.dtype()),
              out = dtypeName(request.c.dtype());
  std::vector<KernelVariant> candidates;
  for (const KernelVariant &v : library)
    if (v.generator == key::generator &&
        v.config.getOrDefault(key::inDtype) == in &&
        v.config.getOrDefault(key::outDtype) == out &&
        v.config.getOrDefault(key::transposeA) == request.transposeA &&
        v.config.getOrDefault(key::transposeB) == request.transposeB &&
        v.config.getOrDefault(key::epilogue) == request.epilogue)
      candidates.push_back(v);
  // C's shape; a malformed C is left for the contract check to name.
  const std::vector<int64_t> &shapeOfC = request.c.shape();
  auto ceilDiv = [](int64_t a, int64_t b) { return (a + b - 1) / b; };
  bool fewRows = !shapeOfC.empty() && shapeOfC[0] <= kFewRows;
  bool fewTiles = fewRows || (shapeOfC.size() == 2 &&
                              ceilDiv(shapeOfC[0], kLeadingTileRows) *
                                      ceilDiv(shapeOfC[1], kLeadingTileCols) <
                                  kFewTiles);
  bool ragged = shapeOfC.size() == 2 && (shapeOfC[0] % kClusterFirstUnless ||
                                         shapeOfC[1] % kClusterFirstUnless);
  int64_t rowsOfC = shapeOfC.empty() ? 0 : shapeOfC[0];
  auto rank = [&](const KernelVariant &v) {
    bool splitK = v.config.getOrDefault(key::splitK) > 1;
    int64_t blockM = v.config.getOrDefault(key::blockM);
    bool rowTile = !splitK && blockM <= kFewRows;
    bool cluster = v.config.getOrDefault(key::clusterM) > 1;
    // Few rows: row tiles, then split-K, then the rest. Few tiles alone:
    // row tiles first, split-K last. Neither: both last.
    int rows = rowTile ? (fewTiles ? 0 : 3) : splitK ? (fewRows ? 1 : 3) : 2;
    // Among row tiles: the fewest rows that hold C's, else the most; of
    // those, where C has few rows, the widest whose tiles fill a wave, else
    // the narrowest (more blocks read B, which is nearly all the bytes).
    std::tuple<int, int64_t, int, int64_t> fit{0, 0, 0, 0};
    if (rowTile) {
      bool holdsC = blockM >= rowsOfC;
      std::get<0>(fit) = holdsC ? 0 : 1;
      std::get<1>(fit) = holdsC ? blockM : -blockM;
      if (fewRows && shapeOfC.size() == 2) {
        int64_t blockN = v.config.getOrDefault(key::blockN);
        bool fillsAWave = ceilDiv(shapeOfC[1], blockN) >= kWaveOfRowTiles;
        std::get<2>(fit) = fillsAWave ? 0 : 1;
        std::get<3>(fit) = fillsAWave ? -blockN : blockN;
      }
    }
    return std::tuple{isArchSpecificFor(v.chip, deviceChip) ? 0 : 1, rows, fit,
                      cluster == ragged ? 0 : 1};
  };
  std::stable_sort(candidates.begin(), candidates.end(),
                   [&](const KernelVariant &x, const KernelVariant &y) {
                     return rank(x) < rank(y);
                   });
  return candidates;
}

void tile::rt::checkGemmRequest(const GemmRequest &request) {
  const key::EpilogueInfo *epilogue = key::findEpilogue(request.epilogue);
  if (!epilogue) {
    std::string names;
    for (const key::EpilogueInfo &e : key::epilogues)
      names += (names.empty() ? "" : ", ") + std::string(e.name);
    throw Error("gemm request: expected an epilogue of " + names +
                ", but got '" + request.epilogue + "'");
  }
  if (epilogue->hasBias != request.bias.has_value())
    throw Error("gemm request: epilogue " + request.epilogue +
                (epilogue->hasBias ? " adds a bias: expected one, but got none"
                                   : " adds no bias: expected none, but got "
                                     "one"));
}

KernelChoice tile::rt::chooseGemm(const std::vector<KernelVariant> &library,
                                  const GemmRequest &request,
                                  const std::string &deviceChip,
                                  const KernelInfoSource &infoOf) {
  checkGemmRequest(request);
  std::vector<KernelVariant> candidates =
      gemmCandidates(library, request, deviceChip);
  if (candidates.empty()) {
    KernelChoice none;
    none.noCandidates = std::string("no gemm variant for ") +
                        dtypeName(request.a.dtype()) + " -> " +
                        dtypeName(request.c.dtype()) + ", " +
                        layoutText(request) + ", epilogue " + request.epilogue +
                        " in the library (tile-kernels or tile-tune can "
                        "compile one)";
    return none;
  }
  return chooseWith(candidates, deviceChip, gemmArgs(request), infoOf);
}

ArgsOf tile::rt::gemmArgs(const GemmRequest &request) {
  std::vector<Arg> args{request.a, request.b, request.c};
  if (request.bias)
    args.push_back(*request.bias);
  return fixedArgs(std::move(args));
}

//===----------------------------------------------------------------------===//
// Softmax, attention, vector add
//===----------------------------------------------------------------------===//

/// `candidates` sorted by `rank` (smaller first), the library's order kept
/// among equals.
template <typename Rank>
static void sortByRank(std::vector<KernelVariant> &candidates, Rank rank) {
  std::stable_sort(candidates.begin(), candidates.end(),
                   [&](const KernelVariant &x, const KernelVariant &y) {
                     return rank(x) < rank(y);
                   });
}

/// The variants of `generator` whose `dtype` key is `dtype`.
static std::vector<KernelVariant>
variantsOfType(const std::vector<KernelVariant> &library, const char *generator,
               const tile::config::StringKey &dtypeKey, DType dtype) {
  std::vector<KernelVariant> result;
  for (const KernelVariant &v : library)
    if (v.generator == generator &&
        v.config.getOrDefault(dtypeKey) == dtypeName(dtype))
      result.push_back(v);
  return result;
}

/// What a request has no candidate for, and the generator that would
/// compile one.
static KernelChoice noCandidate(const std::string &what,
                                const std::string &kernel) {
  KernelChoice none;
  none.noCandidates = "no " + what +
                      " in the library (tile-kernels --kernel=" + kernel +
                      " can compile one)";
  return none;
}

std::vector<KernelVariant>
tile::rt::softmaxCandidates(const std::vector<KernelVariant> &library,
                            const SoftmaxRequest &request) {
  namespace sm = tile::config::softmax;
  std::vector<KernelVariant> candidates =
      variantsOfType(library, sm::generator, sm::dtype, request.x.dtype());
  const std::vector<int64_t> &shape = request.x.shape();
  int64_t n = shape.size() == 2 ? shape[1] : 0;
  bool longHalfRows = dtypeSize(request.x.dtype()) == 2 && n > 8192;
  auto rank = [&](const KernelVariant &v) {
    int64_t blockN = v.config.getOrDefault(sm::blockN);
    int64_t rows = v.config.getOrDefault(sm::rows);
    int64_t threads = std::max<int64_t>(v.config.getOrDefault(sm::threads), 1);
    if (v.config.getOrDefault(sm::online))
      return std::tuple{longHalfRows ? 0 : 1, int64_t(0),
                        -v.config.getOrDefault(sm::stages), int64_t(0)};
    if (blockN < n)
      return std::tuple{2, blockN, int64_t(0), int64_t(0)};
    // |log2(elements per thread / 32)|, in 64ths.
    double perThread = double(rows * blockN) / double(threads);
    auto distance =
        int64_t(std::lround(64 * std::abs(std::log2(perThread / 32))));
    return std::tuple{longHalfRows ? 1 : 0, blockN, distance, -rows};
  };
  sortByRank(candidates, rank);
  return candidates;
}

KernelChoice tile::rt::chooseSoftmax(const std::vector<KernelVariant> &library,
                                     const SoftmaxRequest &request,
                                     const std::string &deviceChip,
                                     const KernelInfoSource &infoOf) {
  std::vector<KernelVariant> candidates = softmaxCandidates(library, request);
  if (candidates.empty())
    return noCandidate(std::string("softmax variant for ") +
                           dtypeName(request.x.dtype()),
                       "softmax");
  return chooseWith(candidates, deviceChip, softmaxArgs(request), infoOf);
}

ArgsOf tile::rt::softmaxArgs(const SoftmaxRequest &request) {
  return fixedArgs({request.x, request.y});
}

std::vector<KernelVariant>
tile::rt::attentionCandidates(const std::vector<KernelVariant> &library,
                              const AttentionRequest &request) {
  namespace at = tile::config::attention;
  const std::vector<int64_t> &q = request.q.shape();
  int64_t headDim = q.size() == 4 ? q[3] : -1;
  std::vector<KernelVariant> candidates;
  for (const KernelVariant &v :
       variantsOfType(library, at::generator, at::dtype, request.q.dtype()))
    if (v.config.getOrDefault(at::headDim) == headDim &&
        v.config.getOrDefault(at::causal) == request.causal &&
        v.config.getOrDefault(at::lse) == request.lse.has_value())
      candidates.push_back(v);
  bool f16Narrow = request.q.dtype() == DType::f16 && headDim == 64;
  int64_t fastestBlockN = f16Narrow ? 128 : 64;
  auto rank = [&](const KernelVariant &v) {
    int64_t blockM = v.config.getOrDefault(at::blockM);
    bool fastest = blockM == 128 &&
                   v.config.getOrDefault(at::blockN) == fastestBlockN &&
                   v.config.getOrDefault(at::threads) == 128;
    return std::pair{fastest ? 0 : 1, blockM == 128 ? 0 : 1};
  };
  sortByRank(candidates, rank);
  return candidates;
}

KernelChoice tile::rt::chooseAttention(
    const std::vector<KernelVariant> &library, const AttentionRequest &request,
    const std::string &deviceChip, const KernelInfoSource &infoOf) {
  std::vector<KernelVariant> candidates = attentionCandidates(library, request);
  if (candidates.empty()) {
    const std::vector<int64_t> &q = request.q.shape();
    return noCandidate(
        std::string("attention variant for ") + dtypeName(request.q.dtype()) +
            ", head dimension " +
            (q.size() == 4 ? std::to_string(q[3]) : std::string("?")) +
            (request.causal ? ", causal" : ", not causal") +
            (request.lse ? ", with" : ", without") + " the log-sum-exp",
        "attention");
  }
  return chooseWith(candidates, deviceChip, attentionArgs(request), infoOf);
}

ArgsOf tile::rt::attentionArgs(const AttentionRequest &request) {
  return [request](const KernelVariant &,
                   const KernelInfo &info) -> std::vector<Arg> {
    std::vector<std::pair<std::string, Arg>> named = {
        {"Q", request.q}, {"K", request.k}, {"V", request.v}, {"O", request.o}};
    if (request.lse)
      named.emplace_back("LSE", *request.lse);
    const std::vector<int64_t> &q = request.q.shape();
    float scale = request.scale.value_or(
        q.size() == 4 && q[3] > 0 ? 1.0f / std::sqrt(float(q[3])) : 1.0f);
    // Kernels compiled before the scale became a parameter have
    // 1/sqrt(head_dim) built in.
    if (info.findParam("scale"))
      named.emplace_back("scale", Arg::scalar(scale));
    else if (request.scale)
      throw Error("kernel '" + info.name +
                  "' has the scale 1/sqrt(head_dim) built in, but this call "
                  "asks for scale " +
                  std::to_string(*request.scale));
    return argsByName(info, named);
  };
}

std::vector<KernelVariant>
tile::rt::vectorAddCandidates(const std::vector<KernelVariant> &library,
                              const VectorAddRequest &request) {
  namespace va = tile::config::vector_add;
  return variantsOfType(library, va::generator, va::dtype, request.a.dtype());
}

KernelChoice tile::rt::chooseVectorAdd(
    const std::vector<KernelVariant> &library, const VectorAddRequest &request,
    const std::string &deviceChip, const KernelInfoSource &infoOf) {
  std::vector<KernelVariant> candidates = vectorAddCandidates(library, request);
  if (candidates.empty())
    return noCandidate(std::string("vector_add variant for ") +
                           dtypeName(request.a.dtype()),
                       "vector_add");
  return chooseWith(candidates, deviceChip, vectorAddArgs(request), infoOf);
}

ArgsOf tile::rt::vectorAddArgs(const VectorAddRequest &request) {
  return fixedArgs({request.a, request.b, request.c});
}
