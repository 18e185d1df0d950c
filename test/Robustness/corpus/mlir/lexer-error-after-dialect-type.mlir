// A stray '.' right after a !tile.buffer type: MLIR 22's parser reports the
// lexer error and goes on (the op after it is parsed as if the '.' were not
// there); the tools must still fail (StrictParse.h).
// ROBUST: expect=error require='expected three consecutive dots for an ellipsis' tile-opt %s
// ROBUST: expect=error require='expected three consecutive dots for an ellipsis' tile-opt %s --tile-to-gpu
// ROBUST: expect=error require='expected three consecutive dots for an ellipsis' tile-translate %s --emit=manifest -o %t/out.json
tile.kernel @k() grid(%bx) = [1] threads(32) {
  %a = tile.alloc_fragment : !tile.buffer<32xf32, fragment>
.tile.barrier
}
