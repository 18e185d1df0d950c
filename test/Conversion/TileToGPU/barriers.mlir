// Where the block barriers end up in the gpu.func (tile-insert-barriers
// places them, convert-tile-to-gpu lowers them): after every op that writes
// a shared tile (read after write), and after a read only when the tile is
// written again later, in program order or in a loop around the read (write
// after read). The libdevice ftz flag is on by default and can be turned off.

// RUN: tile-opt %s -split-input-file --tile-assign-layouts --tile-fuse-stores --tile-plan-shared-memory --tile-insert-barriers --convert-tile-to-gpu | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-assign-layouts --tile-fuse-stores --tile-plan-shared-memory --tile-insert-barriers --convert-tile-to-gpu="flush-denormals=0" | FileCheck %s --check-prefix=NOFTZ

// Written once, then only read in the loop: one barrier, after the write.
// CHECK: llvm.module_flags [#llvm.mlir.module_flag<override, "nvvm-reflect-ftz", 1 : i32>]
// CHECK-LABEL: gpu.func @read_only_in_loop(
// CHECK: vector.store %{{.*}} : memref<128xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK-NEXT: gpu.barrier
// CHECK: scf.for
// CHECK: memref.load %{{.*}} : memref<128xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
// NOFTZ-NOT: llvm.module_flags
tile.kernel @read_only_in_loop(%A: !tile.buffer<128xf32, global>,
                               %B: !tile.buffer<128xf32, global>,
                               %n: i64)
    grid(%bx) = [1] threads(32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = tile.alloc_shared : !tile.buffer<128xf32, shared>
  %f = tile.alloc_fragment : !tile.buffer<128xf32, fragment>
  tile.copy %A[%c0] to %s : !tile.buffer<128xf32, global> to !tile.buffer<128xf32, shared>
  tile.clear %f : !tile.buffer<128xf32, fragment>
  %end = arith.index_cast %n : i64 to index
  scf.for %i = %c0 to %end step %c1 {
    tile.parallel (%j) in [128] {
      %x = tile.load %s[%j] : !tile.buffer<128xf32, shared>
      %y = tile.load %f[%j] : !tile.buffer<128xf32, fragment>
      %z = arith.addf %x, %y : f32
      tile.store %z, %f[%j] : !tile.buffer<128xf32, fragment>
    }
  }
  tile.copy %f to %B[%c0] : !tile.buffer<128xf32, fragment> to !tile.buffer<128xf32, global>
}

// -----

// Read, then refilled in the same loop: the read is followed by a barrier,
// or the next iteration's copy would overwrite what slower threads still read.
// CHECK-LABEL: gpu.func @refilled_in_loop(
// CHECK: scf.for
// CHECK: vector.store %{{.*}} : memref<128xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK-NEXT: gpu.barrier
// CHECK: memref.load %{{.*}} : memref<128xf32, #gpu.address_space<workgroup>>
// CHECK: gpu.barrier
// CHECK-NEXT: }
tile.kernel @refilled_in_loop(%A: !tile.buffer<?xf32, global>,
                              %B: !tile.buffer<128xf32, global>,
                              %n: i64)
    grid(%bx) = [1] threads(32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %s = tile.alloc_shared : !tile.buffer<128xf32, shared>
  %f = tile.alloc_fragment : !tile.buffer<128xf32, fragment>
  tile.clear %f : !tile.buffer<128xf32, fragment>
  %end = arith.index_cast %n : i64 to index
  scf.for %i = %c0 to %end step %c1 {
    %off = arith.muli %i, %c128 : index
    tile.copy %A[%off] to %s : !tile.buffer<?xf32, global> to !tile.buffer<128xf32, shared>
    tile.parallel (%j) in [128] {
      %x = tile.load %s[%j] : !tile.buffer<128xf32, shared>
      %y = tile.load %f[%j] : !tile.buffer<128xf32, fragment>
      %z = arith.addf %x, %y : f32
      tile.store %z, %f[%j] : !tile.buffer<128xf32, fragment>
    }
  }
  tile.copy %f to %B[%c0] : !tile.buffer<128xf32, fragment> to !tile.buffer<128xf32, global>
}

// -----

// Read, then overwritten later in program order: barrier after the read.
// CHECK-LABEL: gpu.func @overwritten_later(
// CHECK: gpu.barrier
// CHECK: memref.load %{{.*}} : memref<128xf32, #gpu.address_space<workgroup>>
// CHECK: gpu.barrier
// CHECK: memref.store %{{.*}} : memref<128xf32, #gpu.address_space<workgroup>>
tile.kernel @overwritten_later(%A: !tile.buffer<128xf32, global>,
                               %B: !tile.buffer<128xf32, global>)
    grid(%bx) = [1] threads(32) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %s = tile.alloc_shared : !tile.buffer<128xf32, shared>
  %f = tile.alloc_fragment : !tile.buffer<128xf32, fragment>
  tile.copy %A[%c0] to %s : !tile.buffer<128xf32, global> to !tile.buffer<128xf32, shared>
  tile.parallel (%j) in [128] {
    %x = tile.load %s[%j] : !tile.buffer<128xf32, shared>
    tile.store %x, %f[%j] : !tile.buffer<128xf32, fragment>
  }
  tile.parallel (%j) in [128] {
    tile.store %zero, %s[%j] : !tile.buffer<128xf32, shared>
  }
  tile.copy %f to %B[%c0] : !tile.buffer<128xf32, fragment> to !tile.buffer<128xf32, global>
}
