//===- LaunchTest.cpp - Tests of grids, argument checks and packing -------===//
//
// KernelInfo::gridFor and checkAndPack: everything a launch does before it
// calls the driver. No GPU needed.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "tile/runtime/Runtime.h"

#include <limits>

using namespace tile::rt;

namespace {

KernelInfo vectorAdd() { return parseManifest(kVectorAddManifest).kernels[0]; }

/// A 2-D kernel with a static dim, hidden dims before the buffers, a 2-D grid
/// and an i64 scalar.
KernelInfo matmulLike() {
  KernelInfo kernel;
  kernel.name = "mm";
  kernel.block = {128, 1, 1};
  kernel.dynamicSharedMemory = 65536;
  GridExtent x;
  x.kind = GridExtent::Kind::CeilDiv;
  x.param = "X";
  x.dim = 0;
  x.divisor = 64;
  GridExtent y;
  y.kind = GridExtent::Kind::CeilDiv;
  y.param = "W";
  y.dim = 1;
  y.divisor = 32;
  kernel.grid = {x, y};
  ParamInfo xm{"X.dim0", ParamKind::Dim, DType::i64, {}, "X", 0};
  ParamInfo wn{"W.dim1", ParamKind::Dim, DType::i64, {}, "W", 1};
  ParamInfo X{"X", ParamKind::Buffer, DType::f16, {-1, 128}, "", 0};
  ParamInfo W{"W", ParamKind::Buffer, DType::bf16, {128, -1}, "", 0};
  ParamInfo k{"k", ParamKind::Scalar, DType::i64, {}, "", 0};
  kernel.params = {xm, wn, X, W, k};
  return kernel;
}

std::vector<Arg> vectorAddArgs(int64_t n, float scale = 2.5f) {
  return {Arg::buffer(CUdeviceptr(0x1000), DType::f32, {n}),
          Arg::buffer(CUdeviceptr(0x2000), DType::f32, {n}),
          Arg::buffer(CUdeviceptr(0x3000), DType::f32, {n}),
          Arg::scalar(scale)};
}

//===----------------------------------------------------------------------===//
// gridFor
//===----------------------------------------------------------------------===//

TEST(Grid, CeilDiv) {
  KernelInfo kernel = vectorAdd();
  auto gridX = [&](int64_t n) { return kernel.gridFor({{n}, {n}, {n}}).x; };
  EXPECT_EQ(gridX(1000003), 977u);
  EXPECT_EQ(gridX(0), 0u);
  EXPECT_EQ(gridX(1), 1u);
  EXPECT_EQ(gridX(1024), 1u);
  EXPECT_EQ(gridX(1025), 2u);
  Dim3 grid = kernel.gridFor({{5000}, {1}, {1}});
  EXPECT_EQ(grid.x, 5u);
  EXPECT_EQ(grid.y, 1u);
  EXPECT_EQ(grid.z, 1u);
}

TEST(Grid, MultiDimensionalAndConst) {
  KernelInfo kernel = matmulLike();
  Dim3 grid = kernel.gridFor({{1000, 128}, {128, 33}});
  EXPECT_EQ(grid.x, 16u);
  EXPECT_EQ(grid.y, 2u);
  EXPECT_EQ(grid.z, 1u);
  GridExtent z;
  z.kind = GridExtent::Kind::Const;
  z.value = 7;
  kernel.grid.push_back(z);
  EXPECT_EQ(kernel.gridFor({{1000, 128}, {128, 33}}).z, 7u);
}

TEST(Grid, Errors) {
  KernelInfo kernel = vectorAdd();
  EXPECT_TILE_ERROR(kernel.gridFor({{10}}),
                    "kernel 'vector_add': the grid needs 3 buffer shapes, but "
                    "got 1");
  EXPECT_TILE_ERROR(kernel.gridFor({{}, {1}, {1}}),
                    "kernel 'vector_add': grid[0]: uses dim 0 of 'A', but its "
                    "shape has rank 0");
  EXPECT_TILE_ERROR(kernel.gridFor({{-4}, {1}, {1}}),
                    "kernel 'vector_add': grid[0]: size -4 of dim 0 of 'A' is "
                    "negative");
  int64_t huge = int64_t(1024) * std::numeric_limits<int32_t>::max() + 1024;
  EXPECT_TILE_ERROR(kernel.gridFor({{huge}, {1}, {1}}),
                    "kernel 'vector_add': grid.x = 2147483648 exceeds the CUDA "
                    "limit of 2147483647");
  KernelInfo mm = matmulLike();
  EXPECT_TILE_ERROR(mm.gridFor({{64, 128}, {128, 32 * 65536}}),
                    "kernel 'mm': grid.y = 65536 exceeds the CUDA limit of "
                    "65535");
  mm.grid[0].param = "k";
  EXPECT_TILE_ERROR(mm.gridFor({{64, 128}, {128, 32}}),
                    "kernel 'mm': grid[0]: 'k' is not a buffer parameter");
}

//===----------------------------------------------------------------------===//
// Arg
//===----------------------------------------------------------------------===//

TEST(Arg, ScalarTypeIsDeduced) {
  EXPECT_EQ(Arg::scalar(1.0f).dtype(), DType::f32);
  EXPECT_EQ(Arg::scalar(1.0).dtype(), DType::f64);
  EXPECT_EQ(Arg::scalar(1).dtype(), DType::i32);
  EXPECT_EQ(Arg::scalar(int32_t(1)).dtype(), DType::i32);
  EXPECT_EQ(Arg::scalar(int64_t(1)).dtype(), DType::i64);
  EXPECT_EQ(Arg::scalar(1LL).dtype(), DType::i64);
  EXPECT_EQ(Arg::scalar(1.0f).kind(), ParamKind::Scalar);
}

TEST(Arg, BufferFromDeviceBufferCarriesCapacity) {
  DeviceBuffer empty; // Needs no GPU.
  Arg arg = Arg::buffer(empty, DType::f32, {0});
  EXPECT_EQ(arg.kind(), ParamKind::Buffer);
  EXPECT_EQ(arg.capacity(), std::optional<std::size_t>(0));
  EXPECT_EQ(Arg::buffer(CUdeviceptr(8), DType::f32, {1}).capacity(),
            std::nullopt);
}

//===----------------------------------------------------------------------===//
// checkAndPack
//===----------------------------------------------------------------------===//

TEST(Pack, VectorAdd) {
  PackedLaunch packed = checkAndPack(vectorAdd(), vectorAddArgs(1000003));
  EXPECT_EQ(packed.grid.x, 977u);
  EXPECT_EQ(packed.grid.y, 1u);
  EXPECT_EQ(packed.block.x, 256u);
  EXPECT_EQ(packed.sharedMemoryBytes, 0u);
  EXPECT_FALSE(packed.empty());
  ASSERT_EQ(packed.params.size(), 7u);
  const int64_t expected[] = {0x1000,  0x2000,  0x3000,
                              1000003, 1000003, 1000003};
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(packed.params[i].asInt64(), expected[i]) << "param " << i;
    EXPECT_EQ(packed.params[i].type, DType::i64);
  }
  EXPECT_EQ(packed.params[0].kind, ParamKind::Buffer);
  EXPECT_EQ(packed.params[3].kind, ParamKind::Dim);
  EXPECT_EQ(packed.params[6].kind, ParamKind::Scalar);
  EXPECT_EQ(packed.params[6].type, DType::f32);
  EXPECT_EQ(packed.params[6].asDouble(), 2.5);

  // kernelParams points at each 8-byte slot; an f32 sits in its first bytes.
  std::vector<void *> pointers = packed.kernelParams();
  ASSERT_EQ(pointers.size(), 7u);
  EXPECT_EQ(*static_cast<CUdeviceptr *>(pointers[1]), CUdeviceptr(0x2000));
  EXPECT_EQ(*static_cast<float *>(pointers[6]), 2.5f);
}

TEST(Pack, HiddenDimsAnywhereAndIntegerScalars) {
  KernelInfo kernel = matmulLike();
  PackedLaunch packed = checkAndPack(
      kernel, {Arg::buffer(CUdeviceptr(0x10), DType::f16, {1000, 128}),
               Arg::buffer(CUdeviceptr(0x20), DType::bf16, {128, 33}),
               Arg::scalar(int64_t(-7))});
  EXPECT_EQ(packed.grid.x, 16u);
  EXPECT_EQ(packed.grid.y, 2u);
  EXPECT_EQ(packed.sharedMemoryBytes, 65536u);
  ASSERT_EQ(packed.params.size(), 5u);
  EXPECT_EQ(packed.params[0].asInt64(), 1000); // X.dim0
  EXPECT_EQ(packed.params[1].asInt64(), 33);   // W.dim1
  EXPECT_EQ(packed.params[2].asInt64(), 0x10);
  EXPECT_EQ(packed.params[3].asInt64(), 0x20);
  EXPECT_EQ(packed.params[4].asInt64(), -7);
  EXPECT_EQ(packed.params[4].type, DType::i64);

  kernel.params[4].dtype = DType::i32;
  packed = checkAndPack(kernel,
                        {Arg::buffer(CUdeviceptr(0x10), DType::f16, {1, 128}),
                         Arg::buffer(CUdeviceptr(0x20), DType::bf16, {128, 1}),
                         Arg::scalar(-3)});
  EXPECT_EQ(packed.params[4].asInt64(), -3);
  EXPECT_EQ(*static_cast<int32_t *>(packed.kernelParams()[4]), -3);
}

TEST(Pack, ExplicitGridAndEmptyTensors) {
  PackedLaunch packed =
      checkAndPack(vectorAdd(), vectorAddArgs(10), Dim3{3, 2, 1});
  EXPECT_EQ(packed.grid.x, 3u);
  EXPECT_EQ(packed.grid.y, 2u);
  EXPECT_FALSE(packed.empty());

  packed = checkAndPack(vectorAdd(), vectorAddArgs(0));
  EXPECT_EQ(packed.grid.x, 0u);
  EXPECT_TRUE(packed.empty());

  // A zero-size DeviceBuffer is a valid backing store of an empty tensor.
  DeviceBuffer empty;
  packed = checkAndPack(vectorAdd(), {Arg::buffer(empty, DType::f32, {0}),
                                      Arg::buffer(empty, DType::f32, {0}),
                                      Arg::buffer(empty, DType::f32, {0}),
                                      Arg::scalar(1.0f)});
  EXPECT_TRUE(packed.empty());
}

TEST(Pack, ArgumentErrors) {
  KernelInfo kernel = vectorAdd();
  std::vector<Arg> args = vectorAddArgs(16);

  std::vector<Arg> tooFew(args.begin(), args.end() - 1);
  EXPECT_TILE_ERROR(checkAndPack(kernel, tooFew),
                    "kernel 'vector_add': expects 4 arguments (A, B, C, "
                    "scale), but got 3");

  std::vector<Arg> wrongKind = args;
  wrongKind[2] = Arg::scalar(1.0f);
  EXPECT_TILE_ERROR(checkAndPack(kernel, wrongKind),
                    "kernel 'vector_add': parameter 'C' expects a buffer, but "
                    "got a scalar");
  wrongKind = args;
  wrongKind[3] = args[0];
  EXPECT_TILE_ERROR(checkAndPack(kernel, wrongKind),
                    "kernel 'vector_add': parameter 'scale' expects a scalar, "
                    "but got a buffer");

  std::vector<Arg> wrongDtype = args;
  wrongDtype[1] = Arg::buffer(CUdeviceptr(0x2000), DType::f16, {16});
  EXPECT_TILE_ERROR(checkAndPack(kernel, wrongDtype),
                    "kernel 'vector_add': parameter 'B' expects dtype f32, but "
                    "got f16");

  std::vector<Arg> wrongRank = args;
  wrongRank[0] = Arg::buffer(CUdeviceptr(0x1000), DType::f32, {4, 4});
  EXPECT_TILE_ERROR(checkAndPack(kernel, wrongRank),
                    "kernel 'vector_add': parameter 'A' expects rank 1 (shape "
                    "[?]), but got rank 2 (shape [4, 4])");

  std::vector<Arg> negative = args;
  negative[0] = Arg::buffer(CUdeviceptr(0x1000), DType::f32, {-1});
  EXPECT_TILE_ERROR(checkAndPack(kernel, negative),
                    "kernel 'vector_add': parameter 'A' got a negative size -1 "
                    "in dim 0");

  std::vector<Arg> misaligned = args;
  misaligned[2] = Arg::buffer(CUdeviceptr(0x3004), DType::f32, {16});
  EXPECT_TILE_ERROR(checkAndPack(kernel, misaligned),
                    "kernel 'vector_add': parameter 'C' needs a 16-byte "
                    "aligned address, but got 12292");

  std::vector<Arg> wrongScalar = args;
  wrongScalar[3] = Arg::scalar(2.5);
  EXPECT_TILE_ERROR(checkAndPack(kernel, wrongScalar),
                    "kernel 'vector_add': parameter 'scale' expects a scalar "
                    "of type f32, but got f64");
}

TEST(Pack, StaticDimMismatch) {
  EXPECT_TILE_ERROR(
      checkAndPack(matmulLike(),
                   {Arg::buffer(CUdeviceptr(0x10), DType::f16, {1000, 64}),
                    Arg::buffer(CUdeviceptr(0x20), DType::bf16, {128, 33}),
                    Arg::scalar(int64_t(1))}),
      "kernel 'mm': parameter 'X' expects size 128 in dim 1, but got 64");
}

TEST(Pack, DivisibilityPromise) {
  // A kernel compiled with `divisible(%X[0] by 8)`: sizes that break the
  // promise are refused, the others pass.
  KernelInfo kernel = matmulLike();
  for (ParamInfo &param : kernel.params)
    if (param.name == "X")
      param.divisibility = {8, 1};
  auto args = [](int64_t rows) {
    return std::vector<Arg>{
        Arg::buffer(CUdeviceptr(0x10), DType::f16, {rows, 128}),
        Arg::buffer(CUdeviceptr(0x20), DType::bf16, {128, 33}),
        Arg::scalar(int64_t(1))};
  };
  EXPECT_NO_THROW(checkAndPack(kernel, args(1000)));
  EXPECT_TILE_ERROR(
      checkAndPack(kernel, args(1001)),
      "kernel 'mm': parameter 'X' got size 1001 in dim 0, but this kernel was "
      "compiled for sizes that are multiples of 8 there (\"divisibility\" in "
      "its manifest); use a variant compiled without that promise");
}

TEST(Pack, BufferTooSmall) {
  DeviceBuffer empty;
  std::vector<Arg> args = vectorAddArgs(16);
  args[2] = Arg::buffer(empty, DType::f32, {16});
  EXPECT_TILE_ERROR(checkAndPack(vectorAdd(), args),
                    "kernel 'vector_add': parameter 'C' needs 64 bytes (shape "
                    "[16] of f32), but the buffer holds 0 bytes");
}

} // namespace
