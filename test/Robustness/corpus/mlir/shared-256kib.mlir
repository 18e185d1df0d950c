// A 256 KiB shared tile: over the 227 KiB per block of sm_90.
tile.kernel @k(%A: !tile.buffer<?xf32, global>) grid(%bx) = [ceildiv(%A[0], 128)] threads(128) {
  %t = tile.alloc_shared : !tile.buffer<65536xf32, shared>
  tile.clear %t : !tile.buffer<65536xf32, shared>
}
