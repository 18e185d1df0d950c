//===- KernelToGPU.cpp - tile.kernel to gpu.func and its manifest ---------===//
//
// The kernel and its ABI: the gpu.func with bare-pointer buffer parameters
// and one index per dynamic size, the global tensors rebuilt from them, the
// block ids (rasterized), the launch description (#tile.launch) for the
// manifest; and tile.barrier.
//
//===----------------------------------------------------------------------===//

#include "LoweringState.h"
#include "tile/Conversion/TileToGPU/TileToGPU.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

namespace mlir::tile::lowering {

//===----------------------------------------------------------------------===//
// Kernel structure
//===----------------------------------------------------------------------===//

const BufferStorage *KernelLowering::getConvertedBuffer(Value tile) const {
  auto it = storage.find(tile);
  return it == storage.end() ? nullptr : &it->second;
}

void KernelLowering::setConvertedBuffer(Value tile,
                                        const BufferStorage &converted) {
  assert(converted.memref.getType() == typeConverter.convertType(tile) &&
         "a buffer's memref has the type converter's type");
  storage[tile] = converted;
}

void KernelLowering::createFunction() {
  Location loc = kernel.getLoc();

  // Parameters: buffers as bare pointers, scalars as they are, then one index
  // per dynamic dimension of each buffer.
  FunctionType funcType =
      typeConverter.convertKernelType(kernel.getFunctionType());
  // Then one generic pointer per tensor map of the TMA copies (the runtime
  // passes each as a 128-byte grid-constant parameter, which
  // tile-mark-grid-constants declares from the launch description once the
  // function is an llvm.func: a gpu.func cannot carry the attributes).
  kernel.walk([&](CopyOp copy) {
    if (!copy.isTma())
      return;
    unsigned param = cast<BlockArgument>(copy.getTmaGlobal()).getArgNumber();
    auto [box, swizzle] = getTmaBox(copy);
    if (llvm::any_of(tensorMaps, [&](const TensorMap &map) {
          return map.param == param && map.box == box;
        }))
      return;
    tensorMaps.push_back({param, box, swizzle, 0});
  });
  if (!tensorMaps.empty()) {
    SmallVector<Type> inputs(funcType.getInputs());
    for (TensorMap &map : tensorMaps) {
      map.argument = inputs.size();
      inputs.push_back(LLVM::LLVMPointerType::get(getContext()));
    }
    funcType = FunctionType::get(getContext(), inputs, {});
  }
  // Then a stream_k kernel's workspace, a global pointer.
  if (kernel.getStreamK()) {
    SmallVector<Type> inputs(funcType.getInputs());
    inputs.push_back(LLVM::LLVMPointerType::get(getContext(), 1));
    funcType = FunctionType::get(getContext(), inputs, {});
  }

  builder.setInsertionPointToEnd(gpuModule.getBody());
  func = gpu::GPUFuncOp::create(builder, loc, kernel.getSymName(), funcType);
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                builder.getUnitAttr());
  func.setKnownBlockSizeAttr(builder.getDenseI32ArrayAttr(
      {static_cast<int32_t>(kernel.getBlockThreads()), 1, 1}));
  // The cluster's blocks are consecutive in x (a persistent grid is 1-D):
  // .reqnctapercluster, which cuLaunchKernel honours.
  if (kernel.getCluster())
    func.setKnownClusterSizeAttr(builder.getDenseI32ArrayAttr(
        {static_cast<int32_t>(kernel.getClusterBlocks()), 1, 1}));

  Block &entry = func.getBody().front();
  if (kernel.getStreamK())
    workspace = entry.getArguments().back();
  builder.setInsertionPointToStart(&entry);
  threadId = gpu::ThreadIdOp::create(builder, loc, gpu::Dimension::x);
  if (int64_t consumers = kernel.getConsumerCount(); consumers > 1) {
    // Ping-pong: every compute set sees the block as the body describes
    // it, its threads numbered from 128 as the first set's are.
    int64_t setThreads = kernel.getComputeThreads();
    Value computeThread = arith::MaxSIOp::create(
        builder, loc,
        arith::SubIOp::create(builder, loc, threadId,
                              constant(loc, kWarpgroupThreads)),
        constant(loc, 0));
    consumerIndex = arith::DivUIOp::create(builder, loc, computeThread,
                                           constant(loc, setThreads));
    threadId =
        arith::SubIOp::create(builder, loc, threadId,
                              arith::MulIOp::create(builder, loc, consumerIndex,
                                                    constant(loc, setThreads)));
  }
  group = {threadId, numThreads, /*wholeBlock=*/true};

  // Rebuild each global tensor from its pointer and sizes.
  unsigned nextDynamic = kernel.getNumParams();
  for (unsigned i = 0; i < kernel.getNumParams(); ++i) {
    BlockArgument param = kernel.getParam(i);
    auto buffer = dyn_cast<BufferType>(param.getType());
    if (!buffer) {
      param.replaceAllUsesWith(entry.getArgument(i));
      continue;
    }
    BufferStorage global{buffer, {}, {}};
    for (int64_t d = 0; d < buffer.getRank(); ++d) {
      global.sizes.push_back(buffer.isDynamicDim(d)
                                 ? Value(entry.getArgument(nextDynamic++))
                                 : constant(loc, buffer.getDimSize(d)));
      global.divisors.push_back(getSizeDivisor(param, d));
    }
    // The view's type: row-major strides, static where the sizes are.
    auto type = typeConverter.convertType<MemRefType>(param);
    ArrayRef<int64_t> staticStrides =
        cast<StridedLayoutAttr>(type.getLayout()).getStrides();
    SmallVector<OpFoldResult> strides(buffer.getRank());
    Value stride = constant(loc, 1);
    for (int64_t d = buffer.getRank() - 1; d >= 0; --d) {
      strides[d] = stride;
      if (d > 0)
        stride = arith::MulIOp::create(builder, loc, stride, global.sizes[d]);
    }
    // Static sizes and strides stay attributes so the memref type keeps them.
    SmallVector<OpFoldResult> sizes;
    for (int64_t d = 0; d < buffer.getRank(); ++d) {
      sizes.push_back(
          buffer.isDynamicDim(d)
              ? OpFoldResult(global.sizes[d])
              : OpFoldResult(builder.getIndexAttr(buffer.getDimSize(d))));
      if (!ShapedType::isDynamic(staticStrides[d]))
        strides[d] = builder.getIndexAttr(staticStrides[d]);
    }
    global.memref = memref::ReinterpretCastOp::create(
        builder, loc, type, entry.getArgument(i), builder.getIndexAttr(0),
        sizes, strides);
    setConvertedBuffer(param, global);
  }

  // The block indices. A persistent kernel's body reads the coordinates of
  // its tiles instead (tile.tile_coords); it keeps the plain block ids.
  static const gpu::Dimension dims[] = {gpu::Dimension::x, gpu::Dimension::y,
                                        gpu::Dimension::z};
  SmallVector<Value> blockIds;
  for (unsigned d = 0; d < kernel.getGridRank(); ++d)
    blockIds.push_back(gpu::BlockIdOp::create(builder, loc, dims[d]));
  if (std::optional<int64_t> panel = kernel.getRasterPanel();
      panel && !kernel.getPersistent()) {
    Value gridX = gpu::GridDimOp::create(builder, loc, gpu::Dimension::x);
    Value gridY = gpu::GridDimOp::create(builder, loc, gpu::Dimension::y);
    Value linear = arith::AddIOp::create(
        builder, loc, arith::MulIOp::create(builder, loc, blockIds[1], gridX),
        blockIds[0]);
    std::tie(blockIds[0], blockIds[1]) =
        rasterize(loc, linear, gridX, gridY, *panel);
  }
  for (unsigned d = 0; d < kernel.getGridRank(); ++d)
    kernel.getBlockIndex(d).replaceAllUsesWith(blockIds[d]);

  // Move the body after the prologue and terminate it. Allocations are
  // later placed before the first operation of the body.
  Operation *terminator = gpu::ReturnOp::create(builder, loc);
  Block &body = kernel.getEntryBlock();
  prologueEnd = body.empty() ? terminator : &body.front();
  entry.getOperations().splice(terminator->getIterator(), body.getOperations());
  // A block of a cluster may not exit while another may still write into
  // its shared memory (multicast copies) or arrive on its mbarriers: every
  // thread of the cluster meets here last.
  if (kernel.getCluster()) {
    builder.setInsertionPoint(terminator);
    NVVM::ClusterArriveOp::create(builder, loc, /*aligned=*/UnitAttr());
    NVVM::ClusterWaitOp::create(builder, loc, /*aligned=*/UnitAttr());
  }
}

std::pair<Value, Value> KernelLowering::rasterize(Location loc, Value linear,
                                                  Value tilesX, Value tilesY,
                                                  int64_t panel) {
  // The linear index walks panels of `panel` grid rows, down a column of
  // the panel first (the last panel may be shorter).
  Value panelSize = constant(loc, panel);
  Value perPanel = arith::MulIOp::create(builder, loc, panelSize, tilesX);
  Value firstRow = arith::MulIOp::create(
      builder, loc, arith::DivUIOp::create(builder, loc, linear, perPanel),
      panelSize);
  Value rows = arith::MinUIOp::create(
      builder, loc, arith::SubIOp::create(builder, loc, tilesY, firstRow),
      panelSize);
  Value inPanel = arith::RemUIOp::create(builder, loc, linear, perPanel);
  Value y = arith::AddIOp::create(
      builder, loc, firstRow,
      arith::RemUIOp::create(builder, loc, inPanel, rows));
  Value x = arith::DivUIOp::create(builder, loc, inPanel, rows);
  return {x, y};
}

SmallVector<Value> KernelLowering::emitGridExtents(Location loc) {
  SmallVector<Value> extents;
  for (auto extent : kernel.getGrid().getAsRange<GridExtentAttr>()) {
    if (extent.isConstant()) {
      extents.push_back(constant(loc, extent.getDivisor()));
      continue;
    }
    Value size = getConvertedBuffer(kernel.getParam(extent.getParam()))
                     ->sizes[extent.getDim()];
    extents.push_back(
        extent.getDivisor() == 1
            ? size
            : arith::CeilDivUIOp::create(builder, loc, size,
                                         constant(loc, extent.getDivisor())));
  }
  return extents;
}

Value KernelLowering::getDynamicSharedMemory() {
  if (!dynamicSharedMemory) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(&func.getBody().front());
    dynamicSharedMemory = gpu::DynamicSharedMemoryOp::create(
        builder, kernel.getLoc(), typeConverter.getDynamicSharedMemoryType());
  }
  return dynamicSharedMemory;
}

/// What the kernel does with each buffer parameter, for the manifest:
/// "read", "write", "readwrite" or "accumulate", from the memory effects of
/// the tile ops on it and on its tile.subview views. A use whose effects are
/// not known counts as both; a buffer whose sizes alone are used is "read".
/// A buffer that only tile.atomic_add touches is "accumulate" (the runtime
/// zeroes it first); atomic adds beside other accesses add into what the
/// buffer holds ("readwrite").
static SmallVector<StringRef> getBufferAccess(KernelOp kernel) {
  SmallVector<StringRef> access;
  for (unsigned i = 0; i < kernel.getNumParams(); ++i) {
    bool reads = false, writes = false, atomics = false;
    SmallVector<Value> views = {kernel.getParam(i)};
    while (!views.empty()) {
      Value view = views.pop_back_val();
      for (Operation *user : view.getUsers()) {
        if (auto subview = dyn_cast<SubviewOp>(user)) {
          views.push_back(subview.getResult());
          continue;
        }
        if (auto add = dyn_cast<AtomicAddOp>(user);
            add && add.getDest() == view && add.getSource() != view) {
          atomics = true;
          continue;
        }
        auto interface = dyn_cast<MemoryEffectOpInterface>(user);
        if (!interface) {
          reads = writes = true;
          continue;
        }
        SmallVector<MemoryEffects::EffectInstance> effects;
        interface.getEffectsOnValue(view, effects);
        for (const MemoryEffects::EffectInstance &effect : effects) {
          reads |= isa<MemoryEffects::Read>(effect.getEffect());
          writes |= isa<MemoryEffects::Write>(effect.getEffect());
        }
      }
    }
    if (atomics)
      access.push_back(reads || writes ? "readwrite" : "accumulate");
    else
      access.push_back(!writes ? "read" : reads ? "readwrite" : "write");
  }
  return access;
}

LogicalResult KernelLowering::begin() {
  // Before the lowering replaces the tile ops that use the buffers.
  bufferAccess = getBufferAccess(kernel);
  createFunction();
  return readSharedMemoryPlan();
}

FailureOr<LaunchAttr> KernelLowering::finish(ArrayRef<Operation *> tileOps) {
  for (Operation *op : llvm::reverse(tileOps)) {
    if (!op->use_empty())
      return op->emitOpError("result is used by an operation that is not a "
                             "tile op, which cannot be lowered");
    op->erase();
  }
  for (BlockArgument param : kernel.getEntryBlock().getArguments())
    if (!param.use_empty())
      return kernel.emitOpError("parameter is used by an operation that is "
                                "not a tile op, which cannot be lowered");
  // Each tile fits (its type says so), but all of them together, with the
  // stages and the reductions' scratch, must too.
  if (sharedBytes > kMaxSharedMemoryBytes)
    return kernel.emitOpError("expected at most ")
           << kMaxSharedMemoryBytes
           << " bytes of shared memory (227 KiB, a block's on the largest "
              "GPU), but its tiles take "
           << sharedBytes << " bytes";

  // The launch description (the manifest entry): parameters by name, in the
  // order of the function's arguments.
  MLIRContext *ctx = kernel.getContext();
  SmallVector<Attribute> params, dimParams;
  for (unsigned i = 0; i < kernel.getNumParams(); ++i) {
    StringRef name = kernel.getParamName(i);
    Type type = kernel.getFunctionType().getInput(i);
    auto buffer = dyn_cast<BufferType>(type);
    if (!buffer) {
      params.push_back(ScalarParamAttr::get(ctx, name, type));
      continue;
    }
    SmallVector<int64_t> divisibility;
    bool promised = false;
    for (int64_t d = 0; d < buffer.getRank(); ++d) {
      int64_t divisor = buffer.isDynamicDim(d) ? kernel.getDivisor(i, d) : 1;
      divisibility.push_back(divisor);
      promised |= divisor > 1;
      if (buffer.isDynamicDim(d))
        dimParams.push_back(DimParamAttr::get(
            ctx, KernelOp::getDimParamName(name, d), name, d));
    }
    // The sizes the runtime must check at launch (`divisible`), if any.
    if (!promised)
      divisibility.clear();
    params.push_back(BufferParamAttr::get(
        ctx, name, buffer.getElementType(), buffer.getShape(),
        *symbolizeBufferAccess(bufferAccess[i]),
        ArrayRef<int64_t>(divisibility)));
  }
  llvm::append_range(params, dimParams);
  for (auto [i, map] : llvm::enumerate(tensorMaps)) {
    StringRef buffer = kernel.getParamName(map.param);
    params.push_back(
        TensorMapParamAttr::get(ctx, (buffer + ".tma" + Twine(i)).str(), buffer,
                                ArrayRef<int64_t>(map.box), map.swizzle));
  }
  if (kernel.getStreamK())
    params.push_back(
        WorkspaceParamAttr::get(ctx, "workspace", workspaceBytesPerBlock));

  SmallVector<GridRuleAttr> grid;
  for (auto extent : kernel.getGrid().getAsRange<GridExtentAttr>())
    grid.push_back(
        extent.isConstant()
            ? GridRuleAttr::get(ctx, "", 0, extent.getDivisor())
            : GridRuleAttr::get(ctx, kernel.getParamName(extent.getParam()),
                                extent.getDim(), extent.getDivisor()));
  // The launch contract, as written on the kernel.
  SmallVector<SizeRelationAttr> contract;
  for (ShapeRelationAttr relation : kernel.getContract()) {
    StringRef lhs = kernel.getParamName(relation.getLhsParam());
    if (relation.isConstant())
      contract.push_back(SizeRelationAttr::get(ctx, lhs, relation.getLhsDim(),
                                               relation.getPredicate(), "", 0,
                                               relation.getValue()));
    else
      contract.push_back(SizeRelationAttr::get(
          ctx, lhs, relation.getLhsDim(), relation.getPredicate(),
          kernel.getParamName(relation.getRhsParam()), relation.getRhsDim(),
          std::nullopt));
  }
  // Checked: a kernel that passed its verifier gives a valid description,
  // but this is what the runtime will trust.
  // (ArrayRefs: with the vectors themselves, the call would pick the
  // storage-level template.)
  int64_t block[] = {kernel.getBlockThreads(), 1, 1};
  return LaunchAttr::getChecked(
      [&] { return kernel.emitOpError("has an invalid launch description: "); },
      ctx, kernel.getSymName(), ArrayRef<int64_t>(block),
      ArrayRef<GridRuleAttr>(grid), sharedBytes, ArrayRef<Attribute>(params),
      ArrayRef<SizeRelationAttr>(contract),
      /*persistent=*/int64_t(kernel.getPersistent() ? 1 : 0),
      kernel.getCluster().value_or(ArrayRef<int64_t>()));
}

} // namespace mlir::tile::lowering

namespace {

/// tile.barrier: one gpu.barrier.
struct BarrierOpLowering : public TileToGPUPattern<BarrierOp> {
  using TileToGPUPattern::TileToGPUPattern;
  LogicalResult matchAndRewrite(BarrierOp op,
                                PatternRewriter &rewriter) const override {
    lowering.emitGroupBarrier(op.getLoc());
    return success();
  }
};

/// The extents of the grid a persistent kernel walks: its tiles, or with a
/// cluster its cluster tiles (each extent divided by the cluster's).
static SmallVector<Value> emitWalkedExtents(KernelLowering &lowering,
                                            Location loc) {
  SmallVector<Value> extents = lowering.emitGridExtents(loc);
  if (std::optional<ArrayRef<int64_t>> cluster = lowering.kernel.getCluster())
    for (auto [extent, blocks] : llvm::zip(extents, *cluster))
      if (blocks > 1)
        extent = arith::CeilDivUIOp::create(lowering.builder, loc, extent,
                                            lowering.constant(loc, blocks));
  return extents;
}

/// tile.tile_range: the block's index, the number of blocks (the runtime
/// launches a persistent kernel in x alone) and the grid's tiles; with a
/// cluster, the cluster's index, the number of clusters and the cluster
/// tiles.
struct TileRangeOpLowering : public TileToGPUPattern<TileRangeOp> {
  using TileToGPUPattern::TileToGPUPattern;
  LogicalResult matchAndRewrite(TileRangeOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value count;
    for (Value extent : emitWalkedExtents(lowering, loc))
      count =
          count ? arith::MulIOp::create(rewriter, loc, count, extent) : extent;
    bool cluster = lowering.kernel.getCluster().has_value();
    op.getFirst().replaceAllUsesWith(
        cluster ? gpu::ClusterIdOp::create(rewriter, loc, gpu::Dimension::x)
                      .getResult()
                : gpu::BlockIdOp::create(rewriter, loc, gpu::Dimension::x)
                      .getResult());
    op.getStep().replaceAllUsesWith(
        cluster ? gpu::ClusterDimOp::create(rewriter, loc, gpu::Dimension::x)
                      .getResult()
                : gpu::GridDimOp::create(rewriter, loc, gpu::Dimension::x)
                      .getResult());
    op.getCount().replaceAllUsesWith(count);
    return success();
  }
};

/// tile.tile_coords: the linear tile over the grid's (at most two)
/// extents, x fastest, or rasterized as the kernel's block ids would be;
/// with a cluster, over the cluster grid, then this block's tile in the
/// cluster tile (cluster coordinate x blocks + rank along the clustered
/// dimension).
struct TileCoordsOpLowering : public TileToGPUPattern<TileCoordsOp> {
  using TileToGPUPattern::TileToGPUPattern;
  LogicalResult matchAndRewrite(TileCoordsOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    KernelOp kernel = lowering.kernel;
    SmallVector<Value> extents = emitWalkedExtents(lowering, loc);
    SmallVector<Value> coords;
    Value tile = op.getTile();
    if (std::optional<int64_t> panel = kernel.getRasterPanel()) {
      // A panel spans as many grid rows with clusters as without.
      int64_t rows = kernel.getCluster() ? (*kernel.getCluster())[1] : 1;
      auto [x, y] = lowering.rasterize(loc, tile, extents[0], extents[1],
                                       std::max<int64_t>(*panel / rows, 1));
      coords = {x, y};
    } else if (extents.size() == 2) {
      coords = {arith::RemUIOp::create(rewriter, loc, tile, extents[0]),
                arith::DivUIOp::create(rewriter, loc, tile, extents[0])};
    } else {
      coords = {tile};
    }
    if (std::optional<ArrayRef<int64_t>> cluster = kernel.getCluster()) {
      Value rank =
          gpu::ClusterBlockIdOp::create(rewriter, loc, gpu::Dimension::x);
      for (auto [coord, blocks] : llvm::zip(coords, *cluster))
        if (blocks > 1)
          coord = arith::AddIOp::create(
              rewriter, loc,
              arith::MulIOp::create(rewriter, loc, coord,
                                    lowering.constant(loc, blocks)),
              rank);
    }
    for (auto [result, value] : llvm::zip(op.getCoords(), coords))
      result.replaceAllUsesWith(value);
    return success();
  }
};

} // namespace

void mlir::tile::populateTileKernelToGPUPatterns(
    lowering::KernelLowering &lowering, RewritePatternSet &patterns) {
  patterns.add<BarrierOpLowering, TileRangeOpLowering, TileCoordsOpLowering>(
      lowering);
}
