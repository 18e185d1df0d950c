//===- tile-opt.cpp - The tile optimizer driver ---------------------------===//
//
// mlir-opt for tile programs: the tile dialect, its passes and pipelines,
// and the upstream dialects and passes they lower through.
//
//===----------------------------------------------------------------------===//

#include "tile/Registration/Registration.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::tile::registerTileDialects(registry);
  mlir::tile::registerTilePasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "Tile optimizer driver\n", registry));
}
