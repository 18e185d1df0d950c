//===- TensorTest.cpp - Tensor views and DLPack tensors -------------------===//
//
// No GPU needed: Tensor's strides, its stored form for the GEMM's operands,
// its conversion to a kernel argument, and DLPack tensors built by hand as
// a framework would hand them over (types, strides, byte offsets, devices,
// the deleter).
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "tile/runtime/DLPack.h"
#include "tile/runtime/Tensor.h"

using namespace tile::rt;

namespace {

constexpr CUdeviceptr kBase = 0x10000000;

TEST(Tensor, RowMajorByDefault) {
  Tensor t = Tensor::at(kBase, DType::f16, {4, 3, 2});
  EXPECT_EQ(t.strides(), (std::vector<int64_t>{6, 2, 1}));
  EXPECT_TRUE(t.isRowMajor());
  EXPECT_EQ(t.numElements(), 24);
  EXPECT_EQ(t.rank(), 3u);
  EXPECT_FALSE(t.capacity());
  EXPECT_EQ(t.describe(), "f16[4, 3, 2]");
  // Dimensions of size 1 may carry any stride (frameworks leave them so).
  EXPECT_TRUE(Tensor::at(kBase, DType::f32, {1, 5}, {99, 1}).isRowMajor());
  EXPECT_FALSE(Tensor::at(kBase, DType::f32, {2, 5}, {99, 1}).isRowMajor());
}

TEST(Tensor, RefusesNegativeSizesAndStridesOfAnotherRank) {
  EXPECT_TILE_ERROR(Tensor::at(kBase, DType::f16, {4, -1}),
                    "a tensor's sizes must not be negative, but got shape "
                    "[4, -1]");
  EXPECT_TILE_ERROR(Tensor::at(kBase, DType::f16, {4, 3}, {3}),
                    "expected one stride per dimension of shape [4, 3], but "
                    "got strides [3]");
}

TEST(Tensor, TransposedViewsAndTheirStoredForm) {
  Tensor a = Tensor::at(kBase, DType::f16, {128, 64}); // M x K
  Tensor view = a.transposed();                        // K x M view
  EXPECT_EQ(view.shape(), (std::vector<int64_t>{64, 128}));
  EXPECT_EQ(view.strides(), (std::vector<int64_t>{1, 64}));
  EXPECT_FALSE(view.isRowMajor());
  EXPECT_EQ(view.describe(), "f16[64, 128] strides [1, 64]");

  std::optional<Tensor::Stored> plain = a.asStored();
  ASSERT_TRUE(plain);
  EXPECT_FALSE(plain->transposed);
  EXPECT_EQ(plain->stored.shape(), a.shape());

  std::optional<Tensor::Stored> stored = view.asStored();
  ASSERT_TRUE(stored);
  EXPECT_TRUE(stored->transposed);
  EXPECT_EQ(stored->stored.shape(), (std::vector<int64_t>{128, 64}));
  EXPECT_TRUE(stored->stored.isRowMajor());
  EXPECT_EQ(stored->stored.data(), kBase);

  // Every other column: no stored form; nor has a 3-D tensor.
  EXPECT_FALSE(Tensor::at(kBase, DType::f16, {128, 32}, {64, 2}).asStored());
  EXPECT_FALSE(Tensor::at(kBase, DType::f16, {2, 2, 2}).asStored());
  EXPECT_TILE_ERROR(Tensor::at(kBase, DType::f16, {8}).transposed(),
                    "transposed() swaps the last two dimensions, but f16[8] "
                    "has rank 1");
}

TEST(Tensor, ArgumentsAreRowMajorWithTheirCapacity) {
  Arg arg = Tensor::at(kBase, DType::bf16, {3, 5}).arg("X");
  EXPECT_EQ(arg.kind(), ParamKind::Buffer);
  EXPECT_EQ(arg.dtype(), DType::bf16);
  EXPECT_EQ(arg.devicePtr(), kBase);
  EXPECT_EQ(arg.shape(), (std::vector<int64_t>{3, 5}));
  EXPECT_FALSE(arg.capacity());
  EXPECT_TILE_ERROR(
      Tensor::at(kBase, DType::f16, {4, 4}).transposed().arg("the bias"),
      "the bias must be row-major (dense, the last dimension contiguous) for "
      "these kernels, but it is f16[4, 4] strides [1, 4]");

  // A view of an allocation: the launch checks it fits.
  ManifestInfo manifest = parseManifest(kVectorAddManifest);
  const KernelInfo &add = manifest.kernels.front();
  Arg a = Arg::buffer(kBase, DType::f32, {1000}, 4000);
  Arg b = Arg::buffer(kBase + 0x100000, DType::f32, {1000}, 3996);
  Arg c = Arg::buffer(kBase + 0x200000, DType::f32, {1000});
  Arg scale = Arg::scalar(2.0f);
  EXPECT_TILE_ERROR(checkAndPack(add, {a, b, c, scale}),
                    "but the buffer holds 3996");
  EXPECT_NO_THROW(checkAndPack(
      add,
      {a, Arg::buffer(kBase + 0x100000, DType::f32, {1000}, 4000), c, scale}));
}

//===----------------------------------------------------------------------===//
// DLPack
//===----------------------------------------------------------------------===//

/// A DLTensor as a framework fills it in, over `shape` (and `strides`,
/// null when empty).
struct HandBuiltDLTensor {
  HandBuiltDLTensor(DLDataType type, std::vector<int64_t> shapeIn,
                    std::vector<int64_t> stridesIn = {})
      : shape(std::move(shapeIn)), strides(std::move(stridesIn)) {
    tensor.data = reinterpret_cast<void *>(kBase);
    tensor.device = {kDLCUDA, 0};
    tensor.ndim = static_cast<int32_t>(shape.size());
    tensor.dtype = type;
    tensor.shape = shape.data();
    tensor.strides = strides.empty() ? nullptr : strides.data();
    tensor.byte_offset = 0;
  }
  std::vector<int64_t> shape, strides;
  DLTensor tensor{};
};

constexpr DLDataType kF16{kDLFloat, 16, 1};
constexpr DLDataType kBF16{kDLBfloat, 16, 1};

TEST(DLPack, RowMajorWithoutStrides) {
  HandBuiltDLTensor h(kF16, {8, 16});
  Tensor t = fromDLPack(h.tensor);
  EXPECT_EQ(t.dtype(), DType::f16);
  EXPECT_EQ(t.shape(), (std::vector<int64_t>{8, 16}));
  EXPECT_TRUE(t.isRowMajor());
  EXPECT_EQ(t.data(), kBase);
  EXPECT_FALSE(t.capacity());
}

TEST(DLPack, TypesStridesAndByteOffsets) {
  // torch.empty(16, 8).t(): an 8 x 16 column-major view.
  HandBuiltDLTensor h(kBF16, {8, 16}, {1, 8});
  h.tensor.byte_offset = 256;
  Tensor t = fromDLPack(h.tensor);
  EXPECT_EQ(t.dtype(), DType::bf16);
  EXPECT_EQ(t.data(), kBase + 256);
  EXPECT_EQ(t.strides(), (std::vector<int64_t>{1, 8}));
  std::optional<Tensor::Stored> stored = t.asStored();
  ASSERT_TRUE(stored);
  EXPECT_TRUE(stored->transposed);
  EXPECT_EQ(stored->stored.shape(), (std::vector<int64_t>{16, 8}));

  for (auto [type, expected] :
       {std::pair{DLDataType{kDLFloat, 32, 1}, DType::f32},
        {DLDataType{kDLFloat, 64, 1}, DType::f64},
        {DLDataType{kDLInt, 8, 1}, DType::i8},
        {DLDataType{kDLInt, 64, 1}, DType::i64}})
    EXPECT_EQ(dtypeFromDLPack(type), expected);
}

TEST(DLPack, RefusesHostMemoryLanesAndUnknownTypes) {
  HandBuiltDLTensor host(kF16, {4});
  host.tensor.device = {kDLCPU, 0};
  EXPECT_TILE_ERROR(fromDLPack(host.tensor),
                    "expected a DLPack tensor in CUDA device memory "
                    "(device_type kDLCUDA = 2), but got device_type 1");
  EXPECT_TILE_ERROR(dtypeFromDLPack(DLDataType{kDLFloat, 16, 2}),
                    "but got code 2, 16 bits, 2 lanes");
  EXPECT_TILE_ERROR(dtypeFromDLPack(DLDataType{kDLUInt, 8, 1}),
                    "but got code 1, 8 bits, 1 lanes");
  HandBuiltDLTensor noShape(kF16, {4});
  noShape.tensor.shape = nullptr;
  EXPECT_TILE_ERROR(fromDLPack(noShape.tensor),
                    "expected a DLPack tensor with a shape, but shape is null");
  HandBuiltDLTensor negative(kF16, {4, -2});
  EXPECT_TILE_ERROR(fromDLPack(negative.tensor),
                    "a tensor's sizes must not be negative");
}

int deleted = 0;

TEST(DLPack, OwnedTensorsCallTheirDeleterOnce) {
  HandBuiltDLTensor h(kF16, {2, 2});
  auto *managed = new DLManagedTensor{h.tensor, nullptr, nullptr};
  managed->deleter = [](DLManagedTensor *self) {
    ++deleted;
    delete self;
  };
  deleted = 0;
  {
    OwnedDLPack owned(managed);
    EXPECT_EQ(fromDLPack(*owned).shape(), (std::vector<int64_t>{2, 2}));
  }
  EXPECT_EQ(deleted, 1);
  // A tensor without a deleter (its producer keeps it) is left alone.
  DLManagedTensor unmanaged{h.tensor, nullptr, nullptr};
  OwnedDLPack(&unmanaged).reset();
  EXPECT_EQ(deleted, 1);
}

} // namespace
