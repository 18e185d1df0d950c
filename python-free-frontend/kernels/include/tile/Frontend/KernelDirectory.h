//===- KernelDirectory.h - A folder of compiled kernels ---------*- C++ -*-===//
//
// What tile-kernels --out-dir and tile-tune --out-dir write, in the format
// the GPU tests, benchmarks and tile-tune-run read
// (tile/runtime/KernelIndex.h): per kernel <name>.ptx, .cubin and
// .manifest.json (and the tile IR as .mlir when given), listed with their
// generator and configuration in index.json.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_FRONTEND_KERNELDIRECTORY_H
#define TILE_FRONTEND_KERNELDIRECTORY_H

#include "tile/Frontend/Compile.h"
#include "tile/Frontend/Variants.h"

#include "llvm/Support/JSON.h"

#include <string>

namespace tile::fe {

/// Writes `contents` to `path` ("-": standard output); when it cannot
/// (also when the write itself fails, e.g. on a full disk), says why on
/// standard error after "<tool>: " and returns false.
bool writeTextFile(const std::string &tool, const std::string &path,
                   const std::string &contents);

/// Flushes standard output; when that fails (a full disk, a closed pipe),
/// says why on standard error after "<tool>: " and returns false (instead
/// of LLVM's "IO failure on output stream" abort at exit).
bool flushStandardOutput(const std::string &tool);

class KernelDirectory {
public:
  KernelDirectory(std::string tool, std::string dir, std::string chip)
      : tool(std::move(tool)), dir(std::move(dir)), chip(std::move(chip)) {}

  /// Creates the folder (and its parents); false, with the reason on
  /// standard error, when it cannot or is not a writable folder.
  bool create();
  /// Writes the compiled kernel's files and lists it in the index.
  bool add(const Variant &variant, const std::string &name,
           const CompiledModule &compiled, const std::string &tileIR = "");
  /// Writes index.json with the kernels added so far.
  bool writeIndex();
  /// Writes another file into the folder.
  bool write(const std::string &fileName, const std::string &contents);
  const std::string &path() const { return dir; }
  size_t size() const { return index.size(); }

private:
  std::string tool, dir, chip;
  llvm::json::Array index;
};

} // namespace tile::fe

#endif // TILE_FRONTEND_KERNELDIRECTORY_H
