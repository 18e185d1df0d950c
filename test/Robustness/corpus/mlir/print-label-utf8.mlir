// A tile.print label in UTF-8.
tile.kernel @k(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(128) {
  %v = arith.constant 1.0 : f32
  tile.print "€ é" %v thread(0) : f32
}
