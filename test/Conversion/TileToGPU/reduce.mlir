// tile.reduce: tile-assign-layouts gives the results #tile.slice layouts of
// the reduced fragment's layout; convert-tile-to-gpu combines each thread's
// elements of a row, then the lanes of the row with butterfly shuffles, then
// the warps of the row through shared memory between two barriers; the row
// values broadcast into the element loops. The same on an MMA accumulator.
//
// RUN: tile-opt %s -split-input-file -tile-assign-layouts | FileCheck %s --check-prefix=LAYOUT
// RUN: tile-opt %s -split-input-file -tile-to-gpu | FileCheck %s --check-prefix=GPU
// RUN: tile-opt %s -split-input-file -tile-to-nvvm | FileCheck %s --check-prefix=NVVM
// A valid kernel compiles without diagnostics:
// RUN: tile-opt %s -split-input-file -tile-to-nvvm -o /dev/null 2>&1 | count 0

// LAYOUT-LABEL: tile.kernel @softmax(
// LAYOUT: %[[X:.*]] = tile.alloc_fragment : !tile.buffer<4x1024xf32, fragment, #tile.row_major<vec = 4>>
// LAYOUT: tile.alloc_fragment : !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 1024, parent = #tile.row_major<vec = 4>>>
// LAYOUT: tile.alloc_fragment : !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 1024, parent = #tile.row_major<vec = 4>>>

// 256 threads, 4 rows of 256 chunks: each thread holds one chunk of every
// row; 32 lanes and 8 warps per row.
// GPU-LABEL: gpu.func @softmax(
// GPU: arith.maximumf
// GPU: gpu.shuffle  xor %{{.*}}, %c1_i32, %c32_i32 : f32
// GPU: gpu.shuffle  xor %{{.*}}, %c16_i32, %c32_i32 : f32
// GPU: gpu.barrier
// GPU: memref.store %{{.*}}, %[[SCRATCH:.*]][%{{.*}}] : memref<32xf32, #gpu.address_space<workgroup>>
// GPU: gpu.barrier
// GPU: memref.load %[[SCRATCH]][%{{.*}}] : memref<32xf32, #gpu.address_space<workgroup>>
// GPU: math.exp
// GPU: arith.addf
// GPU: gpu.shuffle  xor
// GPU: arith.divf

// NVVM: nvvm.shfl.sync bfly

tile.kernel @softmax(%X: !tile.buffer<?x?xf32, global>, %Y: !tile.buffer<?x?xf32, global>) grid(%bx) = [ceildiv(%X[0], 4)] threads(256) {
  %c4 = arith.constant 4 : index
  %c0 = arith.constant 0 : index
  %row = arith.muli %bx, %c4 : index
  %x = tile.alloc_fragment : !tile.buffer<4x1024xf32, fragment>
  %m = tile.alloc_fragment : !tile.buffer<4xf32, fragment>
  %l = tile.alloc_fragment : !tile.buffer<4xf32, fragment>
  tile.copy %X[%row, %c0] to %x : !tile.buffer<?x?xf32, global> to !tile.buffer<4x1024xf32, fragment>
  tile.reduce max %x into %m dim(1) : !tile.buffer<4x1024xf32, fragment>, !tile.buffer<4xf32, fragment>
  tile.parallel (%i, %j) in [4, 1024] {
    %v = tile.load %x[%i, %j] : !tile.buffer<4x1024xf32, fragment>
    %mx = tile.load %m[%i] : !tile.buffer<4xf32, fragment>
    %d = arith.subf %v, %mx : f32
    %e = math.exp %d : f32
    tile.store %e, %x[%i, %j] : !tile.buffer<4x1024xf32, fragment>
  }
  tile.reduce sum %x into %l dim(1) : !tile.buffer<4x1024xf32, fragment>, !tile.buffer<4xf32, fragment>
  tile.parallel (%i, %j) in [4, 1024] {
    %v = tile.load %x[%i, %j] : !tile.buffer<4x1024xf32, fragment>
    %s = tile.load %l[%i] : !tile.buffer<4xf32, fragment>
    %q = arith.divf %v, %s : f32
    tile.store %q, %x[%i, %j] : !tile.buffer<4x1024xf32, fragment>
  }
  tile.copy %x to %Y[%row, %c0] : !tile.buffer<4x1024xf32, fragment> to !tile.buffer<?x?xf32, global>
}

// -----

// A row maximum of a gemm accumulator (#tile.mma): the four lanes of a quad
// share rows (shuffles 1 and 2), and the two warps of a warp row meet in
// shared memory.
// LAYOUT-LABEL: tile.kernel @mma_rows(
// LAYOUT: tile.alloc_fragment : !tile.buffer<64xf32, fragment, #tile.slice<dim = 1, dim_size = 64, parent = #tile.mma<warps = [2, 2]>>>
// GPU-LABEL: gpu.func @mma_rows(
// GPU: gpu.shuffle  xor %{{.*}}, %c1_i32, %c32_i32 : f32
// GPU: gpu.shuffle  xor %{{.*}}, %c2_i32, %c32_i32 : f32
// GPU-NOT: gpu.shuffle  xor %{{.*}}, %c4_i32
// GPU: gpu.barrier
tile.kernel @mma_rows(%A: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf32, global>) grid(%bx) = [1] threads(128) {
  %c0 = arith.constant 0 : index
  %as = tile.alloc_shared : !tile.buffer<64x32xf16, shared>
  %bs = tile.alloc_shared : !tile.buffer<32x64xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  %m = tile.alloc_fragment : !tile.buffer<64xf32, fragment>
  tile.copy %A[%c0, %c0] to %as : !tile.buffer<?x?xf16, global> to !tile.buffer<64x32xf16, shared>
  tile.copy %A[%c0, %c0] to %bs : !tile.buffer<?x?xf16, global> to !tile.buffer<32x64xf16, shared>
  tile.gemm %as, %bs, %acc {clear_accum} : !tile.buffer<64x32xf16, shared>, !tile.buffer<32x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
  tile.reduce max %acc into %m dim(1) : !tile.buffer<64x64xf32, fragment>, !tile.buffer<64xf32, fragment>
  tile.parallel (%i, %j) in [64, 64] {
    %v = tile.load %acc[%i, %j] : !tile.buffer<64x64xf32, fragment>
    %r = tile.load %m[%i] : !tile.buffer<64xf32, fragment>
    %d = arith.subf %v, %r : f32
    tile.store %d, %acc[%i, %j] : !tile.buffer<64x64xf32, fragment>
  }
  tile.copy %acc to %C[%c0, %c0] : !tile.buffer<64x64xf32, fragment> to !tile.buffer<?x?xf32, global>
}

// -----

// An element loop over row values alone (a running maximum): each thread
// computes the rows it holds (256 threads, 4 rows of 256 chunks: every
// thread holds all 4 rows, so 4 iterations per thread, rows 0..3).
// LAYOUT-LABEL: tile.kernel @running_max(
// LAYOUT: tile.alloc_fragment : !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 1024, parent = #tile.row_major<vec = 4>>>
// LAYOUT: tile.alloc_fragment : !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 1024, parent = #tile.row_major<vec = 4>>>
// GPU-LABEL: gpu.func @running_max(
// GPU: %[[CHUNK:.*]] = memref.alloca() : memref<4xf32>
// GPU: %[[RUNNING:.*]] = memref.alloca() : memref<4xf32>
// GPU: gpu.barrier
// GPU: memref.store %{{.*}}, %[[CHUNK]][%c3] : memref<4xf32>
// GPU: %[[A0:.*]] = memref.load %[[RUNNING]][%c0] : memref<4xf32>
// GPU-NEXT: %[[B0:.*]] = memref.load %[[CHUNK]][%c0] : memref<4xf32>
// GPU-NEXT: %[[M0:.*]] = arith.maximumf %[[A0]], %[[B0]] : f32
// GPU-NEXT: memref.store %[[M0]], %[[RUNNING]][%c0] : memref<4xf32>
// GPU: memref.load %[[RUNNING]][%c3] : memref<4xf32>
// GPU-NEXT: memref.load %[[CHUNK]][%c3] : memref<4xf32>
// GPU-NEXT: arith.maximumf
// GPU-NEXT: memref.store %{{.*}}, %[[RUNNING]][%c3] : memref<4xf32>
tile.kernel @running_max(%X: !tile.buffer<?x?xf32, global>) grid(%bx) = [1] threads(256) {
  %c0 = arith.constant 0 : index
  %ninf = arith.constant 0xFF800000 : f32
  %x = tile.alloc_fragment : !tile.buffer<4x1024xf32, fragment>
  %chunk = tile.alloc_fragment : !tile.buffer<4xf32, fragment>
  %running = tile.alloc_fragment : !tile.buffer<4xf32, fragment>
  tile.fill %running, %ninf : !tile.buffer<4xf32, fragment>
  tile.copy %X[%c0, %c0] to %x : !tile.buffer<?x?xf32, global> to !tile.buffer<4x1024xf32, fragment>
  tile.reduce max %x into %chunk dim(1) : !tile.buffer<4x1024xf32, fragment>, !tile.buffer<4xf32, fragment>
  tile.parallel (%i) in [4] {
    %a = tile.load %running[%i] : !tile.buffer<4xf32, fragment>
    %b = tile.load %chunk[%i] : !tile.buffer<4xf32, fragment>
    %m = arith.maximumf %a, %b : f32
    tile.store %m, %running[%i] : !tile.buffer<4xf32, fragment>
  }
}

// -----

// Row values to global memory (a log-sum-exp output): the first thread of
// each row's holders stores it, rows past the buffer's end are not
// written. Row-major parent, 4 rows of 1024 over 256 threads: each row is
// one round of 256 chunks, so every thread holds all 4 rows and thread 0
// (tid mod 256 = 0) stores them.
// GPU-LABEL: gpu.func @row_values_out(
// GPU: %[[TID:.*]] = gpu.thread_id x
// GPU: %[[REM:.*]] = arith.remui %[[TID]], %c256 : index
// GPU: %[[FIRST:.*]] = arith.cmpi eq, %[[REM]], %c0 : index
// GPU: %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : index
// GPU: %[[BOTH:.*]] = arith.andi %[[FIRST]], %[[IN]] : i1
// GPU: scf.if %[[BOTH]] {
// GPU: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<?xf32, strided<[1]>, #gpu.address_space<global>>
// GPU-COUNT-3: scf.if
tile.kernel @row_values_out(%X: !tile.buffer<?x?xf32, global>, %M: !tile.buffer<?xf32, global>) grid(%bx) = [ceildiv(%X[0], 4)] threads(256) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %row = arith.muli %bx, %c4 : index
  %x = tile.alloc_fragment : !tile.buffer<4x1024xf32, fragment>
  %m = tile.alloc_fragment : !tile.buffer<4xf32, fragment>
  tile.copy %X[%row, %c0] to %x : !tile.buffer<?x?xf32, global> to !tile.buffer<4x1024xf32, fragment>
  tile.reduce max %x into %m dim(1) : !tile.buffer<4x1024xf32, fragment>, !tile.buffer<4xf32, fragment>
  tile.copy %m to %M[%row] : !tile.buffer<4xf32, fragment> to !tile.buffer<?xf32, global>
}

// -----

// The same from an MMA accumulator (4 x 1 warps): lane l holds rows l/4 and
// l/4 + 8 of its warp's 16; lanes with l mod 4 = 0 store them.
// GPU-LABEL: gpu.func @mma_row_values_out(
// GPU: %[[LANE:.*]] = arith.remui %{{.*}}, %c32 : index
// GPU: %[[QUAD:.*]] = arith.remui %[[LANE]], %c4 : index
// GPU: arith.cmpi eq, %[[QUAD]], %c0 : index
// GPU: scf.if
// GPU: memref.store
// GPU: scf.if
// GPU: memref.store
tile.kernel @mma_row_values_out(%M: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(128) {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_shared : !tile.buffer<64x16xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<16x64xf16, shared>
  %p = tile.alloc_fragment : !tile.buffer<64x16xf16, fragment>
  %c = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  %m = tile.alloc_fragment : !tile.buffer<64xf32, fragment>
  tile.gemm %a, %b, %c {clear_accum} : !tile.buffer<64x16xf16, shared>, !tile.buffer<16x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
  tile.gemm %p, %b, %c : !tile.buffer<64x16xf16, fragment>, !tile.buffer<16x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
  tile.reduce max %c into %m dim(1) : !tile.buffer<64x64xf32, fragment>, !tile.buffer<64xf32, fragment>
  tile.copy %m to %M[%c0] : !tile.buffer<64xf32, fragment> to !tile.buffer<?xf32, global>
}

// -----

// A loop over the row values alone, then their copy to global memory: the
// copy is not fused into the loop (row values are stored once per row, by
// the first thread holding each), and nothing is reported: no diagnostic
// (the RUN line with `count 0`), and the first holders store the rows.
// GPU-LABEL: gpu.func @row_values_loop_then_out(
// GPU: arith.mulf
// GPU: scf.if
// GPU: memref.store
tile.kernel @row_values_loop_then_out(%X: !tile.buffer<?x?xf32, global>, %M: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(128) {
  %c0 = arith.constant 0 : index
  %x = tile.alloc_fragment : !tile.buffer<4x256xf32, fragment>
  %m = tile.alloc_fragment : !tile.buffer<4xf32, fragment>
  tile.copy %X[%c0, %c0] to %x : !tile.buffer<?x?xf32, global> to !tile.buffer<4x256xf32, fragment>
  tile.reduce max %x into %m dim(1) : !tile.buffer<4x256xf32, fragment>, !tile.buffer<4xf32, fragment>
  tile.parallel (%i) in [4] {
    %v = tile.load %m[%i] : !tile.buffer<4xf32, fragment>
    %w = arith.mulf %v, %v : f32
    tile.store %w, %m[%i] : !tile.buffer<4xf32, fragment>
  }
  tile.copy %m to %M[%c0] : !tile.buffer<4xf32, fragment> to !tile.buffer<?xf32, global>
}
