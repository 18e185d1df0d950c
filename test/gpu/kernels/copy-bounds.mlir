// Hand-written kernels of the GPU test CopyBoundsGpu (CopyBoundsGpuTest.cpp):
// tile copies at offsets of any sign. A[off + j] -> tile -> B[j] must read 0
// where the tile lies before or past A, and tile -> C[off + j] must write
// nothing before or past C. Compiled at build time into test-kernels/ by
// tile-translate (test/gpu/CMakeLists.txt).
//
// RUN: tile-translate %s --emit=ptx | FileCheck %s
// CHECK-DAG: .entry sync1d(
// CHECK-DAG: .entry sync2d(
// CHECK-DAG: .entry async2d(
// CHECK-DAG: cp.async
tile.kernel @sync1d(%A: !tile.buffer<?xf32, global>, %B: !tile.buffer<?xf32, global>, %C: !tile.buffer<?xf32, global>, %off: i64) grid(%bx) = [1] threads(128) {
  %c0 = arith.constant 0 : index
  %o = arith.index_cast %off : i64 to index
  %a = tile.alloc_fragment : !tile.buffer<512xf32, fragment>
  tile.copy %A[%o] to %a : !tile.buffer<?xf32, global> to !tile.buffer<512xf32, fragment>
  tile.copy %a to %B[%c0] : !tile.buffer<512xf32, fragment> to !tile.buffer<?xf32, global>
  tile.copy %a to %C[%o] : !tile.buffer<512xf32, fragment> to !tile.buffer<?xf32, global>
}
tile.kernel @sync2d(%A: !tile.buffer<?x?xf32, global>, %B: !tile.buffer<?x?xf32, global>, %C: !tile.buffer<?x?xf32, global>, %r: i64, %c: i64) grid(%bx) = [1] threads(128) {
  %c0 = arith.constant 0 : index
  %ri = arith.index_cast %r : i64 to index
  %ci = arith.index_cast %c : i64 to index
  %a = tile.alloc_fragment : !tile.buffer<16x64xf32, fragment>
  tile.copy %A[%ri, %ci] to %a : !tile.buffer<?x?xf32, global> to !tile.buffer<16x64xf32, fragment>
  tile.copy %a to %B[%c0, %c0] : !tile.buffer<16x64xf32, fragment> to !tile.buffer<?x?xf32, global>
  tile.copy %a to %C[%ri, %ci] : !tile.buffer<16x64xf32, fragment> to !tile.buffer<?x?xf32, global>
}
tile.kernel @async2d(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %r: i64, %c: i64) grid(%bx) = [1] threads(128) {
  %c0 = arith.constant 0 : index
  %ri = arith.index_cast %r : i64 to index
  %ci = arith.index_cast %c : i64 to index
  %s = tile.alloc_shared : !tile.buffer<32x64xf16, shared>
  tile.copy async %A[%ri, %ci] to %s : !tile.buffer<?x?xf16, global> to !tile.buffer<32x64xf16, shared>
  tile.async_commit
  tile.async_wait 0
  tile.copy %s to %B[%c0, %c0] : !tile.buffer<32x64xf16, shared> to !tile.buffer<?x?xf16, global>
}
