// A kernel whose region never closes.
// Besides the default commands (any clean end), and replacing them where
// the command is the same:
// ROBUST: expect=error tile-opt %s
// ROBUST: expect=error tile-opt %s --tile-to-nvvm -o %t/out.mlir ;; tile-translate %s --emit=ptx -o %t/out.ptx --manifest-out=%t/out.json
tile.kernel @k(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  %c = arith.constant 0 : index
