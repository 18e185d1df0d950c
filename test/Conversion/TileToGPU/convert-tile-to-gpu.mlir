// -convert-tile-to-gpu (after -tile-assign-layouts): kernel signatures, the
// manifest, global/shared/fragment storage, copies, fills and tile.parallel.
//
// RUN: tile-opt %s --tile-assign-layouts --tile-fuse-stores --tile-plan-shared-memory --tile-insert-barriers --convert-tile-to-gpu -split-input-file | FileCheck %s

// A 1-D kernel: pointer + size parameter per dynamic global, the vector fast
// path guarded by bounds and alignment checks, masked scalar tails and the
// thread's fragment elements in a private alloca.

// CHECK: module attributes {gpu.container_module}
// CHECK: gpu.module @tile_kernels attributes {tile.kernels = [#tile.launch<
// CHECK-SAME: name = "scale", block = [256, 1, 1],
// CHECK-SAME: grid = [#tile.grid_rule<ceildiv "A"[0] by 1024>], dynamic_shared_memory = 0,
// CHECK-SAME: params = [#tile.buffer_param<name = "A", dtype = f32, shape = [?], access = read>,
// CHECK-SAME: #tile.buffer_param<name = "B", dtype = f32, shape = [?], access = write>,
// CHECK-SAME: #tile.scalar_param<name = "alpha", type = f32>,
// CHECK-SAME: #tile.dim_param<name = "A.dim0", buffer = "A", dim = 0>,
// CHECK-SAME: #tile.dim_param<name = "B.dim0", buffer = "B", dim = 0>]>]}

// CHECK-LABEL: gpu.func @scale(
// CHECK-SAME: %[[A:.*]]: memref<f32, #gpu.address_space<global>>, %[[B:.*]]: memref<f32, #gpu.address_space<global>>,
// CHECK-SAME: %[[ALPHA:.*]]: f32, %[[NA:.*]]: index, %[[NB:.*]]: index) kernel
// CHECK-SAME: attributes {known_block_size = array<i32: 256, 1, 1>}
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[GA:.*]] = memref.reinterpret_cast %[[A]] to offset: [0], sizes: [%[[NA]]], strides: [1] : memref<f32, #gpu.address_space<global>> to memref<?xf32, strided<[1]>, #gpu.address_space<global>>
// CHECK: %[[GB:.*]] = memref.reinterpret_cast %[[B]] to offset: [0], sizes: [%[[NB]]], strides: [1]
// CHECK: %[[BX:.*]] = gpu.block_id x
// CHECK: %[[REGS:.*]] = memref.alloca() : memref<4xf32>
// CHECK: %[[OFF:.*]] = arith.muli %[[BX]], %{{.*}} : index
//
// Copy in: chunk = tid (one round), first element = 4 * chunk.
// CHECK: %[[CHUNK:.*]] = arith.addi %{{.*}}, %[[TID]] : index
// CHECK: %[[FIRST:.*]] = arith.muli %[[CHUNK]], %[[C4:.*]] : index
// CHECK: %[[G:.*]] = arith.addi %[[OFF]], %[[FIRST]] : index
// One value per chunk, the elements left in the row, decides the vector and
// each masked lane; alignment is a test of the copy's offset.
// CHECK: %[[LEFT:.*]] = arith.subi %[[NA]], %[[G]] : index
// CHECK: %[[INSIDE:.*]] = arith.cmpi sge, %[[LEFT]], %{{.*}} : index
// CHECK: %[[REM:.*]] = arith.remui %[[OFF]], %{{.*}} : index
// CHECK: %[[ALIGNED:.*]] = arith.cmpi eq, %[[REM]], %{{.*}} : index
// CHECK: %[[FAST:.*]] = arith.andi %{{.*}}, %[[ALIGNED]] : i1
// CHECK: %[[V:.*]] = scf.if %[[FAST]] -> (vector<4xf32>) {
// CHECK-NEXT: %[[VEC:.*]] = vector.load %[[GA]][%[[G]]] {alignment = 16 : i64} : memref<?xf32, strided<[1]>, #gpu.address_space<global>>, vector<4xf32>
// CHECK-NEXT: scf.yield %[[VEC]] : vector<4xf32>
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[I0:.*]] = arith.addi %[[G]], %{{.*}} : index
// CHECK: %[[OK0:.*]] = arith.cmpi slt, %{{.*}}, %[[LEFT]] : index
// CHECK-NEXT: %[[M0:.*]] = arith.andi %{{.*}}, %[[OK0]] : i1
// CHECK-NEXT: %[[E0:.*]] = scf.if %[[M0]] -> (f32) {
// CHECK-NEXT: %[[L0:.*]] = memref.load %[[GA]][%[[I0]]]
// CHECK-NEXT: scf.yield %[[L0]] : f32
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[ZERO]] : f32
// CHECK-NEXT: }
// CHECK-COUNT-3: scf.if %{{.*}} -> (f32) {
// CHECK: %[[TAIL:.*]] = vector.from_elements %[[E0]], %{{.*}}, %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK-NEXT: scf.yield %[[TAIL]] : vector<4xf32>
// CHECK-NEXT: }
// CHECK: %[[X0:.*]] = vector.extract %[[V]][0] : f32 from vector<4xf32>
// CHECK-NEXT: memref.store %[[X0]], %[[REGS]][%{{.*}}] : memref<4xf32>
// CHECK: vector.extract %[[V]][3] : f32 from vector<4xf32>
//
// tile.parallel: the body once per owned element, on registers.
// CHECK: %[[R0:.*]] = memref.load %[[REGS]][%[[S0:.*]]] : memref<4xf32>
// CHECK-NEXT: %[[P0:.*]] = arith.mulf %[[R0]], %[[ALPHA]] : f32
// CHECK-NEXT: memref.store %[[P0]], %[[REGS]][%[[S0]]] : memref<4xf32>
// CHECK-COUNT-3: arith.mulf %{{.*}}, %[[ALPHA]] : f32
// CHECK-NOT: arith.mulf
//
// Copy out: a vector store on the fast path, masked scalar stores otherwise.
// CHECK: %[[OUT:.*]] = vector.from_elements %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK: %[[G2:.*]] = arith.addi %[[OFF]], %{{.*}} : index
// CHECK: %[[LEFT2:.*]] = arith.subi %[[NB]], %[[G2]] : index
// CHECK: arith.cmpi sge, %[[LEFT2]], %{{.*}} : index
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: vector.store %[[OUT]], %[[GB]][%[[G2]]] {alignment = 16 : i64} : memref<?xf32, strided<[1]>, #gpu.address_space<global>>, vector<4xf32>
// CHECK-NEXT: } else {
// CHECK: arith.cmpi slt, %{{.*}}, %[[LEFT2]] : index
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: %[[Y0:.*]] = vector.extract %[[OUT]][0] : f32 from vector<4xf32>
// CHECK-NEXT: memref.store %[[Y0]], %[[GB]][%{{.*}}] : memref<?xf32, strided<[1]>, #gpu.address_space<global>>
// CHECK-COUNT-3: memref.store %{{.*}}, %[[GB]]
// CHECK: gpu.return
tile.kernel @scale(%A: !tile.buffer<?xf32, global>,
                   %B: !tile.buffer<?xf32, global>, %alpha: f32)
    grid(%bx) = [ceildiv(%A[0], 1024)] threads(256) {
  %c1024 = arith.constant 1024 : index
  %offset = arith.muli %bx, %c1024 : index
  %a = tile.alloc_fragment : !tile.buffer<1024xf32, fragment>
  tile.copy %A[%offset] to %a : !tile.buffer<?xf32, global> to !tile.buffer<1024xf32, fragment>
  tile.parallel (%i) in [1024] {
    %x = tile.load %a[%i] : !tile.buffer<1024xf32, fragment>
    %y = arith.mulf %x, %alpha : f32
    tile.store %y, %a[%i] : !tile.buffer<1024xf32, fragment>
  }
  tile.copy %a to %B[%offset] : !tile.buffer<1024xf32, fragment> to !tile.buffer<?xf32, global>
}

// -----

// A 2-D global -> shared -> fragment -> global chain. Shared tiles are views
// into the dynamic shared memory; the two tiles nobody uses take no bytes
// (offset 0), so the manifest reports the 64x64xf32 tile alone. Static
// globals get no size parameters and a static strided layout. The block
// synchronizes after each copy that touches shared memory.

// CHECK: gpu.module @tile_kernels attributes {tile.kernels = [#tile.launch<
// CHECK-SAME: name = "chain", block = [128, 1, 1],
// CHECK-SAME: grid = [#tile.grid_rule<ceildiv "A"[0] by 64>, #tile.grid_rule<ceildiv "A"[1] by 64>], dynamic_shared_memory = 16384,
// CHECK-SAME: params = [#tile.buffer_param<name = "A", dtype = f32, shape = [?, ?], access = readwrite>, #tile.buffer_param<name = "B", dtype = f16, shape = [64, 64], access = write>,
// CHECK-SAME: #tile.dim_param<name = "A.dim0", buffer = "A", dim = 0>, #tile.dim_param<name = "A.dim1", buffer = "A", dim = 1>]>]}

// CHECK-LABEL: gpu.func @chain(
// CHECK-SAME: %[[A:.*]]: memref<f32, #gpu.address_space<global>>, %[[B:.*]]: memref<f16, #gpu.address_space<global>>, %[[M:.*]]: index, %[[N:.*]]: index) kernel
// CHECK-SAME: attributes {known_block_size = array<i32: 128, 1, 1>}
// CHECK: %[[SMEM:.*]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[STRIDE:.*]] = arith.muli %{{.*}}, %[[N]] : index
// CHECK: %[[GA:.*]] = memref.reinterpret_cast %[[A]] to offset: [0], sizes: [%[[M]], %[[N]]], strides: [%[[STRIDE]], 1] : memref<f32, #gpu.address_space<global>> to memref<?x?xf32, strided<[?, 1]>, #gpu.address_space<global>>
// CHECK: %[[GB:.*]] = memref.reinterpret_cast %[[B]] to offset: [0], sizes: [64, 64], strides: [64, 1] : memref<f16, #gpu.address_space<global>> to memref<64x64xf16, strided<[64, 1]>, #gpu.address_space<global>>
// CHECK: %[[BX:.*]] = gpu.block_id x
// CHECK: %[[BY:.*]] = gpu.block_id y
// CHECK: %[[O0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[S:.*]] = memref.view %[[SMEM]][%[[O0]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64x64xf32, #gpu.address_space<workgroup>>
// CHECK: %[[O1:.*]] = arith.constant 0 : index
// CHECK-NEXT: memref.view %[[SMEM]][%[[O1]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3x5xf16, #gpu.address_space<workgroup>>
// CHECK: %[[O2:.*]] = arith.constant 0 : index
// CHECK-NEXT: memref.view %[[SMEM]][%[[O2]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2x2x2x2xi8, #gpu.address_space<workgroup>>
// CHECK: %[[REGS:.*]] = memref.alloca() : memref<32xf32>
// CHECK: %[[ROW:.*]] = arith.muli %[[BX]], %{{.*}} : index
// CHECK: %[[COL:.*]] = arith.muli %[[BY]], %{{.*}} : index
//
// global -> shared: 64x64 / (4 x 128 threads) = 8 rounds of 16-byte chunks;
// chunk c starts at row 4c / 64, column 4c mod 64 of the tile.
// CHECK: %[[CHUNK:.*]] = arith.addi %{{.*}}, %[[TID]] : index
// CHECK: %[[FIRST:.*]] = arith.muli %[[CHUNK]], %{{.*}} : index
// CHECK-NEXT: %[[C64:.*]] = arith.constant 64 : index
// CHECK-NEXT: %[[J:.*]] = arith.remui %[[FIRST]], %[[C64]] : index
// CHECK-NEXT: %[[I:.*]] = arith.divui %[[FIRST]], %[[C64]] : index
// CHECK-NEXT: %[[GI:.*]] = arith.addi %[[ROW]], %[[I]] : index
// CHECK-NEXT: %[[GJ:.*]] = arith.addi %[[COL]], %[[J]] : index
// CHECK-NEXT: %[[ROWOK:.*]] = arith.cmpi ult, %[[GI]], %[[M]] : index
// CHECK: %[[LEFT:.*]] = arith.subi %[[N]], %[[GJ]] : index
// CHECK: arith.cmpi sge, %[[LEFT]], %{{.*}} : index
// CHECK: arith.remui %[[COL]], %{{.*}} : index
// CHECK: arith.remui %[[N]], %{{.*}} : index
// CHECK: scf.if %{{.*}} -> (vector<4xf32>) {
// CHECK-NEXT: vector.load %[[GA]][%[[GI]], %[[GJ]]] {alignment = 16 : i64} : memref<?x?xf32, strided<[?, 1]>, #gpu.address_space<global>>, vector<4xf32>
// CHECK: arith.andi %[[ROWOK]], %{{.*}} : i1
// CHECK: memref.load %[[GA]][%[[GI]], %{{.*}}]
// CHECK: vector.store %{{.*}}, %[[S]][%[[I]], %[[J]]] {alignment = 16 : i64} : memref<64x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK-COUNT-7: vector.store %{{.*}}, %[[S]]
// CHECK-NOT: vector.store
// CHECK: gpu.barrier
//
// shared -> fragment: the fragment is also copied to f16, so its layout
// takes 8-element vectors (16 bytes of f16): 4 vector loads of 8 into the
// thread's registers.
// CHECK-NOT: gpu.barrier
// CHECK: %[[SV:.*]] = vector.load %[[S]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<64x64xf32, #gpu.address_space<workgroup>>, vector<8xf32>
// CHECK-NEXT: %{{.*}} = arith.constant 0 : index
// CHECK-NEXT: %[[SV0:.*]] = vector.extract %[[SV]][0] : f32 from vector<8xf32>
// CHECK-NEXT: memref.store %[[SV0]], %[[REGS]][%{{.*}}] : memref<32xf32>
// CHECK-COUNT-3: vector.load %[[S]]
// CHECK-NOT: gpu.barrier
// CHECK: %[[LAST:.*]] = arith.constant 31 : index
// CHECK-NEXT: vector.extract %{{.*}}[7] : f32 from vector<8xf32>
// CHECK-NEXT: memref.store %{{.*}}, %[[REGS]][%[[LAST]]] : memref<32xf32>
// Nothing writes the shared tile after this read: no barrier after it.
// CHECK-NOT: gpu.barrier
//
// fragment -> dynamic global (8 f32 per chunk, claiming 16-byte alignment:
// the access splits into 16-byte ones), then fragment -> static f16 global
// (truncated, 16-byte vectors); no shared memory, so no more barriers.
// CHECK-COUNT-4: vector.store %{{.*}}, %[[GA]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<?x?xf32, strided<[?, 1]>, #gpu.address_space<global>>, vector<8xf32>
// CHECK: %[[H:.*]] = arith.truncf %{{.*}} : vector<8xf32> to vector<8xf16>
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: vector.store %[[H]], %[[GB]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<64x64xf16, strided<[64, 1]>, #gpu.address_space<global>>, vector<8xf16>
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
tile.kernel @chain(%A: !tile.buffer<?x?xf32, global>,
                   %B: !tile.buffer<64x64xf16, global>)
    grid(%bx, %by) = [ceildiv(%A[0], 64), ceildiv(%A[1], 64)] threads(128) {
  %c64 = arith.constant 64 : index
  %row = arith.muli %bx, %c64 : index
  %col = arith.muli %by, %c64 : index
  %s = tile.alloc_shared : !tile.buffer<64x64xf32, shared>
  %t = tile.alloc_shared : !tile.buffer<3x5xf16, shared>
  %u = tile.alloc_shared : !tile.buffer<2x2x2x2xi8, shared>
  %f = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  tile.copy %A[%row, %col] to %s : !tile.buffer<?x?xf32, global> to !tile.buffer<64x64xf32, shared>
  tile.copy %s to %f : !tile.buffer<64x64xf32, shared> to !tile.buffer<64x64xf32, fragment>
  tile.copy %f to %A[%row, %col] : !tile.buffer<64x64xf32, fragment> to !tile.buffer<?x?xf32, global>
  tile.copy %f to %B : !tile.buffer<64x64xf32, fragment> to !tile.buffer<64x64xf16, global>
}

// -----

// tile.fill / tile.clear: on a shared tile, a broadcast vector stored by each
// thread round-robin (16x24xf16 = 48 chunks of 8 over 32 threads: the second
// round is guarded; 3x5xf32 has an odd last dimension: 15 scalar chunks); on
// a fragment, one register store per element the thread owns. The 3x5xf32
// tile is used only after the 16x24xf16 one: it takes the same bytes.

// CHECK: gpu.module @tile_kernels attributes {tile.kernels = [#tile.launch<name = "fills", block = [32, 1, 1], grid = [#tile.grid_rule<1>], dynamic_shared_memory = 768,

// CHECK-LABEL: gpu.func @fills(
// CHECK-SAME: %[[X:.*]]: f32) kernel
// CHECK: %[[SMEM:.*]] = gpu.dynamic_shared_memory
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[S:.*]] = memref.view %[[SMEM]][%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16x24xf16, #gpu.address_space<workgroup>>
// CHECK: %[[T:.*]] = memref.view %[[SMEM]][%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3x5xf32, #gpu.address_space<workgroup>>
// CHECK: %[[REGS:.*]] = memref.alloca() : memref<4xf16>
// CHECK: %[[V:.*]] = arith.truncf %[[X]] : f32 to f16
//
// CHECK: %[[SPLAT:.*]] = vector.broadcast %[[V]] : f16 to vector<8xf16>
// CHECK: %[[C0:.*]] = arith.addi %{{.*}}, %[[TID]] : index
// CHECK: %[[F0:.*]] = arith.muli %[[C0]], %{{.*}} : index
// CHECK: %[[J0:.*]] = arith.remui %[[F0]], %{{.*}} : index
// CHECK-NEXT: %[[I0:.*]] = arith.divui %[[F0]], %{{.*}} : index
// CHECK-NEXT: vector.store %[[SPLAT]], %[[S]][%[[I0]], %[[J0]]] {alignment = 16 : i64} : memref<16x24xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK: %[[C1:.*]] = arith.addi %{{.*}}, %[[TID]] : index
// CHECK-NEXT: %[[NCHUNKS:.*]] = arith.constant 48 : index
// CHECK-NEXT: %[[IN:.*]] = arith.cmpi ult, %[[C1]], %[[NCHUNKS]] : index
// CHECK-NEXT: scf.if %[[IN]] {
// CHECK: vector.store %[[SPLAT]], %[[S]][%{{.*}}, %{{.*}}] {alignment = 16 : i64}
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
//
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[ZSPLAT:.*]] = vector.broadcast %[[ZERO]] : f32 to vector<1xf32>
// CHECK: %[[C2:.*]] = arith.addi %{{.*}}, %[[TID]] : index
// CHECK-NEXT: %[[N15:.*]] = arith.constant 15 : index
// CHECK-NEXT: %[[IN2:.*]] = arith.cmpi ult, %[[C2]], %[[N15]] : index
// CHECK-NEXT: scf.if %[[IN2]] {
// CHECK: vector.store %[[ZSPLAT]], %[[T]][%{{.*}}, %{{.*}}] {alignment = 4 : i64} : memref<3x5xf32, #gpu.address_space<workgroup>>, vector<1xf32>
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
//
// CHECK-NOT: vector.store
// CHECK-NOT: gpu.barrier
// CHECK-COUNT-4: memref.store %[[V]], %[[REGS]][%{{.*}}] : memref<4xf16>
// CHECK: %[[HZERO:.*]] = arith.constant 0.000000e+00 : f16
// CHECK-COUNT-4: memref.store %[[HZERO]], %[[REGS]][%{{.*}}] : memref<4xf16>
// CHECK-NOT: memref.store
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
tile.kernel @fills(%x: f32) grid(%bx) = [1] threads(32) {
  %v = arith.truncf %x : f32 to f16
  %s = tile.alloc_shared : !tile.buffer<16x24xf16, shared>
  %t = tile.alloc_shared : !tile.buffer<3x5xf32, shared>
  %f = tile.alloc_fragment : !tile.buffer<128xf16, fragment>
  tile.fill %s, %v : !tile.buffer<16x24xf16, shared>
  tile.clear %t : !tile.buffer<3x5xf32, shared>
  tile.fill %f, %v : !tile.buffer<128xf16, fragment>
  tile.clear %f : !tile.buffer<128xf16, fragment>
}

// -----

// tile.parallel over shared tiles only: one iteration per thread and round,
// round-robin; 10x10 = 100 iterations over 32 threads is 4 rounds, the last
// guarded by `iteration < 100`. Induction variables are delinearized
// (row-major) and feed the indices as written.

// CHECK-LABEL: gpu.func @shared_parallel(
// CHECK-SAME: %[[ALPHA:.*]]: f32) kernel
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[S:.*]] = memref.view %{{.*}} to memref<10x10xf32, #gpu.address_space<workgroup>>
// CHECK: %[[T:.*]] = memref.view %{{.*}} to memref<10x10xf32, #gpu.address_space<workgroup>>
// CHECK: %[[IT:.*]] = arith.addi %{{.*}}, %[[TID]] : index
// CHECK: %[[FIRST:.*]] = arith.muli %[[IT]], %{{.*}} : index
// CHECK: %[[J:.*]] = arith.remui %[[FIRST]], %{{.*}} : index
// CHECK-NEXT: %[[I:.*]] = arith.divui %[[FIRST]], %{{.*}} : index
// CHECK: %[[X:.*]] = memref.load %[[S]][%[[J]], %[[I]]] : memref<10x10xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[Y:.*]] = arith.mulf %[[X]], %[[ALPHA]] : f32
// CHECK-NEXT: memref.store %[[Y]], %[[T]][%[[I]], %[[J]]] : memref<10x10xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: scf.if
// CHECK-COUNT-2: arith.mulf
// CHECK-NOT: scf.if
// CHECK: %[[C96:.*]] = arith.constant 96 : index
// CHECK-NEXT: %[[LAST:.*]] = arith.addi %[[C96]], %[[TID]] : index
// CHECK-NEXT: %[[C100:.*]] = arith.constant 100 : index
// CHECK-NEXT: %[[IN:.*]] = arith.cmpi ult, %[[LAST]], %[[C100]] : index
// CHECK-NEXT: scf.if %[[IN]] {
// CHECK: memref.load %[[S]]
// CHECK: arith.mulf
// CHECK: memref.store %{{.*}}, %[[T]]
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: gpu.return
tile.kernel @shared_parallel(%alpha: f32) grid(%bx) = [1] threads(32) {
  %s = tile.alloc_shared : !tile.buffer<10x10xf32, shared>
  %t = tile.alloc_shared : !tile.buffer<10x10xf32, shared>
  tile.parallel (%i, %j) in [10, 10] {
    %x = tile.load %s[%j, %i] : !tile.buffer<10x10xf32, shared>
    %y = arith.mulf %x, %alpha : f32
    tile.store %y, %t[%i, %j] : !tile.buffer<10x10xf32, shared>
  }
}

// -----

// When the extent is a multiple of the threads, no round is guarded.

// CHECK-LABEL: gpu.func @shared_parallel_exact(
// CHECK-NOT: scf.if
// CHECK-COUNT-2: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<128xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: scf.if
// CHECK: gpu.barrier
// CHECK-NEXT: gpu.return
tile.kernel @shared_parallel_exact(%alpha: f32) grid(%bx) = [1] threads(64) {
  %s = tile.alloc_shared : !tile.buffer<128xf32, shared>
  tile.parallel (%i) in [128] {
    %x = tile.load %s[%i] : !tile.buffer<128xf32, shared>
    %y = arith.mulf %x, %alpha : f32
    tile.store %y, %s[%i] : !tile.buffer<128xf32, shared>
  }
}

// -----

// tile.dim becomes the size parameter of a dynamic dimension and a constant
// otherwise, also inside tile.parallel. A 3-D grid maps to block_id x, y, z;
// scalar parameters keep their type; a rank-3 global gets row-major strides.

// CHECK: gpu.module @tile_kernels attributes {tile.kernels = [#tile.launch<name = "dims", block = [32, 1, 1],
// CHECK-SAME: grid = [#tile.grid_rule<ceildiv "A"[0] by 4>, #tile.grid_rule<2>, #tile.grid_rule<ceildiv "A"[2] by 1>], dynamic_shared_memory = 512,
// CHECK-SAME: params = [#tile.buffer_param<name = "A", dtype = f32, shape = [?, 8, ?], access = read>, #tile.scalar_param<name = "n", type = i64>,
// CHECK-SAME: #tile.dim_param<name = "A.dim0", buffer = "A", dim = 0>, #tile.dim_param<name = "A.dim2", buffer = "A", dim = 2>]>]}

// CHECK-LABEL: gpu.func @dims(
// CHECK-SAME: %[[A:.*]]: memref<f32, #gpu.address_space<global>>, %[[N:.*]]: i64, %[[D0:.*]]: index, %[[D2:.*]]: index) kernel
// CHECK: %[[C8:.*]] = arith.constant 8 : index
// CHECK: %[[S1:.*]] = arith.muli %{{.*}}, %[[D2]] : index
// CHECK-NEXT: %[[S0:.*]] = arith.muli %[[S1]], %[[C8]] : index
// CHECK-NEXT: memref.reinterpret_cast %[[A]] to offset: [0], sizes: [%[[D0]], 8, %[[D2]]], strides: [%[[S0]], %[[S1]], 1] : memref<f32, #gpu.address_space<global>> to memref<?x8x?xf32, strided<[?, ?, 1]>, #gpu.address_space<global>>
// CHECK: gpu.block_id x
// CHECK-NEXT: gpu.block_id y
// CHECK-NEXT: %[[BZ:.*]] = gpu.block_id z
// CHECK: %[[S:.*]] = memref.view
// CHECK-NEXT: arith.constant 32 : index
// CHECK-NEXT: %[[C4:.*]] = arith.constant 4 : index
// CHECK-NOT: tile.dim
// CHECK: %[[A01:.*]] = arith.addi %[[D0]], %[[C8]] : index
// CHECK-NEXT: %[[A012:.*]] = arith.addi %[[A01]], %[[D2]] : index
// CHECK-NEXT: %[[A0123:.*]] = arith.addi %[[A012]], %[[C4]] : index
// CHECK-NEXT: %[[INNER:.*]] = arith.addi %[[A0123]], %[[D2]] : index
// CHECK-NEXT: arith.addi %[[INNER]], %[[BZ]] : index
// CHECK-NOT: tile.dim
// CHECK: gpu.return
tile.kernel @dims(%A: !tile.buffer<?x8x?xf32, global>, %n: i64)
    grid(%bx, %by, %bz) = [ceildiv(%A[0], 4), 2, %A[2]] threads(32) {
  %s = tile.alloc_shared : !tile.buffer<32x4xi32, shared>
  %d0 = tile.dim %A[0] : !tile.buffer<?x8x?xf32, global>
  %d1 = tile.dim %A[1] : !tile.buffer<?x8x?xf32, global>
  %d2 = tile.dim %A[2] : !tile.buffer<?x8x?xf32, global>
  %ds = tile.dim %s[1] : !tile.buffer<32x4xi32, shared>
  tile.parallel (%i, %j) in [32, 4] {
    %m = tile.dim %A[2] : !tile.buffer<?x8x?xf32, global>
    %a = arith.addi %d0, %d1 : index
    %b = arith.addi %a, %d2 : index
    %c = arith.addi %b, %ds : index
    %e = arith.addi %c, %m : index
    %f = arith.addi %e, %bz : index
    %g = arith.index_cast %f : index to i32
    tile.store %g, %s[%i, %j] : !tile.buffer<32x4xi32, shared>
  }
}

// -----

// Element type conversions in copies use the narrower of the two 16-byte
// vector widths: f32 -> f16 truncates 4-wide vectors, bf16 -> f32 extends
// them; f16 -> bf16 goes through f32 (no single cast exists between them).

// CHECK-LABEL: gpu.func @convert(
// CHECK: %[[S:.*]] = memref.view %{{.*}} to memref<64xf16, #gpu.address_space<workgroup>>
// CHECK: %[[T:.*]] = memref.view %{{.*}} to memref<64xbf16, #gpu.address_space<workgroup>>
// CHECK: %[[W:.*]] = scf.if %{{.*}} -> (vector<4xf32>) {
// CHECK-NEXT: vector.load %{{.*}} {alignment = 16 : i64} : memref<?xf32, strided<[1]>, #gpu.address_space<global>>, vector<4xf32>
// CHECK: %[[N:.*]] = arith.truncf %[[W]] : vector<4xf32> to vector<4xf16>
// CHECK-NEXT: vector.store %[[N]], %[[S]][%{{.*}}] {alignment = 8 : i64} : memref<64xf16, #gpu.address_space<workgroup>>, vector<4xf16>
// CHECK: gpu.barrier
// CHECK: %[[H:.*]] = vector.load %[[S]][%{{.*}}] {alignment = 16 : i64} : memref<64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK-NEXT: %[[E:.*]] = arith.extf %[[H]] : vector<8xf16> to vector<8xf32>
// CHECK-NEXT: %[[BF:.*]] = arith.truncf %[[E]] : vector<8xf32> to vector<8xbf16>
// CHECK-NEXT: vector.store %[[BF]], %[[T]][%{{.*}}] {alignment = 16 : i64} : memref<64xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// CHECK: gpu.barrier
// CHECK: %[[B:.*]] = vector.load %[[T]][%{{.*}}] {alignment = 8 : i64} : memref<64xbf16, #gpu.address_space<workgroup>>, vector<4xbf16>
// CHECK-NEXT: %[[F:.*]] = arith.extf %[[B]] : vector<4xbf16> to vector<4xf32>
// CHECK: vector.store %[[F]], %{{.*}} {alignment = 16 : i64} : memref<?xf32, strided<[1]>, #gpu.address_space<global>>, vector<4xf32>
tile.kernel @convert(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  %s = tile.alloc_shared : !tile.buffer<64xf16, shared>
  %t = tile.alloc_shared : !tile.buffer<64xbf16, shared>
  tile.copy %A to %s : !tile.buffer<?xf32, global> to !tile.buffer<64xf16, shared>
  tile.copy %s to %t : !tile.buffer<64xf16, shared> to !tile.buffer<64xbf16, shared>
  tile.copy %t to %A : !tile.buffer<64xbf16, shared> to !tile.buffer<?xf32, global>
}

// -----

// tile.parallel over a fragment follows its layout (here vec = 4: each
// thread owns one chunk of 4 consecutive elements); a shared tile in the same
// loop is indexed by the delinearized element, the fragment by its register
// slot. Two kernels share one gpu.module and one manifest.

// CHECK: gpu.module @tile_kernels attributes {tile.kernels = [
// CHECK-SAME: #tile.launch<name = "fragment_parallel", block = [32, 1, 1], grid = [#tile.grid_rule<1>], dynamic_shared_memory = 512, params = [#tile.buffer_param<name = "A", dtype = f32, shape = [8, 16], access = write>]>,
// CHECK-SAME: #tile.launch<name = "empty", block = [64, 1, 1], grid = [#tile.grid_rule<2>], dynamic_shared_memory = 0, params = [#tile.buffer_param<name = "B", dtype = i8, shape = [?], access = read>, #tile.dim_param<name = "B.dim0", buffer = "B", dim = 0>]>]}

// CHECK-LABEL: gpu.func @fragment_parallel(
// CHECK-SAME: %[[A:.*]]: memref<f32, #gpu.address_space<global>>) kernel
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: memref.reinterpret_cast %[[A]] to offset: [0], sizes: [8, 16], strides: [16, 1] : memref<f32, #gpu.address_space<global>> to memref<8x16xf32, strided<[16, 1]>, #gpu.address_space<global>>
// CHECK: %[[S:.*]] = memref.view
// CHECK: %[[REGS:.*]] = memref.alloca() : memref<4xf32>
// CHECK: %[[CHUNK:.*]] = arith.addi %{{.*}}, %[[TID]] : index
// CHECK-NEXT: %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT: %[[FIRST:.*]] = arith.muli %[[CHUNK]], %[[C4]] : index
// CHECK-NEXT: %[[C16:.*]] = arith.constant 16 : index
// CHECK-NEXT: %[[J0:.*]] = arith.remui %[[FIRST]], %[[C16]] : index
// CHECK-NEXT: %[[I0:.*]] = arith.divui %[[FIRST]], %[[C16]] : index
// CHECK-NEXT: %[[SLOT0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[X0:.*]] = memref.load %[[S]][%[[I0]], %[[J0]]] : memref<8x16xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[Y0:.*]] = math.exp %[[X0]] : f32
// CHECK-NEXT: memref.store %[[Y0]], %[[REGS]][%[[SLOT0]]] : memref<4xf32>
// The next element of the chunk is one column further in the same row.
// CHECK-NEXT: %[[L1:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[J1:.*]] = arith.addi %[[J0]], %[[L1]] : index
// CHECK-NEXT: %[[SLOT1:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[X1:.*]] = memref.load %[[S]][%[[I0]], %[[J1]]]
// CHECK-NEXT: %[[Y1:.*]] = math.exp %[[X1]] : f32
// CHECK-NEXT: memref.store %[[Y1]], %[[REGS]][%[[SLOT1]]] : memref<4xf32>
// CHECK-COUNT-2: math.exp
// CHECK-NOT: math.exp
// CHECK-NOT: gpu.barrier
// CHECK: vector.store %{{.*}} {alignment = 16 : i64} : memref<8x16xf32, strided<[16, 1]>, #gpu.address_space<global>>, vector<4xf32>
// CHECK: gpu.return

// CHECK-LABEL: gpu.func @empty(
// CHECK-SAME: %[[B:.*]]: memref<i8, #gpu.address_space<global>>, %[[NB:.*]]: index) kernel
// CHECK-SAME: attributes {known_block_size = array<i32: 64, 1, 1>}
// CHECK-NOT: gpu.dynamic_shared_memory
// CHECK: memref.reinterpret_cast %[[B]] to offset: [0], sizes: [%[[NB]]], strides: [1]
// CHECK-NEXT: gpu.block_id x
// CHECK-NEXT: gpu.return
tile.kernel @fragment_parallel(%A: !tile.buffer<8x16xf32, global>)
    grid(%bx) = [1] threads(32) {
  %s = tile.alloc_shared : !tile.buffer<8x16xf32, shared>
  %f = tile.alloc_fragment : !tile.buffer<8x16xf32, fragment>
  tile.parallel (%i, %j) in [8, 16] {
    %x = tile.load %s[%i, %j] : !tile.buffer<8x16xf32, shared>
    %y = math.exp %x : f32
    tile.store %y, %f[%i, %j] : !tile.buffer<8x16xf32, fragment>
  }
  tile.copy %f to %A : !tile.buffer<8x16xf32, fragment> to !tile.buffer<8x16xf32, global>
}
tile.kernel @empty(%B: !tile.buffer<?xi8, global>) grid(%bx) = [2] threads(64) {
}

// -----

// tile.subview: a rank-reducing memref.subview at (b, h); the copy out of
// it is bounded by the view's own row count (S), not by the tensor's end.
// CHECK-LABEL: gpu.func @head_view(
// CHECK-SAME: %[[Q:[^:]*]]: memref<f16, #gpu.address_space<global>>, %[[B:[^:]*]]: index, %[[H:[^:]*]]: index, %[[S:[^:]*]]: index, %[[D:[^:]*]]: index)
// CHECK: %[[GQ:.*]] = memref.reinterpret_cast %[[Q]] to offset: [0], sizes: [%[[B]], %[[H]], %[[S]], %[[D]]]
// CHECK-DAG: %[[BX:.*]] = gpu.block_id x
// CHECK-DAG: %[[BY:.*]] = gpu.block_id y
// CHECK: %[[VIEW:.*]] = memref.subview %[[GQ]][%[[BY]], %[[BX]], 0, 0] [1, 1, %[[S]], %[[D]]] [1, 1, 1, 1] : memref<?x?x?x?xf16, strided<[?, ?, ?, 1]>, #gpu.address_space<global>> to memref<?x?xf16, strided<[?, 1], offset: ?>, #gpu.address_space<global>>
// CHECK: arith.cmpi ult, %{{.*}}, %[[S]] : index
// CHECK: vector.load %[[VIEW]]
tile.kernel @head_view(%Q: !tile.buffer<?x?x?x?xf16, global>) grid(%bx, %by) = [%Q[1], %Q[0]] threads(128) {
  %c0 = arith.constant 0 : index
  %q = tile.subview %Q[%by, %bx] : !tile.buffer<?x?x?x?xf16, global> to !tile.buffer<?x?xf16, global>
  %t = tile.alloc_fragment : !tile.buffer<64x64xf16, fragment>
  tile.copy %q[%c0, %c0] to %t : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, fragment>
  tile.copy %t to %q[%c0, %c0] : !tile.buffer<64x64xf16, fragment> to !tile.buffer<?x?xf16, global>
}

// -----

// A static trailing dimension stays static in the view.
// CHECK-LABEL: gpu.func @head_view_static(
// CHECK: memref.subview %{{.*}}[%{{.*}}, %{{.*}}, 0, 0] [1, 1, %{{.*}}, 64] [1, 1, 1, 1] : memref<?x?x?x64xf16, strided<[?, ?, 64, 1]>, #gpu.address_space<global>> to memref<?x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<global>>
tile.kernel @head_view_static(%Q: !tile.buffer<?x?x?x64xf16, global>) grid(%bx, %by) = [%Q[1], %Q[0]] threads(128) {
  %c0 = arith.constant 0 : index
  %q = tile.subview %Q[%by, %bx] : !tile.buffer<?x?x?x64xf16, global> to !tile.buffer<?x64xf16, global>
  %t = tile.alloc_fragment : !tile.buffer<64x64xf16, fragment>
  tile.copy %q[%c0, %c0] to %t : !tile.buffer<?x64xf16, global> to !tile.buffer<64x64xf16, fragment>
}

// -----

// A tile.parallel that computes a fragment, then the copy of that fragment
// to global memory: each chunk is stored as soon as its elements are
// computed (8 elements per thread, two 4-wide chunks), so an epilogue's
// values die chunk by chunk instead of all staying live until the copy.
// CHECK-LABEL: gpu.func @store_fused_into_parallel(
// CHECK-COUNT-4: arith.mulf
// CHECK-NOT: arith.mulf
// CHECK: vector.store %{{.*}}, %{{.*}} : memref<?xf32, strided<[1]>, #gpu.address_space<global>>, vector<4xf32>
// CHECK-COUNT-4: arith.mulf
// CHECK-NOT: arith.mulf
// CHECK: vector.store %{{.*}}, %{{.*}} : memref<?xf32, strided<[1]>, #gpu.address_space<global>>, vector<4xf32>
// CHECK-NOT: vector.store
// CHECK: gpu.return
tile.kernel @store_fused_into_parallel(%A: !tile.buffer<?xf32, global>,
                                       %C: !tile.buffer<?xf32, global>)
    grid(%bx) = [ceildiv(%A[0], 2048)] threads(256) {
  %c2048 = arith.constant 2048 : index
  %row = arith.muli %bx, %c2048 : index
  %a = tile.alloc_fragment : !tile.buffer<2048xf32, fragment>
  %c = tile.alloc_fragment : !tile.buffer<2048xf32, fragment>
  tile.copy %A[%row] to %a : !tile.buffer<?xf32, global> to !tile.buffer<2048xf32, fragment>
  tile.parallel (%i) in [2048] {
    %x = tile.load %a[%i] : !tile.buffer<2048xf32, fragment>
    %y = arith.mulf %x, %x : f32
    tile.store %y, %c[%i] : !tile.buffer<2048xf32, fragment>
  }
  tile.copy %c to %C[%row] : !tile.buffer<2048xf32, fragment> to !tile.buffer<?xf32, global>
}

// -----

// The copy stores a fragment the loop does not write: not fused, the loop
// runs whole first.
// CHECK-LABEL: gpu.func @store_not_fused(
// CHECK-COUNT-8: arith.mulf
// CHECK: vector.store
// CHECK-NOT: arith.mulf
// CHECK: gpu.return
tile.kernel @store_not_fused(%A: !tile.buffer<?xf32, global>,
                             %C: !tile.buffer<?xf32, global>)
    grid(%bx) = [ceildiv(%A[0], 2048)] threads(256) {
  %c2048 = arith.constant 2048 : index
  %row = arith.muli %bx, %c2048 : index
  %a = tile.alloc_fragment : !tile.buffer<2048xf32, fragment>
  %c = tile.alloc_fragment : !tile.buffer<2048xf32, fragment>
  tile.copy %A[%row] to %a : !tile.buffer<?xf32, global> to !tile.buffer<2048xf32, fragment>
  tile.parallel (%i) in [2048] {
    %x = tile.load %a[%i] : !tile.buffer<2048xf32, fragment>
    %y = arith.mulf %x, %x : f32
    tile.store %y, %c[%i] : !tile.buffer<2048xf32, fragment>
  }
  tile.copy %a to %C[%row] : !tile.buffer<2048xf32, fragment> to !tile.buffer<?xf32, global>
}

// -----

// Shared tiles whose uses do not overlap share bytes: the second tile takes
// offset 0 again, behind a barrier before its first use (every thread must
// be done reading the first one; no other barrier orders them).
// CHECK: #tile.launch<name = "shared_reuse", block = [128, 1, 1], grid = [#tile.grid_rule<1>], dynamic_shared_memory = 16384,
// CHECK-LABEL: gpu.func @shared_reuse(
// CHECK: %[[O0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[S1:.*]] = memref.view %{{.*}}[%[[O0]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64x64xf32, #gpu.address_space<workgroup>>
// CHECK: %[[O1:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[S2:.*]] = memref.view %{{.*}}[%[[O1]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64x64xf32, #gpu.address_space<workgroup>>
// CHECK: vector.store %{{.*}}, %[[S1]]
// CHECK: vector.load %[[S1]]
// CHECK-NOT: %[[S2]]
// CHECK: gpu.barrier
// CHECK-NEXT: %{{.*}} = arith.constant
// CHECK: vector.store %{{.*}}, %[[S2]]
tile.kernel @shared_reuse(%A: !tile.buffer<64x64xf32, global>,
                          %C: !tile.buffer<64x64xf32, global>)
    grid(%bx) = [1] threads(128) {
  %s1 = tile.alloc_shared : !tile.buffer<64x64xf32, shared>
  %s2 = tile.alloc_shared : !tile.buffer<64x64xf32, shared>
  tile.copy %A to %s1 : !tile.buffer<64x64xf32, global> to !tile.buffer<64x64xf32, shared>
  tile.copy %s1 to %C : !tile.buffer<64x64xf32, shared> to !tile.buffer<64x64xf32, global>
  tile.copy %A to %s2 : !tile.buffer<64x64xf32, global> to !tile.buffer<64x64xf32, shared>
  tile.copy %s2 to %C : !tile.buffer<64x64xf32, shared> to !tile.buffer<64x64xf32, global>
}

// -----

// tile.rolled: a loop over shared tiles becomes an scf.for over the
// thread's elements (4096 / 128 = 32), one body per iteration instead of 32.
// The tile is read after the loop's copy, so the loop writes it back.
// CHECK-LABEL: gpu.func @rolled(
// CHECK: %[[C32:.*]] = arith.constant 32 : index
// CHECK: scf.for %[[E:.*]] = %{{.*}} to %[[C32]] step %{{.*}} {
// CHECK: memref.load {{.*}} #gpu.address_space<workgroup>>
// CHECK: arith.mulf
// CHECK-NOT: arith.mulf
// CHECK: memref.store {{.*}} #gpu.address_space<workgroup>>
// CHECK: }
// CHECK-NOT: arith.mulf
// CHECK: gpu.return
tile.kernel @rolled(%A: !tile.buffer<64x64xf32, global>) grid(%bx) = [1] threads(128) {
  %s = tile.alloc_shared : !tile.buffer<64x64xf32, shared>
  tile.copy %A to %s : !tile.buffer<64x64xf32, global> to !tile.buffer<64x64xf32, shared>
  tile.parallel (%i, %j) in [64, 64] rolled {
    %x = tile.load %s[%i, %j] : !tile.buffer<64x64xf32, shared>
    %y = arith.mulf %x, %x : f32
    tile.store %y, %s[%i, %j] : !tile.buffer<64x64xf32, shared>
  }
  tile.copy %s to %A : !tile.buffer<64x64xf32, shared> to !tile.buffer<64x64xf32, global>
  tile.copy %s to %A : !tile.buffer<64x64xf32, shared> to !tile.buffer<64x64xf32, global>
}

// -----

// A rolled loop rewriting a shared tile right before its last use, a copy
// to global memory: the loop runs over the copy's chunks (eight f16 make
// the widest store: 8192 / 8 / 128 = 8 per thread), four per iteration
// (32 values of a thread computed before their stores), reads each chunk
// of the tile as one vector in 16-byte pieces (as a #tile.swizzle moves
// them) and stores the results to global memory (converted to f16)
// instead of back to the tile; the copy has no loop of its own.
// CHECK-LABEL: gpu.func @rolled_store_fused(
// CHECK: gpu.barrier
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[C2]] step %{{.*}} {
// CHECK-COUNT-2: vector.load %{{.*}} : memref<64x128xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK-COUNT-8: arith.mulf
// CHECK: vector.from_elements
// CHECK-COUNT-2: vector.load %{{.*}} : memref<64x128xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK-COUNT-24: arith.mulf
// CHECK-NOT: arith.mulf
// CHECK: arith.truncf %{{.*}} : vector<8xf32> to vector<8xf16>
// CHECK-NOT: #gpu.address_space<workgroup>
// CHECK: vector.store %{{.*}} #gpu.address_space<global>>, vector<8xf16>
// CHECK-COUNT-3: vector.store %{{.*}} #gpu.address_space<global>>, vector<8xf16>
// CHECK: }
// CHECK-NOT: vector.load
// CHECK: gpu.return
tile.kernel @rolled_store_fused(%A: !tile.buffer<64x128xf32, global>,
                                %B: !tile.buffer<?x?xf16, global>)
    grid(%bx) = [1] threads(128) {
  %s = tile.alloc_shared : !tile.buffer<64x128xf32, shared>
  tile.copy %A to %s : !tile.buffer<64x128xf32, global> to !tile.buffer<64x128xf32, shared>
  tile.parallel (%i, %j) in [64, 128] rolled {
    %x = tile.load %s[%i, %j] : !tile.buffer<64x128xf32, shared>
    %y = arith.mulf %x, %x : f32
    tile.store %y, %s[%i, %j] : !tile.buffer<64x128xf32, shared>
  }
  tile.copy %s to %B : !tile.buffer<64x128xf32, shared> to !tile.buffer<?x?xf16, global>
}

// -----

// The same with a partial last round (24 x 64 / 8 = 192 chunks over 128
// threads): one chunk per iteration, its read, computation and store all
// inside the guard.
// CHECK-LABEL: gpu.func @rolled_store_fused_partial(
// CHECK: gpu.barrier
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[C2]] step %{{.*}} {
// CHECK: %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %c192{{.*}} : index
// CHECK-NEXT: scf.if %[[IN]] {
// CHECK-COUNT-2: vector.load %{{.*}} : memref<24x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK-COUNT-8: arith.mulf
// CHECK-NOT: arith.mulf
// CHECK: vector.store %{{.*}} #gpu.address_space<global>>, vector<8xf16>
// CHECK-NOT: vector.load
// CHECK: gpu.return
tile.kernel @rolled_store_fused_partial(%A: !tile.buffer<24x64xf32, global>,
                                        %B: !tile.buffer<?x?xf16, global>)
    grid(%bx) = [1] threads(128) {
  %s = tile.alloc_shared : !tile.buffer<24x64xf32, shared>
  tile.copy %A to %s : !tile.buffer<24x64xf32, global> to !tile.buffer<24x64xf32, shared>
  tile.parallel (%i, %j) in [24, 64] rolled {
    %x = tile.load %s[%i, %j] : !tile.buffer<24x64xf32, shared>
    %y = arith.mulf %x, %x : f32
    tile.store %y, %s[%i, %j] : !tile.buffer<24x64xf32, shared>
  }
  tile.copy %s to %B : !tile.buffer<24x64xf32, shared> to !tile.buffer<?x?xf16, global>
}

// -----

// #tile.swizzle<staging>: 16-byte chunk c of row r goes to chunk
// c xor ((2 r mod 8) | (c / 8 mod 2)) (here 16 chunks per row).
// CHECK-LABEL: gpu.func @swizzle_staging(
// CHECK: %[[ROW:.*]] = arith.divui %{{.*}}, %c64{{.*}} : index
// CHECK: %[[CHUNK:.*]] = arith.divui %{{.*}}, %[[E:.*]] : index
// CHECK: %[[WITHIN:.*]] = arith.remui %{{.*}}, %[[E]] : index
// CHECK: %[[ROW2:.*]] = arith.muli %[[ROW]], %c2{{.*}} : index
// CHECK: %[[ROWPART:.*]] = arith.andi %[[ROW2]], %c6{{.*}} : index
// CHECK: %[[HIGH:.*]] = arith.divui %[[CHUNK]], %c8{{.*}} : index
// CHECK: %[[CHUNKPART:.*]] = arith.andi %[[HIGH]], %c1{{.*}} : index
// CHECK: %[[PATTERN:.*]] = arith.ori %[[ROWPART]], %[[CHUNKPART]] : index
// CHECK: %[[SWIZZLED:.*]] = arith.xori %[[CHUNK]], %[[PATTERN]] : index
// CHECK: %[[SCALED:.*]] = arith.muli %[[SWIZZLED]], %[[E]] : index
// CHECK: %[[COL:.*]] = arith.addi %[[SCALED]], %[[WITHIN]] : index
// CHECK: vector.store %{{.*}}, %{{.*}}[%[[ROW]], %[[COL]]] {{.*}} : memref<16x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
tile.kernel @swizzle_staging(%A: !tile.buffer<16x64xf32, global>,
                             %B: !tile.buffer<16x64xf32, global>)
    grid(%bx) = [1] threads(128) {
  %s = tile.alloc_shared : !tile.buffer<16x64xf32, shared, #tile.swizzle<staging>>
  tile.copy %A to %s : !tile.buffer<16x64xf32, global> to !tile.buffer<16x64xf32, shared, #tile.swizzle<staging>>
  tile.copy %s to %B : !tile.buffer<16x64xf32, shared, #tile.swizzle<staging>> to !tile.buffer<16x64xf32, global>
}

// -----

// A window of a #tile.mma fragment (columns 16-31 of a 16x32 tile held by
// one warp) copied to a shared tile: each lane stores the pairs it holds of
// those columns, read from registers 8-15 (the third and fourth 16x8 MMA
// tiles), at the window's own coordinates (swizzled: tile-assign-layouts
// gives a tile that MMA fragments are staged in its staging swizzle).
// CHECK-LABEL: gpu.func @mma_window(
// CHECK: %[[PAIR0:.*]] = memref.load %[[REGS:.*]][%c8{{(_[0-9]+)?}}] : memref<16xf32>
// CHECK-NEXT: %c9{{(_[0-9]+)?}} = arith.constant 9 : index
// CHECK-NEXT: %[[PAIR1:.*]] = memref.load %[[REGS]][%c9{{(_[0-9]+)?}}] : memref<16xf32>
// CHECK-NEXT: %[[CHUNK:.*]] = vector.from_elements %[[PAIR0]], %[[PAIR1]] : vector<2xf32>
// CHECK: vector.store %[[CHUNK]], %{{.*}} : memref<16x16xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// CHECK-COUNT-3: vector.store %{{.*}} : memref<16x16xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// CHECK-NOT: memref.load %[[REGS]][%c{{[0-7](_[0-9]+)?}}]
// CHECK: gpu.return
tile.kernel @mma_window(%C: !tile.buffer<?x?xf32, global>) grid(%bx) = [1] threads(32) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %acc = tile.alloc_fragment : !tile.buffer<16x32xf32, fragment, #tile.mma<warps = [1, 1]>>
  %s = tile.alloc_shared : !tile.buffer<16x16xf32, shared>
  tile.copy %C to %acc : !tile.buffer<?x?xf32, global> to !tile.buffer<16x32xf32, fragment, #tile.mma<warps = [1, 1]>>
  tile.copy %acc[%c0, %c16] to %s : !tile.buffer<16x32xf32, fragment, #tile.mma<warps = [1, 1]>> to !tile.buffer<16x16xf32, shared>
  tile.copy %s to %C : !tile.buffer<16x16xf32, shared> to !tile.buffer<?x?xf32, global>
}
