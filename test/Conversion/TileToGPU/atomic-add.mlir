// tile.atomic_add (MemoryToGPU.cpp, AccessEmitters.cpp): one memref.atomic_rmw
// addf per element of the thread's chunks, each under its bounds test (no
// vector fast path: every element is its own atomic), the source converted
// to f32 first; the manifest marks a buffer that only atomic adds touch as
// "accumulate" (zero-filled by the runtime), and one that is also read or
// written as "readwrite" (the adds go into what it holds). Through the
// whole pipeline each add is a relaxed atom.global.add.f32, with no fence.
//
// RUN: tile-opt %s -split-input-file --tile-assign-layouts --tile-plan-shared-memory --tile-insert-barriers --convert-tile-to-gpu | FileCheck %s
// RUN: tile-translate %s --emit=ptx --chip=sm_90 | FileCheck %s --check-prefix=PTX

// CHECK-LABEL: name = "split_sum"
// CHECK-SAME: #tile.buffer_param<name = "A", dtype = f32, shape = [?, ?], access = read>
// CHECK-SAME: #tile.buffer_param<name = "C", dtype = f32, shape = [?, ?], access = accumulate>
// CHECK-LABEL: gpu.func @split_sum(
// CHECK: scf.if %{{[0-9]+}} {
// CHECK-NEXT: vector.extract %{{.*}}[0] : f32 from vector<4xf32>
// CHECK-NEXT: memref.atomic_rmw addf %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : (f32, memref<?x?xf32, strided<[?, 1]>, #gpu.address_space<global>>) -> f32
// CHECK-NEXT: }
// CHECK-NOT: vector.store
// CHECK: gpu.return
//
// PTX-LABEL: .entry split_sum(
// PTX-NOT: membar
// PTX-NOT: fence
// PTX: atom.global.add.f32
// PTX: ret;
tile.kernel @split_sum(%A: !tile.buffer<?x?xf32, global>, %C: !tile.buffer<?x?xf32, global>)
    grid(%bx, %by) = [ceildiv(%A[0], 64), 4] threads(128) {
  %c64 = arith.constant 64 : index
  %c0 = arith.constant 0 : index
  %row = arith.muli %bx, %c64 : index
  %col = arith.muli %by, %c64 : index
  %f = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  tile.copy %A[%row, %col] to %f : !tile.buffer<?x?xf32, global> to !tile.buffer<64x64xf32, fragment>
  tile.atomic_add %f to %C[%row, %c0] : !tile.buffer<64x64xf32, fragment> to !tile.buffer<?x?xf32, global>
}

// -----

// An f16 fragment is widened before the add; D is also copied from, so its
// access is readwrite.
// CHECK-LABEL: name = "add_into"
// CHECK-SAME: #tile.buffer_param<name = "D", dtype = f32, shape = [?], access = readwrite>
// CHECK-LABEL: gpu.func @add_into(
// CHECK: arith.extf %{{.*}} : vector<{{[0-9]+}}xf16> to vector<{{[0-9]+}}xf32>
// CHECK: memref.atomic_rmw addf
//
// PTX-LABEL: .entry add_into(
// PTX: cvt.f32.f16
// PTX: atom.global.add.f32
tile.kernel @add_into(%H: !tile.buffer<?xf16, global>, %D: !tile.buffer<?xf32, global>)
    grid(%bx) = [ceildiv(%H[0], 256)] threads(128) {
  %c256 = arith.constant 256 : index
  %offset = arith.muli %bx, %c256 : index
  %h = tile.alloc_fragment : !tile.buffer<256xf16, fragment>
  %d = tile.alloc_fragment : !tile.buffer<256xf32, fragment>
  tile.copy %H[%offset] to %h : !tile.buffer<?xf16, global> to !tile.buffer<256xf16, fragment>
  tile.copy %D[%offset] to %d : !tile.buffer<?xf32, global> to !tile.buffer<256xf32, fragment>
  tile.atomic_add %h to %D[%offset] : !tile.buffer<256xf16, fragment> to !tile.buffer<?xf32, global>
}
