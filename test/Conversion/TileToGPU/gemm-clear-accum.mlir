// tile.gemm lowering: ldmatrix + mma.sync per warp; with clear_accum the
// thread's accumulator registers are zeroed before the first MMA (C = A x B),
// without it the MMAs start from the registers' current values (C += A x B).

// RUN: tile-opt %s -split-input-file --tile-assign-layouts --convert-tile-to-gpu | FileCheck %s

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
