//===- ConfigCheck.h - Checks of generator configurations -------*- C++ -*-===//
//
// The pieces every generator's `validate()` is made of: ranges of single
// fields, the element types a generator takes, and the two resources a
// configuration can exhaust before anything is compiled (shared memory per
// block, registers per thread). Each check throws std::invalid_argument
// with the generator, the field, the value, the limit and why; internal to
// the generators (the limits are documented in docs/Frontend.md).
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

  /// `low <= value <= high`; `why` says where the limits come from.
  void range(const char *field, int64_t value, int64_t low, int64_t high,
             const char *why) const {
    if (value < low || value > high)
      fail(std::string(field) + " must be from " + std::to_string(low) +
           " to " + std::to_string(high) + " (" + why + "), but got " +
           std::to_string(value));
  }

  /// `value >= low`, for fields whose upper limit is a resource (shared
  /// memory, registers) checked afterwards.
  void atLeast(const char *field, int64_t value, int64_t low,
               const char *why) const {
    if (value < low)
      fail(std::string(field) + " must be at least " + std::to_string(low) +
           " (" + why + "), but got " + std::to_string(value));
  }

  void oneOf(const char *field, const std::string &value,
             std::initializer_list<const char *> allowed) const {
    std::string list;
    for (const char *name : allowed) {
      if (value == name)
        return;
      list += (list.empty() ? "" : ", ") + std::string(name);
    }
    fail(std::string(field) + " must be one of " + list + ", but got '" +
         value + "'");
  }

  /// The same checks of a field named by its key (ConfigKeys.h), so that
  /// messages name the field as index.json and tile-robustness-frontend do.
  void range(const config::IntKey &key, int64_t value, int64_t low,
             int64_t high, const char *why) const {
    range(key.name, value, low, high, why);
  }
  void atLeast(const config::IntKey &key, int64_t value, int64_t low,
               const char *why) const {
    atLeast(key.name, value, low, why);
  }
  void oneOf(const config::StringKey &key, const std::string &value,
             std::initializer_list<const char *> allowed) const {
    oneOf(key.name, value, allowed);
  }

  /// A block of 1 to 32 warps (the dialect's rule, checked first here
  /// because the register counts below divide by it).
  void threads(int64_t threads) const {
    if (threads < 32 || threads > 1024 || threads % 32 != 0)
      fail("threads must be a multiple of 32 from 32 to 1024 (1 to 32 "
           "warps per block), but got " +
           std::to_string(threads));
  }

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
