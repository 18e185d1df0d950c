//===- ConfigKeys.h - The keys of the generators' configurations -*- C++
//-*-===//
//
// The one description of every kernel generator's configuration: for each
// field its key in index.json's "config" objects, its type, the generator's
// default and the tile-kernels flag that sets it. Header-only and without
// dependencies, because both sides need it: the frontend's config structs
// (tile/Frontend/Kernels.h) take their defaults and JSON keys from here,
// and the programs that run on the GPU machine without the frontend (GPU
// tests, benchmarks, tile-profile, tile-tune-run) read a variant's
// configuration through these keys instead of spelling the strings:
//
//   namespace key = tile::config::gemm;
//   auto variants = loadKernelIndex(dir, key::generator);
//   int64_t bm = variant.config.get(key::blockM);
//   bool ta = variant.config.getOrDefault(key::transposeA);
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_CONFIGKEYS_H
#define TILE_RUNTIME_CONFIGKEYS_H

#include <cstdint>

namespace tile::config {

/// One field of a generator's configuration. `T` is int64_t, bool or
/// `const char *` (a string).
template <typename T> struct Key {
  /// The key in index.json ("block_m"); validation messages name it too.
  const char *name;
  /// The generator's default, also what a reader assumes when an older
  /// index lacks the key.
  T defaultValue;
  /// The tile-kernels option that sets it ("block-m"), or nullptr.
  const char *flag = nullptr;
};
using IntKey = Key<int64_t>;
using BoolKey = Key<bool>;
using StringKey = Key<const char *>;

/// vector_add: C = A + B.
namespace vector_add {
/// The generator's name in index.json ("generator") and tile-kernels.
inline constexpr const char *generator = "vector_add";
inline constexpr IntKey blockN{"block_n", 1024, "block-n"};
inline constexpr IntKey threads{"threads", 256, "num-threads"};
inline constexpr StringKey dtype{"dtype", "f32", "dtype"};
} // namespace vector_add

/// print_demo: device printing (no flags: tile-kernels builds its default).
namespace print_demo {
/// The generator's name in index.json ("generator") and tile-kernels.
inline constexpr const char *generator = "print_demo";
inline constexpr IntKey rows{"rows", 16};
inline constexpr IntKey cols{"cols", 8};
inline constexpr IntKey threads{"threads", 64};
} // namespace print_demo

/// gemm: C = A x B on tensor cores.
namespace gemm {
/// The generator's name in index.json ("generator") and tile-kernels.
inline constexpr const char *generator = "gemm";
inline constexpr IntKey blockM{"block_m", 128, "block-m"};
inline constexpr IntKey blockN{"block_n", 128, "block-n"};
inline constexpr IntKey blockK{"block_k", 32, "block-k"};
inline constexpr IntKey threads{"threads", 128, "num-threads"};
inline constexpr StringKey outDtype{"out_dtype", "f32", "out-dtype"};
inline constexpr IntKey stages{"stages", 3, "stages"};
inline constexpr IntKey rasterPanel{"raster_panel", 0, "raster-panel"};
inline constexpr BoolKey transposeB{"transpose_b", false, "transpose-b"};
inline constexpr StringKey inDtype{"in_dtype", "f16", "in-dtype"};
inline constexpr BoolKey transposeA{"transpose_a", false, "transpose-a"};
inline constexpr StringKey epilogue{"epilogue", "none", "epilogue"};
inline constexpr IntKey divisibility{"divisibility", 1, "divisibility"};
inline constexpr BoolKey stagedEpilogue{"staged_epilogue", false,
                                        "staged-epilogue"};
} // namespace gemm

/// bias_gelu: C = gelu(C + bias) in place.
namespace bias_gelu {
/// The generator's name in index.json ("generator") and tile-kernels.
inline constexpr const char *generator = "bias_gelu";
inline constexpr IntKey blockM{"block_m", 4, "block-m"};
inline constexpr IntKey blockN{"block_n", 1024, "block-n"};
inline constexpr IntKey threads{"threads", 256, "num-threads"};
inline constexpr StringKey dtype{"dtype", "f16", "dtype"};
inline constexpr BoolKey tanh{"tanh", false, "tanh"};
} // namespace bias_gelu

/// gemm_softmax: Y = softmax(A x B^T) [x V].
namespace gemm_softmax {
/// The generator's name in index.json ("generator") and tile-kernels.
inline constexpr const char *generator = "gemm_softmax";
inline constexpr IntKey blockM{"block_m", 64, "block-m"};
inline constexpr IntKey blockN{"block_n", 64, "block-n"};
inline constexpr IntKey blockK{"block_k", 32, "block-k"};
inline constexpr IntKey threads{"threads", 128, "num-threads"};
inline constexpr IntKey stages{"stages", 2, "stages"};
inline constexpr StringKey inDtype{"in_dtype", "f16", "in-dtype"};
inline constexpr IntKey headDim{"head_dim", 0, "head-dim"};
} // namespace gemm_softmax

/// attention: FlashAttention forward.
namespace attention {
/// The generator's name in index.json ("generator") and tile-kernels.
inline constexpr const char *generator = "attention";
inline constexpr IntKey blockM{"block_m", 64, "block-m"};
inline constexpr IntKey blockN{"block_n", 64, "block-n"};
inline constexpr IntKey headDim{"head_dim", 64, "head-dim"};
inline constexpr IntKey threads{"threads", 128, "num-threads"};
inline constexpr IntKey stages{"stages", 2, "stages"};
inline constexpr StringKey dtype{"dtype", "f16", "dtype"};
inline constexpr BoolKey causal{"causal", false, "causal"};
inline constexpr BoolKey lse{"lse", false, "lse"};
} // namespace attention

/// softmax: Y = softmax(X) along rows.
namespace softmax {
/// The generator's name in index.json ("generator") and tile-kernels.
inline constexpr const char *generator = "softmax";
inline constexpr IntKey rows{"rows", 1, "block-m"};
inline constexpr IntKey blockN{"block_n", 4096, "block-n"};
inline constexpr IntKey threads{"threads", 256, "num-threads"};
inline constexpr StringKey dtype{"dtype", "f16", "dtype"};
inline constexpr BoolKey online{"online", false, "online"};
inline constexpr IntKey stages{"stages", 1, "stages"};
} // namespace softmax

} // namespace tile::config

#endif // TILE_RUNTIME_CONFIGKEYS_H
