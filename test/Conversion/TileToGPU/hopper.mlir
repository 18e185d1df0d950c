// The Hopper (sm_90a) lowering of -convert-tile-to-gpu (HopperToGPU.cpp,
// KernelToGPU.cpp) on warp-specialized GEMMs after the passes before it:
// the tensor-map kernel arguments and their #tile.tensor_map_param entries
// in the launch description (one per buffer and box), the mbarrier
// initialization by thread 0 with fence.mbarrier_init and a block barrier,
// the roles as one if/else on the warpgroup (no setmaxregister with one
// compute warpgroup: every thread holds 248 registers at entry), the
// producer on thread 0 (try_wait.parity, arrive.expect_tx, one
// cp.async.bulk.tensor per 128-byte panel through the tensor map), the
// compute role (try_wait.parity, wgmma fence / mma_async per K step with
// scale-d = 0 on the first step of the peeled gemm only / commit /
// wait_group 1, the release of the stage by mbarrier.arrive, the final
// inline-asm wait that ties the accumulator registers), the shared-memory
// descriptors of K-major and MN-major operands, and, through the whole
// pipeline on sm_90a, the grid-constant tensor-map parameters and the
// 1024-byte aligned dynamic shared memory (-tile-mark-grid-constants).
//
// RUN: tile-opt %s -split-input-file --tile-assign-layouts --tile-warp-specialize --tile-fuse-stores --tile-plan-shared-memory --tile-insert-barriers --convert-tile-to-gpu | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-to-nvvm="chip=sm_90a" | FileCheck %s --check-prefix=NVVM

// One compute warpgroup; two stages of a 64x64 A (one panel) and a 64x128
// B (two panels); 24576 bytes a stage.
//
// Stage 0 of A at 0, of B at 16384 (1024-byte aligned), full at 49152,
// empty at 49280; two tensor maps after the dim parameters.
// CHECK-LABEL: gpu.module @tile_kernels
// CHECK-SAME: #tile.launch<name = "ws_gemm", block = [256, 1, 1],
// CHECK-SAME: dynamic_shared_memory = 49296,
// CHECK-SAME: #tile.dim_param<name = "C.dim1", buffer = "C", dim = 1>,
// CHECK-SAME: #tile.tensor_map_param<name = "A.tma0", buffer = "A", box = [64, 64], swizzle = 128>,
// CHECK-SAME: #tile.tensor_map_param<name = "B.tma1", buffer = "B", box = [64, 64], swizzle = 128>]
// CHECK: gpu.func @ws_gemm(%{{.*}}, %arg8: index, %[[MAPA:.*]]: !llvm.ptr, %[[MAPB:.*]]: !llvm.ptr) kernel
//
// full: one arrival each (the producer's expect_tx); empty: the 128
// compute threads. Thread 0 initializes, then the block synchronizes.
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %thread_id_x, %{{.*}} : index
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK: %[[C49152:.*]] = arith.constant 49152 : index
// CHECK: nvvm.mbarrier.init %{{.*}}, %c1_i32 : !llvm.ptr<3>, i32
// CHECK: arith.constant 8 : i64
// CHECK: nvvm.mbarrier.init %{{.*}}, %c1_i32 : !llvm.ptr<3>, i32
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.fence.mbarrier.init
// CHECK-NEXT: gpu.barrier
// CHECK: arith.constant 49280 : index
// CHECK: nvvm.mbarrier.init %{{.*}}, %c128_i32 : !llvm.ptr<3>, i32
// CHECK: nvvm.mbarrier.init %{{.*}}, %c128_i32 : !llvm.ptr<3>, i32
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.fence.mbarrier.init
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: nvvm.mbarrier.init
//
// The producer warpgroup keeps its registers; thread 0 runs the loop.
// CHECK-NOT: nvvm.setmaxregister
// CHECK: %[[PRODUCER:.*]] = arith.cmpi ult, %thread_id_x, %c128{{.*}} : index
// CHECK-NEXT: scf.if %[[PRODUCER]] {
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[T0:.*]] = arith.cmpi eq, %thread_id_x, %[[Z]] : index
// CHECK-NEXT: scf.if %[[T0]] {
// CHECK-NEXT: scf.for
// CHECK-NOT: nvvm.wgmma
// CHECK: nvvm.mbarrier.try_wait.parity %{{.*}}, %{{.*}}, %c10000000_i32 : !llvm.ptr<3>, i32, i32
// CHECK-NOT: nvvm.wgmma
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c24576_i32 : !llvm.ptr<3>, i32
// CHECK-NOT: nvvm.wgmma
// One box of A (a 64-element panel, coordinates innermost first), two of B
// (the second panel 64 columns and 8192 bytes on), all on full[stage].
// CHECK: %[[ABAR:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<3>
// CHECK: %[[ADST:.*]] = llvm.addrspacecast %{{.*}} : !llvm.ptr<3> to !llvm.ptr<7>
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[ADST]], %[[MAPA]], %[[ABAR]], box[%{{.*}}, %{{.*}}] : !llvm.ptr<7>, !llvm.ptr
// CHECK: %[[BBAR:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<3>
// CHECK: %[[B0DST:.*]] = llvm.addrspacecast %{{.*}} : !llvm.ptr<3> to !llvm.ptr<7>
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[B0DST]], %[[MAPB]], %[[BBAR]], box[%{{.*}}, %{{.*}}] : !llvm.ptr<7>, !llvm.ptr
// CHECK: arith.constant 64 : index
// CHECK: arith.constant 8192 : i64
// CHECK: %[[B1DST:.*]] = llvm.addrspacecast %{{.*}} : !llvm.ptr<3> to !llvm.ptr<7>
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[B1DST]], %[[MAPB]], %[[BBAR]], box[%{{.*}}, %{{.*}}] : !llvm.ptr<7>, !llvm.ptr
// CHECK-NEXT: }
// CHECK-NEXT: }
//
// The compute warpgroup, which keeps its registers too; nothing waits
// without K steps.
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[ANY:.*]] = arith.cmpi sgt, %{{.*}}, %{{.*}} : index
// CHECK-NEXT: scf.if %[[ANY]] {
// CHECK-NOT: nvvm.cp.async.bulk
// CHECK: nvvm.mbarrier.try_wait.parity %{{.*}}, %{{.*}}, %c10000000_i32 : !llvm.ptr<3>, i32, i32
//
// The peeled gemm: K-major A descriptors (128-byte swizzle, SBO 1024,
// LBO 16), MN-major B (LBO 64 x 128 = 8192); scale-d = 0 on its first of
// four K steps only.
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: arith.constant 4611686293305360384 : i64
// CHECK: arith.constant 4611686293338849280 : i64
// CHECK: nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %{{.*}}, <m = 64, n = 128, k = 16>, D[<f32>, <zero>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>]
// CHECK-COUNT-3: nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %{{.*}}, <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>]
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
//
// The loop from 1: four accumulating steps, then the release of the
// previous stage on empty.
// CHECK-NEXT: scf.for
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %{{.*}}, <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>]
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: arith.constant 49280 : index
// CHECK: %[[EMPTYBAR:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<3>
// CHECK-NEXT: nvvm.mbarrier.arrive %[[EMPTYBAR]] : !llvm.ptr<3> -> i64
// CHECK-NEXT: }
//
// The last wait ties the 64 accumulator registers of each thread.
// CHECK-NOT: nvvm.wgmma.wait.group
// CHECK: llvm.inline_asm has_side_effects "wgmma.wait_group.sync.aligned 0;", "{{(=f,){63}=f(,[0-9]+){64}"}}
// CHECK-NOT: nvvm.wgmma
// K = 0: the cleared accumulator, then the epilogue for both cases.
// CHECK: } else {
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: arith.constant 0 : index
// CHECK-NEXT: memref.store %[[ZERO]], %alloca[%{{.*}}] : memref<64xf32>
// CHECK-NOT: nvvm.
// CHECK: gpu.return

// NVVM-LABEL: gpu.module @tile_kernels [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">]
// NVVM: llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// NVVM: llvm.func @ws_gemm(
// NVVM-SAME: %arg8: i64,
// NVVM-SAME: %arg9: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
// NVVM-SAME: %arg10: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant})
// NVVM-SAME: nvvm.maxntid = array<i32: 256, 1, 1>
// NVVM-NOT: nvvm.setmaxregister
// NVVM: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg9,
// NVVM: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg10,
// NVVM-NOT: nvvm.setmaxregister
// NVVM: nvvm.wgmma.fence.aligned
// NVVM: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
tile.kernel @ws_gemm(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf32, global>)
    grid(%bx) = [ceildiv(%A[0], 64)] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %row = arith.muli %bx, %c64 : index
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x128xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<64x128xf32, fragment>
  tile.clear %acc : !tile.buffer<64x128xf32, fragment>
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %n = arith.ceildivui %k, %c64 : index
  scf.for %i = %c0 to %n step %c1 {
    %k0 = arith.muli %i, %c64 : index
    tile.copy %A[%row, %k0] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.copy %B[%k0, %c0] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x128xf16, shared>
    tile.gemm %a, %b, %acc : !tile.buffer<64x64xf16, shared>, !tile.buffer<64x128xf16, shared>, !tile.buffer<64x128xf32, fragment>
  } {tile.num_stages = 2 : i64}
  tile.copy %acc to %C[%row, %c0] : !tile.buffer<64x128xf32, fragment> to !tile.buffer<?x?xf32, global>
}

// -----

// A x A^T in bf16: both tiles come from one buffer with one box, so they
// share one tensor map (and one kernel argument); B is K-major
// (transpose_b): its descriptors are the K-major ones and wgmma reads it
// column-major.
// CHECK-LABEL: gpu.module @tile_kernels
// CHECK-SAME: #tile.launch<name = "gram", block = [256, 1, 1],
// CHECK-SAME: #tile.dim_param<name = "S.dim1", buffer = "S", dim = 1>,
// CHECK-SAME: #tile.tensor_map_param<name = "A.tma0", buffer = "A", box = [64, 64], swizzle = 128>]
// CHECK-NOT: tensor_map_param
// CHECK: gpu.func @gram(%{{.*}}, %arg5: index, %[[MAP:.*]]: !llvm.ptr) kernel
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c16384_i32 : !llvm.ptr<3>, i32
// CHECK-COUNT-2: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[MAP]], %{{.*}}, box[%{{.*}}, %{{.*}}] : !llvm.ptr<7>, !llvm.ptr
// CHECK-NOT: nvvm.cp.async.bulk.tensor
// CHECK: } else {
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NOT: arith.constant 4611686293338849280
// CHECK: nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %{{.*}}, <m = 64, n = 64, k = 16>, D[<f32>, <zero>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK-COUNT-7: nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %{{.*}}, <m = 64, n = 64, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: llvm.inline_asm has_side_effects "wgmma.wait_group.sync.aligned 0;", "{{(=f,){31}=f(,[0-9]+){32}"}}

// NVVM-LABEL: gpu.module @tile_kernels
// NVVM: llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 1024 : i64}
// NVVM: llvm.func @gram(
// NVVM-SAME: %arg5: i64, %arg6: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant})
tile.kernel @gram(%A: !tile.buffer<?x?xbf16, global>, %S: !tile.buffer<?x?xf32, global>)
    grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %a = tile.alloc_shared : !tile.buffer<64x64xbf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x64xbf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  tile.clear %acc : !tile.buffer<64x64xf32, fragment>
  %k = tile.dim %A[1] : !tile.buffer<?x?xbf16, global>
  %n = arith.ceildivui %k, %c64 : index
  scf.for %i = %c0 to %n step %c1 {
    %k0 = arith.muli %i, %c64 : index
    tile.copy %A[%c0, %k0] to %a : !tile.buffer<?x?xbf16, global> to !tile.buffer<64x64xbf16, shared>
    tile.copy %A[%c64, %k0] to %b : !tile.buffer<?x?xbf16, global> to !tile.buffer<64x64xbf16, shared>
    tile.gemm %a, %b, %acc {transpose_b} : !tile.buffer<64x64xbf16, shared>, !tile.buffer<64x64xbf16, shared>, !tile.buffer<64x64xf32, fragment>
  } {tile.num_stages = 2 : i64}
  tile.copy %acc to %S[%c0, %c0] : !tile.buffer<64x64xf32, fragment> to !tile.buffer<?x?xf32, global>
}

// -----

// A^T x B (transpose_a): A's tile is K x M, MN-major like B. wgmma reads
// it column-major through MN-major descriptors: the leading byte offset is
// the 64-element panel's K x 128 bytes (64 x 128 = 8192, 512 units), the
// stride 1024 bytes (8 K rows, 64 units), so both descriptors' high bits
// are 2^62 | 64 << 32 | 512 << 16; a K step moves 16 rows (2048 bytes).
// CHECK-LABEL: gpu.func @ws_gemm_tn(
// CHECK-SAME: %[[MAPA:arg[0-9]+]]: !llvm.ptr, %[[MAPB:arg[0-9]+]]: !llvm.ptr) kernel
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[MAPA]]
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[MAPB]]
// CHECK: } else {
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: %[[HIGHA:.*]] = arith.constant 4611686293338849280 : i64
// CHECK-NEXT: %[[A0:.*]] = arith.ori %{{.*}}, %[[HIGHA]] : i64
// CHECK: %[[HIGHB:.*]] = arith.constant 4611686293338849280 : i64
// CHECK-NEXT: %[[B0:.*]] = arith.ori %{{.*}}, %[[HIGHB]] : i64
// CHECK: nvvm.wgmma.mma_async %[[A0]], %[[B0]], %{{.*}}, <m = 64, n = 128, k = 16>, D[<f32>, <zero>], A[<f16>, <one>, <col>], B[<f16>, <one>, <row>]
// CHECK: arith.constant 2048 : i64
// CHECK-COUNT-3: nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %{{.*}}, <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <col>], B[<f16>, <one>, <row>]
// The loop from 1: four accumulating steps.
// CHECK: scf.for
// CHECK-COUNT-4: nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %{{.*}}, <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <col>], B[<f16>, <one>, <row>]
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: gpu.return

// NVVM-LABEL: llvm.func @ws_gemm_tn(
// NVVM: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
tile.kernel @ws_gemm_tn(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf32, global>)
    grid(%bx) = [ceildiv(%A[1], 64)] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %col = arith.muli %bx, %c64 : index
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x128xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<64x128xf32, fragment>
  tile.clear %acc : !tile.buffer<64x128xf32, fragment>
  %k = tile.dim %A[0] : !tile.buffer<?x?xf16, global>
  %n = arith.ceildivui %k, %c64 : index
  scf.for %i = %c0 to %n step %c1 {
    %k0 = arith.muli %i, %c64 : index
    tile.copy %A[%k0, %col] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.copy %B[%k0, %c0] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x128xf16, shared>
    tile.gemm %a, %b, %acc {transpose_a} : !tile.buffer<64x64xf16, shared>, !tile.buffer<64x128xf16, shared>, !tile.buffer<64x128xf32, fragment>
  } {tile.num_stages = 2 : i64}
  tile.copy %acc to %C[%col, %c0] : !tile.buffer<64x128xf32, fragment> to !tile.buffer<?x?xf32, global>
}

// -----

// A persistent kernel: the launch says `persistent = 1` (the manifest's
// "persistent", one block per SM); tile.tile_range is the block id, the
// number of blocks and the product of the grid's extents, each role's tile
// loop runs from the first to the count in steps of the blocks, and
// tile.tile_coords rasterizes the linear tile as the block ids of a
// non-persistent kernel would be (panels of 8 rows of the 2-D grid).
// CHECK-LABEL: gpu.module @tile_kernels
// CHECK-SAME: #tile.launch<name = "ws_persistent"
// CHECK-SAME: persistent = 1>
// CHECK: gpu.func @ws_persistent(
// CHECK: %[[TX:.*]] = arith.ceildivui %arg6, %{{.*}} : index
// CHECK: %[[TY:.*]] = arith.ceildivui %arg3, %{{.*}} : index
// CHECK-NEXT: %[[COUNT:.*]] = arith.muli %[[TX]], %[[TY]] : index
// CHECK-NEXT: %[[FIRST:.*]] = gpu.block_id  x
// CHECK-NEXT: %[[STEP:.*]] = gpu.grid_dim  x
// CHECK-NEXT: scf.for %[[T:.*]] = %[[FIRST]] to %[[COUNT]] step %[[STEP]] iter_args(%{{.*}} = %{{.*}}) -> (index) {
// CHECK: %[[PX:.*]] = arith.ceildivui %arg6
// CHECK: %[[PY:.*]] = arith.ceildivui %arg3
// CHECK-NEXT: %[[P8:.*]] = arith.constant 8 : index
// CHECK-NEXT: %[[PER:.*]] = arith.muli %[[P8]], %[[PX]] : index
// CHECK-NEXT: %[[PANEL:.*]] = arith.divui %[[T]], %[[PER]] : index
// CHECK: %[[IN:.*]] = arith.remui %[[T]], %[[PER]] : index
// CHECK: cp.async.bulk.tensor
// CHECK: } else {
// CHECK: gpu.block_id  x
// CHECK-NEXT: gpu.grid_dim  x
// CHECK-NEXT: scf.for
// CHECK: nvvm.wgmma.mma_async
// CHECK: gpu.return

// NVVM-LABEL: llvm.func @ws_persistent(
// NVVM: nvvm.read.ptx.sreg.nctaid.x
// NVVM: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
tile.kernel @ws_persistent(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf32, global>)
    grid(%bx, %by) = [ceildiv(%B[1], 128), ceildiv(%A[0], 64)] threads(256) warp_specialized persistent attributes {raster_panel = 8 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %row = arith.muli %by, %c64 : index
  %col = arith.muli %bx, %c128 : index
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x128xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<64x128xf32, fragment>
  tile.clear %acc : !tile.buffer<64x128xf32, fragment>
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %n = arith.ceildivui %k, %c64 : index
  scf.for %i = %c0 to %n step %c1 {
    %k0 = arith.muli %i, %c64 : index
    tile.copy %A[%row, %k0] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.copy %B[%k0, %col] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x128xf16, shared>
    tile.gemm %a, %b, %acc : !tile.buffer<64x64xf16, shared>, !tile.buffer<64x128xf16, shared>, !tile.buffer<64x128xf32, fragment>
  } {tile.num_stages = 2 : i64}
  tile.copy %acc to %C[%row, %col] : !tile.buffer<64x128xf32, fragment> to !tile.buffer<?x?xf32, global>
}

// -----

// An epilogue through shared memory (a bias slice), in the compute role
// alone: the 128 compute threads deal the copy's 16-byte chunks among
// themselves (thread id - 128: one chunk each), the barrier after it is a
// named one of those threads (bar.sync 1, 128; the producer has left).
// CHECK-LABEL: gpu.func @ws_bias_epilogue(
// CHECK: } else {
// CHECK-NEXT: %[[C128:.*]] = arith.constant 128 : index
// CHECK-NEXT: %[[TID:.*]] = arith.subi %{{.*}}, %[[C128]] : index
// CHECK-NOT: gpu.barrier
// CHECK: arith.addi %{{.*}}, %[[TID]] : index
// CHECK: vector.store %{{.*}} : memref<128xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK-NOT: gpu.barrier
// CHECK: %[[N:.*]] = arith.constant 128 : i32
// CHECK-NEXT: %[[ID:.*]] = arith.constant 1 : i32
// CHECK-NEXT: nvvm.barrier id = %[[ID]] number_of_threads = %[[N]]
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
tile.kernel @ws_bias_epilogue(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %Bias: !tile.buffer<?xf32, global>, %C: !tile.buffer<?x?xf32, global>)
    grid(%bx) = [ceildiv(%A[0], 64)] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %row = arith.muli %bx, %c64 : index
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x128xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<64x128xf32, fragment>
  %bias = tile.alloc_shared : !tile.buffer<128xf32, shared>
  tile.clear %acc : !tile.buffer<64x128xf32, fragment>
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %n = arith.ceildivui %k, %c64 : index
  scf.for %i = %c0 to %n step %c1 {
    %k0 = arith.muli %i, %c64 : index
    tile.copy %A[%row, %k0] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.copy %B[%k0, %c0] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x128xf16, shared>
    tile.gemm %a, %b, %acc : !tile.buffer<64x64xf16, shared>, !tile.buffer<64x128xf16, shared>, !tile.buffer<64x128xf32, fragment>
  } {tile.num_stages = 2 : i64}
  tile.copy %Bias[%c0] to %bias : !tile.buffer<?xf32, global> to !tile.buffer<128xf32, shared>
  tile.parallel (%i, %j) in [64, 128] {
    %x = tile.load %acc[%i, %j] : !tile.buffer<64x128xf32, fragment>
    %y = tile.load %bias[%j] : !tile.buffer<128xf32, shared>
    %s = arith.addf %x, %y : f32
    tile.store %s, %acc[%i, %j] : !tile.buffer<64x128xf32, fragment>
  }
  tile.copy %acc to %C[%row, %c0] : !tile.buffer<64x128xf32, fragment> to !tile.buffer<?x?xf32, global>
}

// -----

// A TMA-store epilogue: the accumulator goes into the staged #tile.nvmma
// tile through the swizzle (the chunk index xor the row's) with stmatrix
// (each lane's address a row of one of four 8x8 matrices; its registers
// the f16 pairs it holds of each), every compute
// thread fences its writes for the async proxy, the compute role meets at
// its named barrier, and its first thread stores the two 64-column panels
// through C's tensor map (box 64 x 64, one more #tile.tensor_map_param) in
// one bulk group; the role ends waiting for the stores' reads, then meets
// again. No other barrier separates the writes from the store.
// CHECK-LABEL: gpu.module @tile_kernels
// CHECK-SAME: #tile.tensor_map_param<name = "C.tma2", buffer = "C", box = [64, 64], swizzle = 128>]
// CHECK: gpu.func @ws_tma_store(%{{.*}}, %[[MAPA:.*]]: !llvm.ptr, %[[MAPB:.*]]: !llvm.ptr, %[[MAPC:.*]]: !llvm.ptr) kernel
// CHECK: } else {
// CHECK: nvvm.wgmma.mma_async
// CHECK: wgmma.wait_group.sync.aligned 0;
// CHECK: arith.xori
// CHECK: %[[ROWS:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
// CHECK: arith.truncf %{{.*}} : vector<2xf32> to vector<2xf16>
// CHECK-NEXT: vector.bitcast %{{.*}} : vector<2xf16> to vector<1xi32>
// CHECK: nvvm.stmatrix %[[ROWS]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>}
// CHECK-COUNT-7: nvvm.stmatrix
// CHECK-NOT: nvvm.stmatrix
// CHECK-NOT: nvvm.barrier
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: %[[N:.*]] = arith.constant 128 : i32
// CHECK-NEXT: %[[ID:.*]] = arith.constant 1 : i32
// CHECK-NEXT: nvvm.barrier id = %[[ID]] number_of_threads = %[[N]]
// CHECK: %[[ISSUER:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : index
// CHECK-NEXT: scf.if %[[ISSUER]] {
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %[[MAPC]], %{{.*}}, box[%{{.*}}, %{{.*}}] : !llvm.ptr, <3>
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %[[MAPC]], %{{.*}}, box[%{{.*}}, %{{.*}}] : !llvm.ptr, <3>
// CHECK-NEXT: nvvm.cp.async.bulk.commit.group
// CHECK-NEXT: }
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK-NEXT: }
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// CHECK: gpu.return

// NVVM-LABEL: llvm.func @ws_tma_store(
// NVVM: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// NVVM: nvvm.cp.async.bulk.tensor.global.shared.cta
// NVVM: nvvm.cp.async.bulk.commit.group
// NVVM: nvvm.cp.async.bulk.wait_group 0 {read}
tile.kernel @ws_tma_store(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf16, global>)
    grid(%bx) = [ceildiv(%A[0], 64)] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %row = arith.muli %bx, %c64 : index
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x128xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<64x128xf32, fragment>
  %cs = tile.alloc_shared : !tile.buffer<64x128xf16, shared>
  tile.clear %acc : !tile.buffer<64x128xf32, fragment>
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %n = arith.ceildivui %k, %c64 : index
  scf.for %i = %c0 to %n step %c1 {
    %k0 = arith.muli %i, %c64 : index
    tile.copy %A[%row, %k0] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.copy %B[%k0, %c0] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x128xf16, shared>
    tile.gemm %a, %b, %acc : !tile.buffer<64x64xf16, shared>, !tile.buffer<64x128xf16, shared>, !tile.buffer<64x128xf32, fragment>
  } {tile.num_stages = 2 : i64}
  tile.copy %acc to %cs : !tile.buffer<64x128xf32, fragment> to !tile.buffer<64x128xf16, shared>
  tile.copy %cs to %C[%row, %c0] : !tile.buffer<64x128xf16, shared> to !tile.buffer<?x?xf16, global>
}

// -----

// A TMA store in bands: four 32-column windows of the accumulator, staged
// in two 64x32 tiles in turn (64-byte rows: #tile.nvmma<swizzle = 64>, a
// box of 64 x 32 through C's own tensor map). Each window copy reads the
// thread's registers of its columns (8-column group i is registers 4i to
// 4i + 3: bands start at registers 0, 16, 32 and 48) into two stmatrix
// (four 8-column groups of 16 rows per warp); the rewrites of a
// tile wait for its previous store with the other tile's store left in
// flight (wait_group 1), the role's end for all of them.
// CHECK-LABEL: gpu.module @tile_kernels
// CHECK-SAME: #tile.tensor_map_param<name = "C.tma2", buffer = "C", box = [64, 32], swizzle = 64>]
// CHECK: gpu.func @ws_tma_store_bands(
// CHECK: wgmma.wait_group.sync.aligned 0;
// CHECK: memref.load %[[REGS:.*]][%c0{{(_[0-9]+)?}}] : memref<64xf32>
// CHECK-COUNT-2: nvvm.stmatrix
// CHECK-NOT: nvvm.stmatrix
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK-NEXT: nvvm.cp.async.bulk.commit.group
// CHECK-NOT: wait_group
// CHECK: memref.load %[[REGS]][%c16{{(_[0-9]+)?}}] : memref<64xf32>
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK-NEXT: nvvm.cp.async.bulk.commit.group
// CHECK: nvvm.cp.async.bulk.wait_group 1 {read}
// CHECK: memref.load %[[REGS]][%c32{{(_[0-9]+)?}}] : memref<64xf32>
// CHECK: nvvm.cp.async.bulk.wait_group 1 {read}
// CHECK: memref.load %[[REGS]][%c48{{(_[0-9]+)?}}] : memref<64xf32>
// CHECK: nvvm.cp.async.bulk.commit.group
// CHECK: nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK: gpu.return

// NVVM-LABEL: llvm.func @ws_tma_store_bands(
// NVVM-COUNT-4: nvvm.cp.async.bulk.commit.group
tile.kernel @ws_tma_store_bands(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf16, global>)
    grid(%bx) = [ceildiv(%A[0], 64)] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c96 = arith.constant 96 : index
  %row = arith.muli %bx, %c64 : index
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x128xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<64x128xf32, fragment>
  %s0 = tile.alloc_shared : !tile.buffer<64x32xf16, shared>
  %s1 = tile.alloc_shared : !tile.buffer<64x32xf16, shared>
  tile.clear %acc : !tile.buffer<64x128xf32, fragment>
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %n = arith.ceildivui %k, %c64 : index
  scf.for %i = %c0 to %n step %c1 {
    %k0 = arith.muli %i, %c64 : index
    tile.copy %A[%row, %k0] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.copy %B[%k0, %c0] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x128xf16, shared>
    tile.gemm %a, %b, %acc : !tile.buffer<64x64xf16, shared>, !tile.buffer<64x128xf16, shared>, !tile.buffer<64x128xf32, fragment>
  } {tile.num_stages = 2 : i64}
  tile.copy %acc[%c0, %c0] to %s0 : !tile.buffer<64x128xf32, fragment> to !tile.buffer<64x32xf16, shared>
  tile.copy %s0 to %C[%row, %c0] : !tile.buffer<64x32xf16, shared> to !tile.buffer<?x?xf16, global>
  tile.copy %acc[%c0, %c32] to %s1 : !tile.buffer<64x128xf32, fragment> to !tile.buffer<64x32xf16, shared>
  tile.copy %s1 to %C[%row, %c32] : !tile.buffer<64x32xf16, shared> to !tile.buffer<?x?xf16, global>
  tile.copy %acc[%c0, %c64] to %s0 : !tile.buffer<64x128xf32, fragment> to !tile.buffer<64x32xf16, shared>
  tile.copy %s0 to %C[%row, %c64] : !tile.buffer<64x32xf16, shared> to !tile.buffer<?x?xf16, global>
  tile.copy %acc[%c0, %c96] to %s1 : !tile.buffer<64x128xf32, fragment> to !tile.buffer<64x32xf16, shared>
  tile.copy %s1 to %C[%row, %c96] : !tile.buffer<64x32xf16, shared> to !tile.buffer<?x?xf16, global>
}
