// Block indices of a 3-D grid used everywhere.
tile.kernel @k(%A: !tile.buffer<?xf32, global>) grid(%bx, %by, %bz) = [ceildiv(%A[0], 128), 65536, 65536] threads(128) {
  %f = tile.alloc_fragment : !tile.buffer<128xf32, fragment>
  %c = arith.addi %bx, %bz : index
  tile.copy %A[%c] to %f : !tile.buffer<?xf32, global> to !tile.buffer<128xf32, fragment>
  tile.copy %f to %A[%c] : !tile.buffer<128xf32, fragment> to !tile.buffer<?xf32, global>
}
