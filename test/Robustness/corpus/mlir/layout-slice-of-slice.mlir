// A 32 x 32 fragment with #tile.slice<dim = 0, dim_size = 32, parent = #tile.slice<dim = 1, dim_size = 32, parent = #tile.slice<dim = 1, dim_size = 32, parent = #tile.row_major<vec = 4>>>>.
tile.kernel @k(%A: !tile.buffer<?xf32, global>) grid(%bx) = [ceildiv(%A[0], 128)] threads(128) {
  %t = tile.alloc_fragment : !tile.buffer<32x32xf32, fragment, #tile.slice<dim = 0, dim_size = 32, parent = #tile.slice<dim = 1, dim_size = 32, parent = #tile.slice<dim = 1, dim_size = 32, parent = #tile.row_major<vec = 4>>>>>
  tile.clear %t : !tile.buffer<32x32xf32, fragment, #tile.slice<dim = 0, dim_size = 32, parent = #tile.slice<dim = 1, dim_size = 32, parent = #tile.slice<dim = 1, dim_size = 32, parent = #tile.row_major<vec = 4>>>>>
}
