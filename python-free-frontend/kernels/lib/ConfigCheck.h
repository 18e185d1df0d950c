//===- ConfigCheck.h - Checks of generator configurations -------*- C++ -*-===//
//
// The pieces every generator's `validate()` is made of: the limits of each
// field on its own, as its key declares them (tile/runtime/ConfigKeys.h),
// and the two resources a configuration can exhaust before anything is
// compiled (shared memory per block, registers per thread). Each check
// throws std::invalid_argument with the generator, the field, the value,
// the limit and why; internal to the generators (the limits are documented
// in docs/Frontend.md).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_FRONTEND_KERNELS_CONFIGCHECK_H
#define TILE_FRONTEND_KERNELS_CONFIGCHECK_H

#include "tile/Frontend/Kernels.h"

#include "llvm/Support/MathExtras.h"

#include <initializer_list>
#include <stdexcept>
#include <string>

namespace tile::fe {

/// `a * b * ...` of non-negative values, saturating instead of overflowing
/// (a configuration of absurd sizes compares as too large, not as small).
inline int64_t checkedProduct(std::initializer_list<int64_t> factors) {
  uint64_t product = 1;
  for (int64_t factor : factors)
    product =
        llvm::SaturatingMultiply(product, uint64_t(factor < 0 ? 0 : factor));
  return product > uint64_t(INT64_MAX) ? INT64_MAX : int64_t(product);
}

/// Registers per thread that `elements` values of `bytes` each take when
/// spread over `threads` threads (32-bit registers, rounded up).
inline int64_t registersPerThread(int64_t elements, int64_t bytes,
                                  int64_t threads) {
  int64_t total = checkedProduct({elements, bytes});
  return total / (4 * threads) + (total % (4 * threads) != 0);
}

inline int64_t bytesOf(const std::string &dtype) {
  return dtype == "f64" || dtype == "i64"   ? 8
         : dtype == "f32" || dtype == "i32" ? 4
                                            : 2;
}

/// The checks of one generator's configuration; messages start with the
/// generator's name.
class ConfigCheck {
public:
  explicit ConfigCheck(std::string generator)
      : generator(std::move(generator)) {}

  [[noreturn]] void fail(const std::string &message) const {
    throw std::invalid_argument(generator + ": " + message);
  }

  /// Every field of `c` against the limits of its key (ConfigKeys.h), in
  /// declaration order: the checks of single fields are the schema's, not
  /// written again here. Called first, since the resource counts divide
  /// by the thread count; validate() adds the checks across fields.
  template <typename Config> void fields(const Config &c) const {
    Config::forEachField(
        c, [&](const auto &key, const auto &value) { field(key, value); });
  }

  /// One field against its key's limits: "block_k must be at least 16 (the
  /// K of one m16n8k16 MMA), but got 0".
  void field(const config::IntKey &key, int64_t value) const {
    if (key.limits.allows(value))
      return;
    fail(std::string(key.name) + " must be " + limitText(key.limits) +
         (key.limits.why ? std::string(" (") + key.limits.why + ")" : "") +
         ", but got " + std::to_string(value));
  }
  void field(const config::StringKey &key, const std::string &value) const {
    if (!key.limits.allows(value.c_str()))
      fail(std::string(key.name) + " must be " + limitText(key.limits) +
           ", but got '" + value + "'");
  }
  void field(const config::BoolKey &, bool) const {}

  /// At most kMaxSharedMemoryPerBlock bytes; `what` names the tiles.
  void sharedMemory(int64_t bytes, const std::string &what) const {
    if (bytes > kMaxSharedMemoryPerBlock)
      fail("needs at least " + std::to_string(bytes / 1024) +
           " KiB of shared memory per block (" + what +
           "), but a block has at most " +
           std::to_string(kMaxSharedMemoryPerBlock / 1024) +
           " KiB on any supported chip (sm_90)");
  }

  /// At most kMaxRegistersPerThread registers for fragments that must be
  /// in registers at once; `what` names them.
  void registers(int64_t registers, const std::string &what) const {
    if (registers > kMaxRegistersPerThread)
      fail("needs at least " + std::to_string(registers) +
           " registers per thread (" + what + "), a thread has " +
           std::to_string(kMaxRegistersPerThread));
  }

private:
  std::string generator;
};

/// "128x64", for the messages.
inline std::string shapeText(int64_t rows, int64_t cols) {
  return std::to_string(rows) + "x" + std::to_string(cols);
}

} // namespace tile::fe

#endif // TILE_FRONTEND_KERNELS_CONFIGCHECK_H
