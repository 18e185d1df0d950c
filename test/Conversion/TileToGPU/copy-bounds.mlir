// The bounds masks of tile.copy exclude both ends of a global tensor: an
// offset below 0 reads zeros and writes nothing there, like one past the
// end. Indices compare unsigned (a negative index is a huge unsigned one).
//
// RUN: tile-opt %s -split-input-file --tile-to-gpu | FileCheck %s

// Synchronous copies at an offset of any sign (a scalar parameter): the
// vector when g < max(n - 3, 0) (the limit once per copy), each masked lane
// when g + lane < n; no signed compare of an index. (With an offset known
// to be non-negative, convert-tile-to-gpu.mlir, the elements left in the
// row, n - g, decide both.)
// CHECK-LABEL: gpu.func @sync_any_offset(
// CHECK-SAME: %[[N:[^:]*]]: index) kernel
// CHECK: %[[OFF:.*]] = arith.index_cast
// CHECK: %[[G:.*]] = arith.addi %[[OFF]], %{{.*}} : index
// CHECK: %[[NM3:.*]] = arith.subi %[[N]], %c3 : index
// CHECK: %[[LIMIT:.*]] = arith.maxsi %[[NM3]], %c0 : index
// CHECK: %[[INSIDE:.*]] = arith.cmpi ult, %[[G]], %[[LIMIT]] : index
// CHECK: scf.if %{{.*}} -> (vector<4xf32>) {
// CHECK: } else {
// CHECK: arith.cmpi ult, %[[G]], %[[N]] : index
// CHECK: %[[G1:.*]] = arith.addi %[[G]], %c1 : index
// CHECK: arith.cmpi ult, %[[G1]], %[[N]] : index
// CHECK: %[[G2:.*]] = arith.addi %[[G]], %c2 : index
// CHECK: arith.cmpi ult, %[[G2]], %[[N]] : index
// CHECK: %[[G3:.*]] = arith.addi %[[G]], %c3 : index
// CHECK: arith.cmpi ult, %[[G3]], %[[N]] : index
// The copy back has the same tests.
// CHECK: scf.if %{{.*}} {
// CHECK: vector.store
// CHECK: } else {
// CHECK: arith.cmpi ult, %[[G]], %[[N]] : index
// CHECK-NOT: arith.cmpi s{{[lg][te]}}
// CHECK: gpu.return
tile.kernel @sync_any_offset(%A: !tile.buffer<?xf32, global>, %off: i64) grid(%bx) = [1] threads(32) {
  %a = tile.alloc_fragment : !tile.buffer<128xf32, fragment>
  %o = arith.index_cast %off : i64 to index
  tile.copy %A[%o] to %a : !tile.buffer<?xf32, global> to !tile.buffer<128xf32, fragment>
  tile.copy %a to %A[%o] : !tile.buffer<128xf32, fragment> to !tile.buffer<?xf32, global>
}

// -----

// The reproducer: 128 elements at -128, every one before the tensor.
// CHECK-LABEL: gpu.func @sync_negative_offset(
// CHECK: %[[G:.*]] = arith.addi %{{.*}}, %c-128 : index
// CHECK: arith.cmpi ult, %[[G]], %{{.*}} : index
// CHECK-NOT: arith.cmpi s{{[lg][te]}}
// CHECK: gpu.return
tile.kernel @sync_negative_offset(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(128) {
  %a = tile.alloc_fragment : !tile.buffer<128xf32, fragment>
  %c = arith.constant -128 : index
  tile.copy %A[%c] to %a : !tile.buffer<?xf32, global> to !tile.buffer<128xf32, fragment>
  tile.copy %a to %A[%c] : !tile.buffer<128xf32, fragment> to !tile.buffer<?xf32, global>
}

// -----

// cp.async tests each chunk against size - offset, which holds for offsets
// of 0 or more: an offset of unknown sign joins the aligned test (one
// compare per offset and copy), and a negative one takes the masked
// synchronous copy.
// CHECK-LABEL: gpu.func @async_any_offset(
// CHECK: %[[ROW:.*]] = arith.index_cast
// The column offset is 0 and the row length 64: the sign test alone.
// CHECK: %[[NONNEG:.*]] = arith.cmpi sge, %[[ROW]], %c0 : index
// CHECK: scf.if %[[NONNEG]] {
// CHECK: nvgpu.device_async_copy
// CHECK: } else {
// CHECK-NOT: nvgpu.device_async_copy
// CHECK: arith.cmpi ult
// CHECK: gpu.return
tile.kernel @async_any_offset(%A: !tile.buffer<?x64xf16, global>, %r: i64) grid(%bx) = [1] threads(128) {
  %c0 = arith.constant 0 : index
  %row = arith.index_cast %r : i64 to index
  %s = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  tile.copy async %A[%row, %c0] to %s : !tile.buffer<?x64xf16, global> to !tile.buffer<64x64xf16, shared>
  tile.async_commit
  tile.async_wait 0
  tile.copy %s to %A[%c0, %c0] : !tile.buffer<64x64xf16, shared> to !tile.buffer<?x64xf16, global>
}

// -----

// Offsets known to be non-negative (block indices, loop counters with
// bounds of 0 or more, sums and products of them) need no test.
// (The synchronous copies compare what is left of the row, size - g >= 8,
// as g is known non-negative too.)
// CHECK-LABEL: gpu.func @async_known_offsets(
// CHECK-NOT: arith.cmpi sge, %{{.*}}, %c0 : index
// CHECK: nvgpu.device_async_copy
// CHECK-NOT: arith.cmpi sge, %{{.*}}, %c0 : index
// CHECK: arith.subi %{{.*}}, %{{.*}} : index
// CHECK-NEXT: arith.cmpi sge, %{{.*}}, %c8 : index
// CHECK-NOT: arith.cmpi sge, %{{.*}}, %c0 : index
// CHECK: gpu.return
tile.kernel @async_known_offsets(%A: !tile.buffer<?x?xf16, global>) grid(%bx) = [ceildiv(%A[0], 64)] threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %row = arith.muli %bx, %c64 : index
  %K = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %n = arith.ceildivui %K, %c64 : index
  %s = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  scf.for %kt = %c0 to %n step %c1 {
    %k = arith.muli %kt, %c64 : index
    tile.copy async %A[%row, %k] to %s : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.async_commit
    tile.async_wait 0
    tile.copy %s to %A[%row, %k] : !tile.buffer<64x64xf16, shared> to !tile.buffer<?x?xf16, global>
  }
}

// -----

// A loop counter is at least its lower bound and below its upper bound,
// whatever the sign of the upper bound's other parts (min(n, %x) < n): no
// test. A row reversed from the grid's end, (ceildiv(N, 64) - 1 - bx) * 64,
// is non-negative only because of the grid (bx < ceildiv(N, 64)), which the
// lowering does not know: one test.
// CHECK-LABEL: gpu.func @async_loop_and_reversed(
// CHECK: scf.for
// CHECK-NOT: arith.cmpi sge, %{{.*}}, %c0 : index
// CHECK: nvgpu.device_async_copy
// CHECK: %[[REV:.*]] = arith.muli %{{.*}}, %c64 : index
// CHECK-NEXT: %[[OK:.*]] = arith.cmpi sge, %[[REV]], %c0 : index
// CHECK-NEXT: scf.if %[[OK]] {
// CHECK: nvgpu.device_async_copy
tile.kernel @async_loop_and_reversed(%A: !tile.buffer<?x64xf16, global>, %x: i64) grid(%bx) = [ceildiv(%A[0], 64)] threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %N = tile.dim %A[0] : !tile.buffer<?x64xf16, global>
  %blocks = arith.ceildivui %N, %c64 : index
  %xi = arith.index_cast %x : i64 to index
  %upper = arith.minsi %blocks, %xi : index
  %s = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  scf.for %i = %c0 to %upper step %c1 {
    %row = arith.muli %i, %c64 : index
    tile.copy async %A[%row, %c0] to %s : !tile.buffer<?x64xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.async_commit
    tile.async_wait 0
    tile.copy %s to %A[%row, %c0] : !tile.buffer<64x64xf16, shared> to !tile.buffer<?x64xf16, global>
  }
  %last = arith.subi %blocks, %c1 : index
  %rev = arith.subi %last, %bx : index
  %r = arith.muli %rev, %c64 : index
  tile.copy async %A[%r, %c0] to %s : !tile.buffer<?x64xf16, global> to !tile.buffer<64x64xf16, shared>
  tile.async_commit
  tile.async_wait 0
  tile.copy %s to %A[%c0, %c0] : !tile.buffer<64x64xf16, shared> to !tile.buffer<?x64xf16, global>
}
