// Diagnostics of -tile-plan-shared-memory, and of its reduction scratch
// attribute written by hand (`scratch(offset = N, bytes = B)` on
// tile.reduce; convert-tile-to-gpu-unplanned.mlir has what the conversion
// checks of it).
//
// RUN: tile-opt %s -split-input-file -tile-plan-shared-memory -verify-diagnostics

// The tile fits, and so does the scratch; together they do not.
// expected-error@+1 {{'tile.kernel' op expected at most 232448 bytes of shared memory (227 KiB, a block's on the largest GPU), but its tiles and its reductions' scratch take 232576 bytes}}
tile.kernel @scratch_over_the_top(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(256) {
  %s = tile.alloc_shared : !tile.buffer<58096xf32, shared>
  %x = tile.alloc_fragment : !tile.buffer<4x1024xf32, fragment, #tile.row_major<vec = 4>>
  %m = tile.alloc_fragment : !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 1024, parent = #tile.row_major<vec = 4>>>
  tile.copy %A to %s : !tile.buffer<?xf32, global> to !tile.buffer<58096xf32, shared>
  tile.reduce max %x into %m dim(1) : !tile.buffer<4x1024xf32, fragment, #tile.row_major<vec = 4>>, !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 1024, parent = #tile.row_major<vec = 4>>>
}

// -----

tile.kernel @negative_scratch_offset() grid(%bx) = [1] threads(256) {
  %x = tile.alloc_fragment : !tile.buffer<4x1024xf32, fragment, #tile.row_major<vec = 4>>
  %m = tile.alloc_fragment : !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 1024, parent = #tile.row_major<vec = 4>>>
  // expected-error@+1 {{'tile.reduce' op attribute 'scratch_offset' failed to satisfy constraint: 64-bit signless integer attribute whose value is non-negative}}
  tile.reduce max %x into %m dim(1) scratch(offset = -128, bytes = 128) : !tile.buffer<4x1024xf32, fragment, #tile.row_major<vec = 4>>, !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 1024, parent = #tile.row_major<vec = 4>>>
}

// -----

tile.kernel @empty_scratch() grid(%bx) = [1] threads(256) {
  %x = tile.alloc_fragment : !tile.buffer<4x1024xf32, fragment, #tile.row_major<vec = 4>>
  %m = tile.alloc_fragment : !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 1024, parent = #tile.row_major<vec = 4>>>
  // expected-error@+1 {{'tile.reduce' op attribute 'scratch_bytes' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
  tile.reduce max %x into %m dim(1) scratch(offset = 0, bytes = 0) : !tile.buffer<4x1024xf32, fragment, #tile.row_major<vec = 4>>, !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 1024, parent = #tile.row_major<vec = 4>>>
}

// -----

// An offset without its size (the custom form cannot write it; the
// attribute dictionary can).
tile.kernel @scratch_offset_alone() grid(%bx) = [1] threads(256) {
  %x = tile.alloc_fragment : !tile.buffer<4x1024xf32, fragment, #tile.row_major<vec = 4>>
  %m = tile.alloc_fragment : !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 1024, parent = #tile.row_major<vec = 4>>>
  // expected-error@+1 {{'tile.reduce' op failed to verify that scratch_offset and scratch_bytes are given together}}
  tile.reduce max %x into %m dim(1) {scratch_offset = 0 : i64} : !tile.buffer<4x1024xf32, fragment, #tile.row_major<vec = 4>>, !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 1024, parent = #tile.row_major<vec = 4>>>
}
