// A constant-folded remainder by zero used as a copy offset.
tile.kernel @k(%A: !tile.buffer<?xf32, global>) grid(%bx) = [ceildiv(%A[0], 128)] threads(128) {
  %f = tile.alloc_fragment : !tile.buffer<128xf32, fragment>
  %z = arith.constant 0 : index
  %n = arith.constant 7 : index
  %c = arith.remsi %n, %z : index
  tile.copy %A[%c] to %f : !tile.buffer<?xf32, global> to !tile.buffer<128xf32, fragment>
  tile.copy %f to %A[%c] : !tile.buffer<128xf32, fragment> to !tile.buffer<?xf32, global>
}
