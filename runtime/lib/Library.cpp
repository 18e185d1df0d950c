//===- Library.cpp - The kernel library: calls on tensors -----------------===//
//
// KernelCatalog (the index and its manifests, the choice for a chip) and
// KernelLibrary (the same on a device: tuning cache, tuning on first use,
// loaded modules, launches). Each call becomes a Problem: its candidates in
// KernelChoice.h's order, its arguments per variant, and the parts of the
// tuning cache's key; the choice is remembered per problem, and each
// launch is checked against the chosen variant's contract again.
//
//===----------------------------------------------------------------------===//

#include "tile/runtime/Library.h"
#include "tile/runtime/Error.h"
#include "tile/runtime/Half.h"
#include "tile/runtime/RelativeError.h"
#include "tile/runtime/Runtime.h"
#include "tile/runtime/TuneCache.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <ctime>
#include <fstream>
#include <functional>
#include <iterator>
#include <sstream>

using namespace tile::rt;

//===----------------------------------------------------------------------===//
// Problems
//===----------------------------------------------------------------------===//

namespace {

/// One call as the choice and the tuning cache see it.
struct Problem {
  std::string generator;
  std::vector<KernelVariant> candidates;
  ArgsOf argsOf;
  /// What was asked, when there are no candidates at all.
  std::string noCandidates;
  /// The tuning cache's key parts and what tells problems apart.
  std::string shape, dtypes, layout = "nn", options;
  /// The tensors' alignment to 16 bytes (contracts check it), one bit each.
  std::string alignment;
  std::string signature() const {
    return generator + "|" + shape + "|" + dtypes + "|" + layout + "|" +
           options + "|" + alignment;
  }
};

std::string join(const std::vector<int64_t> &values, const char *separator) {
  std::string text;
  for (size_t i = 0; i < values.size(); ++i)
    text += (i ? separator : "") + std::to_string(values[i]);
  return text;
}

std::string alignmentBits(std::initializer_list<const Tensor *> tensors) {
  std::string bits;
  for (const Tensor *tensor : tensors)
    bits += tensor ? (tensor->data() % 16 == 0 ? '1' : '0') : '-';
  return bits;
}

/// A 2-D GEMM operand as stored, or an Error saying what it is.
Tensor::Stored storedOperand(const Tensor &tensor, const char *what) {
  std::optional<Tensor::Stored> stored = tensor.asStored();
  if (!stored)
    throw Error(std::string("gemm: ") + what +
                " must be a row-major matrix or the transposed view of one, "
                "but it is " +
                tensor.describe());
  return *stored;
}

/// What every problem has: its candidates and their arguments, what was
/// asked when there are no candidates (in `choose`'s own words: it runs
/// only then), the types "in->out" and the tensors' alignment.
Problem problemOf(const char *generator, std::vector<KernelVariant> candidates,
                  ArgsOf argsOf, const std::function<KernelChoice()> &choose,
                  DType in, DType out,
                  std::initializer_list<const Tensor *> tensors) {
  Problem problem;
  problem.generator = generator;
  problem.candidates = std::move(candidates);
  problem.argsOf = std::move(argsOf);
  if (problem.candidates.empty())
    problem.noCandidates = choose().noCandidates;
  problem.dtypes = std::string(dtypeName(in)) + "->" + dtypeName(out);
  problem.alignment = alignmentBits(tensors);
  return problem;
}

Problem gemmProblem(const std::vector<KernelVariant> &library, const Tensor &a,
                    const Tensor &b, const Tensor &c,
                    const GemmOptions &options, const std::string &chip,
                    const KernelInfoSource &infoOf) {
  Tensor::Stored storedA = storedOperand(a, "A");
  Tensor::Stored storedB = storedOperand(b, "B");
  GemmRequest request{storedA.stored.arg("A"),
                      storedB.stored.arg("B"),
                      c.arg("C"),
                      options.transposeA != storedA.transposed,
                      options.transposeB != storedB.transposed,
                      options.epilogue,
                      options.bias
                          ? std::optional<Arg>(options.bias->arg("the bias"))
                          : std::nullopt};

  checkGemmRequest(request);
  const Tensor *bias = options.bias ? &*options.bias : nullptr;
  Problem problem =
      problemOf(tile::config::gemm::generator,
                gemmCandidates(library, request, chip), gemmArgs(request),
                [&] { return chooseGemm(library, request, chip, infoOf); },
                a.dtype(), c.dtype(), {&a, &b, &c, bias});
  // M x N x K, as tile-tune-run keys its searches.
  const std::vector<int64_t> &shapeOfA = storedA.stored.shape();
  int64_t k = shapeOfA.size() == 2 ? shapeOfA[request.transposeA ? 0 : 1] : 0;
  problem.shape = join(c.shape(), "x") + "x" + std::to_string(k);
  problem.layout = std::string(request.transposeA ? "t" : "n") +
                   (request.transposeB ? "t" : "n");
  problem.options = "epilogue=" + options.epilogue;
  return problem;
}

Problem softmaxProblem(const std::vector<KernelVariant> &library,
                       const Tensor &x, const Tensor &y,
                       const std::string &chip,
                       const KernelInfoSource &infoOf) {
  SoftmaxRequest request{x.arg("X"), y.arg("Y")};
  Problem problem =
      problemOf(tile::config::softmax::generator,
                softmaxCandidates(library, request), softmaxArgs(request),
                [&] { return chooseSoftmax(library, request, chip, infoOf); },
                x.dtype(), y.dtype(), {&x, &y});
  problem.shape = join(x.shape(), "x");
  return problem;
}

Problem attentionProblem(const std::vector<KernelVariant> &library,
                         const Tensor &q, const Tensor &k, const Tensor &v,
                         const Tensor &o, const AttentionOptions &options,
                         const std::string &chip,
                         const KernelInfoSource &infoOf) {
  AttentionRequest request{
      q.arg("Q"),
      k.arg("K"),
      v.arg("V"),
      o.arg("O"),
      options.causal,
      options.scale,
      options.lse ? std::optional<Arg>(options.lse->arg("LSE")) : std::nullopt};
  const Tensor *lse = options.lse ? &*options.lse : nullptr;
  Problem problem =
      problemOf(tile::config::attention::generator,
                attentionCandidates(library, request), attentionArgs(request),
                [&] { return chooseAttention(library, request, chip, infoOf); },
                q.dtype(), o.dtype(), {&q, &k, &v, &o, lse});
  // Q's and K's shapes: K/V may have other sequence lengths and heads.
  problem.shape = join(q.shape(), "x") + "|" + join(k.shape(), "x");
  std::ostringstream scale;
  if (options.scale)
    scale << *options.scale;
  problem.options = std::string("causal=") + (options.causal ? "1" : "0") +
                    ",lse=" + (options.lse ? "1" : "0") +
                    (options.scale ? ",scale=" + scale.str() : "");
  return problem;
}

Problem vectorAddProblem(const std::vector<KernelVariant> &library,
                         const Tensor &a, const Tensor &b, const Tensor &c,
                         const std::string &chip,
                         const KernelInfoSource &infoOf) {
  VectorAddRequest request{a.arg("A"), b.arg("B"), c.arg("C")};
  Problem problem =
      problemOf(tile::config::vector_add::generator,
                vectorAddCandidates(library, request), vectorAddArgs(request),
                [&] { return chooseVectorAdd(library, request, chip, infoOf); },
                a.dtype(), c.dtype(), {&a, &b, &c});
  problem.shape = join(a.shape(), "x");
  return problem;
}

Problem genericProblem(const std::vector<KernelVariant> &library,
                       const std::string &generator,
                       const std::vector<NamedArg> &args) {
  Problem problem;
  problem.generator = generator;
  for (const KernelVariant &v : library)
    if (v.generator == generator)
      problem.candidates.push_back(v);
  if (problem.candidates.empty())
    problem.noCandidates = "no " + generator +
                           " variant in the library (a generator of that "
                           "name compiles them into its folder)";
  std::vector<std::pair<std::string, Arg>> named;
  for (const NamedArg &a : args) {
    named.emplace_back(a.name, a.arg);
    std::string separator = problem.shape.empty() ? "" : ",";
    if (a.tensor) {
      problem.shape += separator + a.name + "=" + join(a.tensor->shape(), "x");
      problem.dtypes += separator + dtypeName(a.tensor->dtype());
      problem.alignment += a.tensor->data() % 16 == 0 ? '1' : '0';
    } else {
      problem.shape += separator + a.name;
      problem.dtypes += separator + dtypeName(a.arg.dtype());
    }
  }
  problem.argsOf = [named](const KernelVariant &, const KernelInfo &info) {
    return argsByName(info, named);
  };
  return problem;
}

/// The choice among the problem's candidates, `first` (a cached winner)
/// tried before the others.
KernelChoice chooseFor(const Problem &problem, const std::string &chip,
                       const KernelInfoSource &infoOf,
                       const std::string &first = "") {
  if (problem.candidates.empty()) {
    KernelChoice none;
    none.noCandidates = problem.noCandidates;
    return none;
  }
  std::vector<KernelVariant> candidates = problem.candidates;
  std::stable_partition(candidates.begin(), candidates.end(),
                        [&](const KernelVariant &v) {
                          return !first.empty() && v.name == first;
                        });
  return chooseVariant(candidates, chip, problem.argsOf, infoOf);
}

} // namespace

//===----------------------------------------------------------------------===//
// KernelCatalog
//===----------------------------------------------------------------------===//

KernelCatalog::KernelCatalog(std::string dir) : dir_(std::move(dir)) {
  std::string error;
  std::optional<std::vector<KernelVariant>> found =
      loadKernelIndex(dir_, "", &error);
  if (!found)
    throw Error("kernel library " + dir_ + ": " + error +
                (error.rfind("no ", 0) == 0
                     ? " (tile-kernels --out-dir=" + dir_ + " compiles one)"
                     : ""));
  variants_ = std::move(*found);
  for (const KernelVariant &variant : variants_) {
    if (manifests_.count(variant.manifestPath))
      continue;
    try {
      manifests_[variant.manifestPath] = {
          std::make_shared<ManifestInfo>(
              loadManifestFile(variant.manifestPath)),
          ""};
    } catch (const Error &e) {
      manifests_[variant.manifestPath] = {nullptr, e.what()};
    }
  }
}

const KernelInfo &KernelCatalog::info(const KernelVariant &variant) const {
  auto found = manifests_.find(variant.manifestPath);
  if (found == manifests_.end())
    throw Error("variant '" + variant.name + "' is not in the library " + dir_);
  if (!found->second.first)
    throw Error(found->second.second);
  const KernelInfo *info = found->second.first->findKernel(variant.name);
  if (!info)
    throw Error(variant.manifestPath + " has no kernel '" + variant.name + "'");
  return *info;
}

KernelInfoSource KernelCatalog::infoSource() const {
  return [this](const KernelVariant &variant) -> const KernelInfo & {
    return info(variant);
  };
}

KernelChoice KernelCatalog::chooseGemm(const Tensor &a, const Tensor &b,
                                       const Tensor &c,
                                       const GemmOptions &options,
                                       const std::string &chip) const {
  return chooseFor(gemmProblem(variants_, a, b, c, options, chip, infoSource()),
                   chip, infoSource());
}

KernelChoice KernelCatalog::chooseSoftmax(const Tensor &x, const Tensor &y,
                                          const std::string &chip) const {
  return chooseFor(softmaxProblem(variants_, x, y, chip, infoSource()), chip,
                   infoSource());
}

KernelChoice KernelCatalog::chooseAttention(const Tensor &q, const Tensor &k,
                                            const Tensor &v, const Tensor &o,
                                            const AttentionOptions &options,
                                            const std::string &chip) const {
  return chooseFor(
      attentionProblem(variants_, q, k, v, o, options, chip, infoSource()),
      chip, infoSource());
}

KernelChoice KernelCatalog::chooseVectorAdd(const Tensor &a, const Tensor &b,
                                            const Tensor &c,
                                            const std::string &chip) const {
  return chooseFor(vectorAddProblem(variants_, a, b, c, chip, infoSource()),
                   chip, infoSource());
}

KernelChoice KernelCatalog::choose(const std::string &generator,
                                   const std::vector<NamedArg> &args,
                                   const std::string &chip) const {
  return chooseFor(genericProblem(variants_, generator, args), chip,
                   infoSource());
}

//===----------------------------------------------------------------------===//
// Reports
//===----------------------------------------------------------------------===//

const char *tile::rt::choiceSourceName(ChoiceSource source) {
  switch (source) {
  case ChoiceSource::Heuristic:
    return "the library's order";
  case ChoiceSource::TuneCache:
    return "the tuning cache";
  case ChoiceSource::Tuned:
    return "tuning just now";
  }
  return "?";
}

std::string CallReport::explain() const {
  std::string text = choice.explain();
  if (choice.chosen)
    text += "  chosen by " + std::string(choiceSourceName(source)) + "\n";
  for (const auto &[name, us] : timings) {
    std::ostringstream line;
    line << "  timed " << name << ": " << us << " us\n";
    text += line.str();
  }
  return text;
}

//===----------------------------------------------------------------------===//
// KernelLibrary
//===----------------------------------------------------------------------===//

struct KernelLibrary::Impl {
  Impl(const Device &device, const std::string &dir, LibraryOptions options)
      : device(device), catalog(dir), options(std::move(options)),
        stream(device),
        cache(this->options.tuneCache.empty() ? dir + "/tune-cache.json"
                                              : this->options.tuneCache) {}

  Device device;
  KernelCatalog catalog;
  LibraryOptions options;
  Stream stream;
  TuneCache cache;
  /// Loaded modules by cubin path.
  std::map<std::string, Module> modules;
  /// Each problem's report by its signature.
  std::map<std::string, CallReport> reports;
  /// The identity of each candidate set's cubins (the cache key's
  /// toolchain), by the candidates' names.
  std::map<std::string, std::string> identities;

  Kernel kernelOf(const KernelVariant &variant) {
    auto found = modules.find(variant.cubinPath);
    if (found == modules.end())
      found = modules
                  .emplace(variant.cubinPath,
                           Module::load(device, variant.cubinPath,
                                        variant.manifestPath))
                  .first;
    return found->second.kernel(variant.name);
  }

  /// "library <hash>": FNV-1a over the candidates' names and cubins, so
  /// that a winner is not taken from a cache written for other kernels.
  std::string identity(const std::vector<KernelVariant> &candidates) {
    std::string names;
    for (const KernelVariant &v : candidates)
      names += v.name + ";";
    auto found = identities.find(names);
    if (found != identities.end())
      return found->second;
    uint64_t hash = 1469598103934665603ull;
    auto mix = [&](const std::string &bytes) {
      for (unsigned char byte : bytes) {
        hash ^= byte;
        hash *= 1099511628211ull;
      }
    };
    for (const KernelVariant &v : candidates) {
      mix(v.name);
      std::ifstream file(v.cubinPath, std::ios::binary);
      mix(std::string(std::istreambuf_iterator<char>(file), {}));
    }
    std::ostringstream text;
    text << "library " << std::hex << hash;
    return identities[names] = text.str();
  }

  TuneKey keyOf(const Problem &problem) {
    ComputeCapability cc = device.computeCapability();
    return {device.name(),
            std::to_string(cc.major) + "." + std::to_string(cc.minor),
            problem.generator,
            problem.shape,
            problem.dtypes,
            identity(problem.candidates),
            problem.layout,
            problem.options};
  }

  /// The values of the buffers `info` writes among `args`, as doubles (f16,
  /// bf16, f32 outputs; others are not compared).
  std::vector<std::vector<double>> outputsOf(const KernelInfo &info,
                                             const std::vector<Arg> &args) {
    std::vector<std::vector<double>> outputs;
    std::vector<const ParamInfo *> params = info.userParams();
    for (size_t i = 0; i < params.size() && i < args.size(); ++i) {
      if (params[i]->kind != ParamKind::Buffer || !isWritten(params[i]->access))
        continue;
      const Arg &arg = args[i];
      int64_t count = 1;
      for (int64_t size : arg.shape())
        count *= size;
      std::vector<double> values(count);
      if (arg.dtype() == DType::f32) {
        std::vector<float> raw(count);
        copyToHost(device, arg.devicePtr(), raw.data(), count * 4);
        std::copy(raw.begin(), raw.end(), values.begin());
      } else if (arg.dtype() == DType::f16 || arg.dtype() == DType::bf16) {
        std::vector<uint16_t> raw(count);
        copyToHost(device, arg.devicePtr(), raw.data(), count * 2);
        for (int64_t e = 0; e < count; ++e)
          values[e] = lowToFloat(raw[e], arg.dtype() == DType::bf16);
      } else {
        values.clear();
      }
      outputs.push_back(std::move(values));
    }
    return outputs;
  }

  /// Why outputs `got` disagree with `reference` (relative error above
  /// 1e-2, or a value that is not finite where the reference's is), or "".
  static std::string
  disagreement(const std::vector<std::vector<double>> &got,
               const std::vector<std::vector<double>> &reference) {
    for (size_t o = 0; o < reference.size() && o < got.size(); ++o) {
      RelativeError error;
      for (size_t e = 0; e < reference[o].size(); ++e) {
        if (std::isfinite(reference[o][e]) && !std::isfinite(got[o][e]))
          return "output " + std::to_string(o) + " has a non-finite value at " +
                 std::to_string(e) + " where the reference has " +
                 std::to_string(reference[o][e]);
        if (std::isfinite(reference[o][e]))
          error.add(got[o][e], reference[o][e]);
      }
      if (error.norm > 0 && error.value() > 1e-2) {
        std::ostringstream text;
        text << "output " << o << " differs from the reference by "
             << error.value() << " (relative)";
        return text.str();
      }
    }
    return "";
  }

  /// Runs the heuristic choice once as the reference, then every other
  /// candidate that accepts the call and agrees with it (within 1e-2
  /// relative error), timing each; returns the report of the fastest (its
  /// choice lists the refused and the disagreeing ones). Problems whose
  /// kernels read what they write (readwrite buffers) are not tuned: the
  /// runs would change their inputs.
  CallReport tune(const Problem &problem, Stream &on) {
    std::string chip = device.chip();
    KernelChoice base = chooseFor(problem, chip, catalog.infoSource());
    CallReport report;
    report.choice = base;
    if (!base.chosen)
      return report;
    for (const KernelVariant &v : problem.candidates) {
      try {
        for (const ParamInfo &param : catalog.info(v).params)
          if (param.kind == ParamKind::Buffer &&
              param.access == Access::ReadWrite)
            return report; // the heuristic's choice, untuned
      } catch (const Error &) {
        // Passed over below with its reason.
      }
    }
    report.source = ChoiceSource::Tuned;
    Kernel baseKernel = kernelOf(*base.chosen);
    baseKernel.launch(on, base.args);
    on.synchronize();
    std::vector<std::vector<double>> reference =
        outputsOf(catalog.info(*base.chosen), base.args);
    report.choice.passedOver.clear();
    report.choice.chosen.reset();
    double best = 0;
    for (const KernelVariant &variant : problem.candidates) {
      KernelChoice one =
          chooseVariant({variant}, chip, problem.argsOf, catalog.infoSource());
      if (!one.chosen) {
        report.choice.passedOver.push_back(one.passedOver.front());
        continue;
      }
      Kernel kernel = kernelOf(variant);
      if (variant.name != base.chosen->name) {
        kernel.launch(on, one.args);
        on.synchronize();
        std::string why =
            disagreement(outputsOf(catalog.info(variant), one.args), reference);
        if (!why.empty()) {
          report.choice.passedOver.push_back(
              {variant.name, why + " (" + base.chosen->name + ")"});
          continue;
        }
      }
      TimingResult timing = timeIt(
          on, [&] { kernel.launch(on, one.args); }, options.tuneWarmup,
          options.tuneRuns);
      double us = timing.medianMs * 1000;
      report.timings.emplace_back(variant.name, us);
      if (!report.choice.chosen || us < best) {
        best = us;
        report.choice.chosen = variant;
        report.choice.args = one.args;
      }
    }
    std::time_t now = std::time(nullptr);
    char date[32];
    std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    cache.store({keyOf(problem), report.choice.chosen->name,
                 report.choice.chosen->config, best, date});
    return report;
  }

  const CallReport &run(const Problem &problem, Stream *stream) {
    Stream &on = stream ? *stream : this->stream;
    auto found = reports.find(problem.signature());
    if (found == reports.end()) {
      CallReport report;
      std::optional<TuneResult> cached;
      // (An empty cache needs no key: its hash reads the candidates' cubins.)
      if (!problem.candidates.empty() && cache.size() > 0)
        cached = cache.lookup(keyOf(problem));
      if (cached) {
        report.choice = chooseFor(problem, device.chip(), catalog.infoSource(),
                                  cached->winner);
        report.source =
            report.choice.chosen && report.choice.chosen->name == cached->winner
                ? ChoiceSource::TuneCache
                : ChoiceSource::Heuristic;
      } else if (options.tuneOnFirstUse && !problem.candidates.empty()) {
        report = tune(problem, on);
      } else {
        report.choice = chooseFor(problem, device.chip(), catalog.infoSource());
      }
      if (!report.choice.chosen)
        throw Error(problem.generator + ": " + report.choice.explain());
      found = reports.emplace(problem.signature(), std::move(report)).first;
    }
    const KernelVariant &chosen = *found->second.choice.chosen;
    // The arguments of this call (the report keeps the first call's).
    std::vector<Arg> args = problem.argsOf(chosen, catalog.info(chosen));
    kernelOf(chosen).launch(on, args);
    return found->second;
  }
};

KernelLibrary::KernelLibrary(const Device &device, const std::string &dir,
                             LibraryOptions options)
    : impl_(std::make_unique<Impl>(device, dir, std::move(options))) {}
KernelLibrary::~KernelLibrary() = default;
KernelLibrary::KernelLibrary(KernelLibrary &&) noexcept = default;
KernelLibrary &KernelLibrary::operator=(KernelLibrary &&) noexcept = default;

const KernelCatalog &KernelLibrary::catalog() const { return impl_->catalog; }
const Device &KernelLibrary::device() const { return impl_->device; }
void KernelLibrary::synchronize() { impl_->stream.synchronize(); }

const CallReport &KernelLibrary::gemm(const Tensor &a, const Tensor &b,
                                      const Tensor &c,
                                      const GemmOptions &options,
                                      Stream *stream) {
  const KernelCatalog &catalog = impl_->catalog;
  return impl_->run(gemmProblem(catalog.variants(), a, b, c, options,
                                impl_->device.chip(), catalog.infoSource()),
                    stream);
}

const CallReport &KernelLibrary::softmax(const Tensor &x, const Tensor &y,
                                         Stream *stream) {
  const KernelCatalog &catalog = impl_->catalog;
  return impl_->run(softmaxProblem(catalog.variants(), x, y,
                                   impl_->device.chip(), catalog.infoSource()),
                    stream);
}

const CallReport &KernelLibrary::attention(const Tensor &q, const Tensor &k,
                                           const Tensor &v, const Tensor &o,
                                           const AttentionOptions &options,
                                           Stream *stream) {
  const KernelCatalog &catalog = impl_->catalog;
  return impl_->run(attentionProblem(catalog.variants(), q, k, v, o, options,
                                     impl_->device.chip(),
                                     catalog.infoSource()),
                    stream);
}

const CallReport &KernelLibrary::vectorAdd(const Tensor &a, const Tensor &b,
                                           const Tensor &c, Stream *stream) {
  const KernelCatalog &catalog = impl_->catalog;
  return impl_->run(vectorAddProblem(catalog.variants(), a, b, c,
                                     impl_->device.chip(),
                                     catalog.infoSource()),
                    stream);
}

const CallReport &KernelLibrary::call(const std::string &generator,
                                      const std::vector<NamedArg> &args,
                                      Stream *stream) {
  return impl_->run(genericProblem(impl_->catalog.variants(), generator, args),
                    stream);
}
