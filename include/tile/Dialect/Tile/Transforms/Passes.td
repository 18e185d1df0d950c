//===- Passes.td - Tile dialect transformation passes ------*- tablegen -*-===//
//
// Passes that rewrite tile IR into tile IR.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD
#define TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileAssignLayouts : Pass<"tile-assign-layouts", "ModuleOp"> {
  let summary = "give every fragment without a layout the default layout";
  let description = [{
    Gives each `tile.alloc_fragment` whose type has no layout the
    `#tile.row_major` layout with the widest `vec` that (a) is at most 16
    bytes of the element type, (b) divides the last dimension and (c) with
    the kernel's thread count divides the number of elements. Uses of the
    fragment follow the new type.

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
