// tile.parallel over [2^32, 2^32]: 2^64 wraps to 0 (issue 16 #14).
// Besides the default commands (any clean end), and replacing them where
// the command is the same:
// ROBUST: expect=error tile-opt %s --tile-to-nvvm -o %t/out.mlir ;; tile-translate %s --emit=ptx -o %t/out.ptx --manifest-out=%t/out.json
tile.kernel @k(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(128) {
  %f = tile.alloc_fragment : !tile.buffer<128xf32, fragment>
  tile.clear %f : !tile.buffer<128xf32, fragment>
  tile.parallel (%i, %j) in [4294967296, 4294967296] {
  }
}
