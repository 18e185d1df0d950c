// A constant grid of 2^40 blocks (CUDA's x limit is 2^31 - 1).
tile.kernel @k(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1099511627776] threads(128) {
  %f = tile.alloc_fragment : !tile.buffer<128xf32, fragment>
  %c = arith.constant 0 : index
  tile.copy %A[%c] to %f : !tile.buffer<?xf32, global> to !tile.buffer<128xf32, fragment>
  tile.copy %f to %A[%c] : !tile.buffer<128xf32, fragment> to !tile.buffer<?xf32, global>
}
