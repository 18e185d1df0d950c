// A 65536 x 65536 f32 shared tile: 16 GiB of shared memory.
// Besides the default commands (any clean end), and replacing them where
// the command is the same:
// ROBUST: expect=error tile-opt %s --tile-to-nvvm -o %t/out.mlir ;; tile-translate %s --emit=ptx -o %t/out.ptx --manifest-out=%t/out.json
tile.kernel @k(%A: !tile.buffer<?xf32, global>) grid(%bx) = [ceildiv(%A[0], 128)] threads(128) {
  %t = tile.alloc_shared : !tile.buffer<65536x65536xf32, shared>
  tile.clear %t : !tile.buffer<65536x65536xf32, shared>
}
