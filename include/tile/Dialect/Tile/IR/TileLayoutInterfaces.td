//===- TileLayoutInterfaces.td - Layout attribute interfaces -*- tablegen -*-===//
//
// The interfaces through which fragment and shared-tile layouts answer for
// themselves: which thread and register hold an element, how many registers
// a thread needs, which shapes the layout accepts, where a shared element is
// stored. The verifiers, tile-assign-layouts and the conversion ask these
// instead of re-deriving the math.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_TILELAYOUTINTERFACES_TD
#define TILE_DIALECT_TILE_IR_TILELAYOUTINTERFACES_TD

include "mlir/IR/OpBase.td"

def Tile_FragmentLayoutAttrInterface
    : AttrInterface<"FragmentLayoutAttrInterface"> {
  let cppNamespace = "::mlir::tile";
  let description = [{
    A register layout of a fragment: a map from each (thread, register slot)
    of a block of `numThreads` threads to the element of a `shape` tile it
    holds. Every element is held by at least one thread; a replicated layout
    (`#tile.slice`) holds an element in several threads, and `getOwner`
    names the first of them (the lowest thread id), the one that stores it.
    Slots are a thread's registers in the order the lowering allocates them.
  }];
  let methods = [
    InterfaceMethod<[{
        Checks that the layout can spread a `shape` tile of `elementType`;
        with `numThreads` > 0 also the rules that depend on the kernel's
        thread count. Reports through `emitError` ("expected X, but got
        Y"); `tile::fitsShape` asks without a diagnostic.
      }], "::llvm::LogicalResult", "verifyShape",
      (ins "::llvm::function_ref<::mlir::InFlightDiagnostic()>":$emitError,
           "::llvm::ArrayRef<int64_t>":$shape, "::mlir::Type":$elementType,
           "int64_t":$numThreads)>,
    InterfaceMethod<[{
        The registers (element slots) each thread holds of a `shape` tile;
        0 when the layout cannot spread that shape over `numThreads`.
      }], "int64_t", "getRegistersPerThread",
      (ins "::llvm::ArrayRef<int64_t>":$shape, "int64_t":$numThreads)>,
    InterfaceMethod<[{
        Consecutive elements of the last dimension in consecutive slots of
        one thread: the widest access one chunk of the layout allows.
      }], "int64_t", "getVectorWidth", (ins)>,
    InterfaceMethod<[{
        The thread (as warp and lane) and slot holding the element at
        `coords` (its first holder in a replicated layout).
      }], "::mlir::tile::LayoutOwner", "getOwner",
      (ins "::llvm::ArrayRef<int64_t>":$shape, "int64_t":$numThreads,
           "::llvm::ArrayRef<int64_t>":$coords)>,
    InterfaceMethod<[{
        The coordinates of the element in slot `slot` of thread `thread`;
        empty for a thread that holds none (the producer warpgroup of a
        warp-specialized kernel, for #tile.wgmma).
      }], "::llvm::SmallVector<int64_t>", "getElement",
      (ins "::llvm::ArrayRef<int64_t>":$shape, "int64_t":$numThreads,
           "int64_t":$thread, "int64_t":$slot)>
  ];
}

def Tile_SharedLayoutAttrInterface
    : AttrInterface<"SharedLayoutAttrInterface"> {
  let cppNamespace = "::mlir::tile";
  let description = [{
    A storage layout of a shared tile: a permutation of the elements of
    each row that keeps the tile's footprint.
  }];
  let methods = [
    InterfaceMethod<[{
        Checks that a `shape` tile of `elementType` can take the layout;
        reports through `emitError`.
      }], "::llvm::LogicalResult", "verifyShape",
      (ins "::llvm::function_ref<::mlir::InFlightDiagnostic()>":$emitError,
           "::llvm::ArrayRef<int64_t>":$shape, "::mlir::Type":$elementType)>,
    InterfaceMethod<[{
        Where the element at `coords` is stored: its coordinates in the
        row-major storage of the tile.
      }], "::llvm::SmallVector<int64_t>", "getPhysicalPosition",
      (ins "::llvm::ArrayRef<int64_t>":$shape, "::mlir::Type":$elementType,
           "::llvm::ArrayRef<int64_t>":$coords)>
  ];
}

#endif // TILE_DIALECT_TILE_IR_TILELAYOUTINTERFACES_TD
