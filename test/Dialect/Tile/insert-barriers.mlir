// Where the block synchronizes: one small kernel per case, in the style of
// Triton's test/Analysis/test-membar.mlir. A barrier follows an op that
// writes a shared tile (read after write) and an op that reads one that a
// later op, or the next iteration of a loop around it, writes (write after
// read); it precedes the first use of a tile that takes another's bytes.
// Running the pass twice adds nothing.
//
// RUN: tile-opt %s -split-input-file -tile-fuse-stores -tile-plan-shared-memory -tile-insert-barriers | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-fuse-stores -tile-plan-shared-memory -tile-insert-barriers -tile-insert-barriers | FileCheck %s

// Read after write: the copy out reads elements other threads wrote. The
// tile is not written again, so no barrier follows the read.
// CHECK-LABEL: tile.kernel @raw
// CHECK: tile.copy %{{.*}} to %[[S:.*]] :
// CHECK-NEXT: tile.barrier
// CHECK-NEXT: tile.copy %[[S]] to
// CHECK-NOT: tile.barrier
tile.kernel @raw(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  %s = tile.alloc_shared : !tile.buffer<64xf32, shared>
  tile.copy %A to %s : !tile.buffer<?xf32, global> to !tile.buffer<64xf32, shared>
  tile.copy %s to %A : !tile.buffer<64xf32, shared> to !tile.buffer<?xf32, global>
}

// -----

// Write after read: the tile is filled again after it was read.
// CHECK-LABEL: tile.kernel @war
// CHECK: tile.copy %{{.*}} to %[[S:.*]] :
// CHECK-NEXT: tile.barrier
// CHECK-NEXT: tile.copy %[[S]] to
// CHECK-NEXT: tile.barrier
// CHECK-NEXT: tile.fill %[[S]]
// CHECK-NEXT: tile.barrier
// CHECK-NEXT: tile.copy %[[S]] to
// CHECK-NOT: tile.barrier
tile.kernel @war(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  %zero = arith.constant 0.0 : f32
  %s = tile.alloc_shared : !tile.buffer<64xf32, shared>
  tile.copy %A to %s : !tile.buffer<?xf32, global> to !tile.buffer<64xf32, shared>
  tile.copy %s to %A : !tile.buffer<64xf32, shared> to !tile.buffer<?xf32, global>
  tile.fill %s, %zero : !tile.buffer<64xf32, shared>
  tile.copy %s to %A : !tile.buffer<64xf32, shared> to !tile.buffer<?xf32, global>
}

// -----

// Across loops: the read at the end of the body races with the next
// iteration's write, so it is followed by a barrier too.
// CHECK-LABEL: tile.kernel @loop_war
// CHECK: scf.for
// CHECK-NEXT: tile.copy %{{.*}} to %[[S:.*]] :
// CHECK-NEXT: tile.barrier
// CHECK-NEXT: tile.copy %[[S]] to
// CHECK-NEXT: tile.barrier
// CHECK-NEXT: }
tile.kernel @loop_war(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %s = tile.alloc_shared : !tile.buffer<64xf32, shared>
  scf.for %i = %c0 to %c4 step %c1 {
    tile.copy %A to %s : !tile.buffer<?xf32, global> to !tile.buffer<64xf32, shared>
    tile.copy %s to %A : !tile.buffer<64xf32, shared> to !tile.buffer<?xf32, global>
  }
}

// -----

// Only reads in the loop: the tile is written once before it (attention's
// Q), so the reads need no barrier, in the loop or after it.
// CHECK-LABEL: tile.kernel @loop_only_reads
// CHECK: tile.copy %{{.*}} to %[[S:.*]] :
// CHECK-NEXT: tile.barrier
// CHECK-NEXT: scf.for
// CHECK-NEXT: tile.copy %[[S]] to
// CHECK-NEXT: }
// CHECK-NEXT: tile.copy %[[S]] to
// CHECK-NOT: tile.barrier
tile.kernel @loop_only_reads(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %s = tile.alloc_shared : !tile.buffer<64xf32, shared>
  tile.copy %A to %s : !tile.buffer<?xf32, global> to !tile.buffer<64xf32, shared>
  scf.for %i = %c0 to %c4 step %c1 {
    tile.copy %s to %A : !tile.buffer<64xf32, shared> to !tile.buffer<?xf32, global>
  }
  tile.copy %s to %A : !tile.buffer<64xf32, shared> to !tile.buffer<?xf32, global>
}

// -----

// Reuse of a placed buffer: %b takes %a's bytes (both at offset 0). %a is
// only read after its write, so nothing follows its read but the barrier
// before %b's first use: every thread must be done reading %a.
// CHECK-LABEL: tile.kernel @reuse
// CHECK: %[[A:.*]] = tile.alloc_shared offset(0)
// CHECK: %[[B:.*]] = tile.alloc_shared offset(0)
// CHECK: tile.copy %{{.*}} to %[[A]] :
// CHECK-NEXT: tile.barrier
// CHECK-NEXT: tile.copy %[[A]] to
// CHECK-NEXT: tile.barrier
// CHECK-NEXT: tile.copy %{{.*}} to %[[B]] :
// CHECK-NEXT: tile.barrier
// CHECK-NEXT: tile.copy %[[B]] to
// CHECK-NOT: tile.barrier
tile.kernel @reuse(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  %a = tile.alloc_shared : !tile.buffer<64xf32, shared>
  %b = tile.alloc_shared : !tile.buffer<64xf32, shared>
  tile.copy %A to %a : !tile.buffer<?xf32, global> to !tile.buffer<64xf32, shared>
  tile.copy %a to %A : !tile.buffer<64xf32, shared> to !tile.buffer<?xf32, global>
  tile.copy %A to %b : !tile.buffer<?xf32, global> to !tile.buffer<64xf32, shared>
  tile.copy %b to %A : !tile.buffer<64xf32, shared> to !tile.buffer<?xf32, global>
}

// -----

// No barrier where only registers and global memory are touched, nor after
// an async copy (tile.async_wait synchronizes the block itself).
// CHECK-LABEL: tile.kernel @no_shared_writes
// CHECK-NOT: tile.barrier
// CHECK: tile.async_wait 0
// CHECK-NEXT: tile.copy
// CHECK-NOT: tile.barrier
tile.kernel @no_shared_writes(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  %f = tile.alloc_fragment : !tile.buffer<64xf32, fragment, #tile.row_major<vec = 2>>
  %s = tile.alloc_shared : !tile.buffer<64xf32, shared>
  tile.copy %A to %f : !tile.buffer<?xf32, global> to !tile.buffer<64xf32, fragment, #tile.row_major<vec = 2>>
  tile.copy %f to %A : !tile.buffer<64xf32, fragment, #tile.row_major<vec = 2>> to !tile.buffer<?xf32, global>
  tile.copy async %A to %s : !tile.buffer<?xf32, global> to !tile.buffer<64xf32, shared>
  tile.async_commit
  tile.async_wait 0
  tile.copy %s to %A : !tile.buffer<64xf32, shared> to !tile.buffer<?xf32, global>
}

// -----

// A rolled loop that rewrites a shared tile in place before its last use, a
// copy that the loop stores itself (tile-fuse-stores): the loop and the
// copy lower as one, so the loop's barrier follows the copy.
// CHECK-LABEL: tile.kernel @fused_store
// CHECK: tile.copy %{{.*}} to %[[S:.*]] :
// CHECK-NEXT: tile.barrier
// CHECK-NEXT: tile.parallel
// CHECK: }
// CHECK-NEXT: tile.copy %[[S]] to %{{.*}} {tile.fused}
// CHECK-NEXT: tile.barrier
tile.kernel @fused_store(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  %s = tile.alloc_shared : !tile.buffer<64xf32, shared>
  tile.copy %A to %s : !tile.buffer<?xf32, global> to !tile.buffer<64xf32, shared>
  tile.parallel (%i) in [64] rolled {
    %x = tile.load %s[%i] : !tile.buffer<64xf32, shared>
    %y = arith.addf %x, %x : f32
    tile.store %y, %s[%i] : !tile.buffer<64xf32, shared>
  }
  tile.copy %s to %A : !tile.buffer<64xf32, shared> to !tile.buffer<?xf32, global>
}

// -----

// A TMA store fences and synchronizes its group itself: no barrier between
// the write of its tile and it, also past the index arithmetic of its
// offsets. Its wait synchronizes too, so the rewrite of the tile needs none.
// CHECK-LABEL: tile.kernel @tma_store_bands
// CHECK: tile.copy %{{.*}}[%{{.*}}, %{{.*}}] to %[[S0:[^ ]*]] :
// CHECK-NEXT: %[[COL:.*]] = arith.addi
// CHECK-NEXT: tile.copy async %[[S0]] to %C[%{{.*}}, %[[COL]]]
// CHECK-NEXT: tile.tma_store_wait %[[S0]] :
// CHECK-NEXT: tile.copy %{{.*}}[%{{.*}}, %{{.*}}] to %[[S0]] :
// CHECK-NEXT: tile.copy async %[[S0]]
// CHECK-NOT: tile.barrier
tile.kernel @tma_store_bands(%C: !tile.buffer<?x?xf16, global>) grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %acc = tile.alloc_fragment : !tile.buffer<64x128xf32, fragment, #tile.wgmma<warpgroups = [1, 1]>>
  %s0 = tile.alloc_shared : !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>
  tile.warp_specialize producer(registers = 40) {
  } compute(registers = 232) {
    tile.copy %acc[%c0, %c0] to %s0 : !tile.buffer<64x128xf32, fragment, #tile.wgmma<warpgroups = [1, 1]>> to !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>
    %col = arith.addi %c0, %c0 : index
    tile.copy async %s0 to %C[%c0, %col] : !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>> to !tile.buffer<?x?xf16, global>
    tile.tma_store_wait %s0 : !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>
    tile.copy %acc[%c0, %c64] to %s0 : !tile.buffer<64x128xf32, fragment, #tile.wgmma<warpgroups = [1, 1]>> to !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>
    tile.copy async %s0 to %C[%c0, %c64] : !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>> to !tile.buffer<?x?xf16, global>
    tile.tma_store_wait %s0 : !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>
  }
}
