// Silently accepted; the bounds mask only checks the upper bound. The lowering tests
// (n - offset) >= 1 (signed), so a negative offset passes and the copy reads and
// WRITES A[-128 .. -1], outside the tensor (docs: "destination elements outside the
// tensor are not written"). Seen in the IR (tile-opt --tile-to-gpu: arith.subi %arg1,
// %0 ; arith.cmpi sge ...), not run on a GPU here.
// RUN: tile-opt %s --tile-to-gpu
//
// Robustness suite: the default commands only (any clean end passes).
tile.kernel @k(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(128) {
  %a = tile.alloc_fragment : !tile.buffer<128xf32, fragment>
  %c = arith.constant -128 : index
  tile.copy %A[%c] to %a : !tile.buffer<?xf32, global> to !tile.buffer<128xf32, fragment>
  tile.copy %a to %A[%c] : !tile.buffer<128xf32, fragment> to !tile.buffer<?xf32, global>
}
