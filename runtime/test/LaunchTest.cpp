//===- LaunchTest.cpp - Tests of grids, argument checks and packing -------===//
//
// KernelInfo::gridFor and checkAndPack: everything a launch does before it
// calls the driver. No GPU needed.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "tile/runtime/Runtime.h"

#include <functional>
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
  return {Arg::buffer(CUdeviceptr(0x1000000), DType::f32, {n}),
          Arg::buffer(CUdeviceptr(0x2000000), DType::f32, {n}),
          Arg::buffer(CUdeviceptr(0x3000000), DType::f32, {n}),
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
  const int64_t expected[] = {0x1000000, 0x2000000, 0x3000000,
                              1000003,   1000003,   1000003};
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
  EXPECT_EQ(*static_cast<CUdeviceptr *>(pointers[1]), CUdeviceptr(0x2000000));
  EXPECT_EQ(*static_cast<float *>(pointers[6]), 2.5f);
}

TEST(Pack, AccumulateBuffersAreZeroFilledFirst) {
  // A split-K kernel adds into C (access accumulate): the launch zero-fills
  // C's bytes, and nothing else; an empty C needs no fill. Such a C may not
  // overlap an input, as any written buffer.
  KernelInfo kernel = vectorAdd();
  kernel.params[2].access = Access::Accumulate;
  PackedLaunch packed = checkAndPack(kernel, vectorAddArgs(1000));
  ASSERT_EQ(packed.zeroFills.size(), 1u);
  EXPECT_EQ(packed.zeroFills[0].address, CUdeviceptr(0x3000000));
  EXPECT_EQ(packed.zeroFills[0].bytes, 4000u);
  EXPECT_TRUE(checkAndPack(vectorAdd(), vectorAddArgs(1000)).zeroFills.empty());
  EXPECT_TRUE(checkAndPack(kernel, vectorAddArgs(0)).zeroFills.empty());
  EXPECT_TILE_ERROR(
      checkAndPack(kernel, {Arg::buffer(CUdeviceptr(0x1000), DType::f32, {16}),
                            Arg::buffer(CUdeviceptr(0x2000), DType::f32, {16}),
                            Arg::buffer(CUdeviceptr(0x1020), DType::f32, {16}),
                            Arg::scalar(1.0f)}),
      "parameter 'C' (access \"accumulate\") overlaps parameter 'A'");
}

TEST(Pack, WorkspaceIsNoArgumentAndLeftToTheLaunch) {
  // A stream-K kernel's workspace: not among the arguments; packed as a
  // placeholder whose index and bytes per block the launch reads (it
  // allocates bytes per block x the blocks it launches).
  KernelInfo kernel = vectorAdd();
  kernel.persistent = PersistentGrid{};
  ParamInfo workspace;
  workspace.name = "workspace";
  workspace.kind = ParamKind::Workspace;
  workspace.bytesPerBlock = 131080;
  kernel.params.push_back(workspace);
  PackedLaunch packed = checkAndPack(kernel, vectorAddArgs(1000));
  ASSERT_EQ(packed.params.size(), 8u);
  ASSERT_TRUE(packed.workspace);
  EXPECT_EQ(packed.workspace->param, 7u);
  EXPECT_EQ(packed.workspace->bytesPerBlock, 131080u);
  EXPECT_EQ(packed.params[7].kind, ParamKind::Workspace);
  EXPECT_FALSE(checkAndPack(vectorAdd(), vectorAddArgs(1000)).workspace);
  // A description with two, or with no bytes, is refused.
  KernelInfo twice = kernel;
  twice.params.push_back(workspace);
  twice.params.back().name = "workspace2";
  EXPECT_TILE_ERROR(checkAndPack(twice, vectorAddArgs(1000)),
                    "expected at most one workspace parameter");
  kernel.params.back().bytesPerBlock = 0;
  EXPECT_TILE_ERROR(checkAndPack(kernel, vectorAddArgs(1000)),
                    "bytes_per_block must be in [1, 2^32], but got 0");
  // Sized per block: only a persistent grid bounds the blocks (a grid of
  // 2^31 x 65535 x 65535 blocks would overflow the size).
  kernel.params.back().bytesPerBlock = 8;
  kernel.persistent.reset();
  EXPECT_TILE_ERROR(checkAndPack(kernel, vectorAddArgs(1000)),
                    "expected a 'persistent' kernel, but got none");
}

TEST(Pack, HiddenDimsAnywhereAndIntegerScalars) {
  KernelInfo kernel = matmulLike();
  PackedLaunch packed = checkAndPack(
      kernel, {Arg::buffer(CUdeviceptr(0x100000), DType::f16, {1000, 128}),
               Arg::buffer(CUdeviceptr(0x200000), DType::bf16, {128, 33}),
               Arg::scalar(int64_t(-7))});
  EXPECT_EQ(packed.grid.x, 16u);
  EXPECT_EQ(packed.grid.y, 2u);
  EXPECT_EQ(packed.sharedMemoryBytes, 65536u);
  ASSERT_EQ(packed.params.size(), 5u);
  EXPECT_EQ(packed.params[0].asInt64(), 1000); // X.dim0
  EXPECT_EQ(packed.params[1].asInt64(), 33);   // W.dim1
  EXPECT_EQ(packed.params[2].asInt64(), 0x100000);
  EXPECT_EQ(packed.params[3].asInt64(), 0x200000);
  EXPECT_EQ(packed.params[4].asInt64(), -7);
  EXPECT_EQ(packed.params[4].type, DType::i64);

  kernel.params[4].dtype = DType::i32;
  packed = checkAndPack(
      kernel, {Arg::buffer(CUdeviceptr(0x100000), DType::f16, {1, 128}),
               Arg::buffer(CUdeviceptr(0x200000), DType::bf16, {128, 1}),
               Arg::scalar(-3)});
  EXPECT_EQ(packed.params[4].asInt64(), -3);
  EXPECT_EQ(*static_cast<int32_t *>(packed.kernelParams()[4]), -3);
}

TEST(Pack, ExplicitGridAndEmptyTensors) {
  // 10000 elements: the manifest's grid is ceildiv(10000, 1024) = 10 blocks.
  PackedLaunch packed =
      checkAndPack(vectorAdd(), vectorAddArgs(10000), Dim3{3, 1, 1});
  EXPECT_EQ(packed.grid.x, 3u);
  EXPECT_EQ(packed.grid.y, 1u);
  EXPECT_FALSE(packed.empty());
  // More blocks than the manifest's grid would work outside the contract.
  EXPECT_TILE_ERROR(
      checkAndPack(vectorAdd(), vectorAddArgs(10000), Dim3{11, 1, 1}),
      "kernel 'vector_add': the explicit grid (11, 1, 1) is larger than the "
      "grid (10, 1, 1) the manifest gives for these shapes; blocks past it "
      "would work outside the launch contract");
  EXPECT_TILE_ERROR(
      checkAndPack(vectorAdd(), vectorAddArgs(10000), Dim3{1, 2, 1}),
      "kernel 'vector_add': the explicit grid (1, 2, 1) is larger than the "
      "grid (10, 1, 1)");

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
  wrongDtype[1] = Arg::buffer(CUdeviceptr(0x2000000), DType::f16, {16});
  EXPECT_TILE_ERROR(checkAndPack(kernel, wrongDtype),
                    "kernel 'vector_add': parameter 'B' expects dtype f32, but "
                    "got f16");

  std::vector<Arg> wrongRank = args;
  wrongRank[0] = Arg::buffer(CUdeviceptr(0x1000000), DType::f32, {4, 4});
  EXPECT_TILE_ERROR(checkAndPack(kernel, wrongRank),
                    "kernel 'vector_add': parameter 'A' expects rank 1 (shape "
                    "[?]), but got rank 2 (shape [4, 4])");

  std::vector<Arg> negative = args;
  negative[0] = Arg::buffer(CUdeviceptr(0x1000000), DType::f32, {-1});
  EXPECT_TILE_ERROR(checkAndPack(kernel, negative),
                    "kernel 'vector_add': parameter 'A' got a negative size -1 "
                    "in dim 0");

  std::vector<Arg> misaligned = args;
  misaligned[2] = Arg::buffer(CUdeviceptr(0x3000004), DType::f32, {16});
  EXPECT_TILE_ERROR(checkAndPack(kernel, misaligned),
                    "kernel 'vector_add': parameter 'C' needs a 16-byte "
                    "aligned address, but got 50331652");

  std::vector<Arg> wrongScalar = args;
  wrongScalar[3] = Arg::scalar(2.5);
  EXPECT_TILE_ERROR(checkAndPack(kernel, wrongScalar),
                    "kernel 'vector_add': parameter 'scale' expects a scalar "
                    "of type f32, but got f64");
}

TEST(Pack, StaticDimMismatch) {
  EXPECT_TILE_ERROR(
      checkAndPack(matmulLike(),
                   {Arg::buffer(CUdeviceptr(0x100000), DType::f16, {1000, 64}),
                    Arg::buffer(CUdeviceptr(0x200000), DType::bf16, {128, 33}),
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
        Arg::buffer(CUdeviceptr(0x100000), DType::f16, {rows, 128}),
        Arg::buffer(CUdeviceptr(0x200000), DType::bf16, {128, 33}),
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

//===----------------------------------------------------------------------===//
// Launch contracts
//===----------------------------------------------------------------------===//

namespace {

struct BufferSpec {
  std::string name;
  DType dtype;
  std::vector<int64_t> shape;
  Access access;
  std::vector<int64_t> divisibility = {};
};

GridExtent ceilDiv(const std::string &param, int dim, int64_t divisor) {
  GridExtent extent;
  extent.kind = GridExtent::Kind::CeilDiv;
  extent.param = param;
  extent.dim = dim;
  extent.divisor = divisor;
  return extent;
}

ShapeRelation relation(DimRef lhs, ShapeRelation::Op op, DimRef rhs) {
  ShapeRelation r;
  r.lhs = std::move(lhs);
  r.op = op;
  r.rhs = std::move(rhs);
  return r;
}

ShapeRelation relation(DimRef lhs, ShapeRelation::Op op, int64_t value) {
  ShapeRelation r;
  r.lhs = std::move(lhs);
  r.op = op;
  r.rhsIsDim = false;
  r.value = value;
  return r;
}

constexpr ShapeRelation::Op Eq = ShapeRelation::Op::Eq;
constexpr ShapeRelation::Op Le = ShapeRelation::Op::Le;
constexpr ShapeRelation::Op Ge = ShapeRelation::Op::Ge;
constexpr ShapeRelation::Op Divides = ShapeRelation::Op::Divides;

/// A kernel as the compiler describes it: the buffers, then the scalars,
/// then one dim parameter per dynamic dim.
KernelInfo
makeKernel(const std::string &name, unsigned threads,
           std::vector<GridExtent> grid, const std::vector<BufferSpec> &buffers,
           std::vector<ShapeRelation> relations,
           const std::vector<std::pair<std::string, DType>> &scalars = {}) {
  KernelInfo kernel;
  kernel.name = name;
  kernel.block = {threads, 1, 1};
  kernel.grid = std::move(grid);
  std::vector<ParamInfo> dims;
  for (const BufferSpec &spec : buffers) {
    ParamInfo buffer;
    buffer.name = spec.name;
    buffer.kind = ParamKind::Buffer;
    buffer.dtype = spec.dtype;
    buffer.shape = spec.shape;
    buffer.divisibility = spec.divisibility;
    buffer.access = spec.access;
    kernel.params.push_back(buffer);
    for (std::size_t d = 0; d < spec.shape.size(); ++d) {
      if (spec.shape[d] >= 0)
        continue;
      ParamInfo dim;
      dim.name = spec.name + ".dim" + std::to_string(d);
      dim.kind = ParamKind::Dim;
      dim.dtype = DType::i64;
      dim.buffer = spec.name;
      dim.dim = static_cast<int>(d);
      dims.push_back(dim);
    }
  }
  for (const auto &[scalarName, type] : scalars)
    kernel.params.push_back({scalarName, ParamKind::Scalar, type});
  kernel.params.insert(kernel.params.end(), dims.begin(), dims.end());
  kernel.relations = std::move(relations);
  kernel.validate();
  return kernel;
}

/// The library's GEMM (gemm_f16_f32_128x128x64_t128_s3_div8): C = A B.
KernelInfo gemmKernel() {
  return makeKernel("gemm_f16_f32_128x128x64_t128_s3_div8", 128,
                    {ceilDiv("B", 1, 128), ceilDiv("A", 0, 128)},
                    {{"A", DType::f16, {-1, -1}, Access::Read, {1, 8}},
                     {"B", DType::f16, {-1, -1}, Access::Read, {1, 8}},
                     {"C", DType::f32, {-1, -1}, Access::Write, {1, 8}}},
                    {relation({"A", 1}, Eq, {"B", 0}),
                     relation({"C", 0}, Eq, {"A", 0}),
                     relation({"C", 1}, Eq, {"B", 1})});
}

/// The library's attention (attention_f16_d64_128x64_t128_s2): Q and O are
/// batch x heads x sequence x 64, K and V batch x kv heads x keys x 64
/// (grouped-query attention: the kv heads divide the heads), then the f32
/// softmax scale.
KernelInfo attentionKernel() {
  auto bhsd = [](const char *name, Access access) {
    return BufferSpec{name, DType::f16, {-1, -1, -1, 64}, access};
  };
  return makeKernel(
      "attention_f16_d64_128x64_t128_s2", 128,
      {ceilDiv("Q", 2, 128), ceilDiv("Q", 1, 1), ceilDiv("Q", 0, 1)},
      {bhsd("Q", Access::Read), bhsd("K", Access::Read),
       bhsd("V", Access::Read), bhsd("O", Access::Write)},
      {relation({"K", 0}, Eq, {"Q", 0}), relation({"V", 0}, Eq, {"Q", 0}),
       relation({"O", 0}, Eq, {"Q", 0}), relation({"O", 1}, Eq, {"Q", 1}),
       relation({"V", 1}, Eq, {"K", 1}), relation({"K", 1}, Divides, {"Q", 1}),
       relation({"V", 2}, Eq, {"K", 2}), relation({"O", 2}, Eq, {"Q", 2})},
      {{"scale", DType::f32}});
}

/// Attention arguments: Q and O with `heads` heads of 256 queries, K and V
/// with `kHeads` and `vHeads` heads of 256 keys.
std::vector<Arg> attentionArgs(int64_t heads, int64_t kHeads, int64_t vHeads) {
  return {Arg::buffer(CUdeviceptr(1) << 32, DType::f16, {1, heads, 256, 64}),
          Arg::buffer(CUdeviceptr(2) << 32, DType::f16, {1, kHeads, 256, 64}),
          Arg::buffer(CUdeviceptr(3) << 32, DType::f16, {1, vHeads, 256, 64}),
          Arg::buffer(CUdeviceptr(4) << 32, DType::f16, {1, heads, 256, 64}),
          Arg::scalar(0.125f)};
}

/// The library's single-pass softmax (softmax_f16_1x4096_t256): a row must
/// fit in one block's registers.
KernelInfo softmaxKernel() {
  return makeKernel("softmax_f16_1x4096_t256", 256, {ceilDiv("X", 0, 1)},
                    {{"X", DType::f16, {-1, -1}, Access::Read},
                     {"Y", DType::f16, {-1, -1}, Access::Write}},
                    {relation({"Y", 0}, Eq, {"X", 0}),
                     relation({"Y", 1}, Eq, {"X", 1}),
                     relation({"X", 1}, Le, 4096)});
}

/// Raw device addresses 4 GiB apart: no two of these buffers overlap.
Arg at(int slot, DType dtype, std::vector<int64_t> shape) {
  return Arg::buffer(CUdeviceptr(slot) << 32, dtype, std::move(shape));
}

TEST(Contract, ValidLaunchesAreAccepted) {
  PackedLaunch gemm = checkAndPack(
      gemmKernel(), {at(1, DType::f16, {128, 64}), at(2, DType::f16, {64, 256}),
                     at(3, DType::f32, {128, 256})});
  EXPECT_EQ(gemm.grid.x, 2u);
  EXPECT_EQ(gemm.grid.y, 1u);
  PackedLaunch attention = checkAndPack(
      attentionKernel(),
      {at(1, DType::f16, {2, 8, 300, 64}), at(2, DType::f16, {2, 8, 1, 64}),
       at(3, DType::f16, {2, 8, 1, 64}), at(4, DType::f16, {2, 8, 300, 64}),
       Arg::scalar(0.125f)});
  EXPECT_EQ(attention.grid.x, 3u);
  EXPECT_EQ(attention.grid.y, 8u);
  EXPECT_EQ(attention.grid.z, 2u);
  EXPECT_NO_THROW(
      checkAndPack(softmaxKernel(), {at(1, DType::f16, {7, 4096}),
                                     at(2, DType::f16, {7, 4096})}));
}

// The four misuses of the issue, each launched on the H200 before.

TEST(Contract, GemmKDisagrees) {
  // A is 128 x 64 and B 32 x 128: this computed A[:, :32] @ B.
  EXPECT_TILE_ERROR(
      checkAndPack(gemmKernel(),
                   {at(1, DType::f16, {128, 64}), at(2, DType::f16, {32, 128}),
                    at(3, DType::f32, {128, 128})}),
      "kernel 'gemm_f16_f32_128x128x64_t128_s3_div8': requires A[1] == B[0], "
      "but A[1] = 64 and B[0] = 32");
}

TEST(Contract, GemmOutputTooSmall) {
  // C is 64 x 64 for a 128 x 128 product: both of its relations break, and
  // the message says both.
  EXPECT_TILE_ERROR(
      checkAndPack(gemmKernel(),
                   {at(1, DType::f16, {128, 64}), at(2, DType::f16, {64, 128}),
                    at(3, DType::f32, {64, 64})}),
      "kernel 'gemm_f16_f32_128x128x64_t128_s3_div8': requires C[0] == A[0], "
      "but C[0] = 64 and A[0] = 128; requires C[1] == B[1], but C[1] = 64 and "
      "B[1] = 128");
}

TEST(Contract, AttentionKeyValueHeadsDivideQueryHeads) {
  // Grouped-query attention: 8, 4, 2 or 1 K/V heads serve 8 query heads
  // (the misuse, 2 for 8, read past K and V before the kernel
  // learned groups); the grid stays one block row per query head.
  for (int64_t kvHeads : {8, 4, 2, 1}) {
    PackedLaunch launch =
        checkAndPack(attentionKernel(), attentionArgs(8, kvHeads, kvHeads));
    EXPECT_EQ(launch.grid.y, 8u) << kvHeads;
  }
  // 3 K/V heads for 8 query heads: no group size fits.
  EXPECT_TILE_ERROR(
      checkAndPack(attentionKernel(), attentionArgs(8, 3, 3)),
      "kernel 'attention_f16_d64_128x64_t128_s2': requires K[1] divides Q[1], "
      "but K[1] = 3 and Q[1] = 8");
  // More K/V heads than query heads, and none (0 divides only 0).
  EXPECT_TILE_ERROR(checkAndPack(attentionKernel(), attentionArgs(8, 16, 16)),
                    "requires K[1] divides Q[1], but K[1] = 16 and Q[1] = 8");
  EXPECT_TILE_ERROR(checkAndPack(attentionKernel(), attentionArgs(8, 0, 0)),
                    "requires K[1] divides Q[1], but K[1] = 0 and Q[1] = 8");
  EXPECT_NO_THROW(checkAndPack(attentionKernel(), attentionArgs(0, 0, 0)));
  // K and V with different heads: both divide 8, but V must follow K.
  EXPECT_TILE_ERROR(
      checkAndPack(attentionKernel(), attentionArgs(8, 2, 4)),
      "kernel 'attention_f16_d64_128x64_t128_s2': requires V[1] == K[1], but "
      "V[1] = 4 and K[1] = 2");
}

TEST(Contract, SoftmaxRowTooWide) {
  // 10000-wide rows on a kernel for rows of at most 4096: NaN in 1808 of
  // 10000 outputs.
  EXPECT_TILE_ERROR(
      checkAndPack(softmaxKernel(), {at(1, DType::f16, {4, 10000}),
                                     at(2, DType::f16, {4, 10000})}),
      "kernel 'softmax_f16_1x4096_t256': requires X[1] <= 4096, "
      "but X[1] = 10000");
  // At the limit it is accepted.
  EXPECT_NO_THROW(
      checkAndPack(softmaxKernel(), {at(1, DType::f16, {4, 4096}),
                                     at(2, DType::f16, {4, 4096})}));
}

TEST(Contract, EveryRelationKind) {
  KernelInfo kernel =
      makeKernel("k", 32, {ceilDiv("X", 0, 1)},
                 {{"X", DType::f32, {-1, -1}, Access::Read},
                  {"Y", DType::f32, {-1}, Access::Write}},
                 {relation({"Y", 0}, Ge, {"X", 0}), relation({"X", 1}, Ge, 2),
                  relation({"X", 1}, Le, {"Y", 0}),
                  relation({"X", 1}, Divides, {"Y", 0})});
  auto args = [](int64_t rows, int64_t cols, int64_t out) {
    return std::vector<Arg>{at(1, DType::f32, {rows, cols}),
                            at(2, DType::f32, {out})};
  };
  EXPECT_NO_THROW(checkAndPack(kernel, args(4, 2, 4)));
  EXPECT_NO_THROW(checkAndPack(kernel, args(4, 3, 9)));
  EXPECT_TILE_ERROR(checkAndPack(kernel, args(5, 2, 4)),
                    "kernel 'k': requires Y[0] >= X[0], but Y[0] = 4 and X[0] "
                    "= 5");
  EXPECT_TILE_ERROR(checkAndPack(kernel, args(4, 1, 4)),
                    "kernel 'k': requires X[1] >= 2, but X[1] = 1");
  EXPECT_TILE_ERROR(checkAndPack(kernel, args(4, 5, 4)),
                    "kernel 'k': requires X[1] <= Y[0], but X[1] = 5 and Y[0] "
                    "= 4; requires X[1] divides Y[0], but X[1] = 5 and Y[0] = "
                    "4");
  EXPECT_TILE_ERROR(checkAndPack(kernel, args(4, 4, 9)),
                    "kernel 'k': requires X[1] divides Y[0], but X[1] = 4 and "
                    "Y[0] = 9");
  // Empty tensors are held to the contract too.
  EXPECT_TILE_ERROR(checkAndPack(kernel, args(0, 0, 0)),
                    "kernel 'k': requires X[1] >= 2, but X[1] = 0");
}

TEST(Contract, DeviceBufferArgumentsAreCheckedAlike) {
  // Whatever backs an argument, its shape is what the contract sees.
  DeviceBuffer empty; // Needs no GPU.
  EXPECT_TILE_ERROR(
      checkAndPack(vectorAdd(),
                   {Arg::buffer(empty, DType::f32, {0}),
                    at(1, DType::f32, {16}),
                    Arg::buffer(empty, DType::f32, {0}), Arg::scalar(1.0f)}),
      "kernel 'vector_add': requires B[0] == A[0], but B[0] = 16 "
      "and A[0] = 0");
}

TEST(Contract, VectorAddOperandLengths) {
  // The example manifest's contract: B and C as long as A.
  std::vector<Arg> args = vectorAddArgs(1000);
  args[2] = Arg::buffer(CUdeviceptr(0x3000000), DType::f32, {999});
  EXPECT_TILE_ERROR(checkAndPack(vectorAdd(), args),
                    "kernel 'vector_add': requires C[0] == A[0], but C[0] = "
                    "999 and A[0] = 1000");
}

//===----------------------------------------------------------------------===//
// Aliasing
//===----------------------------------------------------------------------===//

TEST(Aliasing, WrittenBufferOverlappingAnInputIsRefused) {
  KernelInfo kernel = vectorAdd();
  std::vector<Arg> args = vectorAddArgs(16); // 64 bytes each.
  // In place: C is A.
  args[2] = Arg::buffer(CUdeviceptr(0x1000000), DType::f32, {16});
  EXPECT_TILE_ERROR(
      checkAndPack(kernel, args),
      "kernel 'vector_add': parameter 'C' (access \"write\") overlaps "
      "parameter 'A' (access \"read\") in memory: 'C' spans bytes [0x1000000, "
      "0x1000040) and 'A' bytes [0x1000000, 0x1000040); a buffer the kernel "
      "writes must not overlap another argument");
  // C starts inside B (same allocation, shifted pointer).
  args[2] = Arg::buffer(CUdeviceptr(0x2000030), DType::f32, {16});
  EXPECT_TILE_ERROR(checkAndPack(kernel, args),
                    "parameter 'C' (access \"write\") overlaps parameter 'B' "
                    "(access \"read\")");
  // C ends inside A.
  args[2] = Arg::buffer(CUdeviceptr(0x1000000 - 48), DType::f32, {16});
  EXPECT_TILE_ERROR(checkAndPack(kernel, args),
                    "parameter 'C' (access \"write\") overlaps parameter 'A'");
  // C contains B.
  args[2] = Arg::buffer(CUdeviceptr(0x1fffff0), DType::f32, {64});
  args[0] = Arg::buffer(CUdeviceptr(0x0), DType::f32, {64});
  args[1] = Arg::buffer(CUdeviceptr(0x2000000), DType::f32, {64});
  EXPECT_TILE_ERROR(checkAndPack(kernel, args),
                    "parameter 'C' (access \"write\") overlaps parameter 'B'");
}

TEST(Aliasing, AdjacentAndReadOnlyOverlapsAreAccepted) {
  KernelInfo kernel = vectorAdd();
  // C right after A ends, B right before A starts.
  EXPECT_NO_THROW(checkAndPack(
      kernel,
      {Arg::buffer(CUdeviceptr(0x1000), DType::f32, {16}),
       Arg::buffer(CUdeviceptr(0x1000 - 64), DType::f32, {16}),
       Arg::buffer(CUdeviceptr(0x1040), DType::f32, {16}), Arg::scalar(1.0f)}));
  // A and B are only read: they may be the same tensor.
  EXPECT_NO_THROW(
      checkAndPack(kernel, {Arg::buffer(CUdeviceptr(0x1000), DType::f32, {16}),
                            Arg::buffer(CUdeviceptr(0x1000), DType::f32, {16}),
                            Arg::buffer(CUdeviceptr(0x2000), DType::f32, {16}),
                            Arg::scalar(1.0f)}));
  // Empty tensors span no bytes.
  EXPECT_NO_THROW(
      checkAndPack(kernel, {Arg::buffer(CUdeviceptr(0x1000), DType::f32, {0}),
                            Arg::buffer(CUdeviceptr(0x1000), DType::f32, {0}),
                            Arg::buffer(CUdeviceptr(0x1000), DType::f32, {0}),
                            Arg::scalar(1.0f)}));
}

TEST(Aliasing, ManifestsWithoutAccessRefuseEveryOverlap) {
  // An older manifest does not say what the kernel writes: every buffer may
  // be written, so even two inputs may not overlap.
  KernelInfo kernel = vectorAdd();
  for (ParamInfo &param : kernel.params)
    param.access = Access::ReadWrite;
  EXPECT_TILE_ERROR(
      checkAndPack(kernel, {Arg::buffer(CUdeviceptr(0x1000), DType::f32, {16}),
                            Arg::buffer(CUdeviceptr(0x1010), DType::f32, {16}),
                            Arg::buffer(CUdeviceptr(0x9000), DType::f32, {16}),
                            Arg::scalar(1.0f)}),
      "parameter 'A' (access \"readwrite\") overlaps parameter 'B' (access "
      "\"readwrite\") in memory: 'A' spans bytes [0x1000, 0x1040) and 'B' "
      "bytes [0x1010, 0x1050)");
}

TEST(Aliasing, TwoOutputsMayNotOverlap) {
  KernelInfo kernel = makeKernel("two_outputs", 32, {ceilDiv("X", 0, 1)},
                                 {{"X", DType::f16, {-1}, Access::Read},
                                  {"Y", DType::f32, {-1}, Access::Write},
                                  {"Z", DType::f32, {-1}, Access::ReadWrite}},
                                 {});
  EXPECT_TILE_ERROR(
      checkAndPack(kernel,
                   {at(1, DType::f16, {8}), at(2, DType::f32, {8}),
                    Arg::buffer((CUdeviceptr(2) << 32) + 16, DType::f32, {8})}),
      "parameter 'Y' (access \"write\") overlaps parameter 'Z' "
      "(access \"readwrite\")");
}

//===----------------------------------------------------------------------===//
// Hostile kernel descriptions and arguments
//===----------------------------------------------------------------------===//

TEST(Hostile, HandBuiltKernelWithDivisibilityZero) {
  // runtime-probe --divisibility-zero: SIGFPE (shape % 0) before.
  KernelInfo kernel = makeKernel("k", 32, {ceilDiv("A", 0, 1)},
                                 {{"A", DType::f32, {-1}, Access::Read}}, {});
  kernel.params[0].divisibility = {0};
  EXPECT_TILE_ERROR(checkAndPack(kernel, {at(1, DType::f32, {64})}),
                    "kernel 'k': param 'A': divisibility[0] must be >= 1, but "
                    "got 0");
  // The probe's kernel also has no dim parameter for A's dynamic dim.
  KernelInfo probe;
  probe.name = "k";
  probe.grid = {GridExtent{}};
  ParamInfo a{"A", ParamKind::Buffer, DType::f32, {-1}, "", 0, {1}};
  probe.params = {a};
  EXPECT_TILE_ERROR(
      checkAndPack(probe, {Arg::buffer(CUdeviceptr(0x1000), DType::f32, {64})}),
      "kernel 'k': param 'A': dim 0 is dynamic, but no dim parameter passes "
      "its size to the kernel");
}

TEST(Hostile, HandBuiltKernelDescriptions) {
  auto refused = [](const std::function<void(KernelInfo &)> &mutate,
                    const std::string &expected) {
    KernelInfo kernel = matmulLike();
    mutate(kernel);
    EXPECT_TILE_ERROR(
        checkAndPack(kernel,
                     {Arg::buffer(CUdeviceptr(0x100000), DType::f16, {64, 128}),
                      Arg::buffer(CUdeviceptr(0x200000), DType::bf16, {128, 8}),
                      Arg::scalar(int64_t(1))}),
        expected);
  };
  refused(
      [](KernelInfo &k) {
        k.block = {0, 1, 1};
      },
      "kernel 'mm': block.x = 0 is outside CUDA's range [1, 1024]");
  refused(
      [](KernelInfo &k) {
        k.block = {1024, 2, 1};
      },
      "kernel 'mm': block 1024 x 2 x 1 has 2048 threads, but CUDA allows "
      "at most 1024 per block");
  refused([](KernelInfo &k) { k.grid.clear(); },
          "kernel 'mm': the grid has 0 extents, but 1 to 3 are required");
  refused([](KernelInfo &k) { k.grid[1].divisor = 0; },
          "kernel 'mm': grid[1]: divisor must be >= 1, but got 0");
  refused([](KernelInfo &k) { k.grid[0].dim = 5; },
          "kernel 'mm': grid[0]: refers to dim 5 of buffer 'X', which has rank "
          "2");
  refused([](KernelInfo &k) { k.params[1].dim = 0; },
          "kernel 'mm': param 'W.dim1': refers to dim 0 of buffer 'W', which "
          "is static (size 128)");
  refused([](KernelInfo &k) { k.params[0].buffer = "k"; },
          "kernel 'mm': param 'X.dim0': refers to 'k', which is not a buffer");
  refused([](KernelInfo &k) { k.params.erase(k.params.begin()); },
          "kernel 'mm': param 'X': dim 0 is dynamic, but no dim parameter");
  refused([](KernelInfo &k) { k.params.push_back(k.params[0]); },
          "kernel 'mm': duplicate param name 'X.dim0'");
  refused(
      [](KernelInfo &k) {
        k.params.push_back(k.params[0]);
        k.params.back().name = "again";
      },
      "kernel 'mm': param 'X': dim 0 is passed by two dim parameters, "
      "'X.dim0' and 'again', but a dynamic dim has exactly one");
  refused([](KernelInfo &k) { k.params[4].dtype = DType::f16; },
          "kernel 'mm': param 'k': unsupported scalar type 'f16'");
  refused(
      [](KernelInfo &k) {
        k.relations = {relation({"X", 2}, Eq, {"W", 0})};
      },
      "kernel 'mm': requires[0]: refers to dim 2 of buffer 'X', which has "
      "rank 2");
  refused(
      [](KernelInfo &k) {
        k.relations = {relation({"X", 1}, Eq, {"Z", 0})};
      },
      "kernel 'mm': requires[0]: refers to unknown buffer 'Z'");
  refused(
      [](KernelInfo &k) {
        k.relations = {relation({"X", 0}, Divides, 64)};
      },
      "kernel 'mm': requires[0]: 'divides' needs a dimension on the right, "
      "but got the value 64");
  refused([](KernelInfo &k) { k.name.clear(); },
          "kernel description: field 'name' is empty");
}

TEST(Hostile, HugeShapesAndAddresses) {
  KernelInfo kernel = makeKernel("k", 32, {ceilDiv("A", 0, 1 << 30)},
                                 {{"A", DType::f32, {-1, -1}, Access::Read},
                                  {"B", DType::i8, {-1}, Access::Write}},
                                 {});
  int64_t big = int64_t(1) << 40;
  // 2^80 bytes: more than any address space, with or without a capacity.
  EXPECT_TILE_ERROR(checkAndPack(kernel, {at(1, DType::f32, {big, big}),
                                          at(2, DType::i8, {16})}),
                    "kernel 'k': parameter 'A' got shape [1099511627776, "
                    "1099511627776] of f32, which is too large (more than 2^63 "
                    "bytes)");
  // A range that wraps around the end of the address space.
  EXPECT_TILE_ERROR(
      checkAndPack(kernel, {at(1, DType::f32, {1, 16}),
                            Arg::buffer(CUdeviceptr(0) - 16, DType::i8, {32})}),
      "kernel 'k': parameter 'B' spans 32 bytes from 0xfffffffffffffff0, past "
      "the end of the 64-bit address space");
  // An explicit grid beyond CUDA's limits.
  EXPECT_TILE_ERROR(
      checkAndPack(kernel, {at(1, DType::f32, {1, 16}), at(2, DType::i8, {16})},
                   Dim3{1, 65536, 1}),
      "kernel 'k': grid.y = 65536 exceeds the CUDA limit of "
      "65535");
  EXPECT_TILE_ERROR(
      checkAndPack(kernel, {at(1, DType::f32, {1, 16}), at(2, DType::i8, {16})},
                   Dim3{2147483648u, 1, 1}),
      "kernel 'k': grid.x = 2147483648 exceeds the CUDA limit of "
      "2147483647");
  // The largest grid.x the manifest can give: ceildiv(2^62, 2^30) = 2^32.
  EXPECT_TILE_ERROR(
      checkAndPack(kernel, {at(1, DType::f32, {int64_t(1) << 62, 0}),
                            at(2, DType::i8, {16})}),
      "kernel 'k': grid.x = 4294967296 exceeds the CUDA limit");
}

} // namespace
