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

KernelChoice tile::rt::chooseVariant(
    const std::vector<KernelVariant> &candidates, const std::string &deviceChip,
    const std::function<std::vector<Arg>(const KernelVariant &)> &argsOf) {
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
      ManifestInfo manifest = loadManifestFile(variant.manifestPath);
      const KernelInfo *info = manifest.findKernel(variant.name);
      if (!info)
        throw Error(variant.manifestPath + " has no kernel '" + variant.name +
                    "'");
      std::vector<Arg> args = argsOf(variant);
      checkAndPack(*info, args);
      choice.chosen = variant;
      choice.args = std::move(args);
      return choice;
    } catch (const Error &error) {
      choice.passedOver.push_back({variant.name, error.what()});
    }
  }
  return choice;
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
  // C's rows; a malformed C is left for the contract check to name.
  const std::vector<int64_t> &shapeOfC = request.c.shape();
  bool fewRows = !shapeOfC.empty() && shapeOfC[0] <= 64;
  auto rank = [&](const KernelVariant &v) {
    bool splitK = v.config.getOrDefault(key::splitK) > 1;
    return std::pair{isArchSpecificFor(v.chip, deviceChip) ? 0 : 1,
                     splitK == fewRows ? 0 : 1};
  };
  std::stable_sort(candidates.begin(), candidates.end(),
                   [&](const KernelVariant &x, const KernelVariant &y) {
                     return rank(x) < rank(y);
                   });
  return candidates;
}

/// Throws unless the request's epilogue is one of the generator's and it
/// has a bias exactly when that epilogue takes one.
static void checkEpilogue(const GemmRequest &request) {
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
                                  const std::string &deviceChip) {
  checkEpilogue(request);
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
  return chooseVariant(candidates, deviceChip, [&](const KernelVariant &) {
    std::vector<Arg> args{request.a, request.b, request.c};
    if (request.bias)
      args.push_back(*request.bias);
    return args;
  });
}
