// tile.reduce of a 1-D fragment.
tile.kernel @k(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(256) {
  %x = tile.alloc_fragment : !tile.buffer<256xf32, fragment>
  %m = tile.alloc_fragment : !tile.buffer<1xf32, fragment>
  tile.clear %x : !tile.buffer<256xf32, fragment>
  tile.reduce max %x into %m dim(0) : !tile.buffer<256xf32, fragment>, !tile.buffer<1xf32, fragment>
}
