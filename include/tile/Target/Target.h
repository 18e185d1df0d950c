//===- Target.h - PTX, cubins and kernel manifests --------------*- C++ -*-===//
//
// The last step of the toolchain, shared by tile-translate and the C++
// frontend: finish the lowering if needed, serialize the gpu.module through
// the upstream NVVM target (PTX, or ptxas for a cubin), and describe its
// kernels in a JSON manifest that the runtime reads.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TARGET_TARGET_H
#define TILE_TARGET_TARGET_H

#include "tile/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir::tile {

enum class BinaryFormat { PTX, Cubin, Fatbin };

/// Parses "ptx", "cubin" or "fatbin".
std::optional<BinaryFormat> parseBinaryFormat(StringRef name);

/// Brings `module` to the NVVM level: runs `tile-to-nvvm` when it still holds
/// tile kernels, `tile-gpu-to-nvvm` when its gpu.module has no target yet,
/// and nothing when it is already lowered (but checks its target). Verifies
/// the input and the IR after every pass; an error reported by any pass
/// fails it.
LogicalResult lowerToNVVM(ModuleOp module, const TargetOptions &options);

/// Checks the chip and features of every #nvvm.target in the module's
/// gpu.modules (verifyTarget): an NVVM-level input names its own target.
LogicalResult verifyNVVMTargets(ModuleOp module);

/// Checks, before anything is built, that `toolkitPath` is a CUDA toolkit
/// with what the serialization needs: libdevice
/// (nvvm/libdevice/libdevice.10.bc, linked into the PTX) and, with
/// `needPtxas`, an executable bin/ptxas (cubins, fat binaries, reports).
/// Fails with a message in `error` that names the path and what is missing.
/// tile-translate and the frontend's compile() call it up front.
LogicalResult verifyCudaToolkit(StringRef toolkitPath, bool needPtxas,
                                std::string &error);

/// Serializes the module's gpu.module (NVVM level, with a target): PTX from
/// upstream's NVVM serializer (LLVM's pipeline without the SLP vectorizer),
/// a cubin by ptxas on it, a fatbin by fatbinary on both. `toolkitPath`
/// locates ptxas, fatbinary and libdevice. Fails when any error is reported
/// while serializing, also where upstream reports one and goes on (a
/// toolkit without libdevice gave PTX with unresolved calls).
FailureOr<std::string> serializeGPUModule(ModuleOp module, BinaryFormat format,
                                          StringRef toolkitPath);

/// What ptxas made of a PTX module.
struct PtxasOutput {
  std::string cubin;
  std::string log; // -v: registers, spills, stack per kernel
};

/// Runs `ptxas -arch=<chip> -O<optLevel> -v` from `toolkitPath` on `ptx`:
/// the cubin of serializeGPUModule's Cubin format, without generating the
/// PTX again. Fails with the reason in `error`.
FailureOr<PtxasOutput> runPtxas(StringRef ptx, StringRef chip,
                                unsigned optLevel, StringRef toolkitPath,
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
