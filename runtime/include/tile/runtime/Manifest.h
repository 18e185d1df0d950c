//===- Manifest.h - Kernel manifests of compiled tile modules ---*- C++ -*-===//
//
// The kernel manifest is the JSON file written next to each binary by
// `tile-translate --emit=manifest`. For every kernel it gives the launch
// configuration (block size, grid as a function of the argument shapes,
// dynamic shared memory) and the exact list of kernel parameters:
//
//   buffer  one device pointer, seen by the user as a typed, shaped tensor;
//   dim     one int64 holding the size of one dimension of a buffer, filled in
//           by the runtime from the buffer's shape (hidden from the user);
//   scalar  one f32, f64, i32 or i64 value.
//
// This header only describes kernels and targets; nothing here needs a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_MANIFEST_H
#define TILE_RUNTIME_MANIFEST_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tile::rt {

//===----------------------------------------------------------------------===//
// Element types
//===----------------------------------------------------------------------===//

enum class DType { f16, bf16, f32, f64, i8, i16, i32, i64 };

/// "f16", "bf16", "f32", ... (the spelling used in manifests).
const char *dtypeName(DType type);
/// The inverse of dtypeName; std::nullopt for an unknown name.
std::optional<DType> parseDType(std::string_view name);
/// Size of one element in bytes.
std::size_t dtypeSize(DType type);

//===----------------------------------------------------------------------===//
// Kernel descriptions
//===----------------------------------------------------------------------===//

/// A launch extent in x, y, z. A grid extent of 0 means "nothing to launch".
struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
};

enum class ParamKind { Buffer, Dim, Scalar };

/// One kernel parameter, in the order of the binary's kernel signature.
struct ParamInfo {
  std::string name;
  ParamKind kind = ParamKind::Buffer;
  /// Buffer: element type. Scalar: value type (f32, f64, i32, i64). Dim: i64.
  DType dtype = DType::f32;
  /// Buffer only: static sizes, -1 for a dynamic dimension.
  std::vector<int64_t> shape;
  /// Dim only: the buffer parameter and the dimension whose size this is.
  std::string buffer;
  int dim = 0;
  /// Buffer only: what each size must be a multiple of (the kernel was
  /// compiled with `divisible`); empty when nothing is required.
  std::vector<int64_t> divisibility;
};

/// One grid extent: a constant, or ceil(size of `dim` of buffer `param` /
/// `divisor`).
struct GridExtent {
  enum class Kind { Const, CeilDiv };
  Kind kind = Kind::Const;
  int64_t value = 1; // Const
  std::string param; // CeilDiv
  int dim = 0;       // CeilDiv
  int64_t divisor = 1;
};

struct KernelInfo {
  std::string name;
  Dim3 block;
  /// 1 to 3 extents (x, y, z); missing ones are 1.
  std::vector<GridExtent> grid;
  unsigned dynamicSharedMemory = 0;
  /// All parameters of the binary kernel, in order.
  std::vector<ParamInfo> params;

  /// The buffer and scalar parameters: what a caller passes, in order.
  std::vector<const ParamInfo *> userParams() const;
  /// The parameter called `name`, or nullptr.
  const ParamInfo *findParam(std::string_view name) const;
  /// The grid for buffer arguments of the given shapes, one shape per buffer
  /// parameter in manifest order. Throws Error if the shapes do not fit or the
  /// grid exceeds CUDA's limits.
  Dim3 gridFor(const std::vector<std::vector<int64_t>> &bufferShapes) const;
};

struct TargetInfo {
  /// "sm_90", "sm_90a", ...
  std::string chip;
  /// PTX features, for example "+ptx80"; may be empty.
  std::string features;
};

struct ManifestInfo {
  int version = 1;
  TargetInfo target;
  std::vector<KernelInfo> kernels;

  /// The kernel called `name`, or nullptr.
  const KernelInfo *findKernel(std::string_view name) const;
  std::vector<std::string> kernelNames() const;
};

//===----------------------------------------------------------------------===//
// Targets
//===----------------------------------------------------------------------===//

struct ComputeCapability {
  int major = 0;
  int minor = 0;
};

/// The kinds of binary image a module can be loaded from.
enum class ImageKind { Cubin, Fatbin, Ptx };

/// Cubin (ELF magic), fatbin (fatbinary magic) or, otherwise, PTX text.
ImageKind detectImageKind(const void *data, std::size_t size);

/// The capability named by a chip ("sm_90" -> 9.0, "sm_100a" -> 10.0), or
/// std::nullopt if `chip` is not of the form sm_<major><minor>[a|f].
std::optional<ComputeCapability> parseChip(std::string_view chip);

/// Whether an image of `kind` compiled for `chip` can run on a device of
/// capability `device`: a cubin needs the same major and at least the chip's
/// minor; PTX and fatbins (which may carry PTX) at least the chip's
/// capability; an "a" chip (sm_90a) exactly its capability.
bool isChipCompatible(std::string_view chip, ComputeCapability device,
                      ImageKind kind);

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

/// Parses and validates a manifest. Throws Error naming the offending kernel,
/// parameter and field on malformed input. `source` prefixes the messages.
ManifestInfo parseManifest(const std::string &jsonText,
                           const std::string &source = "manifest");
/// Reads and parses a manifest file.
ManifestInfo loadManifestFile(const std::string &path);

} // namespace tile::rt

#endif // TILE_RUNTIME_MANIFEST_H
