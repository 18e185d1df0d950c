//===- dlpack-gemm.cpp - A C entry point for DLPack tensors ---------------===//
//
// The kernel library's GEMM on DLPack tensors, as a shared library that
// Python loads with ctypes (torch-dlpack-test.py): PyTorch's tensors reach
// KernelLibrary::gemm through fromDLPack without a copy.
//
//===----------------------------------------------------------------------===//

#include "tile/runtime/DLPack.h"
#include "tile/runtime/Library.h"
#include "tile/runtime/Runtime.h"

#include <cstring>
#include <map>
#include <memory>
#include <string>

using namespace tile::rt;

extern "C" {

/// C = A B (+ `epilogue` with `bias`, which may be null) with the library
/// in `kernelDir`; A, B, C and the bias are DLManagedTensor pointers (the
/// caller keeps them). Returns 0, or 1 with the error (and what was
/// chosen) in `message`; on success `message` says what ran.
int tile_dlpack_gemm(const char *kernelDir, const DLManagedTensor *a,
                     const DLManagedTensor *b, const DLManagedTensor *c,
                     const char *epilogue, const DLManagedTensor *bias,
                     char *message, size_t messageSize) {
  auto say = [&](const std::string &text) {
    if (messageSize == 0)
      return;
    std::strncpy(message, text.c_str(), messageSize - 1);
    message[messageSize - 1] = '\0';
  };
  try {
    // One library per folder for the life of the process.
    static std::map<std::string, std::unique_ptr<KernelLibrary>> libraries;
    std::unique_ptr<KernelLibrary> &library = libraries[kernelDir];
    if (!library)
      library = std::make_unique<KernelLibrary>(Device::open(), kernelDir);
    GemmOptions options;
    options.epilogue = epilogue ? epilogue : "none";
    if (bias)
      options.bias = fromDLPack(*bias);
    const CallReport &report =
        library->gemm(fromDLPack(*a), fromDLPack(*b), fromDLPack(*c), options);
    library->synchronize();
    say(report.explain());
    return 0;
  } catch (const Error &e) {
    say(e.what());
    return 1;
  }
}

} // extern "C"
