//===- Flags.h - Command-line flags of the GPU-side tools -------*- C++ -*-===//
//
// The GPU-side tools (tile-tune-run, tile-profile, tile-walkthrough) run
// without LLVM, so they parse their few `--name=value` flags by hand, with
// this one helper.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_BENCHMARKS_COMMON_FLAGS_H
#define TILE_BENCHMARKS_COMMON_FLAGS_H

#include <optional>
#include <string>

namespace tile::bench {

/// The value of `arg` if it is `flag=value` (flag spelled with its dashes,
/// e.g. "--shape"); nullopt otherwise.
inline std::optional<std::string> flagValue(const std::string &arg,
                                            const std::string &flag) {
  if (arg.size() > flag.size() && arg.compare(0, flag.size(), flag) == 0 &&
      arg[flag.size()] == '=')
    return arg.substr(flag.size() + 1);
  return std::nullopt;
}

} // namespace tile::bench

#endif // TILE_BENCHMARKS_COMMON_FLAGS_H
