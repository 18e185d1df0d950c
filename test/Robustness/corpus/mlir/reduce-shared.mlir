// tile.reduce of a shared tile.
// Besides the default commands (any clean end), and replacing them where
// the command is the same:
// ROBUST: expect=error tile-opt %s
// ROBUST: expect=error tile-opt %s --tile-to-nvvm -o %t/out.mlir ;; tile-translate %s --emit=ptx -o %t/out.ptx --manifest-out=%t/out.json
tile.kernel @k(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(256) {
  %x = tile.alloc_shared : !tile.buffer<4x256xf32, shared>
  %m = tile.alloc_fragment : !tile.buffer<4xf32, fragment>
  tile.reduce max %x into %m dim(1) : !tile.buffer<4x256xf32, shared>, !tile.buffer<4xf32, fragment>
}
