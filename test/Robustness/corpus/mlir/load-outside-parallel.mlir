// tile.load outside any tile.parallel.
tile.kernel @k(%A: !tile.buffer<?xf32, global>) grid(%bx) = [ceildiv(%A[0], 128)] threads(128) {
  %f = tile.alloc_fragment : !tile.buffer<128xf32, fragment>
  %c = arith.constant 0 : index
  %v = tile.load %f[%c] : !tile.buffer<128xf32, fragment>
}
