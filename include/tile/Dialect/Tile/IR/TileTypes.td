//===- TileTypes.td - Tile dialect types -------------------*- tablegen -*-===//
//
// The buffer type of the tile dialect.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_TILETYPES_TD
#define TILE_DIALECT_TILE_IR_TILETYPES_TD

include "tile/Dialect/Tile/IR/TileAttrs.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

def Tile_BufferType : TypeDef<Tile_Dialect, "Buffer", [ShapedTypeInterface]> {
  let mnemonic = "buffer";
  let summary = "a tensor or tile in global memory, shared memory or registers";
  let description = [{
    A multi-dimensional buffer of scalars (`f16`, `bf16`, `f32`, `f64`, or a
    signless integer of 8, 16, 32 or 64 bits) with a memory scope:

    - `global`: a tensor in device memory, passed to the kernel. Its
      dimensions may be dynamic (`?`); dynamic sizes become kernel
      parameters. Row-major, contiguous, 16-byte aligned.
    - `shared`: a tile in the block's shared memory (`tile.alloc_shared`).
    - `fragment`: a tile held in registers, spread over the block's threads
      according to its layout (`tile.alloc_fragment`). A fragment without a
      layout gets one from `tile-assign-layouts`.

    Tiles (shared, fragment) have static shapes. Ranks 1 to 4 are accepted.
    Sizes are bounded: the static sizes of any buffer below 2^63 bytes, a
    shared tile at most 227 KiB (232448 bytes, a block's shared memory on
    the largest GPU), a fragment at most 1044480 bytes (255 registers in
    each of 1024 threads; `tile.alloc_fragment` checks each thread's
    share against its kernel's thread count).

    Example:

    ```mlir
    !tile.buffer<?x4096xf16, global>
    !tile.buffer<128x32xf16, shared>
    !tile.buffer<1024xf32, fragment, #tile.row_major<vec = 4>>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "Type":$elementType,
                        "MemoryScope":$scope,
                        OptionalParameter<"Attribute">:$layout);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let builders = [
    TypeBuilderWithInferredContext<(ins "ArrayRef<int64_t>":$shape,
        "Type":$elementType, "MemoryScope":$scope,
        CArg<"Attribute", "{}">:$layout), [{
      return $_get(elementType.getContext(), shape, elementType, scope,
                   layout);
    }]>
  ];
  let extraClassDeclaration = [{
    // ShapedTypeInterface.
    bool hasRank() const { return true; }
    BufferType cloneWith(std::optional<ArrayRef<int64_t>> shape,
                         Type elementType) const;

    bool isGlobal() const { return getScope() == MemoryScope::Global; }
    bool isShared() const { return getScope() == MemoryScope::Shared; }
    bool isFragment() const { return getScope() == MemoryScope::Fragment; }
    /// The same buffer type with another layout.
    BufferType withLayout(Attribute layout) const;
  }];
}

#endif // TILE_DIALECT_TILE_IR_TILETYPES_TD
