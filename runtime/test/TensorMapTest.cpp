//===- TensorMapTest.cpp - Tests of TMA tensor maps and persistent grids --===//
//
// Without a GPU: how checkAndPack turns a tensor_map parameter into the
// driver's request (innermost dimension first, byte strides), the TMA rules
// it refuses launches for, and persistent grids. With a GPU (skipped
// visibly otherwise): the tensor-map cache, and a hand-written sm_90a PTX
// kernel that copies tiles through TMA (zero-filled past the edges) from a
// map the runtime encodes and passes as a 128-byte parameter.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "../lib/TensorMaps.h"
#include "tile/runtime/Launch.h"
#include "tile/runtime/Runtime.h"

#include <cstring>
#include <optional>
#include <vector>

using namespace tile::rt;

namespace {

/// Y = X tile by tile through TMA: X is a rows x cols f32 tensor read with
/// 16 x 16 boxes; Y (rows and cols rounded up to 16) receives whole boxes,
/// zeros included. Parameters as tile-translate orders them: the buffers,
/// their dims, then the tensor map.
KernelInfo tmaCopyKernel() {
  KernelInfo kernel;
  kernel.name = "tma_copy";
  kernel.block = {256, 1, 1};
  GridExtent x{GridExtent::Kind::CeilDiv, 1, "X", 1, 16};
  GridExtent y{GridExtent::Kind::CeilDiv, 1, "X", 0, 16};
  kernel.grid = {x, y};
  ParamInfo X{"X", ParamKind::Buffer, DType::f32, {-1, -1}, "", 0};
  X.access = Access::Read;
  ParamInfo Y{"Y", ParamKind::Buffer, DType::f32, {-1, -1}, "", 0};
  Y.access = Access::Write;
  ParamInfo x0{"X.dim0", ParamKind::Dim, DType::i64, {}, "X", 0};
  ParamInfo x1{"X.dim1", ParamKind::Dim, DType::i64, {}, "X", 1};
  ParamInfo y0{"Y.dim0", ParamKind::Dim, DType::i64, {}, "Y", 0};
  ParamInfo y1{"Y.dim1", ParamKind::Dim, DType::i64, {}, "Y", 1};
  ParamInfo map{"X.tma", ParamKind::TensorMap, DType::i64, {}, "X", 0};
  map.box = {16, 16};
  map.swizzle = 0;
  kernel.params = {X, Y, x0, x1, y0, y1, map};
  return kernel;
}

int64_t roundUp16(int64_t n) { return (n + 15) / 16 * 16; }

std::vector<Arg> tmaCopyArgs(CUdeviceptr x, CUdeviceptr y, int64_t rows,
                             int64_t cols) {
  return {Arg::buffer(x, DType::f32, {rows, cols}),
          Arg::buffer(y, DType::f32, {roundUp16(rows), roundUp16(cols)})};
}

//===----------------------------------------------------------------------===//
// Without a GPU
//===----------------------------------------------------------------------===//

TEST(TensorMap, PackedAsARequestInTheDriversOrder) {
  KernelInfo kernel = tmaCopyKernel();
  PackedLaunch packed =
      checkAndPack(kernel, tmaCopyArgs(0x10000, 0x90000, 40, 36));
  EXPECT_EQ(packed.grid.x, 3u); // 36 columns in boxes of 16
  EXPECT_EQ(packed.grid.y, 3u); // 40 rows
  ASSERT_EQ(packed.params.size(), 7u);
  EXPECT_EQ(packed.params[6].kind, ParamKind::TensorMap);
  EXPECT_EQ(packed.params[6].bits, 0u); // tensorMaps[0]
  ASSERT_EQ(packed.tensorMaps.size(), 1u);
  const TensorMapRequest &request = packed.tensorMaps[0];
  EXPECT_EQ(request.dtype, DType::f32);
  EXPECT_EQ(request.address, CUdeviceptr(0x10000));
  EXPECT_EQ(request.rank, 2u);
  EXPECT_EQ(request.sizes[0], 36u); // innermost first
  EXPECT_EQ(request.sizes[1], 40u);
  EXPECT_EQ(request.strides[0], 36u * 4); // bytes from one row to the next
  EXPECT_EQ(request.box[0], 16u);
  EXPECT_EQ(request.box[1], 16u);
  EXPECT_EQ(request.swizzle, 0);
  EXPECT_FALSE(request.empty());

  // kernelParams points the tensor map's slot at its encoding.
  CUtensorMap encoded[1];
  std::vector<void *> pointers = packed.kernelParams(encoded);
  ASSERT_EQ(pointers.size(), 7u);
  EXPECT_EQ(pointers[6], static_cast<void *>(&encoded[0]));
  EXPECT_EQ(pointers[1], static_cast<const void *>(packed.params[1].data()));
  EXPECT_TILE_ERROR(packed.kernelParams(),
                    "this launch has 1 tensor_map parameters, but no encoded "
                    "maps were given");
}

TEST(TensorMap, RowsThatAreNot16ByteMultiplesAreRefused) {
  KernelInfo kernel = tmaCopyKernel();
  // 30 f32 = 120 bytes per row: TMA cannot address the rows.
  EXPECT_TILE_ERROR(
      checkAndPack(kernel, tmaCopyArgs(0x10000, 0x90000, 40, 30)),
      "kernel 'tma_copy': parameter 'X' is read or written with TMA (tensor "
      "map 'X.tma'), which needs the stride of dim 0 to be a multiple of 16 "
      "bytes, but it is 120 bytes (shape [40, 30] of f32); use a variant "
      "compiled without TMA");
  // 32 f32 = 128 bytes: accepted.
  EXPECT_NO_THROW(checkAndPack(kernel, tmaCopyArgs(0x10000, 0x90000, 40, 32)));
  // The base must be 16-byte aligned, as for every buffer.
  EXPECT_TILE_ERROR(checkAndPack(kernel, tmaCopyArgs(0x10008, 0x90000, 40, 32)),
                    "parameter 'X' needs a 16-byte aligned address");
}

TEST(TensorMap, SizesBeyondTmaAreRefused) {
  KernelInfo kernel = tmaCopyKernel();
  int64_t cols = (int64_t(1) << 32) + 16;
  EXPECT_TILE_ERROR(
      checkAndPack(kernel,
                   {Arg::buffer(0x10000, DType::f32, {1, cols}),
                    Arg::buffer(CUdeviceptr(1) << 44, DType::f32, {16, 16})}),
      "takes sizes of at most 2^32, but X[1] = 4294967312");
}

TEST(TensorMap, EmptyTensorsGiveEmptyRequests) {
  KernelInfo kernel = tmaCopyKernel();
  PackedLaunch packed =
      checkAndPack(kernel, tmaCopyArgs(0x10000, 0x90000, 0, 32));
  EXPECT_TRUE(packed.empty());
  ASSERT_EQ(packed.tensorMaps.size(), 1u);
  EXPECT_TRUE(packed.tensorMaps[0].empty());
}

TEST(TensorMap, HandBuiltDescriptionsAreValidated) {
  KernelInfo kernel = tmaCopyKernel();
  kernel.params[6].box = {16, 6}; // a box row of 24 bytes
  EXPECT_TILE_ERROR(checkAndPack(kernel, tmaCopyArgs(0x10000, 0x90000, 4, 4)),
                    "param 'X.tma': a box row of 6 f32 is 24 bytes, but TMA "
                    "moves rows of whole 16-byte units");
  kernel = tmaCopyKernel();
  kernel.params[6].buffer = "Z";
  EXPECT_TILE_ERROR(checkAndPack(kernel, tmaCopyArgs(0x10000, 0x90000, 4, 4)),
                    "param 'X.tma': describes 'Z', which is not a buffer "
                    "parameter");
  kernel = tmaCopyKernel();
  kernel.params[6].swizzle = 64; // 16 f32 = 64 bytes fit
  EXPECT_NO_THROW(checkAndPack(kernel, tmaCopyArgs(0x10000, 0x90000, 4, 4)));
  kernel.params[6].swizzle = 32;
  EXPECT_TILE_ERROR(checkAndPack(kernel, tmaCopyArgs(0x10000, 0x90000, 4, 4)),
                    "a box row of 64 bytes is wider than its 32-byte "
                    "swizzle");
}

TEST(PersistentGrid, CoversEveryTileAndIsCappedOnTheDevice) {
  KernelInfo kernel = tmaCopyKernel();
  kernel.persistent = PersistentGrid{2};
  // 1000 x 1000 in 16 x 16 tiles: 63 x 63 = 3969 tiles, all in x.
  PackedLaunch packed =
      checkAndPack(kernel, tmaCopyArgs(0x10000, 0x9000000, 1000, 1000));
  EXPECT_EQ(packed.grid.x, 3969u);
  EXPECT_EQ(packed.grid.y, 1u);
  ASSERT_TRUE(packed.persistent);
  // 132 SMs x 2 blocks each.
  EXPECT_EQ(packed.gridOn(132).x, 264u);
  EXPECT_EQ(packed.gridOn(132).y, 1u);
  // Fewer tiles than slots: one block per tile.
  PackedLaunch small =
      checkAndPack(kernel, tmaCopyArgs(0x10000, 0x9000000, 20, 20));
  EXPECT_EQ(small.gridOn(132).x, 4u);
  // A non-persistent kernel keeps its grid.
  kernel.persistent.reset();
  EXPECT_EQ(checkAndPack(kernel, tmaCopyArgs(0x10000, 0x9000000, 1000, 1000))
                .gridOn(132)
                .x,
            63u);
  kernel.persistent = PersistentGrid{0};
  EXPECT_TILE_ERROR(
      checkAndPack(kernel, tmaCopyArgs(0x10000, 0x9000000, 16, 16)),
      "persistent: blocks_per_sm must be in [1, 32], but got 0");
}

TEST(PersistentGrid, ClustersLaunchWholeClustersOfClusterTiles) {
  KernelInfo kernel = tmaCopyKernel();
  // Pairs of tiles one above the other (grid y), 2 blocks per cluster.
  kernel.persistent = PersistentGrid{1, {1, 2}};
  // 1000 x 1000 in 16 x 16 tiles: 63 x ceil(63 / 2) = 2016 cluster tiles,
  // a pair of blocks each.
  PackedLaunch packed =
      checkAndPack(kernel, tmaCopyArgs(0x10000, 0x9000000, 1000, 1000));
  EXPECT_EQ(packed.grid.x, 4032u);
  // 131 SMs hold 65 whole clusters.
  EXPECT_EQ(packed.gridOn(132).x, 132u);
  EXPECT_EQ(packed.gridOn(131).x, 130u);
  // A device of fewer multiprocessors than a cluster still gets one.
  EXPECT_EQ(packed.gridOn(1).x, 2u);
  // The clusters that the driver says fit at once cap it further.
  EXPECT_EQ(packed.gridOn(132, 60).x, 120u);
  EXPECT_EQ(packed.gridOn(132, 100).x, 132u);
  // 20 x 20: 2 x 1 cluster tiles (the second row of tiles is past the
  // edge in each), 4 blocks.
  EXPECT_EQ(checkAndPack(kernel, tmaCopyArgs(0x10000, 0x9000000, 20, 20))
                .gridOn(132)
                .x,
            4u);
  kernel.persistent = PersistentGrid{1, {2}};
  EXPECT_TILE_ERROR(
      checkAndPack(kernel, tmaCopyArgs(0x10000, 0x9000000, 16, 16)),
      "persistent: expected one cluster extent per grid extent (2), but "
      "got 1");
  kernel.persistent = PersistentGrid{1, {4, 4}};
  EXPECT_TILE_ERROR(
      checkAndPack(kernel, tmaCopyArgs(0x10000, 0x9000000, 16, 16)),
      "persistent: a cluster holds at most 8 blocks, but got 16");
}

//===----------------------------------------------------------------------===//
// With a GPU
//===----------------------------------------------------------------------===//

/// tma_copy for sm_90a: thread 0 initialises an mbarrier, expects 1024
/// bytes and issues one 2-D TMA load of the block's 16 x 16 box; every
/// thread waits on the barrier's phase 0 and stores one element of the box
/// to Y.
constexpr const char *kTmaCopyPtx = R"ptx(
.version 8.3
.target sm_90a
.address_size 64

.visible .entry tma_copy(
  .param .u64 X, .param .u64 Y,
  .param .u64 Xd0, .param .u64 Xd1, .param .u64 Yd0, .param .u64 Yd1,
  .param .align 64 .b8 Xmap[128])
{
  .reg .pred %p<3>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<16>;
  .reg .f32 %f1;
  .shared .align 128 .b8 tile[1024];
  .shared .align 8 .b64 bar;

  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 mbarrier.init.shared::cta.b64 [bar], 1;
  fence.mbarrier_init.release.cluster;
  bar.sync 0;
  mov.u32 %r2, %ctaid.x;
  shl.b32 %r3, %r2, 4;
  mov.u32 %r4, %ctaid.y;
  shl.b32 %r5, %r4, 4;
  mov.u64 %rd1, Xmap;
  cvta.param.u64 %rd2, %rd1;
  @%p1 mbarrier.arrive.expect_tx.shared::cta.b64 %rd3, [bar], 1024;
  @%p1 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [tile], [%rd2, {%r3, %r5}], [bar];
WAIT:
  mbarrier.try_wait.parity.shared::cta.b64 %p2, [bar], 0;
  @!%p2 bra WAIT;
  shr.u32 %r6, %r1, 4;
  and.b32 %r7, %r1, 15;
  shl.b32 %r8, %r1, 2;
  mov.u32 %r9, tile;
  add.u32 %r10, %r9, %r8;
  ld.shared.f32 %f1, [%r10];
  add.u32 %r11, %r5, %r6;
  add.u32 %r12, %r3, %r7;
  cvt.u64.u32 %rd4, %r11;
  cvt.u64.u32 %rd5, %r12;
  ld.param.u64 %rd6, [Yd1];
  mad.lo.u64 %rd7, %rd4, %rd6, %rd5;
  shl.b64 %rd8, %rd7, 2;
  ld.param.u64 %rd9, [Y];
  cvta.to.global.u64 %rd10, %rd9;
  add.u64 %rd11, %rd10, %rd8;
  st.global.f32 [%rd11], %f1;
  ret;
}
)ptx";

class TensorMapGpu : public ::testing::Test {
protected:
  void SetUp() override {
    if (std::string why = noGpuReason(); !why.empty())
      GTEST_SKIP() << why;
    device.emplace(Device::open());
    ComputeCapability cc = device->computeCapability();
    if (cc.major != 9 || cc.minor != 0)
      GTEST_SKIP() << "needs a compute capability 9.0 GPU for sm_90a, but "
                   << device->name() << " is " << device->chip();
  }

  std::optional<Device> device;
};

TEST_F(TensorMapGpu, CacheEncodesEachRequestOnce) {
  DeviceBuffer x(*device, 64 * 64 * 4), y(*device, 64 * 64 * 4);
  detail::TensorMapCache cache;
  PackedLaunch packed =
      checkAndPack(tmaCopyKernel(), tmaCopyArgs(x.ptr(), y.ptr(), 64, 64));
  std::vector<CUtensorMap> first = cache.encode(packed.tensorMaps, "tma_copy");
  std::vector<CUtensorMap> again = cache.encode(packed.tensorMaps, "tma_copy");
  EXPECT_EQ(cache.encodeCount(), 1u);
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(std::memcmp(&first[0], &again[0], sizeof(CUtensorMap)), 0);
  // Another shape is another map.
  PackedLaunch other =
      checkAndPack(tmaCopyKernel(), tmaCopyArgs(x.ptr(), y.ptr(), 32, 64));
  cache.encode(other.tensorMaps, "tma_copy");
  EXPECT_EQ(cache.encodeCount(), 2u);
  // The driver's refusal names the kernel and the request.
  TensorMapRequest bad = packed.tensorMaps[0];
  bad.box[0] = 0;
  EXPECT_TILE_ERROR(detail::encodeTensorMap(bad, "tma_copy"),
                    "cuTensorMapEncodeTiled failed");
}

TEST_F(TensorMapGpu, HandWrittenTmaKernelCopiesTilesWithZeroFill) {
  ManifestInfo manifest;
  manifest.target.chip = "sm_90a";
  manifest.kernels = {tmaCopyKernel()};
  Module module = Module::loadFromMemory(
      *device, kTmaCopyPtx, std::strlen(kTmaCopyPtx), manifest, "tma_copy.ptx");
  Kernel kernel = module.kernel("tma_copy");
  Stream stream(*device);
  for (auto [rows, cols] :
       {std::pair<int64_t, int64_t>{40, 36}, {16, 16}, {1, 4}, {100, 132}}) {
    SCOPED_TRACE(std::to_string(rows) + " x " + std::to_string(cols));
    std::vector<float> host(rows * cols);
    for (std::size_t i = 0; i < host.size(); ++i)
      host[i] = float(i % 1000) + 0.5f;
    DeviceBuffer x = DeviceBuffer::fromHost(*device, host);
    int64_t yRows = roundUp16(rows), yCols = roundUp16(cols);
    DeviceBuffer y(*device, yRows * yCols * 4);
    y.fill32(0x7fc00000); // NaN: every element must be written
    kernel.launch(stream, {Arg::buffer(x, DType::f32, {rows, cols}),
                           Arg::buffer(y, DType::f32, {yRows, yCols})});
    stream.synchronize();
    std::vector<float> out = y.download<float>();
    int wrong = 0;
    for (int64_t r = 0; r < yRows; ++r)
      for (int64_t c = 0; c < yCols; ++c) {
        float expected = r < rows && c < cols ? host[r * cols + c] : 0.0f;
        wrong += out[r * yCols + c] != expected;
      }
    EXPECT_EQ(wrong, 0);
  }
}

} // namespace
