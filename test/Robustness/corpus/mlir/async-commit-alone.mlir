// tile.async_commit and tile.async_wait with no async copy.
tile.kernel @k(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(128) {
  tile.async_commit
  tile.async_wait 0
}
