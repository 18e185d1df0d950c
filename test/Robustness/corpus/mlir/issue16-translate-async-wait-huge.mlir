// Silently accepted (IntNonNegative only): the count is truncated to 32 bits.
// 9223372036854775807 -> PTX "cp.async.wait_group -1;" (ptxas, via --emit=cubin, accepts
// it too); 4294967296 -> "cp.async.wait_group 0". `then wait N prefetch` is the same.
// RUN: tile-translate %s --emit=ptx -o - | grep wait_group
//
// Robustness suite (test/Robustness/robustness.py): the default commands
// and these (expect=error: the tool must refuse the input).
// ROBUST: expect=error tile-opt %s --tile-to-nvvm -o %t/out.mlir ;; tile-translate %s --emit=ptx -o %t/out.ptx --manifest-out=%t/out.json
// ROBUST: expect=error tile-translate %s --emit=cubin -o %t/out.cubin
tile.kernel @k(%A: !tile.buffer<?x?xf16, global>) grid(%bx) = [1] threads(128) {
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %c = arith.constant 0 : index
  tile.copy async %A[%c, %c] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
  tile.async_commit
  tile.async_wait 9223372036854775807
  tile.copy %a to %A[%c, %c] : !tile.buffer<64x64xf16, shared> to !tile.buffer<?x?xf16, global>
}
