//===- TileDialect.td - Tile dialect definition ------------*- tablegen -*-===//
//
// The `tile` dialect: tile programs that move tiles between global memory,
// shared memory and register fragments, in the style of TileLang.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_TILEDIALECT_TD
#define TILE_DIALECT_TILE_IR_TILEDIALECT_TD

include "mlir/IR/OpBase.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::mlir::tile";
  let summary = "Tile programs for NVIDIA GPUs";
  let description = [{
    A `tile` program is a kernel (`tile.kernel`) launched on a 1-3-D grid of
    thread blocks. Each block works on tiles: it allocates shared-memory
    buffers and register fragments, copies tiles between global memory,
    shared memory and fragments (`tile.copy`, masked at tensor bounds), and
    computes on them with element-wise parallel loops (`tile.parallel`) whose
    bodies use `arith` and `math`.

    Data lives in `!tile.buffer` values whose memory scope says where:
    `global` (kernel parameters, device memory), `shared` (one copy per
    block) or `fragment` (a register tile spread over the block's threads,
    following a layout attribute such as `#tile.row_major`).

    The dialect is lowered by `convert-tile-to-gpu` to `gpu`, `scf`,
    `vector`, `memref` and `arith`, and from there by upstream passes to
    NVVM, PTX and cubins.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

#endif // TILE_DIALECT_TILE_IR_TILEDIALECT_TD
