// tile.print lowering: gpu.printf behind a guard on the chosen block and
// thread (or warp); a shared tile through two runtime loops after a
// barrier (swizzled reads where the tile is swizzled), a fragment through
// the elements each thread holds in its layout; vprintf in the PTX.

// RUN: tile-opt %s --tile-to-gpu | FileCheck %s
// RUN: tile-translate %s --emit=ptx | FileCheck %s --check-prefix=PTX

// CHECK-LABEL: gpu.func @show(
// CHECK-DAG: %[[TID:.*]] = gpu.thread_id x
// The scalar: thread 0 of block (0, 0, 0).
// CHECK: arith.cmpi eq, %[[TID]], %c0
// CHECK: arith.cmpi eq, %block_id_x, %c0
// CHECK: arith.cmpi eq, %block_id_y, %c0
// CHECK: arith.cmpi eq, %block_id_z, %c0
// CHECK: scf.if
// CHECK-NEXT: gpu.printf "x = %g\0A", %{{.*}} : f32
// A label is text, not format: its '%' are escaped (device printf would
// read arguments nobody passed for "%s" and write through one for "%n").
// CHECK: gpu.printf "100%% %%s%%n = %g\0A", %{{.*}} : f32
// The index: warp 1 (thread id / 32) of block (1, 0, 0), as i64.
// CHECK: arith.divui %[[TID]], %c32
// CHECK: arith.cmpi eq, %block_id_x, %c1
// CHECK: scf.if
// CHECK: arith.index_cast %{{.*}} : index to i64
// CHECK-NEXT: gpu.printf "bx = %lld\0A"
// The shared tile: a barrier for every thread, then thread 5 loops over
// rows and columns (f16 printed as f32).
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK: scf.for
// CHECK: scf.for
// CHECK: memref.load %{{.*}} : memref<16x64xf16, #gpu.address_space<workgroup>>
// CHECK: arith.extf
// CHECK: gpu.printf "s[%lld][%lld] = %g\0A"
// The fragment: 16x64 elements on 128 threads, 8 per thread, each printed
// with its coordinates by the lanes of warp 0.
// CHECK: scf.if
// CHECK-COUNT-8: gpu.printf "f[%lld][%lld] = %g (thread %lld)\0A"
// CHECK-NOT: gpu.printf
// CHECK: gpu.return

// PTX: .extern .func {{.*}}vprintf
// The format "100%% %%s%%n = %g\n", as bytes:
// PTX: printfFormat_1[19] = {49, 48, 48, 37, 37, 32, 37, 37, 115, 37, 37, 110, 32, 61, 32, 37, 103, 10};
// PTX-COUNT-12: call.uni{{.*}}vprintf

tile.kernel @show(%A: !tile.buffer<?x64xf16, global>, %x: f32)
    grid(%bx) = [ceildiv(%A[0], 64)] threads(128) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : !tile.buffer<16x64xf16, shared>
  %f = tile.alloc_fragment : !tile.buffer<16x64xf32, fragment>
  tile.copy %A[%c0, %c0] to %s : !tile.buffer<?x64xf16, global> to !tile.buffer<16x64xf16, shared>
  tile.parallel (%i, %j) in [16, 64] {
    %v = tile.load %s[%i, %j] : !tile.buffer<16x64xf16, shared>
    %w = arith.extf %v : f16 to f32
    tile.store %w, %f[%i, %j] : !tile.buffer<16x64xf32, fragment>
  }
  tile.print "x" %x thread(0) : f32
  tile.print "100% %s%n" %x thread(1) : f32
  tile.print "bx" %bx warp(1) block [1, 0, 0] : index
  tile.print "s" %s thread(5) : !tile.buffer<16x64xf16, shared>
  tile.print "f" %f warp(0) : !tile.buffer<16x64xf32, fragment>
}
