//===- LayoutEmitters.cpp - Thread chunks, row maps, swizzles -------------===//
//
// The emitters for layouts that the op families share: which chunks of a
// tile the calling thread owns (round-robin or as a fragment layout places
// them), where the rows of a rank-2 fragment live (row maps, for reductions
// and #tile.slice row values), and #tile.swizzle addresses of shared tiles.
//
//===----------------------------------------------------------------------===//

#include "LoweringState.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tile;

namespace mlir::tile::lowering {

Distribution distribute(ArrayRef<int64_t> shape, int64_t vec,
                        int64_t numThreads) {
  Distribution d;
  d.vec = vec;
  d.numChunks = ShapedType::getNumElements(shape) / vec;
  d.chunksPerThread = llvm::divideCeil(d.numChunks, numThreads);
  d.needsGuard = d.numChunks % numThreads != 0;
  return d;
}

//===----------------------------------------------------------------------===//
// Thread mapping helpers
//===----------------------------------------------------------------------===//

SmallVector<Value> KernelLowering::delinearize(Location loc, Value linear,
                                               ArrayRef<int64_t> shape) {
  SmallVector<Value> coords(shape.size());
  for (int64_t d = shape.size() - 1; d >= 0; --d) {
    if (d == 0) {
      coords[d] = linear;
      break;
    }
    Value size = constant(loc, shape[d]);
    coords[d] = arith::RemUIOp::create(builder, loc, linear, size);
    linear = arith::DivUIOp::create(builder, loc, linear, size);
  }
  return coords;
}

/// Consecutive elements per chunk of a distributed fragment layout; none
/// for a #tile.slice (row values are replicated, not cut in chunks) or no
/// layout.
static std::optional<int64_t> chunkWidth(Attribute layout) {
  auto fragment = dyn_cast_or_null<FragmentLayoutAttrInterface>(layout);
  if (!fragment || isa<SliceLayoutAttr>(layout))
    return std::nullopt;
  return fragment.getVectorWidth();
}

FailureOr<int64_t> KernelLowering::fragmentVector(Operation *user,
                                                  Attribute layout) {
  if (std::optional<int64_t> vec = chunkWidth(layout))
    return *vec;
  return user->emitOpError("expected fragment operands with a layout; run "
                           "-tile-assign-layouts first");
}

void KernelLowering::forEachChunk(Location loc, const Distribution &dist,
                                  function_ref<void(int64_t, Value)> body) {
  for (int64_t round = 0; round < dist.chunksPerThread; ++round) {
    Value chunk = arith::AddIOp::create(
        builder, loc, constant(loc, round * group.threads), getGroupThreadId());
    bool partial = dist.needsGuard && round == dist.chunksPerThread - 1;
    if (!partial) {
      body(round, chunk);
      continue;
    }
    Value inRange =
        arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult, chunk,
                              constant(loc, dist.numChunks));
    auto guard = scf::IfOp::create(builder, loc, inRange);
    OpBuilder::InsertionGuard insertion(builder);
    builder.setInsertionPointToStart(&guard.getThenRegion().front());
    body(round, chunk);
  }
}

/// The #tile.swizzle geometry of a shared tile (that of the plain pattern
/// when it has none).
static SwizzleGeometry swizzleGeometry(BufferType type) {
  auto swizzle = dyn_cast_or_null<SwizzleLayoutAttr>(type.getLayout());
  return SwizzleLayoutAttr::getGeometry(type.getShape(), type.getElementType(),
                                        swizzle && swizzle.getStaging());
}

Value KernelLowering::swizzledColumn(Location loc, BufferType type, Value row,
                                     Value col, int64_t chunkLow) {
  SwizzleGeometry g = swizzleGeometry(type);
  Value perChunkValue = constant(loc, g.perChunk);
  Value chunk = arith::DivUIOp::create(builder, loc, col, perChunkValue);
  if (chunkLow != 0)
    chunk = arith::AddIOp::create(builder, loc, chunk, constant(loc, chunkLow));
  Value within = arith::RemUIOp::create(builder, loc, col, perChunkValue);
  Value pattern;
  if (g.staging) {
    // ((2 * row) mod 8) | ((chunk / 8) mod 2), within the row's `columns`.
    Value rowPart = arith::AndIOp::create(
        builder, loc,
        arith::MulIOp::create(builder, loc, row, constant(loc, 2)),
        constant(loc, (g.columns - 1) & ~int64_t(1)));
    Value chunkPart = arith::AndIOp::create(
        builder, loc,
        arith::DivUIOp::create(builder, loc, chunk, constant(loc, g.columns)),
        constant(loc, 1));
    pattern = arith::OrIOp::create(builder, loc, rowPart, chunkPart);
  } else {
    pattern = arith::RemUIOp::create(
        builder, loc,
        arith::DivUIOp::create(builder, loc, row, constant(loc, g.patternRows)),
        constant(loc, g.columns));
  }
  Value swizzled = arith::XOrIOp::create(builder, loc, chunk, pattern);
  return arith::AddIOp::create(
      builder, loc,
      arith::MulIOp::create(builder, loc, swizzled, perChunkValue), within);
}

/// Where the element at (`row`, `col`) of a #tile.nvmma tile is stored, as
/// row-major coordinates of its storage (NvmmaLayoutAttr::
/// getPhysicalPosition in IR): panel `col / W` after the panels before it,
/// 16-byte chunk `c` of the row at `c xor ((row / P) mod (S / 16))`.
static std::pair<Value, Value> nvmmaPosition(KernelLowering &lowering,
                                             Location loc, BufferType type,
                                             NvmmaLayoutAttr nvmma, Value row,
                                             Value col) {
  OpBuilder &b = lowering.builder;
  auto c = [&](int64_t v) { return lowering.constant(loc, v); };
  int64_t rows = type.getShape()[type.getRank() - 2];
  int64_t cols = type.getShape().back();
  int64_t width = nvmma.getPanelWidth(type.getElementType());
  int64_t perChunk = 16 / getElementByteWidth(type.getElementType());
  Value panel = arith::DivUIOp::create(b, loc, col, c(width));
  Value inPanel = arith::RemUIOp::create(b, loc, col, c(width));
  Value chunk = arith::DivUIOp::create(b, loc, inPanel, c(perChunk));
  Value within = arith::RemUIOp::create(b, loc, col, c(perChunk));
  if (int64_t swizzle = nvmma.getSwizzle()) {
    Value pattern = arith::RemUIOp::create(
        b, loc, arith::DivUIOp::create(b, loc, row, c(128 / swizzle)),
        c(swizzle / 16));
    chunk = arith::XOrIOp::create(b, loc, chunk, pattern);
  }
  Value linear = arith::AddIOp::create(
      b, loc,
      arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, panel, c(rows * width)),
          arith::MulIOp::create(b, loc, row, c(width))),
      arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, chunk, c(perChunk)), within));
  return {arith::DivUIOp::create(b, loc, linear, c(cols)),
          arith::RemUIOp::create(b, loc, linear, c(cols))};
}

SmallVector<Value> KernelLowering::physical(Location loc,
                                            const BufferStorage &tile,
                                            ArrayRef<Value> coords) {
  SmallVector<Value> result(coords);
  if (auto nvmma = dyn_cast_or_null<NvmmaLayoutAttr>(tile.type.getLayout())) {
    size_t rank = coords.size();
    std::tie(result[rank - 2], result[rank - 1]) = nvmmaPosition(
        *this, loc, tile.type, nvmma, coords[rank - 2], coords[rank - 1]);
    return result;
  }
  if (!isa_and_nonnull<SwizzleLayoutAttr>(tile.type.getLayout()))
    return result;
  result.back() = swizzledColumn(loc, tile.type, coords[coords.size() - 2],
                                 coords.back(), /*chunkLow=*/0);
  return result;
}

SmallVector<Value> KernelLowering::physicalAt(Location loc,
                                              const BufferStorage &tile,
                                              Value row, int64_t rowOffset,
                                              Value col, int64_t colOffset) {
  auto addConstant = [&](Value v, int64_t offset) -> Value {
    if (offset == 0)
      return v;
    return arith::AddIOp::create(builder, loc, v, constant(loc, offset));
  };
  SwizzleGeometry g = swizzleGeometry(tile.type);
  if (!isa_and_nonnull<SwizzleLayoutAttr>(tile.type.getLayout()) ||
      colOffset % g.perChunk != 0 || tile.type.getShape().size() != 2)
    return physical(loc, tile,
                    {addConstant(row, rowOffset), addConstant(col, colOffset)});
  // Rows: a multiple of patternRows * columns leaves the pattern unchanged.
  int64_t period = g.patternRows * g.columns;
  int64_t rowInPeriod = rowOffset % period, rowHigh = rowOffset - rowInPeriod;
  Value patternRow = addConstant(row, rowInPeriod);
  // Columns: ((c + low + high) xor p) = ((c + low) xor p) + high when high is
  // a multiple of the pattern's chunk period (p < columns touches the low
  // bits only; the staging pattern also reads chunk / columns mod 2).
  int64_t chunkOffset = colOffset / g.perChunk;
  int64_t chunkLow = chunkOffset % g.chunkPeriod(),
          chunkHigh = chunkOffset - chunkLow;
  Value physicalCol = swizzledColumn(loc, tile.type, patternRow, col, chunkLow);
  return {addConstant(patternRow, rowHigh),
          addConstant(physicalCol, chunkHigh * g.perChunk)};
}

//===----------------------------------------------------------------------===//
// Row maps and register counts
//===----------------------------------------------------------------------===//

FailureOr<RowMap> KernelLowering::getRowMap(Operation *op,
                                            ArrayRef<int64_t> shape,
                                            Attribute layout) {
  // The layout says where the rows are (TileLayouts.cpp); the lambdas build
  // the calling thread's part of that in IR.
  FailureOr<RowDistribution> dist = getRowDistribution(
      layout, shape, numThreads, [op] { return op->emitOpError(); });
  if (failed(dist))
    return failure();
  RowMap map;
  map.slots = dist->slots;
  map.lanesPerRow = dist->lanesPerRow;
  map.warpsPerRow = dist->warpsPerRow;
  map.rowsPerWarp = dist->rowsPerWarp;
  map.slotOf = [dist = *dist](int64_t s) { return dist.getRowSlot(s); };
  if (auto mma = dyn_cast_or_null<MmaLayoutAttr>(layout)) {
    // A lane holds rows l/4 and l/4 + 8 of each 16-row MMA tile; the four
    // lanes of a quad share them, as do the warps of one warp row.
    int64_t warpRows = mma.getWarpTile(shape).first;
    int64_t warpsN = mma.getWarpsN();
    map.rowOf = [this, warpRows, warpsN, dist = *dist](int64_t k) -> Value {
      Location loc = builder.getUnknownLoc();
      auto [warp, lane] = getWarpAndLane(loc);
      Value base = arith::AddIOp::create(
          builder, loc,
          arith::MulIOp::create(
              builder, loc,
              arith::DivUIOp::create(builder, loc, warp, constant(loc, warpsN)),
              constant(loc, warpRows)),
          arith::DivUIOp::create(builder, loc, lane, constant(loc, 4)));
      return arith::AddIOp::create(builder, loc, base,
                                   constant(loc, dist.getRowOffset(k)));
    };
    map.isFirstHolder = [this, warpsN]() -> Value {
      Location loc = builder.getUnknownLoc();
      auto [warp, lane] = getWarpAndLane(loc);
      auto isZero = [&](Value v, int64_t modulus) -> Value {
        return arith::CmpIOp::create(
            builder, loc, arith::CmpIPredicate::eq,
            arith::RemUIOp::create(builder, loc, v, constant(loc, modulus)),
            constant(loc, 0));
      };
      return arith::AndIOp::create(builder, loc, isZero(lane, 4),
                                   isZero(warp, warpsN));
    };
    return map;
  }
  if (dist->kind == RowDistribution::Kind::RowsPerRound) {
    // A round of chunks covers whole rows: chunksPerRow consecutive threads
    // share each row, one chunk each.
    int64_t chunksPerRow = dist->perRow;
    map.rowOf = [this, dist = *dist, chunksPerRow](int64_t k) -> Value {
      Location loc = builder.getUnknownLoc();
      return arith::AddIOp::create(
          builder, loc, constant(loc, dist.getRowOffset(k)),
          arith::DivUIOp::create(builder, loc, threadId,
                                 constant(loc, chunksPerRow)));
    };
    map.isFirstHolder = [this, chunksPerRow]() -> Value {
      Location loc = builder.getUnknownLoc();
      return arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::eq,
          arith::RemUIOp::create(builder, loc, threadId,
                                 constant(loc, chunksPerRow)),
          constant(loc, 0));
    };
    return map;
  }
  // A row spans whole rounds: every thread holds part of every row.
  map.rowOf = [this, dist = *dist](int64_t k) -> Value {
    return constant(builder.getUnknownLoc(), dist.getRowOffset(k));
  };
  map.isFirstHolder = [this]() -> Value {
    return isFirstThread(builder.getUnknownLoc());
  };
  return map;
}

FailureOr<int64_t> KernelLowering::registersPerThread(Operation *op,
                                                      Value buffer) {
  auto type = cast<BufferType>(buffer.getType());
  auto layout = dyn_cast_or_null<FragmentLayoutAttrInterface>(type.getLayout());
  if (!layout)
    return op->emitOpError("expected a fragment with a layout; run "
                           "-tile-assign-layouts first");
  // A #tile.slice the reduction cannot lay out has no registers: say why.
  if (auto slice = dyn_cast<SliceLayoutAttr>(layout))
    if (failed(getRowDistribution(
            slice.getParent(), slice.getParentShape(type.getShape()),
            numThreads, [op] { return op->emitOpError(); })))
      return failure();
  // The count the fragment's memref type has.
  return *typeConverter.getRegistersPerThread(type);
}

//===----------------------------------------------------------------------===//
// Thread chunks of a layout
//===----------------------------------------------------------------------===//

std::pair<Value, Value> KernelLowering::getWarpAndLane(Location loc) {
  if (!warpId) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointAfterValue(threadId);
    Value warpSize = constant(loc, 32);
    warpId = arith::DivUIOp::create(builder, loc, threadId, warpSize);
    laneId = arith::RemUIOp::create(builder, loc, threadId, warpSize);
  }
  return {warpId, laneId};
}

Value KernelLowering::isFirstThread(Location loc) {
  return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, threadId,
                               constant(loc, 0));
}

void KernelLowering::enterGroupOf(Operation *op) {
  if (!computeRole || !computeRole->findAncestorOpInBlock(*op)) {
    group = {threadId, numThreads, /*wholeBlock=*/true};
    return;
  }
  group = computeGroup;
}

Value KernelLowering::getGroupThreadId() {
  if (!group.threadId) {
    // The compute role's, made once, where the role starts: its threads
    // follow the producer warpgroup's.
    OpBuilder::InsertionGuard guard(builder);
    Location loc = computeRole->getParentOp()->getLoc();
    if (computeRoleStart)
      builder.setInsertionPointAfter(computeRoleStart);
    else
      builder.setInsertionPointToStart(computeRole);
    computeGroup.threadId = arith::SubIOp::create(
        builder, loc, threadId, constant(loc, kWarpgroupThreads));
    group.threadId = computeGroup.threadId;
  }
  return group.threadId;
}

Value KernelLowering::getComputeWarpgroup(Location loc,
                                          WgmmaLayoutAttr layout) {
  Value warp = getWarpAndLane(loc).first;
  return arith::SubIOp::create(
      builder, loc,
      arith::DivUIOp::create(builder, loc, warp,
                             constant(loc, kWarpgroupThreads / 32)),
      constant(loc, layout.getFirstComputeWarpgroup(numThreads)));
}

void KernelLowering::forEachThreadChunk(
    Location loc, ArrayRef<int64_t> shape, Attribute layout, int64_t vec,
    function_ref<void(int64_t, ArrayRef<Value>)> body) {
  if (auto wgmma = dyn_cast_or_null<WgmmaLayoutAttr>(layout)) {
    // #tile.wgmma: compute warpgroup g owns sub-tile (g / wn, g mod wn) of
    // 64-row blocks; in each, warp w of it rows 16 w + l/4 (+8), columns
    // 8 i + 2 (l mod 4) of every 8-column group i.
    auto [warp, lane] = getWarpAndLane(loc);
    auto [rows, cols] = wgmma.getWarpgroupTile(shape);
    Value group = getComputeWarpgroup(loc, wgmma);
    Value groupsN = constant(loc, wgmma.getWarpgroupsN());
    Value rowBase = arith::AddIOp::create(
        builder, loc,
        arith::AddIOp::create(
            builder, loc,
            arith::MulIOp::create(
                builder, loc,
                arith::DivUIOp::create(builder, loc, group, groupsN),
                constant(loc, rows)),
            arith::MulIOp::create(
                builder, loc,
                arith::RemUIOp::create(builder, loc, warp, constant(loc, 4)),
                constant(loc, 16))),
        arith::DivUIOp::create(builder, loc, lane, constant(loc, 4)));
    Value colBase = arith::AddIOp::create(
        builder, loc,
        arith::MulIOp::create(
            builder, loc, arith::RemUIOp::create(builder, loc, group, groupsN),
            constant(loc, cols)),
        arith::MulIOp::create(
            builder, loc,
            arith::RemUIOp::create(builder, loc, lane, constant(loc, 4)),
            constant(loc, 2)));
    for (int64_t block = 0; block < rows / 64; ++block)
      for (int64_t i = 0; i < cols / 8; ++i)
        for (int64_t half = 0; half < 2; ++half) {
          Value row = arith::AddIOp::create(
              builder, loc, rowBase, constant(loc, block * 64 + half * 8));
          Value col = arith::AddIOp::create(builder, loc, colBase,
                                            constant(loc, i * 8));
          body(block * (cols / 2) + i * 4 + half * 2, {row, col});
        }
    return;
  }
  auto mma = dyn_cast_or_null<MmaLayoutAttr>(layout);
  if (!mma) {
    forEachChunk(loc, distribute(shape, vec, group.threads),
                 [&](int64_t round, Value chunk) {
                   Value first = arith::MulIOp::create(builder, loc, chunk,
                                                       constant(loc, vec));
                   body(round * vec, delinearize(loc, first, shape));
                 });
    return;
  }
  // #tile.mma: warp (w / wn, w mod wn) owns a (M/wm) x (N/wn) sub-tile of
  // 16x8 MMA tiles; in each, the lane holds rows l/4 and l/4 + 8 at columns
  // 2 (l mod 4) and 2 (l mod 4) + 1.
  auto [warp, lane] = getWarpAndLane(loc);
  auto [warpRows, warpCols] = mma.getWarpTile(shape);
  auto [tilesM, tilesN] = mma.getMmaTiles(shape);
  Value warpsN = constant(loc, mma.getWarpsN());
  Value rowBase = arith::AddIOp::create(
      builder, loc,
      arith::MulIOp::create(builder, loc,
                            arith::DivUIOp::create(builder, loc, warp, warpsN),
                            constant(loc, warpRows)),
      arith::DivUIOp::create(builder, loc, lane, constant(loc, 4)));
  Value colBase = arith::AddIOp::create(
      builder, loc,
      arith::MulIOp::create(builder, loc,
                            arith::RemUIOp::create(builder, loc, warp, warpsN),
                            constant(loc, warpCols)),
      arith::MulIOp::create(
          builder, loc,
          arith::RemUIOp::create(builder, loc, lane, constant(loc, 4)),
          constant(loc, 2)));
  for (int64_t mt = 0; mt < tilesM; ++mt)
    for (int64_t nt = 0; nt < tilesN; ++nt)
      for (int64_t half = 0; half < 2; ++half) {
        Value row = arith::AddIOp::create(builder, loc, rowBase,
                                          constant(loc, mt * 16 + half * 8));
        Value col =
            arith::AddIOp::create(builder, loc, colBase, constant(loc, nt * 8));
        body(mma.getSlot(shape, mt, nt, half), {row, col});
      }
}

} // namespace mlir::tile::lowering
