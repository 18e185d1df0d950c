// A persistent kernel's manifest entry: "persistent" with one block per
// multiprocessor, which the runtime reads to launch min(tiles, SMs) blocks
// (runtime/test/TensorMapTest.cpp, PersistentGrid); its grid still counts
// the tiles. Other kernels have no "persistent" (manifest-contract.mlir).
//
// RUN: tile-translate %s --chip=sm_90a --emit=manifest | FileCheck %s
// CHECK: "grid": [
// CHECK-NEXT: {
// CHECK-NEXT: "dim": 1,
// CHECK-NEXT: "divisor": 128,
// CHECK: "name": "ws_persistent",
// CHECK: "persistent": {
// CHECK-NEXT: "blocks_per_sm": 1
// CHECK-NEXT: }
tile.kernel @ws_persistent(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf32, global>)
    grid(%bx, %by) = [ceildiv(%B[1], 128), ceildiv(%A[0], 64)] threads(256) warp_specialized persistent attributes {raster_panel = 8 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %row = arith.muli %by, %c64 : index
  %col = arith.muli %bx, %c128 : index
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x128xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<64x128xf32, fragment>
  tile.clear %acc : !tile.buffer<64x128xf32, fragment>
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %n = arith.ceildivui %k, %c64 : index
  scf.for %i = %c0 to %n step %c1 {
    %k0 = arith.muli %i, %c64 : index
    tile.copy %A[%row, %k0] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.copy %B[%k0, %col] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x128xf16, shared>
    tile.gemm %a, %b, %acc : !tile.buffer<64x64xf16, shared>, !tile.buffer<64x128xf16, shared>, !tile.buffer<64x128xf32, fragment>
  } {tile.num_stages = 2 : i64}
  tile.copy %acc to %C[%row, %col] : !tile.buffer<64x128xf32, fragment> to !tile.buffer<?x?xf32, global>
}
