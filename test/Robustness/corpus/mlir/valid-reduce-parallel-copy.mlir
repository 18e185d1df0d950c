// issue 16 #19: a valid kernel (tile.parallel over a reduce result, then a copy of
// that result to global memory) must compile with no diagnostics; at 0f70f22 the
// pipeline prints "'tile.copy' op expected fragment operands with a layout" and exits 0.
// Besides the default commands (any clean end), and replacing them where
// the command is the same:
// ROBUST: expect=ok tile-opt %s
// ROBUST: expect=ok tile-opt %s --tile-to-gpu
// ROBUST: expect=ok tile-opt %s --tile-to-nvvm -o %t/out.mlir ;; tile-translate %s --emit=ptx -o %t/out.ptx --manifest-out=%t/out.json
// ROBUST: expect=ok tile-translate %s --emit=cubin -o %t/out.cubin
tile.kernel @rowmax(%X: !tile.buffer<?x?xf32, global>, %M: !tile.buffer<?xf32, global>) grid(%bx) = [ceildiv(%X[0], 4)] threads(256) {
  %c4 = arith.constant 4 : index
  %c0 = arith.constant 0 : index
  %row = arith.muli %bx, %c4 : index
  %x = tile.alloc_fragment : !tile.buffer<4x1024xf32, fragment>
  %m = tile.alloc_fragment : !tile.buffer<4xf32, fragment>
  tile.copy %X[%row, %c0] to %x : !tile.buffer<?x?xf32, global> to !tile.buffer<4x1024xf32, fragment>
  tile.reduce max %x into %m dim(1) : !tile.buffer<4x1024xf32, fragment>, !tile.buffer<4xf32, fragment>
  tile.parallel (%i) in [4] {
    %v = tile.load %m[%i] : !tile.buffer<4xf32, fragment>
    %w = arith.addf %v, %v : f32
    tile.store %w, %m[%i] : !tile.buffer<4xf32, fragment>
  }
  tile.copy %m to %M[%row] : !tile.buffer<4xf32, fragment> to !tile.buffer<?xf32, global>
}
