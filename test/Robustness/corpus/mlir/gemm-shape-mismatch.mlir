// A 64x32 by 16x64 gemm.
// Besides the default commands (any clean end), and replacing them where
// the command is the same:
// ROBUST: expect=error tile-opt %s
// ROBUST: expect=error tile-opt %s --tile-to-nvvm -o %t/out.mlir ;; tile-translate %s --emit=ptx -o %t/out.ptx --manifest-out=%t/out.json
tile.kernel @k(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(128) {
  %a = tile.alloc_shared : !tile.buffer<64x32xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<16x64xf16, shared>
  %c = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  tile.clear %c : !tile.buffer<64x64xf32, fragment>
  tile.gemm %a, %b, %c : !tile.buffer<64x32xf16, shared>, !tile.buffer<16x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
}
