// Vector add written in the tile dialect: each block of 256 threads adds
// 1024 elements; the last block's tail is masked by tile.copy.
//
// RUN: tile-opt %s | tile-opt | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: tile-opt %s --tile-to-nvvm | FileCheck %s --check-prefix=NVVM
// RUN: tile-translate %s --emit=manifest | FileCheck %s --check-prefix=MANIFEST

// ROUNDTRIP-LABEL: tile.kernel @vector_add(%A: !tile.buffer<?xf32, global>
// ROUNDTRIP-SAME: grid(%bx) = [ceildiv(%A[0], 1024)] threads(256) requires(%B[0] == %A[0], %C[0] == %A[0])
// ROUNDTRIP: tile.parallel

// NVVM: gpu.module @tile_kernels
// NVVM: llvm.func @vector_add(%{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64)
// NVVM-SAME: gpu.kernel
// NVVM: llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>

// MANIFEST: "format": "tile-manifest"
// MANIFEST: "name": "vector_add"
// MANIFEST: "access": "read",
// MANIFEST: "name": "A",
// MANIFEST: "access": "write",
// MANIFEST: "name": "C",
// MANIFEST: "requires": [
// MANIFEST: "chip": "sm_90"

tile.kernel @vector_add(%A: !tile.buffer<?xf32, global>,
                        %B: !tile.buffer<?xf32, global>,
                        %C: !tile.buffer<?xf32, global>)
    grid(%bx) = [ceildiv(%A[0], 1024)] threads(256)
    // B and C have A's size: copies mask at each tensor's own size, so a
    // shorter B would add zeros and a shorter C drop sums.
    requires(%B[0] == %A[0], %C[0] == %A[0]) {
  %c1024 = arith.constant 1024 : index
  %offset = arith.muli %bx, %c1024 : index
  %a = tile.alloc_fragment : !tile.buffer<1024xf32, fragment>
  %b = tile.alloc_fragment : !tile.buffer<1024xf32, fragment>
  %c = tile.alloc_fragment : !tile.buffer<1024xf32, fragment>
  tile.copy %A[%offset] to %a : !tile.buffer<?xf32, global> to !tile.buffer<1024xf32, fragment>
  tile.copy %B[%offset] to %b : !tile.buffer<?xf32, global> to !tile.buffer<1024xf32, fragment>
  tile.parallel (%i) in [1024] {
    %x = tile.load %a[%i] : !tile.buffer<1024xf32, fragment>
    %y = tile.load %b[%i] : !tile.buffer<1024xf32, fragment>
    %sum = arith.addf %x, %y : f32
    tile.store %sum, %c[%i] : !tile.buffer<1024xf32, fragment>
  }
  tile.copy %c to %C[%offset] : !tile.buffer<1024xf32, fragment> to !tile.buffer<?xf32, global>
}
