//===- ConfigCheck.cpp - The limits of configuration fields as text -------===//
//
// How a key's limits (tile/runtime/ConfigKeys.h) read in validation
// messages and in tile-kernels --help, written once for both.
//
//===----------------------------------------------------------------------===//

#include "tile/Frontend/Kernels.h"

namespace tile::fe {

std::string limitText(const config::IntLimits &limits) {
  bool low = limits.min != INT64_MIN, high = limits.max != INT64_MAX;
  std::string bounds = low && high ? "from " + std::to_string(limits.min) +
                                         " to " + std::to_string(limits.max)
                       : low  ? "at least " + std::to_string(limits.min)
                       : high ? "at most " + std::to_string(limits.max)
                              : "";
  if (limits.multipleOf == 1)
    return bounds;
  return "a multiple of " + std::to_string(limits.multipleOf) +
         (bounds.empty() ? "" : " " + bounds);
}

std::string limitText(const config::StringLimits &limits) {
  std::string list;
  for (const char *name : limits.allowed) {
    if (!name)
      break;
    list += (list.empty() ? "one of " : ", ") + std::string(name);
  }
  return list;
}

} // namespace tile::fe
