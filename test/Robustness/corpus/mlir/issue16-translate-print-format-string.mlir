// Silently accepted: the label goes into the printf format unescaped. The PTX holds
// printfFormat_0 = "%s%s%s%n %d = %g\n": device printf would read three char* and
// write through an int* that were never passed.
// RUN: tile-translate %s --emit=ptx -o - | grep printfFormat
//
// Robustness suite (test/Robustness/robustness.py): the default commands
// and these (expect=error: the tool must refuse the input).
// ROBUST: tile-translate %s --emit=cubin -o %t/out.cubin
tile.kernel @k(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(128) {
  %v = arith.constant 1.0 : f32
  tile.print "%s%s%s%n %d" %v thread(0) : f32
}
