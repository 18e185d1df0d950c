// A gpu.barrier inside tile.parallel.
tile.kernel @k(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(128) {
  %f = tile.alloc_fragment : !tile.buffer<128xf32, fragment>
  tile.clear %f : !tile.buffer<128xf32, fragment>
  tile.parallel (%i) in [128] {
    gpu.barrier
  }
}
