// A gemm of i8 shared tiles.
// Besides the default commands (any clean end), and replacing them where
// the command is the same:
// ROBUST: expect=error tile-opt %s
// ROBUST: expect=error tile-opt %s --tile-to-nvvm -o %t/out.mlir ;; tile-translate %s --emit=ptx -o %t/out.ptx --manifest-out=%t/out.json
tile.kernel @k(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(128) {
  %a = tile.alloc_shared : !tile.buffer<64x32xi8, shared>
  %b = tile.alloc_shared : !tile.buffer<32x64xi8, shared>
  %c = tile.alloc_fragment : !tile.buffer<64x64xi32, fragment>
  tile.clear %c : !tile.buffer<64x64xi32, fragment>
  tile.gemm %a, %b, %c : !tile.buffer<64x32xi8, shared>, !tile.buffer<32x64xi8, shared>, !tile.buffer<64x64xi32, fragment>
}
