// A 1024 x 4096 x 1024 gemm tile in one block (bounded: registers, shared memory).
// Besides the default commands (any clean end), and replacing them where
// the command is the same:
// ROBUST: expect=error tile-opt %s --tile-to-nvvm -o %t/out.mlir ;; tile-translate %s --emit=ptx -o %t/out.ptx --manifest-out=%t/out.json
tile.kernel @k(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(128) {
  %a = tile.alloc_shared : !tile.buffer<1024x4096xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<4096x1024xf16, shared>
  %c = tile.alloc_fragment : !tile.buffer<1024x1024xf32, fragment>
  tile.clear %c : !tile.buffer<1024x1024xf32, fragment>
  tile.gemm %a, %b, %c : !tile.buffer<1024x4096xf16, shared>, !tile.buffer<4096x1024xf16, shared>, !tile.buffer<1024x1024xf32, fragment>
}
