// tile.num_stages on the kernel instead of a loop.
tile.kernel @k(%A: !tile.buffer<?xf32, global>) grid(%bx) = [ceildiv(%A[0], 128)] threads(128) attributes {tile.num_stages = 3 : i64} {
  %f = tile.alloc_fragment : !tile.buffer<128xf32, fragment>
  %c = arith.constant 0 : index
  tile.copy %A[%c] to %f : !tile.buffer<?xf32, global> to !tile.buffer<128xf32, fragment>
  tile.copy %f to %A[%c] : !tile.buffer<128xf32, fragment> to !tile.buffer<?xf32, global>
}
