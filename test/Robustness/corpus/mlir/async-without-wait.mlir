// An async copy that nothing waits for.
tile.kernel @k(%A: !tile.buffer<?xf32, global>) grid(%bx) = [ceildiv(%A[0], 128)] threads(128) {
  %a = tile.alloc_shared : !tile.buffer<64xf32, shared>
  %c = arith.constant 0 : index
  tile.copy async %A[%c] to %a : !tile.buffer<?xf32, global> to !tile.buffer<64xf32, shared>
  tile.async_commit
  tile.copy %a to %A[%c] : !tile.buffer<64xf32, shared> to !tile.buffer<?xf32, global>
}
