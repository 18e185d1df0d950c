// A kernel named @main.
tile.kernel @main(%A: !tile.buffer<?xf32, global>) grid(%bx) = [ceildiv(%A[0], 128)] threads(128) {
  %f = tile.alloc_fragment : !tile.buffer<128xf32, fragment>
  %c = arith.constant 0 : index
  tile.copy %A[%c] to %f : !tile.buffer<?xf32, global> to !tile.buffer<128xf32, fragment>
  tile.copy %f to %A[%c] : !tile.buffer<128xf32, fragment> to !tile.buffer<?xf32, global>
}
