// tile.thread_reduce combines the registers of the calling thread's
// fragment (4 row values of a #tile.slice here, one per row) with no
// shuffles or barriers; a branch on the result guards register-only work,
// as the causal D=128 attention kernels skip the rescale of their
// accumulator when none of a thread's row factors changed.
//
// RUN: tile-opt %s -tile-to-gpu | FileCheck %s

// CHECK-LABEL: gpu.func @skip_unchanged_rescale(
// CHECK: %[[FACTORS:.*]] = memref.alloca() : memref<4xf32>
// CHECK: %[[F0:.*]] = memref.load %[[FACTORS]][%c0]
// CHECK: %[[F1:.*]] = memref.load %[[FACTORS]][%c1]
// CHECK: %[[M01:.*]] = arith.minimumf %[[F0]], %[[F1]]
// CHECK: %[[F2:.*]] = memref.load %[[FACTORS]][%c2]
// CHECK: %[[M012:.*]] = arith.minimumf %[[M01]], %[[F2]]
// CHECK: %[[F3:.*]] = memref.load %[[FACTORS]][%c3]
// CHECK: %[[MIN:.*]] = arith.minimumf %[[M012]], %[[F3]]
// CHECK-NOT: gpu.shuffle
// CHECK-NOT: gpu.barrier
// CHECK: %[[CHANGED:.*]] = arith.cmpf olt, %[[MIN]], %{{.*}} : f32
// CHECK: scf.if %[[CHANGED]] {
// CHECK: arith.mulf
// CHECK-NOT: gpu.barrier
// CHECK: }
tile.kernel @skip_unchanged_rescale(%X: !tile.buffer<?x?xf32, global>) grid(%bx) = [1] threads(256) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %x = tile.alloc_fragment : !tile.buffer<4x1024xf32, fragment>
  %factor = tile.alloc_fragment : !tile.buffer<4xf32, fragment>
  tile.copy %X[%c0, %c0] to %x : !tile.buffer<?x?xf32, global> to !tile.buffer<4x1024xf32, fragment>
  tile.reduce max %x into %factor dim(1) : !tile.buffer<4x1024xf32, fragment>, !tile.buffer<4xf32, fragment>
  %smallest = tile.thread_reduce min %factor : !tile.buffer<4xf32, fragment> -> f32
  %changed = arith.cmpf olt, %smallest, %one : f32
  scf.if %changed {
    tile.parallel (%i, %j) in [4, 1024] {
      %v = tile.load %x[%i, %j] : !tile.buffer<4x1024xf32, fragment>
      %f = tile.load %factor[%i] : !tile.buffer<4xf32, fragment>
      %p = arith.mulf %v, %f : f32
      tile.store %p, %x[%i, %j] : !tile.buffer<4x1024xf32, fragment>
    }
  }
  tile.copy %x to %X[%c0, %c0] : !tile.buffer<4x1024xf32, fragment> to !tile.buffer<?x?xf32, global>
}
