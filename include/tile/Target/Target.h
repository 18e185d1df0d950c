//===- Target.h - PTX, cubins and kernel manifests --------------*- C++ -*-===//
//
// Serialization of an NVVM-level module, and nothing else (the compile
// driver, tile/Compiler/Compile.h, runs the pipelines and calls these): the
// gpu.module to PTX through the upstream NVVM target, the toolkit programs
// on that PTX (ptxas for cubins, fatbinary, cuobjdump), and the JSON
// manifest of its kernels that the runtime reads.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TARGET_TARGET_H
#define TILE_TARGET_TARGET_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir::tile {

/// Checks the chip and features of every #nvvm.target in the module's
/// gpu.modules (verifyTarget): an NVVM-level input names its own target.
LogicalResult verifyNVVMTargets(ModuleOp module);

/// Checks, before anything is built, that `toolkitPath` is a CUDA toolkit
/// with what the serialization needs: libdevice
/// (nvvm/libdevice/libdevice.10.bc, linked into the PTX) and, with
/// `needPtxas`, an executable bin/ptxas (cubins, fat binaries, reports).
/// Fails with a message in `error` that names the path and what is missing.
/// The compile driver's verifyCompileOptions calls it up front.
LogicalResult verifyCudaToolkit(StringRef toolkitPath, bool needPtxas,
                                std::string &error);

/// The PTX of a gpu.module and the target it was made for.
struct PTXModule {
  std::string ptx;
  std::string chip;      // the #nvvm.target's chip, for ptxas
  unsigned optLevel = 3; // and its O
};

/// Serializes the module's gpu.module (NVVM level, with a target) to PTX
/// with upstream's NVVM serializer (LLVM's pipeline without the SLP
/// vectorizer); `toolkitPath` locates libdevice. Fails when any error is
/// reported while serializing, also where upstream reports one and goes on
/// (a toolkit without libdevice gave PTX with unresolved calls).
FailureOr<PTXModule> serializeToPTX(ModuleOp module, StringRef toolkitPath);

/// What ptxas made of a PTX module.
struct PtxasOutput {
  std::string cubin;
  std::string log; // -v: registers, spills, stack per kernel
};

/// Runs `ptxas -arch=<chip> -O<optLevel> -v` from `toolkitPath` on `ptx`.
/// Fails with the reason in `error`.
FailureOr<PtxasOutput> runPtxas(StringRef ptx, StringRef chip,
                                unsigned optLevel, StringRef toolkitPath,
                                std::string &error);

/// A fat binary with `cubin` and `ptx` for `chip` (what
/// gpu-module-to-binary{format=fatbin} makes), by the toolkit's fatbinary.
/// Fails with the reason in `error`.
FailureOr<std::string> runFatbinary(StringRef cubin, StringRef ptx,
                                    StringRef chip, StringRef toolkitPath,
                                    std::string &error);

/// The SASS of `cubin` (`cuobjdump -sass`, from `toolkitPath`/bin or
/// PATH). Fails, saying where it looked, when there is no cuobjdump (some
/// toolkit installs ship ptxas without it).
FailureOr<std::string> disassembleCubin(StringRef cubin, StringRef toolkitPath,
                                        std::string &error);

/// ptxas's version ("V13.0.88"), or "" when it cannot be run.
std::string ptxasVersion(StringRef toolkitPath);

/// The JSON kernel manifest of the module's gpu.module (see
/// docs/Runtime.md for the format). `binaryName` is recorded as the file the
/// manifest describes; it may be empty.
FailureOr<std::string> buildKernelManifest(ModuleOp module,
                                           StringRef binaryName);

} // namespace mlir::tile

#endif // TILE_TARGET_TARGET_H
