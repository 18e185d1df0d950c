// -tile-pipeline: a K loop marked tile.num_stages = 3 gets 3-stage shared
// tiles, a prologue for the first 2 iterations (guarded by the trip count,
// one commit each), a steady state that waits for its stage, refills the
// stage two iterations ahead (unguarded: past the end the copies read
// nothing) and computes, and a final wait. The loop's gemm waits for the
// next stage itself and prefetches its first K step into registers. The pipelined loop runs when the
// rows of A and B are whole 16-byte chunks; otherwise a copy of the loop
// runs one iteration at a time on stage 0.
//
// RUN: tile-opt %s -split-input-file -tile-pipeline | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-to-gpu | FileCheck %s --check-prefix=GPU

// CHECK-LABEL: tile.kernel @gemm_k_loop(
// CHECK: %[[N:.*]] = arith.ceildivui
// CHECK: %[[AS:.*]] = tile.alloc_shared : !tile.buffer<3x64x32xf16, shared>
// CHECK: %[[BS:.*]] = tile.alloc_shared : !tile.buffer<3x32x64xf16, shared>
// Versioning on the row lengths (K for A, N for B) being multiples of 8.
// CHECK: %[[K:.*]] = tile.dim %A[1]
// CHECK-NEXT: %{{.*}} = arith.constant 0 : index
// CHECK-NEXT: %[[C8:.*]] = arith.constant 8 : index
// CHECK-NEXT: %[[KREM:.*]] = arith.remui %[[K]], %[[C8]] : index
// CHECK-NEXT: %[[KOK:.*]] = arith.cmpi eq, %[[KREM]]
// CHECK: tile.dim %B[1]
// CHECK: %[[NOK:.*]] = arith.cmpi eq
// CHECK-NEXT: %[[OK:.*]] = arith.andi %[[KOK]], %[[NOK]] : i1
// CHECK-NEXT: scf.if %[[OK]] {
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
// Stage 0 ready: its first K step goes to registers.
// CHECK-NEXT: tile.async_wait 1
// CHECK: %[[A0:.*]] = tile.stage %[[AS]][%{{.*}}]
// CHECK: %[[B0:.*]] = tile.stage %[[BS]][%{{.*}}]
// CHECK-NEXT: tile.gemm_prefetch %[[A0]], %[[B0]], %[[ACC:.*]] :
// Steady state: no wait at the top and no branch around the refill.
// CHECK: scf.for %[[KT:.*]] = %{{.*}} to %[[N]]
// CHECK-NOT: tile.async_wait
// CHECK-NOT: scf.if
// CHECK: %[[NEXT32:.*]] = arith.remui %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[AHEAD:.*]] = arith.index_castui %[[NEXT32]] : i32 to index
// CHECK-NOT: scf.if
// CHECK: tile.stage %[[AS]][%[[AHEAD]]]
// CHECK-NEXT: tile.copy async %A[
// CHECK: tile.stage %[[BS]][%[[AHEAD]]]
// CHECK-NEXT: tile.copy async %B[
// CHECK-NEXT: tile.async_commit
// CHECK: %[[CUR32:.*]] = arith.remui %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[CUR:.*]] = arith.index_castui %[[CUR32]]
// CHECK: %[[NXT32:.*]] = arith.remui %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[NXT:.*]] = arith.index_castui %[[NXT32]]
// CHECK-NEXT: %[[A1:.*]] = tile.stage %[[AS]][%[[CUR]]]
// CHECK-NEXT: %[[B1:.*]] = tile.stage %[[BS]][%[[CUR]]]
// CHECK-NEXT: %[[A2:.*]] = tile.stage %[[AS]][%[[NXT]]]
// CHECK-NEXT: %[[B2:.*]] = tile.stage %[[BS]][%[[NXT]]]
// CHECK-NOT: tile.copy
// CHECK: tile.gemm %[[A1]], %[[B1]], %[[ACC]] prefetched then wait 1 prefetch %[[A2]], %[[B2]] :
// CHECK-NEXT: }
// CHECK-NEXT: tile.async_wait 0
// The fallback: stage 0, wait / copy / wait / compute.
// CHECK-NEXT: } else {
// CHECK: %[[FA:.*]] = tile.stage %[[AS]][%{{.*}}]
// CHECK: %[[FB:.*]] = tile.stage %[[BS]][%{{.*}}]
// CHECK-NEXT: scf.for
// CHECK-NEXT: tile.async_wait 0
// CHECK: tile.copy async %A[{{.*}}] to %[[FA]]
// CHECK-NEXT: tile.copy async %B[{{.*}}] to %[[FB]]
// CHECK-NEXT: tile.async_commit
// CHECK-NEXT: tile.async_wait 0
// CHECK-NEXT: tile.gemm %[[FA]], %[[FB]], %[[ACC]] :
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: tile.copy %{{.*}} to %C[

// Aligned copies are one cp.async per chunk with a source size of 8
// elements or 0 (zero-fill), from a view of the tile. (The remaining
// alignment test on the K offset folds in LLVM: test/Target/gemm-ptxas.mlir
// checks that the steady state is one basic block.)
// GPU: gpu.func @gemm_k_loop(
// GPU: scf.if
// GPU: %[[IN:.*]] = arith.andi
// GPU-NEXT: %[[SIZE:.*]] = arith.select %[[IN]], %c8, %c0 : index
// GPU: nvgpu.device_async_copy {{.*}}, 8, %[[SIZE]] {bypassL1} : memref<64x32xf16, strided<[?, 1], offset: ?>, #gpu.address_space<global>> to memref<64x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
// GPU: nvgpu.device_async_create_group
// GPU: nvgpu.device_async_wait %{{.*}} {numGroups = 1 : i32}
// GPU-NEXT: gpu.barrier
// GPU: nvgpu.ldmatrix
// GPU: memref.store %{{.*}}, %[[PREFETCH:.*]][
// GPU: scf.for
// GPU-NOT: gpu.barrier
// GPU: nvgpu.device_async_copy
// GPU-NOT: gpu.barrier
// GPU: memref.load %[[PREFETCH]][
// GPU-NOT: gpu.barrier
// GPU: nvgpu.mma.sync
// GPU: nvgpu.device_async_wait %{{.*}} {numGroups = 1 : i32}
// GPU-NEXT: gpu.barrier
// GPU: nvgpu.ldmatrix
// GPU: memref.store %{{.*}}, %[[PREFETCH]][
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

// Rows promised to be multiples of 8 (`divisible`): no versioning, the
// pipelined loop alone. Lowered, the copies test only the K offset (no row
// length), and the epilogue's stores have no masked scalar fallback: a
// chunk is wholly inside or wholly outside C, and the manifest records the
// promise for the runtime to check.
// CHECK-LABEL: tile.kernel @gemm_divisible(
// CHECK-NOT: arith.remui
// CHECK: tile.async_wait 1
// CHECK: scf.for
// CHECK: tile.async_wait 0
// CHECK-NOT: else
// CHECK-NOT: scf.for
// CHECK: tile.copy %{{.*}} to %C[
// GPU: gpu.module @tile_kernels attributes {tile.kernels = [#tile.launch<name = "gemm_divisible", {{.*}}params = [#tile.buffer_param<name = "A", dtype = f16, shape = [?, ?], access = read, divisibility = [1, 8]>, #tile.buffer_param<name = "B", dtype = f16, shape = [?, ?], access = read, divisibility = [1, 8]>, #tile.buffer_param<name = "C", dtype = f32, shape = [?, ?], access = write, divisibility = [1, 8]>,
// GPU-LABEL: gpu.func @gemm_divisible(
// GPU-NOT: arith.remui %arg
// GPU: nvgpu.device_async_copy
// GPU: nvgpu.mma.sync
// The epilogue: one vector store per chunk, no scalar store.
// GPU: vector.store
// GPU-NOT: memref.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : memref<?x?xf32
// GPU: gpu.return
tile.kernel @gemm_divisible(%A: !tile.buffer<?x?xf16, global>,
                            %B: !tile.buffer<?x?xf16, global>,
                            %C: !tile.buffer<?x?xf32, global>)
    grid(%bx, %by) = [ceildiv(%B[1], 64), ceildiv(%A[0], 64)] threads(128)
    divisible(%A[1] by 8, %B[1] by 8, %C[1] by 8) {
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

// -----

// A tile with a layout of its own (#tile.swizzle) keeps it in its stages:
// the staged tile and each stage view have it.
// CHECK-LABEL: tile.kernel @swizzled(
// CHECK: %[[S:.*]] = tile.alloc_shared : !tile.buffer<3x64x64xf16, shared, #tile.swizzle>
// CHECK: tile.stage %[[S]][%{{.*}}] : !tile.buffer<3x64x64xf16, shared, #tile.swizzle> -> !tile.buffer<64x64xf16, shared, #tile.swizzle>
// GPU-LABEL: gpu.func @swizzled(
// GPU: arith.xori
// GPU: nvgpu.device_async_copy
tile.kernel @swizzled(%A: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf16, global>) grid(%bx) = [1] threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %S = tile.alloc_shared : !tile.buffer<64x64xf16, shared, #tile.swizzle>
  scf.for %kt = %c0 to %c4 step %c1 {
    tile.copy %A[%c0, %kt] to %S : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared, #tile.swizzle>
    tile.copy %S to %C[%kt, %c0] : !tile.buffer<64x64xf16, shared, #tile.swizzle> to !tile.buffer<?x?xf16, global>
  } {tile.num_stages = 3 : i64}
}
