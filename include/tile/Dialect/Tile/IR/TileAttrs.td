//===- TileAttrs.td - Tile dialect attributes --------------*- tablegen -*-===//
//
// Memory scopes, fragment layouts and grid extents of the tile dialect.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_TILEATTRS_TD
#define TILE_DIALECT_TILE_IR_TILEATTRS_TD

include "tile/Dialect/Tile/IR/TileDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def Tile_MemoryScope : I32EnumAttr<"MemoryScope", "where a tile buffer lives", [
    I32EnumAttrCase<"Global", 0, "global">,
    I32EnumAttrCase<"Shared", 1, "shared">,
    I32EnumAttrCase<"Fragment", 2, "fragment">
  ]> {
  let cppNamespace = "::mlir::tile";
  let genSpecializedAttr = 0;
}

class Tile_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Tile_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Tile_RowMajorLayoutAttr : Tile_Attr<"RowMajorLayout", "row_major"> {
  let summary = "fragment layout: row-major chunks dealt round-robin to threads";
  let description = [{
    The plain register layout of a fragment. The tile is flattened in
    row-major order and cut into chunks of `vec` consecutive elements; chunk
    `c` belongs to thread `c mod T` (T = the kernel's thread count) and is
    that thread's `c / T`-th chunk. Each thread therefore holds
    `numel / T` elements, and each chunk maps to one `vec`-wide (ideally
    16-byte) vector access in global or shared memory.

    Thread ids owning each element of a 4x8 fragment with `vec = 2` in a
    4-thread kernel (rows of the tile, columns left to right):

    ```
    #tile.row_major<vec = 2>, T = 4
      row 0:  t0 t0 t1 t1 t2 t2 t3 t3
      row 1:  t0 t0 t1 t1 t2 t2 t3 t3
      row 2:  t0 t0 t1 t1 t2 t2 t3 t3
      row 3:  t0 t0 t1 t1 t2 t2 t3 t3
    ```

    Thread t0 holds elements (0,0) (0,1) (1,0) (1,1) ... in its registers
    0, 1, 2, 3 ... Requirements (checked by the verifier of the kernel that
    uses the fragment): `vec` divides the last dimension and `vec * T`
    divides the number of elements.

    The `tile-assign-layouts` pass gives this layout, with the widest `vec`
    that fits 16 bytes and meets the requirements, to every fragment that
    has none.
  }];
  let parameters = (ins "unsigned":$vec);
  let assemblyFormat = "`<` `vec` `=` $vec `>`";
  let genVerifyDecl = 1;
}

def Tile_GridExtentAttr : Tile_Attr<"GridExtent", "extent"> {
  let summary = "the size of one grid dimension of a kernel";
  let description = [{
    A grid dimension is either a constant (`param = -1`, size = `divisor`)
    or `ceildiv(size of dimension dim of kernel parameter param, divisor)`.
    The runtime evaluates it from the shapes given at launch time, so grids
    follow dynamic tensor sizes. `tile.kernel` prints it as `16` or
    `ceildiv(%A[0], 1024)`.
  }];
  let parameters = (ins "int64_t":$param, "int64_t":$dim, "int64_t":$divisor);
  let assemblyFormat = "`<` struct(params) `>`";
  let extraClassDeclaration = [{
    bool isConstant() const { return getParam() < 0; }
  }];
}

#endif // TILE_DIALECT_TILE_IR_TILEATTRS_TD
