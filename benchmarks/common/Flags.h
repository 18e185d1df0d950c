//===- Flags.h - Command-line flags of the GPU-side tools -------*- C++ -*-===//
//
// The GPU-side tools (tile-tune-run, tile-profile, tile-walkthrough,
// tile-bench-gemm) run without LLVM, so they parse their few `--name=value`
// flags by hand, with these helpers.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_BENCHMARKS_COMMON_FLAGS_H
#define TILE_BENCHMARKS_COMMON_FLAGS_H

#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

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

/// "4096x4096x64" -> {4096, 4096, 64}: sizes of up to 18 decimal digits
/// joined by 'x'; empty for anything else.
inline std::vector<int64_t> parseDims(const std::string &text) {
  std::vector<int64_t> dims;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, 'x');) {
    if (part.empty() || part.size() > 18 ||
        part.find_first_not_of("0123456789") != std::string::npos)
      return {};
    dims.push_back(std::stoll(part));
  }
  if (!text.empty() && text.back() == 'x')
    return {};
  return dims;
}

} // namespace tile::bench

#endif // TILE_BENCHMARKS_COMMON_FLAGS_H
