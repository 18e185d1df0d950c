// A tile.print label with a NUL byte.
tile.kernel @k(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(128) {
  %v = arith.constant 1.0 : f32
  tile.print "a\00b" %v thread(0) : f32
}
