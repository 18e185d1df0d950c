// tile.gemm lowering: ldmatrix + mma.sync per warp; with clear_accum the
// thread's accumulator registers are zeroed before the first MMA (C = A x B),
// without it the MMAs start from the registers' current values (C += A x B).

// RUN: tile-opt %s -split-input-file --tile-assign-layouts --tile-fuse-stores --tile-plan-shared-memory --tile-insert-barriers --convert-tile-to-gpu | FileCheck %s

// CHECK-LABEL: gpu.func @gemm_clear(
// CHECK: %[[ACC:.*]] = memref.alloca() : memref<32xf32>
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-COUNT-32: memref.store %[[ZERO]], %[[ACC]]
// CHECK: nvgpu.ldmatrix
// CHECK: nvgpu.mma.sync
tile.kernel @gemm_clear(%A: !tile.buffer<?x?xf16, global>) grid(%bx) = [1] threads(128) {
  %a = tile.alloc_shared : !tile.buffer<64x16xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<16x64xf16, shared>
  %c = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  tile.gemm %a, %b, %c {clear_accum} : !tile.buffer<64x16xf16, shared>, !tile.buffer<16x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
}

// -----

// CHECK-LABEL: gpu.func @gemm_accumulate(
// CHECK-NOT: arith.constant 0.000000e+00 : f32
// CHECK: nvgpu.mma.sync
tile.kernel @gemm_accumulate(%A: !tile.buffer<?x?xf16, global>) grid(%bx) = [1] threads(128) {
  %a = tile.alloc_shared : !tile.buffer<64x16xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<16x64xf16, shared>
  %c = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  tile.gemm %a, %b, %c : !tile.buffer<64x16xf16, shared>, !tile.buffer<16x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
}

// -----

// A in registers: the A operand of each 16-wide K step comes from the
// fragment's registers (4 x 2 f16 per 16x16 tile: the lane's values of two
// adjacent 16x8 tiles), so only B is loaded with ldmatrix: 64x128 O over
// 4 x 1 warps = 16 rows x 16 tiles of 8 columns per warp, K = 32: 2 steps
// x 16 MMAs.
// CHECK-LABEL: gpu.func @gemm_register_a(
// CHECK: %[[P:.*]] = memref.alloca() : memref<16xf16>
// CHECK: %[[A00:.*]] = memref.load %[[P]][%{{.*}}] : memref<16xf16>
// CHECK: %[[PAIR:.*]] = vector.from_elements %[[A00]], %{{.*}} : vector<2xf16>
// CHECK: vector.insert %[[PAIR]], %{{.*}} [0] : vector<2xf16> into vector<4x2xf16>
// CHECK-COUNT-16: nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = true}
// CHECK-NOT: nvgpu.ldmatrix
// CHECK-COUNT-32: nvgpu.mma.sync
// CHECK-NOT: nvgpu.mma.sync
// CHECK: gpu.return
tile.kernel @gemm_register_a(%A: !tile.buffer<?x?xf16, global>) grid(%bx) = [1] threads(128) {
  %p = tile.alloc_fragment : !tile.buffer<64x32xf16, fragment>
  %v = tile.alloc_shared : !tile.buffer<32x128xf16, shared>
  %o = tile.alloc_fragment : !tile.buffer<64x128xf32, fragment>
  tile.gemm %p, %v, %o : !tile.buffer<64x32xf16, fragment>, !tile.buffer<32x128xf16, shared>, !tile.buffer<64x128xf32, fragment>
}
