//===- TileHopperAttrs.td - Hopper (sm_90a) layouts --------*- tablegen -*-===//
//
// The layouts of the Hopper lowering: the wgmma accumulator (#tile.wgmma)
// and the shared tiles TMA writes and wgmma reads (#tile.nvmma). Included
// by TileAttrs.td; the math is in TileHopperLayouts.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_TILEHOPPERATTRS_TD
#define TILE_DIALECT_TILE_IR_TILEHOPPERATTRS_TD

def Tile_WgmmaLayoutAttr : Tile_Attr<"WgmmaLayout", "wgmma",
    [DeclareAttrInterfaceMethods<Tile_FragmentLayoutAttrInterface>]> {
  let summary = "fragment layout of a warpgroup MMA (wgmma.mma_async) accumulator";
  let description = [{
    The register layout that `wgmma.mma_async.m64nNk16` gives its f32
    accumulator
    ([PTX ISA](https://docs.nvidia.com/cuda/parallel-thread-execution/#wgmma-64n16-d)).
    The compute warpgroups (4 warps, 128 threads each) form a
    `warpgroups = [wm, wn]` grid (warpgroup `g` at row `g / wn`, column
    `g mod wn`); each owns an `(M/wm) x (N/wn)` sub-tile made of blocks of
    64 rows, one wgmma instruction of `n = N/wn` per block and k-step. In a
    block, warp `w` of the warpgroup holds rows `16 w` to `16 w + 15`, and
    lane `l` of it the two consecutive elements at row `16 w + l / 4` and
    columns `8 i + 2 (l mod 4)`, `+1` of every 8-column group `i`, and the
    same at row `16 w + l / 4 + 8`: the `#tile.mma` pattern of each warp,
    repeated along N. So row values (`#tile.slice`), `tile.reduce` along
    dim 1 and `tile.parallel` work on it as on `#tile.mma`.

    One warpgroup, the first 16 columns (thread ids; warp 1 starts at row
    16):

    ```
    #tile.wgmma<warpgroups = [1, 1]>, 64x16 fragment, T = 128
      row 0:  t0 t0 t1 t1 t2 t2 t3 t3 t0 t0 t1 t1 t2 t2 t3 t3
      row 1:  t4 t4 t5 t5 t6 t6 t7 t7 t4 t4 t5 t5 t6 t6 t7 t7
      ...
      row 7:  t28 t28 t29 t29 t30 t30 t31 t31 t28 t28 t29 t29 t30 t30 t31 t31
      row 8:  t0 t0 t1 t1 t2 t2 t3 t3 t0 t0 t1 t1 t2 t2 t3 t3
      ...
      row 16: t32 t32 t33 t33 t34 t34 t35 t35 t32 t32 t33 t33 t34 t34 t35 t35
      ...
      row 63: t124 t124 t125 t125 t126 t126 t127 t127 t124 t124 t125 t125 t126 t126 t127 t127
    ```

    A thread's registers are ordered by 64-row block, then by 8-column
    group, then by row half (`+0`, `+8`), then by the column pair: for one
    block, the order of the instruction's accumulator registers
    `d[4 i + 2 half + j]`.

    Requirements (checked by the buffer type): rank 2, `M` a multiple of
    `64 wm`, `N / wn` a multiple of 8 and at most 256 (the widest wgmma).
    The kernel has `128 wm wn` threads, or one warpgroup more when it is
    warp-specialized: the first warpgroup then produces (issues the TMA
    copies) and holds no accumulator, and the compute warpgroups are the
    following ones. `tile-assign-layouts` gives this layout to `tile.gemm`
    accumulators on `sm_90a`.

    Example: `!tile.buffer<128x256xf32, fragment, #tile.wgmma<warpgroups = [2, 1]>>`
  }];
  let parameters = (ins "unsigned":$warpgroupsM, "unsigned":$warpgroupsN);
  let assemblyFormat =
      "`<` `warpgroups` `=` `[` $warpgroupsM `,` $warpgroupsN `]` `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned getNumWarpgroups() const {
      return getWarpgroupsM() * getWarpgroupsN();
    }
    /// The rows and columns of the sub-tile each warpgroup owns.
    std::pair<int64_t, int64_t>
    getWarpgroupTile(ArrayRef<int64_t> shape) const;
    /// The first warpgroup that holds accumulators in a kernel of
    /// `numThreads` threads: 1 when one producer warpgroup comes first.
    int64_t getFirstComputeWarpgroup(int64_t numThreads) const;
  }];
}

def Tile_NvmmaLayoutAttr : Tile_Attr<"NvmmaLayout", "nvmma",
    [DeclareAttrInterfaceMethods<Tile_SharedLayoutAttrInterface>]> {
  let summary = "shared-tile layout that TMA writes and wgmma reads: swizzled panels";
  let description = [{
    The layout of a shared tile as the Tensor Memory Accelerator stores a
    box with `CU_TENSOR_MAP_SWIZZLE_<S>B` and as a wgmma shared-memory
    descriptor of the same swizzle mode reads it
    ([PTX ISA](https://docs.nvidia.com/cuda/parallel-thread-execution/#tensor-swizzling-modes)).
    The last dimension is cut into panels `S` bytes wide; panel `p` holds
    columns `[p W, (p + 1) W)` of every row (`W = S / element bytes`) and
    the panels are stored one after the other, each row-major. In a panel,
    16-byte chunk `c` of row `r` is stored at chunk `c xor ((r / P) mod
    (S / 16))` with `P = 128 / S`: eight consecutive rows of one chunk fall
    in different banks. `swizzle = 0` stores the tile row-major (panels of
    16 bytes and no XOR; wgmma calls this interleaved).

    For 128-byte panels (the pattern repeats every 8 rows; one panel of
    64 f16):

    ```
    #tile.nvmma<swizzle = 128>, 8x64xf16 tile
      row 0:  chunks 0 1 2 3 4 5 6 7
      row 1:  chunks 1 0 3 2 5 4 7 6
      row 2:  chunks 2 3 0 1 6 7 4 5
      row 3:  chunks 3 2 1 0 7 6 5 4
      row 4:  chunks 4 5 6 7 0 1 2 3
      row 5:  chunks 5 4 7 6 1 0 3 2
      row 6:  chunks 6 7 4 5 2 3 0 1
      row 7:  chunks 7 6 5 4 3 2 1 0
    ```

    Whether wgmma reads the tile K-major or MN-major is not part of the
    layout: it follows from the operand and its transpose (an `M x K` A
    tile and an `N x K` B tile are K-major, a `K x N` B tile is MN-major).

    Requirements: rank 2, the last dimension a multiple of one panel
    (`S` bytes; 16 for `swizzle = 0`), a tile of at most 256 rows (one TMA
    box per panel). Every panel starts at a multiple of 1024 bytes of the
    tile (8 rows of 128 bytes), which `tile-plan-shared-memory` keeps by
    placing these tiles at 1024-byte offsets. `tile-assign-layouts` gives
    it to the shared tiles that `tile.gemm` reads on `sm_90a`.

    Example: `!tile.buffer<64x256xf16, shared, #tile.nvmma<swizzle = 128>>`
  }];
  let parameters = (ins "unsigned":$swizzle);
  let assemblyFormat = "`<` `swizzle` `=` $swizzle `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Elements per panel row: the swizzle width (16 bytes when 0).
    int64_t getPanelWidth(Type elementType) const;
  }];
}

#endif // TILE_DIALECT_TILE_IR_TILEHOPPERATTRS_TD
