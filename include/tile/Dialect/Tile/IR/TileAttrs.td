//===- TileAttrs.td - Tile dialect attributes --------------*- tablegen -*-===//
//
// Memory scopes, fragment layouts, grid extents and launch contracts of the
// tile dialect; the launch descriptions of lowered kernels are in
// TileLaunchAttrs.td, included at the end.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_TILEATTRS_TD
#define TILE_DIALECT_TILE_IR_TILEATTRS_TD

include "tile/Dialect/Tile/IR/TileDialect.td"
include "tile/Dialect/Tile/IR/TileLayoutInterfaces.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def Tile_ReduceKind : I32EnumAttr<"ReduceKind", "how tile.reduce combines", [
    I32EnumAttrCase<"sum", 0>, I32EnumAttrCase<"max", 1>,
    I32EnumAttrCase<"min", 2>]> {
  let cppNamespace = "::mlir::tile";
}

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

def Tile_RowMajorLayoutAttr : Tile_Attr<"RowMajorLayout", "row_major",
    [DeclareAttrInterfaceMethods<Tile_FragmentLayoutAttrInterface>]> {
  let summary = "fragment layout: row-major chunks dealt round-robin to threads";
  let description = [{
    The plain register layout of a fragment. The tile is flattened in
    row-major order and cut into chunks of `vec` consecutive elements; chunk
    `c` belongs to thread `c mod T` (T = the kernel's thread count) and is
    that thread's `c / T`-th chunk. Each thread therefore holds
    `numel / T` elements, and each chunk maps to one `vec`-wide (ideally
    16-byte) vector access in global or shared memory. A chunk spans at
    most 32 bytes of the fragment's own type: an f32 fragment of f16 data
    takes `vec = 8` so that its copies move 16 bytes of f16 at a time (the
    f32 side then splits into two 16-byte accesses).

    Thread ids owning each element of a 4x8 fragment with `vec = 2` in a
    4-thread kernel (rows of the tile, columns left to right):

    ```
    #tile.row_major<vec = 2>, 4x8 fragment, T = 4
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
    that fits 16 bytes of the narrowest type the fragment is copied with
    and meets the requirements, to every fragment that has none.
  }];
  let parameters = (ins "unsigned":$vec);
  let assemblyFormat = "`<` `vec` `=` $vec `>`";
  let genVerifyDecl = 1;
}

def Tile_MmaLayoutAttr : Tile_Attr<"MmaLayout", "mma",
    [DeclareAttrInterfaceMethods<Tile_FragmentLayoutAttrInterface>]> {
  let summary = "fragment layout of a tensor-core (mma.sync m16n8k16) accumulator";
  let description = [{
    The register layout that `mma.sync.m16n8k16` gives its f32 accumulator.
    The block's warps form a `warps = [wm, wn]` grid (warp `w` is at row
    `w / wn`, column `w mod wn`); each warp owns an `(M/wm) x (N/wn)`
    sub-tile made of 16x8 MMA tiles. In each 16x8 tile, lane `l` holds the
    two consecutive elements at row `l / 4` and columns `2 (l mod 4)`,
    `2 (l mod 4) + 1`, and the same two columns at row `l / 4 + 8`:

    One 16x8 MMA tile, lane ids (each lane twice per row: 2 columns):

    ```
    #tile.mma<warps = [1, 1]>, 16x8 fragment, T = 32
      row 0:  l0 l0 l1 l1 l2 l2 l3 l3
      row 1:  l4 l4 l5 l5 l6 l6 l7 l7
      ...
      row 7:  l28 l28 l29 l29 l30 l30 l31 l31
      row 8:  l0 l0 l1 l1 l2 l2 l3 l3
      ...
      row 15: l28 l28 l29 l29 l30 l30 l31 l31
    ```

    A thread's registers are ordered by MMA tile (row-major over the warp's
    tiles), then by the row half (`+0`, `+8`), then by the column pair.
    Requirements (checked by the buffer type): rank 2, `M` a multiple of
    `16 wm` and `N` of `8 wn`; the kernel's thread count must be
    `32 wm wn`. `tile-assign-layouts` gives this layout to `tile.gemm`
    accumulators (and to the fragments used with them), choosing the warp
    grid that makes each warp's tile closest to square.

    Example: `!tile.buffer<128x128xf32, fragment, #tile.mma<warps = [2, 2]>>`
  }];
  let parameters = (ins "unsigned":$warpsM, "unsigned":$warpsN);
  let assemblyFormat = "`<` `warps` `=` `[` $warpsM `,` $warpsN `]` `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned getNumWarps() const { return getWarpsM() * getWarpsN(); }
    /// The rows and columns of the sub-tile each warp owns in a `shape`
    /// fragment.
    std::pair<int64_t, int64_t> getWarpTile(ArrayRef<int64_t> shape) const;
    /// The 16x8 MMA tiles (rows, columns) of each warp's sub-tile.
    std::pair<int64_t, int64_t> getMmaTiles(ArrayRef<int64_t> shape) const;
    /// The first of the two slots that hold row half `half` (0: rows l/4,
    /// 1: rows l/4 + 8) of MMA tile (`tileM`, `tileN`) of a `shape`
    /// fragment; the next slot holds the next column.
    int64_t getSlot(ArrayRef<int64_t> shape, int64_t tileM, int64_t tileN,
                    int64_t half) const;
  }];
}

def Tile_SliceLayoutAttr : Tile_Attr<"SliceLayout", "slice",
    [DeclareAttrInterfaceMethods<Tile_FragmentLayoutAttrInterface>]> {
  let summary = "fragment layout of a reduction: a parent layout minus one dimension";
  let description = [{
    The layout of a fragment that `tile.reduce` produces from a fragment
    with layout `parent` by reducing dimension `dim`, of size `dim_size`
    (Triton's slice encoding). Element `r` is held by every thread that
    holds some element of the parent with the remaining coordinates `r`, so
    each thread keeps one register per row of the parent it touches ("row
    slot"), and a `tile.parallel` over the parent's shape can read it at
    the parent's coordinates without any data movement (broadcast). The
    parent's shape is the fragment's with `dim_size` inserted at `dim`: the
    attribute alone says how many rows each thread touches.

    ```
    %m = tile.alloc_fragment : !tile.buffer<64xf32, fragment, #tile.slice<dim = 1, dim_size = 64, parent = #tile.mma<warps = [2, 2]>>>
    ```

    The threads holding each row of the reduction of a 16x8 MMA tile
    (the first of them stores the row), lane ids:

    ```
    #tile.slice<dim = 1, dim_size = 8, parent = #tile.mma<warps = [1, 1]>>, 16 fragment, T = 32
      row 0:  l0 l1 l2 l3
      row 1:  l4 l5 l6 l7
      row 2:  l8 l9 l10 l11
      ...
      row 7:  l28 l29 l30 l31
      row 8:  l0 l1 l2 l3
      ...
      row 15: l28 l29 l30 l31
    ```

    and of a 4x16 `#tile.row_major<vec = 2>` fragment in a 16-thread kernel
    (eight chunks per row: two rows per round of the threads):

    ```
    #tile.slice<dim = 1, dim_size = 16, parent = #tile.row_major<vec = 2>>, 4 fragment, T = 16
      row 0:  t0 t1 t2 t3 t4 t5 t6 t7
      row 1:  t8 t9 t10 t11 t12 t13 t14 t15
      row 2:  t0 t1 t2 t3 t4 t5 t6 t7
      row 3:  t8 t9 t10 t11 t12 t13 t14 t15
    ```

    Supported: `dim = 1` of a rank-2 parent with `#tile.mma` (each lane
    holds 2 rows per 16-row MMA tile) or `#tile.row_major<vec = v>` whose
    rows are a whole number of thread rounds, or whose rounds are a whole
    number of rows (then the threads of one row are consecutive).
  }];
  let parameters = (ins "unsigned":$dim, "int64_t":$dimSize,
                        "::mlir::Attribute":$parent);
  let assemblyFormat = "`<` `dim` `=` $dim `,` `dim_size` `=` $dimSize `,` "
                       "`parent` `=` $parent `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The shape of the parent fragment of a `shape` fragment with this
    /// layout: `shape` with dim_size inserted at dim.
    SmallVector<int64_t> getParentShape(ArrayRef<int64_t> shape) const;
  }];
}

def Tile_SwizzleLayoutAttr : Tile_Attr<"SwizzleLayout", "swizzle",
    [DeclareAttrInterfaceMethods<Tile_SharedLayoutAttrInterface>]> {
  let summary = "shared-tile layout: 16-byte chunks XOR-swizzled by row";
  let description = [{
    A shared tile with this layout stores element `(row, col)` (the last two
    dimensions) at column

    ```
    ((col / E) xor ((row / P) mod C)) * E + col mod E
    ```

    where `E` is the number of elements in 16 bytes, `R` the 16-byte chunks
    per row, `C = min(R, 8)` and `P = max(1, 8 / R)`. Eight consecutive
    rows of one chunk column, which `ldmatrix` reads together, then fall
    into eight different groups of four banks: no bank conflicts. Every
    16-byte chunk stays whole, so 16-byte copies and `cp.async` still work.

    For 64-byte rows (`R = 4`, e.g. a 128x32 f16 tile): the chunk index is
    XORed with `(row / 2) mod 4`; the position of each 16-byte chunk of a
    row (the pattern repeats every 8 rows):

    ```
    #tile.swizzle, 8x32xf16 tile
      row 0,1:  chunks 0 1 2 3
      row 2,3:  chunks 1 0 3 2
      row 4,5:  chunks 2 3 0 1
      row 6,7:  chunks 3 2 1 0
    ```

    Requirements: rank 2 or more, rows a multiple of 16 bytes.
    `tile-assign-layouts` gives it to the shared tiles that `tile.gemm`
    reads; users may set it on any shared tile.

    `#tile.swizzle<staging>` is the pattern for an MMA accumulator staged in
    shared memory (rows of 8 chunks or more):

    ```
    (col / E) xor ((2 * row) mod 8 + (col / (8 * E)) mod 2)
    ```

    The accumulator's 8-byte stores (a half-warp writes two adjacent chunks
    in each of four rows) and a rolled loop's 32-byte reads (eight threads
    read every other chunk of one row, then the chunks in between) then
    touch eight different groups of four banks each; the plain pattern
    gives both two-way conflicts. For 256-byte rows (the pattern repeats
    every 4 rows):

    ```
    #tile.swizzle<staging>, 4x128xf16 tile
      row 0:  chunks 0 1 2 3 4 5 6 7 9 8 11 10 13 12 15 14
      row 1:  chunks 2 3 0 1 6 7 4 5 11 10 9 8 15 14 13 12
      row 2:  chunks 4 5 6 7 0 1 2 3 13 12 15 14 9 8 11 10
      row 3:  chunks 6 7 4 5 2 3 0 1 15 14 13 12 11 10 9 8
    ``` `tile-assign-layouts` gives it to shared
    tiles an MMA accumulator is copied into.
  }];
  let parameters = (ins DefaultValuedParameter<"bool", "false">:$staging);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    /// The geometry of the swizzle of a `shape` tile of `elementType`
    /// (`staging`: of #tile.swizzle<staging>).
    static SwizzleGeometry getGeometry(ArrayRef<int64_t> shape,
                                       Type elementType, bool staging);
    SwizzleGeometry getGeometry(ArrayRef<int64_t> shape,
                                Type elementType) const {
      return getGeometry(shape, elementType, getStaging());
    }
  }];
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

def Tile_DivisibilityAttr : Tile_Attr<"Divisibility", "divisibility"> {
  let summary = "a promise that one dimension of a kernel parameter is a "
                "multiple of a number";
  let description = [{
    The size of dimension `dim` of buffer parameter `param` is a multiple of
    `divisor` at every launch. Passes use it to drop code that only odd sizes
    need (a pipelined loop's synchronous fallback, masked scalar accesses at
    the end of a row); the manifest records it and the runtime refuses a
    launch that breaks it. `tile.kernel` prints it as `%A[1] by 8` inside
    `divisible(...)`.
  }];
  let parameters = (ins "int64_t":$param, "int64_t":$dim, "int64_t":$divisor);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Tile_ShapePredicate : I32EnumAttr<"ShapePredicate",
    "how a launch contract compares a size", [
    I32EnumAttrCase<"eq", 0>, I32EnumAttrCase<"le", 1>,
    I32EnumAttrCase<"ge", 2>,
    // The left size divides the right one (a size on the right only).
    I32EnumAttrCase<"divides", 3>]> {
  let cppNamespace = "::mlir::tile";
  let genSpecializedAttr = 0;
}

def Tile_ShapeRelationAttr : Tile_Attr<"ShapeRelation", "shape_relation"> {
  let summary = "one relation of a kernel's launch contract between a size "
                "and another size or a constant";
  let description = [{
    At every launch, the size of dimension `lhs_dim` of buffer parameter
    `lhs_param` compares by `predicate` (`eq`: `==`, `le`: `<=`, `ge`:
    `>=`) with the size of dimension `rhs_dim` of buffer parameter
    `rhs_param`, or with the constant `value` when `rhs_param` is -1 (the
    default); or, `divides`, it divides the size on the right (which is
    then a multiple of it; 0 divides only 0). The kernel's code relies on
    it (a GEMM's K of A and B agree, a softmax row fits on chip, the K/V
    heads of grouped-query attention divide the query heads); the manifest
    lists it under "requires" and the runtime refuses a launch that breaks
    it. `tile.kernel` prints it inside `requires(...)`.

    Example (the generic form; `tile.kernel` prints these as
    `%A[1] == %B[0]`, `%X[1] <= 4096` and `%K[1] divides %Q[1]`):

    ```mlir
    #tile.shape_relation<lhs_param = 0, lhs_dim = 1, predicate = eq, rhs_param = 1>
    #tile.shape_relation<lhs_param = 0, lhs_dim = 1, predicate = le, value = 4096>
    #tile.shape_relation<lhs_param = 1, lhs_dim = 1, predicate = divides, rhs_param = 0, rhs_dim = 1>
    ```
  }];
  let parameters = (ins "int64_t":$lhs_param, "int64_t":$lhs_dim,
                        EnumParameter<Tile_ShapePredicate>:$predicate,
                        DefaultValuedParameter<"int64_t", "-1">:$rhs_param,
                        DefaultValuedParameter<"int64_t", "0">:$rhs_dim,
                        DefaultValuedParameter<"int64_t", "0">:$value);
  let assemblyFormat = "`<` struct(params) `>`";
  let extraClassDeclaration = [{
    /// Whether the right-hand side is the constant `value`.
    bool isConstant() const { return getRhsParam() < 0; }
    /// The predicate as `tile.kernel` and the manifest write it: "==",
    /// "<=", ">=" or "divides".
    StringRef getPredicateSymbol() const {
      return getShapePredicateSymbol(getPredicate());
    }
  }];
}

include "tile/Dialect/Tile/IR/TileLaunchAttrs.td"
include "tile/Dialect/Tile/IR/TileHopperAttrs.td"

#endif // TILE_DIALECT_TILE_IR_TILEATTRS_TD
