// tile.load of element 1000 of a 128-element fragment.
tile.kernel @k(%A: !tile.buffer<?xf32, global>) grid(%bx) = [ceildiv(%A[0], 128)] threads(128) {
  %f = tile.alloc_fragment : !tile.buffer<128xf32, fragment>
  %c = arith.constant 1000 : index
  tile.clear %f : !tile.buffer<128xf32, fragment>
  tile.parallel (%i) in [128] {
    %v = tile.load %f[%c] : !tile.buffer<128xf32, fragment>
    tile.store %v, %f[%i] : !tile.buffer<128xf32, fragment>
  }
}
