//===- Passes.td - Tile dialect transformation passes ------*- tablegen -*-===//
//
// Passes that rewrite tile IR into tile IR.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD
#define TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileAssignLayouts : Pass<"tile-assign-layouts", "ModuleOp"> {
  let summary = "give every fragment without a layout a layout";
  let description = [{
    Fragments used together (in one `tile.parallel`, or copied into each
    other) must share a layout, so they are grouped first. A group that
    holds a `tile.gemm` accumulator gets `#tile.mma<warps = [wm, wn]>`,
    with the warp grid whose per-warp tile is closest to square (the
    accumulator keeps a layout it already has). Any other group gets
    `#tile.row_major<vec = N>` with the widest `vec` that every member
    allows: at most 16 bytes of its element type, dividing its last
    dimension, and with the kernel's thread count dividing its element
    count. Fragments that already have a layout keep it and decide for
    their group. Uses of a fragment follow its new type.

    Before:

    ```mlir
    %a = tile.alloc_fragment : !tile.buffer<1024xf32, fragment>
    ```

    After (256 threads):

    ```mlir
    %a = tile.alloc_fragment : !tile.buffer<1024xf32, fragment, #tile.row_major<vec = 4>>
    ```
  }];
  let dependentDialects = [];
}

#endif // TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD
