// tile.store into a global tensor.
// Besides the default commands (any clean end), and replacing them where
// the command is the same:
// ROBUST: expect=error tile-opt %s
// ROBUST: expect=error tile-opt %s --tile-to-nvvm -o %t/out.mlir ;; tile-translate %s --emit=ptx -o %t/out.ptx --manifest-out=%t/out.json
tile.kernel @k(%A: !tile.buffer<?xf32, global>) grid(%bx) = [ceildiv(%A[0], 128)] threads(128) {
  %c = arith.constant 0 : index
  %v = arith.constant 1.0 : f32
  tile.parallel (%i) in [128] {
    tile.store %v, %A[%i] : !tile.buffer<?xf32, global>
  }
}
