// -tile-pipeline: a K loop marked tile.num_stages = 3 gets 3-stage shared
// tiles, a prologue for the first 2 iterations (guarded by the trip count,
// one commit each), a steady state that waits for its stage, refills the
// stage two iterations ahead and computes, and a final wait.
//
// RUN: tile-opt %s -split-input-file -tile-pipeline | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-to-gpu | FileCheck %s --check-prefix=GPU

// CHECK-LABEL: tile.kernel @gemm_k_loop(
// CHECK: %[[N:.*]] = arith.ceildivui
// CHECK: %[[AS:.*]] = tile.alloc_shared : !tile.buffer<3x64x32xf16, shared>
// CHECK: %[[BS:.*]] = tile.alloc_shared : !tile.buffer<3x32x64xf16, shared>
// Prologue: iterations 0 and 1 into stages 0 and 1.
// CHECK: %[[P0:.*]] = arith.cmpi slt, %{{.*}}, %[[N]] : index
// CHECK-NEXT: scf.if %[[P0]] {
// CHECK: tile.stage %[[AS]][%{{.*}}]
// CHECK-NEXT: tile.copy async %A[
// CHECK: tile.copy async %B[
// CHECK: }
// CHECK-NEXT: tile.async_commit
// CHECK: scf.if
// CHECK: tile.copy async %A[
// CHECK: tile.copy async %B[
// CHECK: }
// CHECK-NEXT: tile.async_commit
// Steady state.
// CHECK: scf.for %[[KT:.*]] = %{{.*}} to %[[N]]
// CHECK-NEXT: tile.async_wait 1
// CHECK: %[[AHEAD:.*]] = arith.addi %[[KT]], %{{.*}} : index
// CHECK: %[[NEXT:.*]] = arith.remui %{{.*}}, %{{.*}} : index
// CHECK: %[[IN:.*]] = arith.cmpi slt, %[[AHEAD]], %[[N]] : index
// CHECK-NEXT: scf.if %[[IN]] {
// CHECK: tile.stage %[[AS]][%[[NEXT]]]
// CHECK-NEXT: tile.copy async %A[
// CHECK: tile.stage %[[BS]][%[[NEXT]]]
// CHECK-NEXT: tile.copy async %B[
// CHECK: }
// CHECK-NEXT: tile.async_commit
// CHECK: %[[CUR:.*]] = arith.remui
// CHECK-NEXT: %[[A0:.*]] = tile.stage %[[AS]][%[[CUR]]]
// CHECK-NEXT: %[[B0:.*]] = tile.stage %[[BS]][%[[CUR]]]
// CHECK-NOT: tile.copy
// CHECK: tile.gemm %[[A0]], %[[B0]], %{{.*}}
// CHECK-NEXT: }
// CHECK-NEXT: tile.async_wait 0
// CHECK-NEXT: tile.copy %{{.*}} to %C[

// GPU: gpu.func @gemm_k_loop(
// GPU: nvgpu.device_async_copy {{.*}} {bypassL1} : memref<?x?xf16, strided<[?, 1]>, #gpu.address_space<global>> to memref<64x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
// GPU: nvgpu.device_async_create_group
// GPU: scf.for
// GPU: nvgpu.device_async_wait %{{.*}} {numGroups = 1 : i32}
// GPU-NEXT: gpu.barrier
// GPU: nvgpu.mma.sync
// GPU: nvgpu.device_async_wait %{{.*}} {numGroups = 0 : i32}
tile.kernel @gemm_k_loop(%A: !tile.buffer<?x?xf16, global>,
                         %B: !tile.buffer<?x?xf16, global>,
                         %C: !tile.buffer<?x?xf32, global>)
    grid(%bx, %by) = [ceildiv(%B[1], 64), ceildiv(%A[0], 64)] threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %row = arith.muli %by, %c64 : index
  %col = arith.muli %bx, %c64 : index
  %K = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %n = arith.ceildivui %K, %c32 : index
  %As = tile.alloc_shared : !tile.buffer<64x32xf16, shared>
  %Bs = tile.alloc_shared : !tile.buffer<32x64xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  tile.clear %acc : !tile.buffer<64x64xf32, fragment>
  scf.for %kt = %c0 to %n step %c1 {
    %k = arith.muli %kt, %c32 : index
    tile.copy %A[%row, %k] to %As : !tile.buffer<?x?xf16, global> to !tile.buffer<64x32xf16, shared>
    tile.copy %B[%k, %col] to %Bs : !tile.buffer<?x?xf16, global> to !tile.buffer<32x64xf16, shared>
    tile.gemm %As, %Bs, %acc : !tile.buffer<64x32xf16, shared>, !tile.buffer<32x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
  } {tile.num_stages = 3 : i64}
  tile.copy %acc to %C[%row, %col] : !tile.buffer<64x64xf32, fragment> to !tile.buffer<?x?xf32, global>
}

// -----

// One stage: nothing changes but the attribute.
// CHECK-LABEL: tile.kernel @one_stage(
// CHECK-NOT: tile.async
// CHECK: scf.for
// CHECK-NEXT: tile.copy %A[%{{.*}}] to %{{.*}} :
// CHECK-NOT: tile.num_stages
tile.kernel @one_stage(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %s = tile.alloc_shared : !tile.buffer<32xf32, shared>
  scf.for %i = %c0 to %c4 step %c1 {
    tile.copy %A[%i] to %s : !tile.buffer<?xf32, global> to !tile.buffer<32xf32, shared>
  } {tile.num_stages = 1 : i64}
}
