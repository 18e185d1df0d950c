// 2^32 x 2^32 elements: 2^64 wraps to 0 in int64 (issue 16 #14 for a clear).
// Besides the default commands (any clean end), and replacing them where
// the command is the same:
// ROBUST: expect=error tile-opt %s --tile-to-nvvm -o %t/out.mlir ;; tile-translate %s --emit=ptx -o %t/out.ptx --manifest-out=%t/out.json
tile.kernel @k(%A: !tile.buffer<?xf32, global>) grid(%bx) = [ceildiv(%A[0], 128)] threads(128) {
  %t = tile.alloc_fragment : !tile.buffer<4294967296x4294967296xf32, fragment>
  tile.clear %t : !tile.buffer<4294967296x4294967296xf32, fragment>
}
