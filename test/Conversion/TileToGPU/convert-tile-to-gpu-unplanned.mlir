// convert-tile-to-gpu places no shared tiles itself: it reads the offsets of
// -tile-plan-shared-memory (and a hand-written plan), and refuses a tile
// without an offset or a total no block can have.
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
