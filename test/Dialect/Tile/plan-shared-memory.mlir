// Offsets of shared tiles in the kernel's dynamic shared memory: tiles live
// together take consecutive 128-byte aligned offsets, a tile used only after
// another's last use takes its bytes, a use inside a loop keeps a tile live
// for the whole loop, an unused tile takes none. Planning twice gives the
// same plan.
//
// RUN: tile-opt %s -split-input-file -tile-plan-shared-memory | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-plan-shared-memory -tile-plan-shared-memory | FileCheck %s

// Live together: one after the other, each start aligned to 128 bytes
// (%b's 64 bytes end at 192; %c starts at 256).
// CHECK-LABEL: tile.kernel @live_together
// CHECK-SAME: attributes {tile.shared_memory_bytes = 1280 : i64}
// CHECK: tile.alloc_shared offset(0) : !tile.buffer<64xf16, shared>
// CHECK: tile.alloc_shared offset(128) : !tile.buffer<32xf16, shared>
// CHECK: tile.alloc_shared offset(256) : !tile.buffer<256xf32, shared>
tile.kernel @live_together(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  %a = tile.alloc_shared : !tile.buffer<64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<32xf16, shared>
  %c = tile.alloc_shared : !tile.buffer<256xf32, shared>
  tile.copy %A to %a : !tile.buffer<?xf32, global> to !tile.buffer<64xf16, shared>
  tile.copy %A to %b : !tile.buffer<?xf32, global> to !tile.buffer<32xf16, shared>
  tile.copy %A to %c : !tile.buffer<?xf32, global> to !tile.buffer<256xf32, shared>
  tile.copy %a to %A : !tile.buffer<64xf16, shared> to !tile.buffer<?xf32, global>
  tile.copy %b to %A : !tile.buffer<32xf16, shared> to !tile.buffer<?xf32, global>
  tile.copy %c to %A : !tile.buffer<256xf32, shared> to !tile.buffer<?xf32, global>
}

// -----

// %b is used only after %a's last use: it takes %a's bytes; the total is
// one tile.
// CHECK-LABEL: tile.kernel @reuse
// CHECK-SAME: attributes {tile.shared_memory_bytes = 16384 : i64}
// CHECK: tile.alloc_shared offset(0) : !tile.buffer<64x64xf32, shared>
// CHECK: tile.alloc_shared offset(0) : !tile.buffer<64x64xf32, shared>
tile.kernel @reuse(%A: !tile.buffer<?x?xf32, global>) grid(%bx) = [1] threads(128) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %a = tile.alloc_shared : !tile.buffer<64x64xf32, shared>
  %b = tile.alloc_shared : !tile.buffer<64x64xf32, shared>
  tile.copy %A[%c0, %c0] to %a : !tile.buffer<?x?xf32, global> to !tile.buffer<64x64xf32, shared>
  tile.copy %a to %A[%c0, %c0] : !tile.buffer<64x64xf32, shared> to !tile.buffer<?x?xf32, global>
  tile.copy %A[%c0, %c64] to %b : !tile.buffer<?x?xf32, global> to !tile.buffer<64x64xf32, shared>
  tile.copy %b to %A[%c0, %c64] : !tile.buffer<64x64xf32, shared> to !tile.buffer<?x?xf32, global>
}

// -----

// First fit: %c comes after %a's last use and fits in %a's bytes below %b,
// which is live throughout; %d, as large as %a and %b together, does not fit
// below %b and goes past it.
// CHECK-LABEL: tile.kernel @first_fit
// CHECK-SAME: attributes {tile.shared_memory_bytes = 12288 : i64}
// CHECK: tile.alloc_shared offset(0) : !tile.buffer<1024xf32, shared>
// CHECK: tile.alloc_shared offset(4096) : !tile.buffer<1024xf32, shared>
// CHECK: tile.alloc_shared offset(0) : !tile.buffer<512xf32, shared>
// CHECK: tile.alloc_shared offset(8192) : !tile.buffer<1024xf32, shared>
tile.kernel @first_fit(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(128) {
  %a = tile.alloc_shared : !tile.buffer<1024xf32, shared>
  %b = tile.alloc_shared : !tile.buffer<1024xf32, shared>
  %c = tile.alloc_shared : !tile.buffer<512xf32, shared>
  %d = tile.alloc_shared : !tile.buffer<1024xf32, shared>
  tile.copy %A to %a : !tile.buffer<?xf32, global> to !tile.buffer<1024xf32, shared>
  tile.copy %A to %b : !tile.buffer<?xf32, global> to !tile.buffer<1024xf32, shared>
  tile.copy %a to %A : !tile.buffer<1024xf32, shared> to !tile.buffer<?xf32, global>
  tile.copy %A to %c : !tile.buffer<?xf32, global> to !tile.buffer<512xf32, shared>
  tile.copy %A to %d : !tile.buffer<?xf32, global> to !tile.buffer<1024xf32, shared>
  tile.copy %c to %A : !tile.buffer<512xf32, shared> to !tile.buffer<?xf32, global>
  tile.copy %d to %A : !tile.buffer<1024xf32, shared> to !tile.buffer<?xf32, global>
  tile.copy %b to %A : !tile.buffer<1024xf32, shared> to !tile.buffer<?xf32, global>
}

// -----

// Liveness counts top-level ops: %a's last use is inside the loop, so it is
// live until the loop ends, and %b, used in the same loop after it, may not
// take its bytes (the next iteration reads %a again). %c comes after the
// loop and takes %a's. %unused takes no bytes.
// CHECK-LABEL: tile.kernel @loop
// CHECK-SAME: attributes {tile.shared_memory_bytes = 8192 : i64}
// CHECK: tile.alloc_shared offset(0) : !tile.buffer<1024xf32, shared>
// CHECK: tile.alloc_shared offset(4096) : !tile.buffer<1024xf32, shared>
// CHECK: tile.alloc_shared offset(0) : !tile.buffer<8192xf32, shared>
// CHECK: tile.alloc_shared offset(0) : !tile.buffer<2048xf32, shared>
tile.kernel @loop(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = tile.alloc_shared : !tile.buffer<1024xf32, shared>
  %b = tile.alloc_shared : !tile.buffer<1024xf32, shared>
  %unused = tile.alloc_shared : !tile.buffer<8192xf32, shared>
  %c = tile.alloc_shared : !tile.buffer<2048xf32, shared>
  scf.for %i = %c0 to %c4 step %c1 {
    tile.copy %A to %a : !tile.buffer<?xf32, global> to !tile.buffer<1024xf32, shared>
    tile.copy %a to %A : !tile.buffer<1024xf32, shared> to !tile.buffer<?xf32, global>
    tile.copy %A to %b : !tile.buffer<?xf32, global> to !tile.buffer<1024xf32, shared>
    tile.copy %b to %A : !tile.buffer<1024xf32, shared> to !tile.buffer<?xf32, global>
  }
  tile.copy %A to %c : !tile.buffer<?xf32, global> to !tile.buffer<2048xf32, shared>
  tile.copy %c to %A : !tile.buffer<2048xf32, shared> to !tile.buffer<?xf32, global>
}

// -----

// A kernel without shared tiles takes no bytes.
// CHECK-LABEL: tile.kernel @none
// CHECK-SAME: attributes {tile.shared_memory_bytes = 0 : i64}
tile.kernel @none(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
}

// -----

// A reduction whose rows span warps gets its cross-warp scratch after the
// tiles: 256 threads, 4 rows of 256 chunks, so each row spans the 8 warps
// and each warp leaves 4 partial values (4 x 8 f32 = 128 bytes), at the
// first multiple of 128 after the tile's 400 bytes.
// CHECK-LABEL: tile.kernel @reduce_scratch
// CHECK-SAME: attributes {tile.shared_memory_bytes = 640 : i64}
// CHECK: tile.alloc_shared offset(0) : !tile.buffer<100xf32, shared>
// CHECK: tile.reduce max %{{.*}} into %{{.*}} dim(1) scratch(offset = 512, bytes = 128) :
tile.kernel @reduce_scratch(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(256) {
  %s = tile.alloc_shared : !tile.buffer<100xf32, shared>
  %x = tile.alloc_fragment : !tile.buffer<4x1024xf32, fragment, #tile.row_major<vec = 4>>
  %m = tile.alloc_fragment : !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 1024, parent = #tile.row_major<vec = 4>>>
  tile.copy %A to %s : !tile.buffer<?xf32, global> to !tile.buffer<100xf32, shared>
  tile.copy %s to %A : !tile.buffer<100xf32, shared> to !tile.buffer<?xf32, global>
  tile.reduce max %x into %m dim(1) : !tile.buffer<4x1024xf32, fragment, #tile.row_major<vec = 4>>, !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 1024, parent = #tile.row_major<vec = 4>>>
}

// -----

// Each reduction has its own scratch, in program order (a loop's too), none
// shared with a tile whose bytes are free by then or with another
// reduction; rows within one warp need none (32 threads: the 4 rows lie in
// the one warp; `tile.thread_reduce` never does). Without shared tiles the
// first scratch is at 0. An #tile.mma accumulator's rows span the two warps
// of a warp row; each of the 8 warps leaves 4 row slots x 8 rows (one per
// lane quad): 1024 bytes.
// CHECK-LABEL: tile.kernel @reduce_scratch_order
// CHECK-SAME: attributes {tile.shared_memory_bytes = 1280 : i64}
// CHECK: tile.reduce max %{{.*}} dim(1) scratch(offset = 0, bytes = 128) :
// CHECK: scf.for
// CHECK: tile.reduce sum %{{.*}} dim(1) accumulate scratch(offset = 128, bytes = 128) :
// CHECK: tile.reduce max %{{.*}} dim(1) scratch(offset = 256, bytes = 1024) :
tile.kernel @reduce_scratch_order(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(256) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %x = tile.alloc_fragment : !tile.buffer<4x1024xf32, fragment, #tile.row_major<vec = 4>>
  %m = tile.alloc_fragment : !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 1024, parent = #tile.row_major<vec = 4>>>
  %acc = tile.alloc_fragment : !tile.buffer<128x64xf32, fragment, #tile.mma<warps = [4, 2]>>
  %r = tile.alloc_fragment : !tile.buffer<128xf32, fragment, #tile.slice<dim = 1, dim_size = 64, parent = #tile.mma<warps = [4, 2]>>>
  tile.reduce max %x into %m dim(1) : !tile.buffer<4x1024xf32, fragment, #tile.row_major<vec = 4>>, !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 1024, parent = #tile.row_major<vec = 4>>>
  scf.for %i = %c0 to %c4 step %c1 {
    tile.reduce sum %x into %m dim(1) accumulate : !tile.buffer<4x1024xf32, fragment, #tile.row_major<vec = 4>>, !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 1024, parent = #tile.row_major<vec = 4>>>
  }
  %t = tile.thread_reduce max %x : !tile.buffer<4x1024xf32, fragment, #tile.row_major<vec = 4>> -> f32
  tile.reduce max %acc into %r dim(1) : !tile.buffer<128x64xf32, fragment, #tile.mma<warps = [4, 2]>>, !tile.buffer<128xf32, fragment, #tile.slice<dim = 1, dim_size = 64, parent = #tile.mma<warps = [4, 2]>>>
}

// -----

// Rows within a warp need no scratch, and a stale one (hand-written, or
// from an earlier plan) goes.
// CHECK-LABEL: tile.kernel @reduce_in_warp
// CHECK-SAME: attributes {tile.shared_memory_bytes = 0 : i64}
// CHECK: tile.reduce max %{{.*}} into %{{.*}} dim(1) : !tile.buffer<4x64xf32
tile.kernel @reduce_in_warp(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  %x = tile.alloc_fragment : !tile.buffer<4x64xf32, fragment, #tile.row_major<vec = 2>>
  %m = tile.alloc_fragment : !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 64, parent = #tile.row_major<vec = 2>>>
  tile.reduce max %x into %m dim(1) scratch(offset = 0, bytes = 64) : !tile.buffer<4x64xf32, fragment, #tile.row_major<vec = 2>>, !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 64, parent = #tile.row_major<vec = 2>>>
}
