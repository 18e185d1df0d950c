// A global tensor of 2^62 x 4 f32 (its byte size overflows).
tile.kernel @k(%A: !tile.buffer<4611686018427387904x4xf32, global>) grid(%bx) = [1] threads(128) {
}
