// A tile.parallel inside a tile.parallel.
tile.kernel @k(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(128) {
  %f = tile.alloc_fragment : !tile.buffer<128xf32, fragment>
  tile.clear %f : !tile.buffer<128xf32, fragment>
  tile.parallel (%i) in [128] {
    tile.parallel (%j) in [2] {
      %v = tile.load %f[%i] : !tile.buffer<128xf32, fragment>
      tile.store %v, %f[%i] : !tile.buffer<128xf32, fragment>
    }
  }
}
