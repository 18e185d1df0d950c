// A global tensor with an MMA layout.
// Besides the default commands (any clean end), and replacing them where
// the command is the same:
// ROBUST: expect=error tile-opt %s
// ROBUST: expect=error tile-opt %s --tile-to-nvvm -o %t/out.mlir ;; tile-translate %s --emit=ptx -o %t/out.ptx --manifest-out=%t/out.json
tile.kernel @k(%A: !tile.buffer<?xf32, global, #tile.mma<warps = [2, 2]>>) grid(%bx) = [ceildiv(%A[0], 128)] threads(128) {
  %f = tile.alloc_fragment : !tile.buffer<128xf32, fragment>
  %c = arith.constant 0 : index
  tile.copy %A[%c] to %f : !tile.buffer<?xf32, global> to !tile.buffer<128xf32, fragment>
  tile.copy %f to %A[%c] : !tile.buffer<128xf32, fragment> to !tile.buffer<?xf32, global>
}
