// prefetched then wait 2^63 - 1 prefetch.
// Besides the default commands (any clean end), and replacing them where
// the command is the same:
// ROBUST: expect=error tile-opt %s --tile-to-nvvm -o %t/out.mlir ;; tile-translate %s --emit=ptx -o %t/out.ptx --manifest-out=%t/out.json
tile.kernel @k(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %as = tile.alloc_shared : !tile.buffer<2x64x32xf16, shared>
  %bs = tile.alloc_shared : !tile.buffer<2x32x64xf16, shared>
  %a0 = tile.stage %as[%c0] : !tile.buffer<2x64x32xf16, shared> -> !tile.buffer<64x32xf16, shared>
  %b0 = tile.stage %bs[%c0] : !tile.buffer<2x32x64xf16, shared> -> !tile.buffer<32x64xf16, shared>
  %a1 = tile.stage %as[%c1] : !tile.buffer<2x64x32xf16, shared> -> !tile.buffer<64x32xf16, shared>
  %b1 = tile.stage %bs[%c1] : !tile.buffer<2x32x64xf16, shared> -> !tile.buffer<32x64xf16, shared>
  %c = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  tile.clear %c : !tile.buffer<64x64xf32, fragment>
  tile.gemm_prefetch %a0, %b0, %c : !tile.buffer<64x32xf16, shared>, !tile.buffer<32x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
  tile.gemm %a0, %b0, %c prefetched then wait 9223372036854775807 prefetch %a1, %b1 : !tile.buffer<64x32xf16, shared>, !tile.buffer<32x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
}
