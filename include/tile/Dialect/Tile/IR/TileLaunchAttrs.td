//===- TileLaunchAttrs.td - Launch descriptions of kernels -*- tablegen -*-===//
//
// The typed launch description of a lowered kernel (#tile.launch and its
// parameters, grid rules and size relations): what the runtime needs to
// launch it. convert-tile-to-gpu writes one per kernel into the gpu.module's
// `tile.kernels` array; the manifest JSON is written from it.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_TILELAUNCHATTRS_TD
#define TILE_DIALECT_TILE_IR_TILELAUNCHATTRS_TD

include "tile/Dialect/Tile/IR/TileAttrs.td"

def Tile_BufferAccess : I32EnumAttr<"BufferAccess",
    "what a kernel does with a buffer parameter", [
    I32EnumAttrCase<"read", 0>, I32EnumAttrCase<"write", 1>,
    I32EnumAttrCase<"readwrite", 2>,
    // Only tile.atomic_add touches it: the runtime zero-fills it before the
    // launch.
    I32EnumAttrCase<"accumulate", 3>]> {
  let cppNamespace = "::mlir::tile";
  let genSpecializedAttr = 0;
}

// A list in square brackets, possibly empty: `[]`, `[1, 2]`,
// `[#tile.grid_rule<1>]`. (An ArrayRefParameter alone parses no brackets and
// no empty list.) In a struct() format an empty list is not printed.
class Tile_ListParameter<string of, string desc = "">
    : OptionalArrayRefParameter<of, desc> {
  let parser = "::mlir::tile::parseSquareList<" # of # ">($_parser)";
  let printer = "::mlir::tile::printSquareList($_printer, $_self)";
}

// A buffer's shape, `?` for a dynamic size: `[?, 64]`.
def Tile_LaunchShapeParameter : Tile_ListParameter<"int64_t",
    "sizes, ShapedType::kDynamic for a dynamic one"> {
  let parser = "::mlir::tile::parseLaunchShape($_parser)";
  let printer = "::mlir::tile::printLaunchShape($_printer, $_self)";
}

//===----------------------------------------------------------------------===//
// Parameters
//===----------------------------------------------------------------------===//

def Tile_BufferParamAttr : Tile_Attr<"BufferParam", "buffer_param"> {
  let summary = "a buffer parameter of a launch description";
  let description = [{
    A global buffer the kernel takes, passed as one pointer: its name (the
    kernel parameter's), element type, shape (`?` for a size given at
    launch, by a `#tile.dim_param`), `access` (what the kernel's tile ops do
    with it, through `tile.subview` views too: `read`, `write` or
    `readwrite`) and, when the kernel promises multiples (`divisible`), one
    divisor per dimension that the runtime checks at launch.

    Example:

    ```mlir
    #tile.buffer_param<name = "A", dtype = f16, shape = [?, ?], access = read, divisibility = [1, 8]>
    #tile.buffer_param<name = "C", dtype = f32, shape = [?, 64], access = write>
    ```

    In the manifest: `{"name": "A", "kind": "buffer", "dtype": "f16",
    "shape": [-1, -1], "access": "read", "divisibility": [1, 8]}`.
  }];
  let parameters = (ins StringRefParameter<"the parameter's name">:$name,
                        AttrParameter<"::mlir::Type", "the element type">:$dtype,
                        Tile_LaunchShapeParameter:$shape,
                        EnumParameter<Tile_BufferAccess>:$access,
                        Tile_ListParameter<"int64_t",
                          "one divisor per dimension, or none">:$divisibility);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Tile_ScalarParamAttr : Tile_Attr<"ScalarParam", "scalar_param"> {
  let summary = "a scalar parameter of a launch description";
  let description = [{
    A scalar the kernel takes by value: `f32`, `f64`, `i32` or `i64` (what
    the runtime can pass).

    Example:

    ```mlir
    #tile.scalar_param<name = "alpha", type = f32>
    ```

    In the manifest: `{"name": "alpha", "kind": "scalar", "type": "f32"}`.
  }];
  let parameters = (ins StringRefParameter<"the parameter's name">:$name,
                        AttrParameter<"::mlir::Type", "its type">:$type);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Tile_DimParamAttr : Tile_Attr<"DimParam", "dim_param"> {
  let summary = "a size parameter of a launch description";
  let description = [{
    The size of dynamic dimension `dim` of buffer parameter `buffer`,
    passed as an `i64` after the buffers and scalars; the runtime fills it
    in from the shape of the buffer given at launch. The conversion names it
    `<buffer>.dim<dim>`.

    Example:

    ```mlir
    #tile.dim_param<name = "A.dim0", buffer = "A", dim = 0>
    ```

    In the manifest: `{"name": "A.dim0", "kind": "dim", "type": "i64",
    "buffer": "A", "dim": 0}`.
  }];
  let parameters = (ins StringRefParameter<"the parameter's name">:$name,
                        StringRefParameter<"the buffer parameter">:$buffer,
                        AttrParameter<"int64_t", "its dimension">:$dim);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Tile_TensorMapParamAttr : Tile_Attr<"TensorMapParam", "tensor_map_param"> {
  let summary = "a TMA tensor-map parameter of a launch description";
  let description = [{
    A `CUtensorMap` of buffer parameter `buffer` that the runtime encodes
    at launch (`cuTensorMapEncodeTiled`, from the buffer's pointer, sizes
    and strides) and passes as a 128-byte, 64-byte aligned grid-constant
    parameter after the dim parameters: `box` is the tile one TMA copy
    moves (in the buffer's dimension order, the last at most `swizzle`
    bytes), `swizzle` the bytes of its swizzle pattern (0, 32, 64 or 128).
    The conversion names it `<buffer>.tma<i>`.

    Example:

    ```mlir
    #tile.tensor_map_param<name = "A.tma0", buffer = "A", box = [128, 64], swizzle = 128>
    ```

    In the manifest: `{"name": "A.tma0", "kind": "tensor_map", "buffer":
    "A", "box": [128, 64], "swizzle": 128}`.
  }];
  let parameters = (ins StringRefParameter<"the parameter's name">:$name,
                        StringRefParameter<"the buffer parameter">:$buffer,
                        Tile_ListParameter<"int64_t", "elements per "
                          "dimension of one box">:$box,
                        AttrParameter<"int64_t", "swizzle bytes">:$swizzle);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Tile_WorkspaceParamAttr : Tile_Attr<"WorkspaceParam", "workspace_param"> {
  let summary = "a scratch-memory parameter the runtime provides";
  let description = [{
    Global memory the kernel needs besides its buffers, which the runtime
    allocates and passes as a pointer after the tensor maps: at least
    `bytes_per_block` times the blocks launched, zero-filled when the
    runtime first allocates it; the kernel leaves the flags it uses zero
    again, so that one workspace serves the launches of a stream one
    after the other. A `stream_k` kernel keeps the accumulators of its
    split tiles there. The conversion names it `workspace`.

    Example:

    ```mlir
    #tile.workspace_param<name = "workspace", bytes_per_block = 131080>
    ```

    In the manifest: `{"name": "workspace", "kind": "workspace",
    "bytes_per_block": 131080}`.
  }];
  let parameters = (ins StringRefParameter<"the parameter's name">:$name,
                        AttrParameter<"int64_t", "bytes per launched "
                                      "block">:$bytes_per_block);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Grid and launch contract
//===----------------------------------------------------------------------===//

def Tile_GridRuleAttr : Tile_Attr<"GridRule", "grid_rule"> {
  let summary = "how the runtime computes one grid dimension";
  let description = [{
    A constant number of blocks (`divisor`, with no `param`), or
    `ceildiv(size of dimension dim of buffer parameter param, divisor)`,
    evaluated at launch from the shapes given: `#tile.extent` of
    `tile.kernel` with the parameter named instead of numbered.

    Example:

    ```mlir
    #tile.grid_rule<4>
    #tile.grid_rule<ceildiv "A"[0] by 128>
    ```

    In the manifest: `{"kind": "const", "value": 4}` and `{"kind":
    "ceildiv", "param": "A", "dim": 0, "divisor": 128}`.
  }];
  let parameters = (ins StringRefParameter<"the buffer parameter, or none",
                                           "\"\"">:$param,
                        DefaultValuedParameter<"int64_t", "0",
                          "its dimension (0 for a constant)">:$dim,
                        AttrParameter<"int64_t", "the constant, or the "
                                      "divisor">:$divisor);
  // (An optional group would drop a dim of 0, its default.)
  let assemblyFormat = "`<` custom<GridRule>($param, $dim, $divisor) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    bool isConstant() const { return getParam().empty(); }
  }];
}

def Tile_SizeRelationAttr : Tile_Attr<"SizeRelation", "size_relation"> {
  let summary = "one relation of a launch contract, between named sizes";
  let description = [{
    At every launch, the size of dimension `lhs_dim` of buffer parameter
    `lhs_param` compares by `predicate` (`eq`: `==`, `le`: `<=`, `ge`:
    `>=`) with the size of dimension `rhs_dim` of buffer parameter
    `rhs_param`, or with the constant `value`; `divides` (a size on the
    right only): the left size divides the right one. `#tile.shape_relation`
    of `tile.kernel` with the parameters named instead of numbered. The
    runtime refuses a launch that breaks it.

    Example:

    ```mlir
    #tile.size_relation<"A"[1] eq "B"[0]>
    #tile.size_relation<"X"[1] le 4096>
    #tile.size_relation<"K"[1] divides "Q"[1]>
    ```

    In the manifest: `{"lhs": {"param": "A", "dim": 1}, "op": "==", "rhs":
    {"param": "B", "dim": 0}}`, `{"lhs": {"param": "X", "dim": 1}, "op":
    "<=", "value": 4096}` and `{"lhs": {"param": "K", "dim": 1}, "op":
    "divides", "rhs": {"param": "Q", "dim": 1}}`.
  }];
  let parameters = (ins StringRefParameter<"the left buffer parameter">:$lhs_param,
                        AttrParameter<"int64_t", "its dimension">:$lhs_dim,
                        EnumParameter<Tile_ShapePredicate>:$predicate,
                        StringRefParameter<"the right buffer parameter, or "
                                           "none", "\"\"">:$rhs_param,
                        DefaultValuedParameter<"int64_t", "0",
                          "its dimension">:$rhs_dim,
                        OptionalParameter<"std::optional<int64_t>",
                          "the constant, or none">:$value);
  let assemblyFormat = "`<` $lhs_param `[` $lhs_dim `]` $predicate "
                       "custom<SizeOrValue>($rhs_param, $rhs_dim, $value) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Whether the right-hand side is the constant `value`.
    bool isConstant() const { return getValue().has_value(); }
    /// The predicate as the manifest writes it: "==", "<=", ">=" or
    /// "divides".
    StringRef getPredicateSymbol() const {
      return getShapePredicateSymbol(getPredicate());
    }
  }];
}

//===----------------------------------------------------------------------===//
// The launch description
//===----------------------------------------------------------------------===//

def Tile_LaunchAttr : Tile_Attr<"Launch", "launch"> {
  let summary = "what the runtime needs to launch one kernel";
  let description = [{
    The launch description of a lowered kernel, the manifest entry of a
    kernel in typed form: its `name` (the kernel function of the
    gpu.module), the `block` it was compiled for (three extents), the
    `grid` rules (one to three `#tile.grid_rule`), the bytes of
    `dynamic_shared_memory` to launch with, the `params` in the order of
    the kernel function's arguments (`#tile.buffer_param` and
    `#tile.scalar_param` in the kernel's order, then one
    `#tile.dim_param` per dynamic size, then the `#tile.tensor_map_param`s
    of a TMA kernel, then a stream-K kernel's `#tile.workspace_param`) and
    the launch `contract`
    (`#tile.size_relation`s, the manifest's `"requires"`; not printed when
    empty). A `persistent` kernel (`persistent = 1`: blocks per
    multiprocessor; not printed for other kernels) walks the tiles of its
    grid itself: the manifest says `"persistent": {"blocks_per_sm": 1}` and
    the runtime launches at most that many blocks per multiprocessor.
    A persistent kernel with thread-block clusters gives the `cluster`'s
    extent along each grid dimension (`cluster = [1, 2]`; not printed
    without one): the manifest says `"cluster": [1, 2]` in its
    `"persistent"` entry, and the runtime launches whole clusters (their
    product, the blocks of one, is the compiled `.reqnctapercluster`), one
    per cluster tile (the grid's extents divided by the cluster's, rounded
    up) at most.

    `convert-tile-to-gpu` writes one per kernel into the `tile.kernels`
    array of the gpu.module; `tile-translate --emit=manifest` (and
    `--manifest-out`, `compile()`) writes the array as the manifest's
    `"kernels"`, after checking each entry against the kernel function's
    signature (one parameter per argument, of the matching kind). The
    verifier checks what refers to what inside the description: the
    buffers that grid rules, dim parameters and relations name, their
    dimensions, one dim parameter per dynamic size, unique names.

    Example (the launch of `test/Examples/vector-add.mlir`):

    ```mlir
    gpu.module @tile_kernels attributes {tile.kernels = [
      #tile.launch<name = "vector_add", block = [256, 1, 1],
                   grid = [#tile.grid_rule<ceildiv "A"[0] by 1024>],
                   dynamic_shared_memory = 0,
                   params = [#tile.buffer_param<name = "A", dtype = f32, shape = [?], access = read>,
                             #tile.buffer_param<name = "B", dtype = f32, shape = [?], access = read>,
                             #tile.buffer_param<name = "C", dtype = f32, shape = [?], access = write>,
                             #tile.dim_param<name = "A.dim0", buffer = "A", dim = 0>,
                             #tile.dim_param<name = "B.dim0", buffer = "B", dim = 0>,
                             #tile.dim_param<name = "C.dim0", buffer = "C", dim = 0>],
                   contract = [#tile.size_relation<"B"[0] eq "A"[0]>,
                               #tile.size_relation<"C"[0] eq "A"[0]>]>]} {
      ...
    }
    ```
  }];
  let parameters = (ins StringRefParameter<"the kernel function">:$name,
                        Tile_ListParameter<"int64_t", "threads in x, y, z">:$block,
                        Tile_ListParameter<"GridRuleAttr", "one per grid "
                          "dimension">:$grid,
                        AttrParameter<"int64_t", "bytes">:$dynamic_shared_memory,
                        Tile_ListParameter<"::mlir::Attribute",
                          "#tile.buffer_param, #tile.scalar_param, "
                          "#tile.dim_param, #tile.tensor_map_param or "
                          "#tile.workspace_param">:$params,
                        Tile_ListParameter<"SizeRelationAttr", "the launch "
                          "contract">:$contract,
                        DefaultValuedParameter<"int64_t", "0", "blocks per "
                          "multiprocessor of a persistent kernel (0: one "
                          "block per tile)">:$persistent,
                        Tile_ListParameter<"int64_t", "blocks per cluster "
                          "along each grid dimension (empty: no "
                          "cluster)">:$cluster);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

#endif // TILE_DIALECT_TILE_IR_TILELAUNCHATTRS_TD
