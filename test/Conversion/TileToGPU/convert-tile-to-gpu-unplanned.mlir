// convert-tile-to-gpu places no shared tiles or reduction scratch itself: it
// reads the offsets of -tile-plan-shared-memory (and a hand-written plan),
// and refuses a tile or scratch without an offset, and placements or totals
// no block can have.
//
// RUN: tile-opt %s --convert-tile-to-gpu -split-input-file -verify-diagnostics | FileCheck %s

tile.kernel @unplanned(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  // expected-error@+1 {{'tile.alloc_shared' op expected an offset in shared memory; run -tile-plan-shared-memory first}}
  %s = tile.alloc_shared : !tile.buffer<64xf32, shared>
  tile.copy %A to %s : !tile.buffer<?xf32, global> to !tile.buffer<64xf32, shared>
}

// -----

// A hand-written total must be one a block can have.
// expected-error@+1 {{'tile.kernel' op expected tile.shared_memory_bytes from 0 to 232448, but got 9223372036854775807}}
tile.kernel @huge_total(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32)
    attributes {tile.shared_memory_bytes = 9223372036854775807 : i64} {
}

// -----

// expected-error@+1 {{'tile.kernel' op expected tile.shared_memory_bytes from 0 to 232448, but got -1}}
tile.kernel @negative_total(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32)
    attributes {tile.shared_memory_bytes = -1 : i64} {
}

// -----

// A hand-written plan: the total covers each used tile wherever it is
// placed (here past the kernel's total), and the view is at its offset.
// CHECK-LABEL: gpu.module @tile_kernels
// CHECK-SAME: dynamic_shared_memory = 1280,
// CHECK: %[[OFFSET:.*]] = arith.constant 1024 : index
// CHECK: memref.view %{{.*}}[%[[OFFSET]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
tile.kernel @hand_placed(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32)
    attributes {tile.shared_memory_bytes = 0 : i64} {
  %s = tile.alloc_shared offset(1024) : !tile.buffer<64xf32, shared>
  tile.copy %A to %s : !tile.buffer<?xf32, global> to !tile.buffer<64xf32, shared>
}

// -----

// The reductions' cross-warp scratch is -tile-plan-shared-memory's too: a
// reduction whose rows span warps needs one (256 threads: 8 warps per row).
tile.kernel @unplanned_scratch() grid(%bx) = [1] threads(256) {
  %x = tile.alloc_fragment : !tile.buffer<4x1024xf32, fragment, #tile.row_major<vec = 4>>
  %m = tile.alloc_fragment : !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 1024, parent = #tile.row_major<vec = 4>>>
  // expected-error@+1 {{'tile.reduce' op expected a scratch in shared memory for its cross-warp step; run -tile-plan-shared-memory first}}
  tile.reduce max %x into %m dim(1) : !tile.buffer<4x1024xf32, fragment, #tile.row_major<vec = 4>>, !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 1024, parent = #tile.row_major<vec = 4>>>
}

// -----

tile.kernel @scratch_too_small() grid(%bx) = [1] threads(256) {
  %x = tile.alloc_fragment : !tile.buffer<4x1024xf32, fragment, #tile.row_major<vec = 4>>
  %m = tile.alloc_fragment : !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 1024, parent = #tile.row_major<vec = 4>>>
  // expected-error@+1 {{'tile.reduce' op expected a scratch of 128 bytes (32 f32 partial values) for its cross-warp step, but got 64}}
  tile.reduce max %x into %m dim(1) scratch(offset = 0, bytes = 64) : !tile.buffer<4x1024xf32, fragment, #tile.row_major<vec = 4>>, !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 1024, parent = #tile.row_major<vec = 4>>>
}

// -----

// 32 threads: the rows lie within the one warp.
tile.kernel @scratch_not_needed() grid(%bx) = [1] threads(32) {
  %x = tile.alloc_fragment : !tile.buffer<4x64xf32, fragment, #tile.row_major<vec = 2>>
  %m = tile.alloc_fragment : !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 64, parent = #tile.row_major<vec = 2>>>
  // expected-error@+1 {{'tile.reduce' op expected no scratch (the rows of its source lie within warps), but got 64 bytes at offset 0}}
  tile.reduce max %x into %m dim(1) scratch(offset = 0, bytes = 64) : !tile.buffer<4x64xf32, fragment, #tile.row_major<vec = 2>>, !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 64, parent = #tile.row_major<vec = 2>>>
}

// -----

tile.kernel @scratch_misaligned() grid(%bx) = [1] threads(256) {
  %x = tile.alloc_fragment : !tile.buffer<4x1024xf32, fragment, #tile.row_major<vec = 4>>
  %m = tile.alloc_fragment : !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 1024, parent = #tile.row_major<vec = 4>>>
  // expected-error@+1 {{'tile.reduce' op expected a scratch offset that is a multiple of 128 bytes, but got 100}}
  tile.reduce max %x into %m dim(1) scratch(offset = 100, bytes = 128) : !tile.buffer<4x1024xf32, fragment, #tile.row_major<vec = 4>>, !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 1024, parent = #tile.row_major<vec = 4>>>
}

// -----

tile.kernel @scratch_past_the_end() grid(%bx) = [1] threads(256) {
  %x = tile.alloc_fragment : !tile.buffer<4x1024xf32, fragment, #tile.row_major<vec = 4>>
  %m = tile.alloc_fragment : !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 1024, parent = #tile.row_major<vec = 4>>>
  // expected-error@+1 {{'tile.reduce' op expected the scratch to end within 232448 bytes of shared memory, but its offset 9223372036854775680 and its 128 bytes end at 9223372036854775808}}
  tile.reduce max %x into %m dim(1) scratch(offset = 9223372036854775680, bytes = 128) : !tile.buffer<4x1024xf32, fragment, #tile.row_major<vec = 4>>, !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 1024, parent = #tile.row_major<vec = 4>>>
}

// -----

// A hand-placed scratch: the view is at its offset (the constant 1024, which
// the printer names %c1024 or %c1024_N), the total covers it.
// CHECK-LABEL: gpu.module @tile_kernels
// CHECK-SAME: dynamic_shared_memory = 1152{{[,>]}}
// CHECK: memref.view %{{.*}}[%c1024{{(_[0-9]+)?}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32xf32, #gpu.address_space<workgroup>>
tile.kernel @hand_placed_scratch() grid(%bx) = [1] threads(256)
    attributes {tile.shared_memory_bytes = 0 : i64} {
  %x = tile.alloc_fragment : !tile.buffer<4x1024xf32, fragment, #tile.row_major<vec = 4>>
  %m = tile.alloc_fragment : !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 1024, parent = #tile.row_major<vec = 4>>>
  tile.reduce max %x into %m dim(1) scratch(offset = 1024, bytes = 128) : !tile.buffer<4x1024xf32, fragment, #tile.row_major<vec = 4>>, !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 1024, parent = #tile.row_major<vec = 4>>>
}
