//===- library-example.cpp - Calling the kernel library from C++ ----------===//
//
// What the README shows, as a program: open the compiled library, run a
// GEMM (then the same with A given as a transposed view), a row softmax
// and a causal attention on random data, and print what each call chose
// and why, with the GEMM's relative error against a float64 reference.
//
//   tile-library-example [KERNEL_DIR]   (default: $TILE_KERNEL_DIR or
//                                        build/kernels)
//
// Exits 77 (ctest: skipped) when there is no GPU, 1 on an error.
//
//===----------------------------------------------------------------------===//

#include "tile/runtime/Half.h"
#include "tile/runtime/Library.h"
#include "tile/runtime/Runtime.h"

#include <cmath>
#include <iostream>
#include <random>

using namespace tile::rt;

/// `count` random f16 values in [-1, 1] on the device, and their values.
static std::pair<DeviceBuffer, std::vector<float>>
randomHalf(const Device &device, int64_t count, std::mt19937 &rng) {
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<uint16_t> bits(count);
  std::vector<float> values(count);
  for (int64_t i = 0; i < count; ++i) {
    bits[i] = floatToHalf(dist(rng));
    values[i] = halfToFloat(bits[i]);
  }
  return {DeviceBuffer::fromHost(device, bits), values};
}

int main(int argc, char **argv) {
  std::string whyNot;
  if (!isDriverAvailable(&whyNot) || deviceCount() == 0) {
    std::cout << "no GPU (" << (whyNot.empty() ? "no device" : whyNot)
              << "): nothing to run\n";
    return 77;
  }
  try {
    std::string dir = argc > 1 ? argv[1] : kernelDir("build/kernels");
    Device device = Device::open();
    KernelLibrary library(device, dir);
    std::cout << "library " << dir << ": "
              << library.catalog().variants().size() << " variants, device "
              << device.name() << " (" << device.chip() << ")\n";
    std::mt19937 rng(1);

    // C = A B, f16 in, f32 out, on a shape nobody tuned for.
    const int64_t m = 1000, n = 600, k = 264;
    auto [a, av] = randomHalf(device, m * k, rng);
    auto [b, bv] = randomHalf(device, k * n, rng);
    DeviceBuffer c(device, m * n * 4);
    const CallReport &gemm = library.gemm(Tensor::of(a, DType::f16, {m, k}),
                                          Tensor::of(b, DType::f16, {k, n}),
                                          Tensor::of(c, DType::f32, {m, n}));
    library.synchronize();
    std::vector<float> got = c.download<float>();
    double diff = 0, norm = 0;
    for (int64_t i = 0; i < m; i += 7)
      for (int64_t j = 0; j < n; ++j) {
        double ref = 0;
        for (int64_t p = 0; p < k; ++p)
          ref += double(av[i * k + p]) * bv[p * n + j];
        diff += (got[i * n + j] - ref) * (got[i * n + j] - ref);
        norm += ref * ref;
      }
    std::cout << "gemm " << m << "x" << n << "x" << k << ": " << gemm.explain()
              << "  relative error (every 7th row) " << std::sqrt(diff / norm)
              << "\n";

    // The same product with A stored K x M: its transposed view.
    DeviceBuffer aT(device, m * k * 2);
    const CallReport &tn = library.gemm(
        Tensor::of(aT, DType::f16, {k, m}).transposed(),
        Tensor::of(b, DType::f16, {k, n}), Tensor::of(c, DType::f32, {m, n}));
    std::cout << "gemm with A^T as a view: " << tn.explain();

    // Softmax along rows of 3000, and a causal attention.
    auto [x, xv] = randomHalf(device, 512 * 3000, rng);
    DeviceBuffer y(device, 512 * 3000 * 2);
    std::cout << "softmax 512x3000: "
              << library
                     .softmax(Tensor::of(x, DType::f16, {512, 3000}),
                              Tensor::of(y, DType::f16, {512, 3000}))
                     .explain();
    std::vector<int64_t> shape{2, 8, 1000, 64};
    int64_t count = 2 * 8 * 1000 * 64;
    auto [q, qv] = randomHalf(device, count, rng);
    auto [kk, kv] = randomHalf(device, count, rng);
    auto [v, vv] = randomHalf(device, count, rng);
    DeviceBuffer o(device, count * 2);
    AttentionOptions causal;
    causal.causal = true;
    std::cout << "attention 2x8x1000x64, causal: "
              << library
                     .attention(Tensor::of(q, DType::f16, shape),
                                Tensor::of(kk, DType::f16, shape),
                                Tensor::of(v, DType::f16, shape),
                                Tensor::of(o, DType::f16, shape), causal)
                     .explain();
    library.synchronize();
    return 0;
  } catch (const Error &e) {
    std::cerr << "tile-library-example: " << e.what() << "\n";
    return 1;
  }
}
