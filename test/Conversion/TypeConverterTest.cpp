//===- TypeConverterTest.cpp - What tile types become in the gpu.func -----===//
//
// Pins the mapping of TileToGPUTypeConverter: the kernel signature, the
// memref of each memory space (fragments through their layout and the
// kernel's thread count), scalars unchanged, the failures, and the views
// (tile.subview, tile.stage) that only convertType(Value) knows.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/TileToGPU/TypeConverter.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <string>

using namespace mlir;
using namespace mlir::tile;

namespace {

class TypeConverterTest : public ::testing::Test {
protected:
  void SetUp() override {
    context.loadDialect<TileDialect, arith::ArithDialect, gpu::GPUDialect>();
  }

  Type parse(const std::string &text) {
    Type type = parseType(text, &context);
    EXPECT_TRUE(type) << text;
    return type;
  }

  /// The converted type of `text` for `threads` threads, printed; "null"
  /// when it has no conversion.
  std::string convert(const std::string &text, int64_t threads = 128) {
    TileToGPUTypeConverter converter(&context, threads);
    return print(converter.convertType(parse(text)));
  }

  static std::string print(Type type) {
    if (!type)
      return "null";
    std::string text;
    llvm::raw_string_ostream os(text);
    os << type;
    return text;
  }

  MLIRContext context;
};

TEST_F(TypeConverterTest, GlobalBufferIsAStridedView) {
  // Row-major: strides are static up to the first dynamic size from the
  // right, offset 0.
  EXPECT_EQ(convert("!tile.buffer<?x?xf32, global>"),
            "memref<?x?xf32, strided<[?, 1]>, #gpu.address_space<global>>");
  EXPECT_EQ(convert("!tile.buffer<4x8x16xf16, global>"),
            "memref<4x8x16xf16, strided<[128, 16, 1]>, "
            "#gpu.address_space<global>>");
  EXPECT_EQ(convert("!tile.buffer<?x8x?xf32, global>"),
            "memref<?x8x?xf32, strided<[?, ?, 1]>, "
            "#gpu.address_space<global>>");
  EXPECT_EQ(convert("!tile.buffer<?x64xbf16, global>"),
            "memref<?x64xbf16, strided<[64, 1]>, #gpu.address_space<global>>");
}

TEST_F(TypeConverterTest, SharedTileIsAWorkgroupMemref) {
  EXPECT_EQ(convert("!tile.buffer<64x32xf16, shared>"),
            "memref<64x32xf16, #gpu.address_space<workgroup>>");
  // A swizzle moves elements within the tile; the type does not show it.
  EXPECT_EQ(convert("!tile.buffer<64x64xf16, shared, #tile.swizzle>"),
            "memref<64x64xf16, #gpu.address_space<workgroup>>");
  EXPECT_EQ(convert("!tile.buffer<2x64x32xf16, shared>"),
            "memref<2x64x32xf16, #gpu.address_space<workgroup>>");
}

TEST_F(TypeConverterTest, FragmentIsTheThreadsRegisters) {
  // 4096 elements over 256 threads.
  EXPECT_EQ(convert("!tile.buffer<4x1024xf32, fragment, "
                    "#tile.row_major<vec = 4>>",
                    256),
            "memref<16xf32>");
  // The same fragment over 128 threads: twice the registers.
  EXPECT_EQ(convert("!tile.buffer<4x1024xf32, fragment, "
                    "#tile.row_major<vec = 4>>",
                    128),
            "memref<32xf32>");
  // 64x64 over four warps of m16n8 tiles.
  EXPECT_EQ(convert("!tile.buffer<64x64xf32, fragment, "
                    "#tile.mma<warps = [2, 2]>>",
                    128),
            "memref<32xf32>");
  // Row values: one register per row slot of the parent (each thread
  // holds a chunk of all 4 rows).
  EXPECT_EQ(convert("!tile.buffer<4xf32, fragment, #tile.slice<dim = 1, "
                    "dim_size = 1024, parent = #tile.row_major<vec = 4>>>",
                    256),
            "memref<4xf32>");
  // No layout: no registers to count, so no conversion.
  EXPECT_EQ(convert("!tile.buffer<1024xf32, fragment>"), "null");

  TileToGPUTypeConverter converter(&context, 256);
  auto fragment = cast<BufferType>(
      parse("!tile.buffer<4x1024xf32, fragment, #tile.row_major<vec = 4>>"));
  EXPECT_EQ(converter.getRegistersPerThread(fragment), 16);
  EXPECT_EQ(converter.getRegistersPerThread(
                cast<BufferType>(parse("!tile.buffer<1024xf32, fragment>"))),
            std::nullopt);
}

TEST_F(TypeConverterTest, ScalarsStayAsTheyAre) {
  EXPECT_EQ(convert("f32"), "f32");
  EXPECT_EQ(convert("index"), "index");
  EXPECT_EQ(convert("i64"), "i64");
}

TEST_F(TypeConverterTest, KernelParametersAreBarePointersThenSizes) {
  TileToGPUTypeConverter converter(&context, 128);
  auto kernelType = cast<FunctionType>(
      parse("(!tile.buffer<?x?xf32, global>, f32, "
            "!tile.buffer<64x64xf16, global>, !tile.buffer<?xi8, global>) "
            "-> ()"));
  EXPECT_EQ(print(converter.convertKernelType(kernelType)),
            "(memref<f32, #gpu.address_space<global>>, f32, "
            "memref<f16, #gpu.address_space<global>>, "
            "memref<i8, #gpu.address_space<global>>, index, index, index) "
            "-> ()");
  EXPECT_EQ(print(converter.convertKernelParamType(parse("f64"))), "f64");
}

TEST_F(TypeConverterTest, ViewsFollowTheirSource) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(
      R"mlir(
tile.kernel @views(%Q: !tile.buffer<?x?x?x64xf16, global>) grid(%bx) = [1] threads(128) {
  %c0 = arith.constant 0 : index
  %q = tile.subview %Q[%c0, %c0] : !tile.buffer<?x?x?x64xf16, global> to !tile.buffer<?x64xf16, global>
  %s = tile.alloc_shared : !tile.buffer<2x64x32xf16, shared>
  %s0 = tile.stage %s[%c0] : !tile.buffer<2x64x32xf16, shared> -> !tile.buffer<64x32xf16, shared>
}
)mlir",
      &context);
  ASSERT_TRUE(module);
  TileToGPUTypeConverter converter(&context, 128);
  SubviewOp subview;
  StageOp stage;
  module->walk([&](Operation *op) {
    if (auto s = dyn_cast<SubviewOp>(op))
      subview = s;
    if (auto s = dyn_cast<StageOp>(op))
      stage = s;
  });
  ASSERT_TRUE(subview && stage);
  // The parameter itself: the view of its pointer.
  EXPECT_EQ(print(converter.convertType(subview.getSource())),
            "memref<?x?x?x64xf16, strided<[?, ?, 64, 1]>, "
            "#gpu.address_space<global>>");
  // One head's rows: the source's strides, at a dynamic offset; its tile
  // type alone would say offset 0.
  EXPECT_EQ(print(converter.convertType(subview.getResult())),
            "memref<?x64xf16, strided<[64, 1], offset: ?>, "
            "#gpu.address_space<global>>");
  EXPECT_EQ(print(converter.convertType(subview.getResult().getType())),
            "memref<?x64xf16, strided<[64, 1]>, #gpu.address_space<global>>");
  // One stage of a double-buffered tile.
  EXPECT_EQ(print(converter.convertType(stage.getResult())),
            "memref<64x32xf16, strided<[32, 1], offset: ?>, "
            "#gpu.address_space<workgroup>>");
}

TEST_F(TypeConverterTest, SharedMemoryAndScratch) {
  TileToGPUTypeConverter converter(&context, 128);
  EXPECT_EQ(print(converter.getDynamicSharedMemoryType()),
            "memref<?xi8, #gpu.address_space<workgroup>>");
  EXPECT_EQ(print(converter.getScratchType(32)),
            "memref<32xf32, #gpu.address_space<workgroup>>");
}

} // namespace
