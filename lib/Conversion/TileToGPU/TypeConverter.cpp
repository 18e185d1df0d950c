//===- TypeConverter.cpp - What tile types become in the gpu.func ---------===//
//
// TileToGPUTypeConverter: the memref (or parameter) type of each tile type
// for one kernel, asked by every place of -convert-tile-to-gpu that builds
// one.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/TileToGPU/TypeConverter.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::tile;

static gpu::AddressSpaceAttr getSpace(MLIRContext *context,
                                      gpu::AddressSpace space) {
  return gpu::AddressSpaceAttr::get(context, space);
}

TileToGPUTypeConverter::TileToGPUTypeConverter(MLIRContext *context,
                                               int64_t numThreads)
    : context(context), numThreads(numThreads) {
  // Tried last: scalars, index and anything else stay as they are.
  addConversion([](Type type) { return type; });
  addConversion([this](BufferType type) -> std::optional<Type> {
    switch (type.getScope()) {
    case MemoryScope::Global:
      return getGlobalViewType(type);
    case MemoryScope::Shared:
      return getSharedType(type);
    case MemoryScope::Fragment:
      // Null: a failed conversion (no layout to count registers with).
      return getFragmentType(type);
    }
    llvm_unreachable("unknown memory scope");
  });
  // Tried first, for values: a view's memref depends on its source's (its
  // strides, the dropped dimensions), which its tile type does not show.
  addConversion([this](Value value) -> std::optional<Type> {
    if (auto subview = value.getDefiningOp<SubviewOp>()) {
      auto source = convertType<MemRefType>(subview.getSource());
      return source ? getSubviewType(subview, source) : Type();
    }
    if (auto stage = value.getDefiningOp<StageOp>()) {
      auto source = convertType<MemRefType>(stage.getSource());
      return source ? getStageType(source) : Type();
    }
    return std::nullopt;
  });
}

Type TileToGPUTypeConverter::convertKernelParamType(Type type) const {
  auto buffer = dyn_cast<BufferType>(type);
  if (!buffer)
    return type;
  return MemRefType::get({}, buffer.getElementType(),
                         MemRefLayoutAttrInterface(),
                         getSpace(context, gpu::AddressSpace::Global));
}

FunctionType
TileToGPUTypeConverter::convertKernelType(FunctionType kernelType) const {
  SmallVector<Type> inputs;
  for (Type type : kernelType.getInputs())
    inputs.push_back(convertKernelParamType(type));
  for (Type type : kernelType.getInputs())
    if (auto buffer = dyn_cast<BufferType>(type))
      for (unsigned d = 0; d < buffer.getRank(); ++d)
        if (buffer.isDynamicDim(d))
          inputs.push_back(IndexType::get(context));
  return FunctionType::get(context, inputs, {});
}

MemRefType TileToGPUTypeConverter::getGlobalViewType(BufferType type) const {
  // Row-major strides, static as long as the sizes after the dimension are.
  SmallVector<int64_t> strides(type.getRank());
  int64_t stride = 1;
  for (int64_t d = type.getRank() - 1; d >= 0; --d) {
    strides[d] = stride;
    if (d > 0)
      stride = ShapedType::isDynamic(stride) || type.isDynamicDim(d)
                   ? ShapedType::kDynamic
                   : stride * type.getDimSize(d);
  }
  return MemRefType::get(type.getShape(), type.getElementType(),
                         StridedLayoutAttr::get(context, 0, strides),
                         getSpace(context, gpu::AddressSpace::Global));
}

MemRefType TileToGPUTypeConverter::getSharedType(BufferType type) const {
  return MemRefType::get(type.getShape(), type.getElementType(),
                         MemRefLayoutAttrInterface(),
                         getSpace(context, gpu::AddressSpace::Workgroup));
}

std::optional<int64_t>
TileToGPUTypeConverter::getRegistersPerThread(BufferType type) const {
  auto layout = dyn_cast_or_null<FragmentLayoutAttrInterface>(type.getLayout());
  if (!layout)
    return std::nullopt;
  // A #tile.slice holds one register per row slot of its parent's rows.
  if (auto slice = dyn_cast<SliceLayoutAttr>(layout))
    if (failed(getRowDistribution(slice.getParent(),
                                  slice.getParentShape(type.getShape()),
                                  numThreads, /*emitError=*/nullptr)))
      return std::nullopt;
  return layout.getRegistersPerThread(type.getShape(), numThreads);
}

MemRefType TileToGPUTypeConverter::getFragmentType(BufferType type) const {
  std::optional<int64_t> registers = getRegistersPerThread(type);
  if (!registers)
    return MemRefType();
  return MemRefType::get({*registers}, type.getElementType());
}

MemRefType TileToGPUTypeConverter::getSubviewType(SubviewOp op,
                                                  MemRefType source) const {
  // Offsets: the fixed indices (values, so dynamic), 0 for the rest; sizes:
  // 1 for the fixed dimensions, the source's for the rest.
  int64_t rank = source.getRank(), fixed = op.getIndices().size();
  SmallVector<int64_t> offsets, sizes, strides(rank, 1);
  for (int64_t d = 0; d < rank; ++d) {
    offsets.push_back(d < fixed ? ShapedType::kDynamic : 0);
    sizes.push_back(d < fixed ? 1 : source.getDimSize(d));
  }
  return cast<MemRefType>(memref::SubViewOp::inferRankReducedResultType(
      cast<BufferType>(op.getType()).getShape(), source, offsets, sizes,
      strides));
}

MemRefType TileToGPUTypeConverter::getStageType(MemRefType source) const {
  int64_t rank = source.getRank();
  SmallVector<int64_t> offsets(rank, 0), sizes = {1}, strides(rank, 1);
  offsets[0] = ShapedType::kDynamic;
  for (int64_t d = 1; d < rank; ++d)
    sizes.push_back(source.getDimSize(d));
  return cast<MemRefType>(memref::SubViewOp::inferRankReducedResultType(
      source.getShape().drop_front(), source, offsets, sizes, strides));
}

MemRefType TileToGPUTypeConverter::getDynamicSharedMemoryType() const {
  return MemRefType::get({ShapedType::kDynamic}, IntegerType::get(context, 8),
                         MemRefLayoutAttrInterface(),
                         getSpace(context, gpu::AddressSpace::Workgroup));
}

MemRefType TileToGPUTypeConverter::getScratchType(int64_t elements) const {
  return MemRefType::get({elements}, Float32Type::get(context),
                         MemRefLayoutAttrInterface(),
                         getSpace(context, gpu::AddressSpace::Workgroup));
}
