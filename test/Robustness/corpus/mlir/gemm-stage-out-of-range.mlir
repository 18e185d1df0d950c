// tile.stage 5 of a 2-stage tile.
tile.kernel @k(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(128) {
  %c5 = arith.constant 5 : index
  %as = tile.alloc_shared : !tile.buffer<2x64x32xf16, shared>
  %a5 = tile.stage %as[%c5] : !tile.buffer<2x64x32xf16, shared> -> !tile.buffer<64x32xf16, shared>
  tile.clear %a5 : !tile.buffer<64x32xf16, shared>
}
