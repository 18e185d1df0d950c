// A 32 x 32 fragment with #tile.slice<dim = 5, dim_size = 32, parent = #tile.row_major<vec = 4>>.
// Besides the default commands (any clean end), and replacing them where
// the command is the same:
// ROBUST: expect=error tile-opt %s
// ROBUST: expect=error tile-opt %s --tile-to-nvvm -o %t/out.mlir ;; tile-translate %s --emit=ptx -o %t/out.ptx --manifest-out=%t/out.json
tile.kernel @k(%A: !tile.buffer<?xf32, global>) grid(%bx) = [ceildiv(%A[0], 128)] threads(128) {
  %t = tile.alloc_fragment : !tile.buffer<32x32xf32, fragment, #tile.slice<dim = 5, dim_size = 32, parent = #tile.row_major<vec = 4>>>
  tile.clear %t : !tile.buffer<32x32xf32, fragment, #tile.slice<dim = 5, dim_size = 32, parent = #tile.row_major<vec = 4>>>
}
