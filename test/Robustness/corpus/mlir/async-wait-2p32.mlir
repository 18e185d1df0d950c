// tile.async_wait 2^32 (truncated to 0 at 0f70f22).
// Besides the default commands (any clean end), and replacing them where
// the command is the same:
// ROBUST: expect=error tile-opt %s --tile-to-nvvm -o %t/out.mlir ;; tile-translate %s --emit=ptx -o %t/out.ptx --manifest-out=%t/out.json
tile.kernel @k(%A: !tile.buffer<?xf32, global>) grid(%bx) = [ceildiv(%A[0], 128)] threads(128) {
  %a = tile.alloc_shared : !tile.buffer<64xf32, shared>
  %c = arith.constant 0 : index
  tile.copy async %A[%c] to %a : !tile.buffer<?xf32, global> to !tile.buffer<64xf32, shared>
  tile.async_commit
  tile.async_wait 4294967296
  tile.copy %a to %A[%c] : !tile.buffer<64xf32, shared> to !tile.buffer<?xf32, global>
}
