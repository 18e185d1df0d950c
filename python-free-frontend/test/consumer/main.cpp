//===- main.cpp - Consumer of the installed C++ frontend ------------------===//
//
// Builds three kernels through tile::frontend (one written with the eDSL, a
// vector add and a GEMM from the library's generators), compiles them for
// sm_90 to PTX and a cubin (ptxas; no GPU needed) and checks what the PTX
// must hold. It also reads the tuner's sm_90 limits, so that every library of
// the package is linked. Prints one line per check; exits 1 on any failure.
//
//===----------------------------------------------------------------------===//

#include "tile/Frontend/Compile.h"
#include "tile/Frontend/Frontend.h"
#include "tile/Frontend/Kernels.h"
#include "tile/Frontend/Tuning.h"

#include <exception>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

using namespace tile::fe;

namespace {

/// Y = alpha * X over a dynamic number of floats, 512 per block.
std::string buildScale(Program &program) {
  Kernel k = program.kernel("consumer_scale", /*threads=*/128);
  Buffer X = k.tensor("X", {kDynamic}, program.f32());
  Buffer Y = k.tensor("Y", {kDynamic}, program.f32());
  int alpha = k.scalarParam("alpha", program.f32());
  k.require(size(Y, 0) == size(X, 0));
  k.body({ceildiv(X, 0, 512)}, [&](Kernel &k) {
    Expr offset = k.blockIndex(0) * 512.0;
    Buffer x = k.allocFragment({512}, program.f32());
    Buffer y = k.allocFragment({512}, program.f32());
    k.copy(X.at({offset}), x);
    k.parallel({512}, [&](const Indices &i) { y[i] = x[i] * k.scalar(alpha); });
    k.copy(y, Y.at({offset}));
  });
  return "consumer_scale";
}

/// Verifies and compiles the program for sm_90 and checks that the PTX has
/// the kernel's entry and every one of `instructions`, and that the cubin is
/// an ELF file.
bool check(const char *what, Program &program, const std::string &name,
           const std::vector<std::string> &instructions) {
  if (std::string errors = program.verify(); !errors.empty()) {
    std::cout << what << ": FAILED to verify:\n" << errors;
    return false;
  }
  CompileOptions options;
  options.target.chip = "sm_90";
  CompiledModule compiled = compile(program.module(), options, name);
  if (!compiled.ok) {
    std::cout << what << ": FAILED to compile:\n" << compiled.error << "\n";
    return false;
  }
  std::vector<std::string> expected = {".visible .entry " + name + "("};
  expected.insert(expected.end(), instructions.begin(), instructions.end());
  for (const std::string &text : expected) {
    if (compiled.ptx.find(text) == std::string::npos) {
      std::cout << what << ": FAILED: no '" << text << "' in the PTX of "
                << name << "\n";
      return false;
    }
  }
  const char elfMagic[] = {'\x7f', 'E', 'L', 'F'};
  if (compiled.cubin.compare(0, 4, elfMagic, 4) != 0) {
    std::cout << what << ": FAILED: the cubin of " << name
              << " is not an ELF file\n";
    return false;
  }
  std::cout << what << ": ok: " << name << " (PTX " << compiled.ptx.size()
            << " bytes, cubin " << compiled.cubin.size() << " bytes)\n";
  return true;
}

} // namespace

int main() {
  try {
    bool ok = true;
    {
      Program program;
      std::string name = buildScale(program);
      ok &= check("edsl", program, name, {"mul.rn.f32"});
    }
    {
      Program program;
      std::string name = buildVectorAdd(program, VectorAddConfig{});
      ok &= check("vector_add", program, name, {"ld.global.v4", "add.rn.f32"});
    }
    {
      Program program;
      std::string name = buildGemm(program, GemmConfig{});
      ok &= check("gemm", program, name,
                  {"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
                   "ldmatrix.sync.aligned"});
    }
    std::optional<DeviceLimits> limits = limitsForChip("sm_90");
    if (!limits || limits->maxSharedPerBlock <= 0) {
      std::cout << "tuning: FAILED: no table of sm_90 limits\n";
      ok = false;
    } else {
      std::cout << "tuning: ok: sm_90 has " << limits->maxSharedPerBlock
                << " bytes of shared memory per block\n";
    }
    return ok ? 0 : 1;
  } catch (const std::exception &error) {
    std::cout << "FAILED: " << error.what() << "\n";
    return 1;
  }
}
