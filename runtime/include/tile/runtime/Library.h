//===- Library.h - The kernel library: calls on tensors ---------*- C++ -*-===//
//
// A folder of compiled kernels (`tile-kernels --out-dir=DIR`, or a
// `tile-tune` search) as a library of calls on device tensors:
//
//   Device device = Device::open();
//   KernelLibrary library(device, "build/kernels");
//   DeviceBuffer a(device, m * k * 2), b(device, k * n * 2),
//                c(device, m * n * 4);
//   library.gemm(Tensor::of(a, DType::f16, {m, k}),
//                Tensor::of(b, DType::f16, {k, n}),
//                Tensor::of(c, DType::f32, {m, n}));
//   library.synchronize();
//   std::cout << library.gemm(...).choice.explain();  // what ran, and why
//
// Each call picks a compiled variant for the tensors' types, layouts,
// shapes and the device (KernelChoice.h: sm_90a before portable kernels,
// a documented order among the rest), or the winner a tuning run stored
// for exactly this problem, device and set of kernels; with
// LibraryOptions::tuneOnFirstUse it times every variant that accepts the
// call the first time a problem is seen and stores the fastest. The
// variant's launch contract is checked before anything reaches the driver
// (shapes that disagree, broken divisibility promises, TMA alignment,
// outputs overlapping inputs); when no compiled variant suits, the Error
// lists every variant with its reason and says what would suit. Nothing
// is chosen silently: each call returns its CallReport.
//
// KernelCatalog is the half that needs no GPU: the index, the parsed
// manifests and the same choice for a device named by its chip.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_LIBRARY_H
#define TILE_RUNTIME_LIBRARY_H

#include "tile/runtime/KernelChoice.h"
#include "tile/runtime/KernelIndex.h"
#include "tile/runtime/Tensor.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace tile::rt {

class Device;
class Stream;

/// C = op(A) op(B) [+ epilogue]: A is M x K, B is K x N, C is M x N.
/// `transposeA` says that A is given as stored K x M (B: N x K), as BLAS's
/// op = T; a transposed view (Tensor::transposed(), PyTorch's `x.t()`)
/// needs no flag: the library reads its strides.
struct GemmOptions {
  bool transposeA = false, transposeB = false;
  /// "none", "bias_gelu", "bias_gelu_tanh", ... (the gemm generator's
  /// epilogues); those with a bias take `bias`, N values of C's type.
  std::string epilogue = "none";
  std::optional<Tensor> bias;
};

/// O = softmax(Q K^T * scale [+ causal mask]) V on [batch, heads, sequence,
/// head_dim] tensors; `lse` [batch, heads, sequence] f32 receives the
/// log-sum-exp of each query row's scaled scores.
struct AttentionOptions {
  bool causal = false;
  /// 1/sqrt(head_dim) when not given.
  std::optional<float> scale;
  std::optional<Tensor> lse;
};

/// One argument of a call to any generator's kernels (KernelLibrary::call):
/// a row-major tensor or a scalar (float, double, int32_t, int64_t), named
/// as the kernel's parameter ("X", "eps").
struct NamedArg {
  NamedArg(std::string name, const Tensor &tensor)
      : name(std::move(name)), arg(tensor.arg(this->name)), tensor(tensor) {}
  template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T>>>
  NamedArg(std::string name, T scalar)
      : name(std::move(name)), arg(Arg::scalar(scalar)) {}

  std::string name;
  Arg arg;
  /// Set for a tensor argument.
  std::optional<Tensor> tensor;
};

/// The library's variants and their kernel descriptions, read once; the
/// choice of a variant for a device named by its chip ("sm_90"). No GPU
/// needed. Safe to share between threads (nothing changes after
/// construction).
class KernelCatalog {
public:
  /// Reads DIR/index.json and every manifest it names. Throws Error when
  /// the index is missing or is not a kernel index; a manifest that cannot
  /// be read passes its variant over, with the reason, when it is a
  /// candidate.
  explicit KernelCatalog(std::string dir);

  const std::string &dir() const { return dir_; }
  const std::vector<KernelVariant> &variants() const { return variants_; }
  /// The kernel description of `variant`; throws Error saying why there
  /// is none.
  const KernelInfo &info(const KernelVariant &variant) const;
  /// info() as the choose* functions of KernelChoice.h take it.
  KernelInfoSource infoSource() const;

  /// The choice a KernelLibrary makes for these calls on a `chip` device
  /// (without a tuning cache). Throws Error for tensors of no layout the
  /// kernels read (GemmOptions says which).
  KernelChoice chooseGemm(const Tensor &a, const Tensor &b, const Tensor &c,
                          const GemmOptions &options,
                          const std::string &chip) const;
  KernelChoice chooseSoftmax(const Tensor &x, const Tensor &y,
                             const std::string &chip) const;
  KernelChoice chooseAttention(const Tensor &q, const Tensor &k,
                               const Tensor &v, const Tensor &o,
                               const AttentionOptions &options,
                               const std::string &chip) const;
  KernelChoice chooseVectorAdd(const Tensor &a, const Tensor &b,
                               const Tensor &c, const std::string &chip) const;
  /// Any generator's variants, in the library's order, with the arguments
  /// taken by parameter name (argsByName).
  KernelChoice choose(const std::string &generator,
                      const std::vector<NamedArg> &args,
                      const std::string &chip) const;

private:
  std::string dir_;
  std::vector<KernelVariant> variants_;
  /// Per manifest path: its description, or why it could not be read.
  std::map<std::string, std::pair<std::shared_ptr<ManifestInfo>, std::string>>
      manifests_;
};

/// How a call's variant was chosen.
enum class ChoiceSource {
  /// KernelChoice.h's order: the first variant that accepts the call.
  Heuristic,
  /// The winner a tuning run stored for this problem (tile-tune-run, or an
  /// earlier tuneOnFirstUse).
  TuneCache,
  /// Timed just now among every variant that accepts the call.
  Tuned,
};
const char *choiceSourceName(ChoiceSource source);

/// What a call ran and why.
struct CallReport {
  KernelChoice choice;
  ChoiceSource source = ChoiceSource::Heuristic;
  /// Tuned: each variant timed, with its median time in microseconds, in
  /// the order they were timed.
  std::vector<std::pair<std::string, double>> timings;
  /// choice.explain() with how it was chosen (and the timings).
  std::string explain() const;
};

struct LibraryOptions {
  /// The tuning cache (TuneCache.h) to look winners up in and store them
  /// in; empty: DIR/tune-cache.json.
  std::string tuneCache;
  /// Time every variant that accepts a call the first time its problem
  /// (types, layout, shapes, options) is seen without a cached winner, and
  /// store the fastest; the call's result comes from the winner. Each
  /// variant's outputs are first compared with those of the variant the
  /// library's order picks (within 1e-2 relative error): one that
  /// disagrees is passed over with the difference, never chosen. Kernels
  /// that read what they write are not tuned.
  bool tuneOnFirstUse = false;
  int tuneWarmup = 3;
  int tuneRuns = 20;
};

/// A KernelCatalog on a device: loads the variants it chooses (once),
/// launches them, and remembers each problem's choice. One thread at a
/// time.
class KernelLibrary {
public:
  KernelLibrary(const Device &device, const std::string &dir,
                LibraryOptions options = {});
  ~KernelLibrary();
  KernelLibrary(KernelLibrary &&) noexcept;
  KernelLibrary &operator=(KernelLibrary &&) noexcept;

  const KernelCatalog &catalog() const;
  const Device &device() const;

  /// Each call checks the chosen variant's contract and launches it on
  /// `stream` (the library's own when null: ordered with the runtime's
  /// synchronous copies); it returns without waiting for the GPU. The
  /// report stays valid while the library lives. Throws Error when no
  /// variant suits, listing each with its reason.
  const CallReport &gemm(const Tensor &a, const Tensor &b, const Tensor &c,
                         const GemmOptions &options = {},
                         Stream *stream = nullptr);
  const CallReport &softmax(const Tensor &x, const Tensor &y,
                            Stream *stream = nullptr);
  const CallReport &attention(const Tensor &q, const Tensor &k, const Tensor &v,
                              const Tensor &o,
                              const AttentionOptions &options = {},
                              Stream *stream = nullptr);
  const CallReport &vectorAdd(const Tensor &a, const Tensor &b, const Tensor &c,
                              Stream *stream = nullptr);
  /// A kernel of any generator in the library (your own, written into the
  /// folder with the frontend's KernelDirectory): its variants in the
  /// library's order, arguments by parameter name:
  ///   library.call("layernorm", {{"X", x}, {"W", w}, {"B", b}, {"Y", y},
  ///                              {"eps", 1e-5f}});
  const CallReport &call(const std::string &generator,
                         const std::vector<NamedArg> &args,
                         Stream *stream = nullptr);

  /// Waits for the library's own stream.
  void synchronize();

  struct Impl;

private:
  std::unique_ptr<Impl> impl_;
};

} // namespace tile::rt

#endif // TILE_RUNTIME_LIBRARY_H
