// C = A x B on tensor cores (f16 in, f32 accumulate, f32 out) for any M, N,
// K: 128x128 output tiles, K in steps of 32, 4 warps of 64x64 each.
//
// RUN: tile-opt %s | tile-opt | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: tile-opt %s --tile-assign-layouts | FileCheck %s --check-prefix=LAYOUT
// RUN: tile-opt %s --tile-to-gpu | FileCheck %s --check-prefix=GPU
// RUN: tile-translate %s --emit=ptx | FileCheck %s --check-prefix=PTX

// ROUNDTRIP-LABEL: tile.kernel @gemm(
// ROUNDTRIP-SAME: requires(%A[1] == %B[0], %C[0] == %A[0], %C[1] == %B[1])
// ROUNDTRIP: tile.gemm %{{.*}}, %{{.*}}, %{{.*}} : !tile.buffer<128x32xf16, shared>, !tile.buffer<32x128xf16, shared>, !tile.buffer<128x128xf32, fragment>

// LAYOUT: tile.alloc_fragment : !tile.buffer<128x128xf32, fragment, #tile.mma<warps = [2, 2]>>

// GPU: scf.for
// GPU: nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = false} : memref<128x32xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// GPU: nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = true} : memref<32x128xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// GPU: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// GPU: gpu.barrier

// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX: bar.sync
// PTX-NOT: .local

tile.kernel @gemm(%A: !tile.buffer<?x?xf16, global>,
                  %B: !tile.buffer<?x?xf16, global>,
                  %C: !tile.buffer<?x?xf32, global>)
    grid(%bx, %by) = [ceildiv(%B[1], 128), ceildiv(%A[0], 128)] threads(128)
    // A is M x K, B K x N, C M x N: the K loop runs over A's K and copies
    // mask at each tensor's own sizes, so a B with another K would give a
    // wrong product, not a fault.
    requires(%A[1] == %B[0], %C[0] == %A[0], %C[1] == %B[1]) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %row = arith.muli %by, %c128 : index
  %col = arith.muli %bx, %c128 : index
  %K = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %kTiles = arith.ceildivui %K, %c32 : index
  %As = tile.alloc_shared : !tile.buffer<128x32xf16, shared>
  %Bs = tile.alloc_shared : !tile.buffer<32x128xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<128x128xf32, fragment>
  tile.clear %acc : !tile.buffer<128x128xf32, fragment>
  scf.for %kt = %c0 to %kTiles step %c1 {
    %k = arith.muli %kt, %c32 : index
    tile.copy %A[%row, %k] to %As : !tile.buffer<?x?xf16, global> to !tile.buffer<128x32xf16, shared>
    tile.copy %B[%k, %col] to %Bs : !tile.buffer<?x?xf16, global> to !tile.buffer<32x128xf16, shared>
    tile.gemm %As, %Bs, %acc : !tile.buffer<128x32xf16, shared>, !tile.buffer<32x128xf16, shared>, !tile.buffer<128x128xf32, fragment>
  }
  tile.copy %acc to %C[%row, %col] : !tile.buffer<128x128xf32, fragment> to !tile.buffer<?x?xf32, global>
}
