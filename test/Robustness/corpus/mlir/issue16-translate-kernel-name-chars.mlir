// LLVM ERROR: Symbol name with unsupported characters (abort, stack dump) in the NVPTX
// back end. tile-opt and --tile-to-nvvm accept the kernel; only PTX emission dies.
// Also with @"k\E2\82\AC" (a UTF-8 euro sign) and @"a\"b c".
// RUN: tile-translate %s --emit=ptx -o /dev/null
//
// Robustness suite (test/Robustness/robustness.py): the default commands
// and these (expect=error: the tool must refuse the input).
// ROBUST: tile-translate %s --emit=cubin -o %t/out.cubin --manifest-out=%t/out.json
tile.kernel @"my kernel"(%A: !tile.buffer<?xf32, global>) grid(%bx) = [ceildiv(%A[0], 128)] threads(128) {
  %f = tile.alloc_fragment : !tile.buffer<128xf32, fragment>
  %c = arith.constant 0 : index
  tile.copy %A[%c] to %f : !tile.buffer<?xf32, global> to !tile.buffer<128xf32, fragment>
  tile.copy %f to %A[%c] : !tile.buffer<128xf32, fragment> to !tile.buffer<?xf32, global>
}
