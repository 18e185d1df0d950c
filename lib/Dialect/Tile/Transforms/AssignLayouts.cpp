//===- AssignLayouts.cpp - Default layouts for fragments ------------------===//
//
// Implements -tile-assign-layouts: every fragment without a layout gets the
// widest row-major layout that its shape and the kernel's threads allow.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/EquivalenceClasses.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEASSIGNLAYOUTS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

/// The widest vector (in elements) of at most 16 bytes of the narrowest
/// element the fragment meets (its own, or that of a buffer it is copied
/// with: an f16 row read into an f32 fragment moves 8 elements per 16-byte
/// load) such that the fragment's last dimension and its element count per
/// thread both divide.
unsigned chooseVectorWidth(BufferType type, unsigned narrowestBytes,
                           int64_t threads) {
  unsigned maxVec =
      16 / std::min(narrowestBytes, getElementByteWidth(type.getElementType()));
  for (unsigned vec = maxVec; vec > 1; vec /= 2)
    if (fitsShape(RowMajorLayoutAttr::get(type.getContext(), vec),
                  type.getShape(), type.getElementType(), threads))
      return vec;
  return 1;
}

/// The warp grid for a gemm accumulator of `m x n` with `warps` warps: the
/// factorization whose per-warp tile is closest to square (ties: more warp
/// rows), among those whose warp tile is a whole number of 16x8 MMA tiles.
std::optional<std::pair<unsigned, unsigned>> chooseWarpGrid(BufferType c,
                                                            unsigned warps) {
  int64_t m = c.getDimSize(0), n = c.getDimSize(1);
  std::optional<std::pair<unsigned, unsigned>> best;
  int64_t bestScore = 0;
  for (unsigned wm = warps; wm >= 1; --wm) {
    if (warps % wm != 0)
      continue;
    unsigned wn = warps / wm;
    if (!fitsShape(MmaLayoutAttr::get(c.getContext(), wm, wn), c.getShape(),
                   c.getElementType(), 32 * warps))
      continue;
    int64_t score = std::abs(m / wm - n / wn);
    if (!best || score < bestScore) {
      best = {wm, wn};
      bestScore = score;
    }
  }
  return best;
}

struct TileAssignLayoutsPass
    : public tile::impl::TileAssignLayoutsBase<TileAssignLayoutsPass> {
  void runOnOperation() override {
    getOperation().walk([&](KernelOp kernel) {
      assign(kernel);
      swizzleGemmOperands(kernel);
      swizzleStagedAccumulators(kernel);
    });
  }

  /// Shared tiles that tile.gemm reads with ldmatrix get #tile.swizzle
  /// (when their rows span more than one 16-byte chunk), and so do the
  /// stages viewed from them.
  ///
  /// In a warp-specialized kernel (sm_90a) they get #tile.nvmma<swizzle =
  /// 128> instead: the panels TMA writes and wgmma descriptors read.
  void swizzleGemmOperands(KernelOp kernel) {
    Attribute swizzle =
        kernel.getWarpSpecialized()
            ? Attribute(NvmmaLayoutAttr::get(&getContext(), 128))
            : Attribute(
                  SwizzleLayoutAttr::get(&getContext(), /*staging=*/false));
    kernel.walk([&](GemmOp gemm) {
      for (Value operand : {gemm.getA(), gemm.getB()}) {
        Value root = operand;
        while (auto stage = root.getDefiningOp<StageOp>())
          root = stage.getSource();
        if (!canSwizzle(root))
          continue;
        if (auto nvmma = dyn_cast<NvmmaLayoutAttr>(swizzle)) {
          auto type = cast<BufferType>(root.getType());
          if (failed(nvmma.verifyShape(
                  [&] {
                    return gemm.emitOpError("cannot lay out an operand "
                                            "for wgmma: ");
                  },
                  type.getShape(), type.getElementType())))
            return signalPassFailure();
        }
        setLayoutWithStages(root, swizzle);
      }
    });
  }

  /// A shared tile an MMA accumulator is copied into (an epilogue staged in
  /// shared memory) gets #tile.swizzle<staging>: lanes 4 apart write rows
  /// one tile row apart, which without a swizzle fall in the same banks
  /// (8-way conflicts for rows of 128 bytes or a multiple), and the plain
  /// swizzle leaves two-way conflicts in those stores and in a rolled
  /// loop's reads.
  ///
  /// A shared tile a #tile.wgmma accumulator is copied into (sm_90a) gets
  /// #tile.nvmma with the widest swizzle its rows take, so that
  /// tile-warp-specialize can store it with TMA: the eight rows a warp
  /// writes per column pair fall in eight different 16-byte chunks.
  void swizzleStagedAccumulators(KernelOp kernel) {
    auto swizzle = SwizzleLayoutAttr::get(&getContext(), /*staging=*/true);
    kernel.walk([&](CopyOp copy) {
      Attribute source = copy.getSourceType().getLayout();
      if (isa_and_nonnull<WgmmaLayoutAttr>(source) &&
          copy.getDestType().isShared() && canSwizzle(copy.getDest())) {
        auto type = cast<BufferType>(copy.getDest().getType());
        for (unsigned bytes : {128, 64, 32}) {
          auto nvmma = NvmmaLayoutAttr::get(&getContext(), bytes);
          if (fitsShape(cast<SharedLayoutAttrInterface>(nvmma), type.getShape(),
                        type.getElementType())) {
            setLayoutWithStages(copy.getDest(), nvmma);
            break;
          }
        }
        return;
      }
      if (!isa_and_nonnull<MmaLayoutAttr>(source))
        return;
      if (canSwizzle(copy.getDest()))
        setLayoutWithStages(copy.getDest(), swizzle);
    });
  }

  /// A shared tile without a layout whose rows span whole 16-byte chunks,
  /// more than one (#tile.swizzle permutes the chunks within a row).
  static bool canSwizzle(Value tile) {
    auto type = cast<BufferType>(tile.getType());
    int64_t rowBytes =
        type.getShape().back() * getElementByteWidth(type.getElementType());
    return tile.getDefiningOp<AllocSharedOp>() && !type.getLayout() &&
           rowBytes > 16 && rowBytes % 16 == 0;
  }

  static void setLayoutWithStages(Value tile, Attribute layout) {
    tile.setType(cast<BufferType>(tile.getType()).withLayout(layout));
    for (Operation *user : tile.getUsers())
      if (auto stage = dyn_cast<StageOp>(user))
        setLayoutWithStages(stage.getResult(), layout);
  }

  /// Fragments used together (in one tile.parallel, or copied into each
  /// other) must share a layout, so they form groups; each group gets the
  /// smallest width its members allow (a smaller power of two still divides
  /// everything the larger one did), or the layout a member already has.
  void assign(KernelOp kernel) {
    llvm::EquivalenceClasses<Value> groups;
    SmallVector<Value> fragments;
    kernel.walk([&](AllocFragmentOp alloc) {
      groups.insert(alloc.getResult());
      fragments.push_back(alloc.getResult());
    });
    auto isFragment = [](Value v) {
      return cast<BufferType>(v.getType()).isFragment();
    };
    // The narrowest element of a global or shared buffer each fragment is
    // copied with.
    DenseMap<Value, unsigned> partnerBytes;
    kernel.walk([&](Operation *op) {
      SmallVector<Value> used;
      if (auto copy = dyn_cast<CopyOp>(op)) {
        used = {copy.getSource(), copy.getDest()};
        for (auto [side, other] : {std::pair(copy.getSource(), copy.getDest()),
                                   std::pair(copy.getDest(), copy.getSource())})
          if (isFragment(side) && !isFragment(other)) {
            unsigned bytes = getElementByteWidth(
                cast<BufferType>(other.getType()).getElementType());
            auto [it, inserted] = partnerBytes.try_emplace(side, bytes);
            it->second = std::min(it->second, bytes);
          }
      } else if (auto gemm = dyn_cast<GemmOp>(op)) {
        used = {gemm.getC()};
      } else if (auto loop = dyn_cast<ParallelOp>(op)) {
        // Row values read at every column (broadcast) follow their
        // reduction, not the loop.
        used = getElementwiseOperands(loop);
      }
      llvm::erase_if(used, [&](Value v) { return !isFragment(v); });
      for (Value v : used)
        if (groups.contains(v) && groups.contains(used.front()))
          groups.unionSets(used.front(), v);
    });

    // A gemm whose A is a fragment (P x V) needs the warps to split rows
    // alone, in A and C alike: their groups (and a gemm accumulator in
    // them, e.g. the scores P came from) take #tile.mma<warps = [w, 1]>.
    unsigned warps = kernel.getThreads() / 32;
    llvm::SmallDenseSet<Value> rowWarpGroups;
    kernel.walk([&](GemmOp gemm) {
      if (!gemm.getAType().isFragment())
        return;
      rowWarpGroups.insert(groups.getLeaderValue(gemm.getA()));
      rowWarpGroups.insert(groups.getLeaderValue(gemm.getC()));
    });

    // Gemm accumulators get the MMA layout, and so does every fragment used
    // with them.
    DenseMap<Value, Attribute> groupMma;
    bool failedGemm = false;
    kernel.walk([&](GemmOp gemm) {
      Value leader = groups.getLeaderValue(gemm.getC());
      BufferType c = gemm.getCType();
      Attribute layout = c.getLayout();
      if (!layout && kernel.getWarpSpecialized()) {
        // sm_90a: each compute warpgroup owns whole 64-row blocks of the
        // accumulator, one wgmma of the full N per block and K step.
        unsigned groupsM = kernel.getComputeThreads() / 128;
        auto wgmma = WgmmaLayoutAttr::get(&getContext(), groupsM, 1);
        if (gemm.getAType().isFragment() ||
            !fitsShape(wgmma, c.getShape(), c.getElementType(),
                       kernel.getThreads())) {
          gemm.emitOpError("cannot give its ")
              << c.getDimSize(0) << "x" << c.getDimSize(1)
              << " accumulator the wgmma layout " << wgmma
              << " of the kernel's compute warpgroups (rows a multiple of "
              << 64 * groupsM
              << ", N a multiple of 8 up to 256, A in shared memory)";
          failedGemm = true;
          return;
        }
        layout = wgmma;
      }
      if (!layout && rowWarpGroups.contains(leader)) {
        layout = MmaLayoutAttr::get(&getContext(), warps, 1);
        if (!fitsShape(cast<MmaLayoutAttr>(layout), c.getShape(),
                       c.getElementType(), 32 * warps)) {
          gemm.emitOpError("cannot spread the ")
              << c.getDimSize(0) << " rows of its accumulator over " << warps
              << " warps in 16-row MMA tiles, as the rows of a fragment A "
                 "operand need; change the tile or thread count";
          failedGemm = true;
          return;
        }
      }
      if (!layout) {
        auto grid = chooseWarpGrid(c, kernel.getThreads() / 32);
        if (!grid) {
          gemm.emitOpError("cannot spread a ")
              << c.getDimSize(0) << "x" << c.getDimSize(1)
              << " accumulator over " << kernel.getThreads() / 32
              << " warps in 16x8 MMA tiles; change the tile or thread count, "
                 "or give the fragment a #tile.mma layout";
          failedGemm = true;
          return;
        }
        layout = MmaLayoutAttr::get(&getContext(), grid->first, grid->second);
      }
      groupMma.try_emplace(leader, layout);
    });
    if (failedGemm)
      return signalPassFailure();
    // A fragments that no gemm produces (loaded or computed).
    for (Value leader : rowWarpGroups)
      groupMma.try_emplace(leader, MmaLayoutAttr::get(&getContext(), warps, 1));
    for (Value fragment : fragments) {
      auto it = groupMma.find(groups.getLeaderValue(fragment));
      auto type = cast<BufferType>(fragment.getType());
      if (it == groupMma.end() || type.getLayout())
        continue;
      if (type.getShape() !=
          cast<BufferType>(groups.getLeaderValue(fragment).getType())
              .getShape()) {
        fragment.getDefiningOp()->emitOpError(
            "is used with a gemm accumulator of another shape, so it cannot "
            "share its #tile.mma layout");
        return signalPassFailure();
      }
      fragment.setType(type.withLayout(it->second));
    }

    // Groups holding a tile.reduce result get the slice of the reduced
    // fragment's layout once that one is known (below).
    DenseMap<Value, ReduceOp> sliceGroups;
    kernel.walk([&](ReduceOp reduce) {
      if (groups.contains(reduce.getDst()))
        sliceGroups.try_emplace(groups.getLeaderValue(reduce.getDst()), reduce);
    });
    auto inSliceGroup = [&](Value fragment) {
      return sliceGroups.count(groups.getLeaderValue(fragment)) != 0;
    };

    // A layout already present decides for its group.
    DenseMap<Value, unsigned> groupVec;
    for (Value fragment : fragments)
      if (auto layout = dyn_cast_or_null<RowMajorLayoutAttr>(
              cast<BufferType>(fragment.getType()).getLayout()))
        groupVec[groups.getLeaderValue(fragment)] = layout.getVec();
    DenseMap<Value, unsigned> chosen;
    for (Value fragment : fragments) {
      Value leader = groups.getLeaderValue(fragment);
      if (groupVec.count(leader) || inSliceGroup(fragment))
        continue;
      // Every member's copies count: they all share the layout.
      unsigned narrowest = 16;
      for (Value member : groups.members(fragment))
        if (auto it = partnerBytes.find(member); it != partnerBytes.end())
          narrowest = std::min(narrowest, it->second);
      unsigned vec = chooseVectorWidth(cast<BufferType>(fragment.getType()),
                                       narrowest, kernel.getThreads());
      unsigned &groupWidth = chosen.try_emplace(leader, vec).first->second;
      groupWidth = std::min(groupWidth, vec);
    }
    for (auto [leader, vec] : chosen)
      groupVec[leader] = vec;
    for (Value fragment : fragments) {
      auto type = cast<BufferType>(fragment.getType());
      if (type.getLayout() || inSliceGroup(fragment))
        continue;
      unsigned vec = groupVec[groups.getLeaderValue(fragment)];
      // Uses are tile ops, whose verifiers accept any fragment layout, so the
      // type can change in place.
      fragment.setType(
          type.withLayout(RowMajorLayoutAttr::get(&getContext(), vec)));
    }
    for (Value fragment : fragments) {
      auto it = sliceGroups.find(groups.getLeaderValue(fragment));
      auto type = cast<BufferType>(fragment.getType());
      if (it == sliceGroups.end() || type.getLayout())
        continue;
      ReduceOp reduce = it->second;
      Attribute parent = reduce.getSrcType().getLayout();
      if (!parent) {
        reduce.emitOpError("reduces a fragment without a layout");
        return signalPassFailure();
      }
      fragment.setType(type.withLayout(SliceLayoutAttr::get(
          &getContext(), static_cast<unsigned>(reduce.getDim()),
          reduce.getSrcType().getDimSize(reduce.getDim()), parent)));
    }
  }
};

} // namespace
