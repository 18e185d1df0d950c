// -tile-assign-layouts: every fragment without a layout gets the widest
// #tile.row_major<vec> of at most 16 bytes (of the narrowest type it is
// copied with) that divides its last dimension and, times the kernel's
// threads, its element count; existing layouts stay.
//
// RUN: tile-opt %s -tile-assign-layouts | FileCheck %s
// Running it twice changes nothing:
// RUN: tile-opt %s -tile-assign-layouts -tile-assign-layouts | FileCheck %s

// 16 bytes of f32 = 4 elements; 1024 = 4 x 256: vec 4. The uses follow.
// CHECK-LABEL: tile.kernel @f32_vec4(
// CHECK: %[[A:.*]] = tile.alloc_fragment : !tile.buffer<1024xf32, fragment, #tile.row_major<vec = 4>>
// CHECK: tile.copy %A[%{{.*}}] to %[[A]] : !tile.buffer<?xf32, global> to !tile.buffer<1024xf32, fragment, #tile.row_major<vec = 4>>
// CHECK: tile.load %[[A]][%{{.*}}] : !tile.buffer<1024xf32, fragment, #tile.row_major<vec = 4>>
// CHECK: tile.store %{{.*}}, %[[A]][%{{.*}}] : !tile.buffer<1024xf32, fragment, #tile.row_major<vec = 4>>
// CHECK: tile.copy %[[A]] to %A[%{{.*}}] : !tile.buffer<1024xf32, fragment, #tile.row_major<vec = 4>> to !tile.buffer<?xf32, global>
tile.kernel @f32_vec4(%A: !tile.buffer<?xf32, global>)
    grid(%bx) = [ceildiv(%A[0], 1024)] threads(256) {
  %c1024 = arith.constant 1024 : index
  %offset = arith.muli %bx, %c1024 : index
  %a = tile.alloc_fragment : !tile.buffer<1024xf32, fragment>
  tile.copy %A[%offset] to %a : !tile.buffer<?xf32, global> to !tile.buffer<1024xf32, fragment>
  tile.parallel (%i) in [1024] {
    %x = tile.load %a[%i] : !tile.buffer<1024xf32, fragment>
    %y = arith.addf %x, %x : f32
    tile.store %y, %a[%i] : !tile.buffer<1024xf32, fragment>
  }
  tile.copy %a to %A[%offset] : !tile.buffer<1024xf32, fragment> to !tile.buffer<?xf32, global>
}

// An f32 fragment copied from f16 takes 16 bytes of f16 = 8 elements, and so
// does the fragment it is used with; one only copied from f32 keeps 4.
// CHECK-LABEL: tile.kernel @narrow_partner(
// CHECK: tile.alloc_fragment : !tile.buffer<4x1024xf32, fragment, #tile.row_major<vec = 8>>
// CHECK: tile.alloc_fragment : !tile.buffer<4x1024xf32, fragment, #tile.row_major<vec = 8>>
// CHECK: tile.alloc_fragment : !tile.buffer<4x1024xf32, fragment, #tile.row_major<vec = 4>>
tile.kernel @narrow_partner(%X: !tile.buffer<?x?xf16, global>, %Y: !tile.buffer<?x?xf32, global>)
    grid(%bx) = [1] threads(128) {
  %c0 = arith.constant 0 : index
  %x = tile.alloc_fragment : !tile.buffer<4x1024xf32, fragment>
  %y = tile.alloc_fragment : !tile.buffer<4x1024xf32, fragment>
  %z = tile.alloc_fragment : !tile.buffer<4x1024xf32, fragment>
  tile.copy %X[%c0, %c0] to %x : !tile.buffer<?x?xf16, global> to !tile.buffer<4x1024xf32, fragment>
  tile.parallel (%i, %j) in [4, 1024] {
    %v = tile.load %x[%i, %j] : !tile.buffer<4x1024xf32, fragment>
    tile.store %v, %y[%i, %j] : !tile.buffer<4x1024xf32, fragment>
  }
  tile.copy %y to %Y[%c0, %c0] : !tile.buffer<4x1024xf32, fragment> to !tile.buffer<?x?xf32, global>
  tile.copy %Y[%c0, %c0] to %z : !tile.buffer<?x?xf32, global> to !tile.buffer<4x1024xf32, fragment>
}

// 16 bytes of f16 = 8 elements, of f64 = 2, of i8 = 16.
// CHECK-LABEL: tile.kernel @element_widths(
// CHECK: tile.alloc_fragment : !tile.buffer<1024xf16, fragment, #tile.row_major<vec = 8>>
// CHECK: tile.alloc_fragment : !tile.buffer<32x64xbf16, fragment, #tile.row_major<vec = 8>>
// CHECK: tile.alloc_fragment : !tile.buffer<1024xf64, fragment, #tile.row_major<vec = 2>>
// CHECK: tile.alloc_fragment : !tile.buffer<4096xi8, fragment, #tile.row_major<vec = 16>>
tile.kernel @element_widths() grid(%bx) = [1] threads(128) {
  %a = tile.alloc_fragment : !tile.buffer<1024xf16, fragment>
  %b = tile.alloc_fragment : !tile.buffer<32x64xbf16, fragment>
  %c = tile.alloc_fragment : !tile.buffer<1024xf64, fragment>
  %d = tile.alloc_fragment : !tile.buffer<4096xi8, fragment>
}

// The vector must divide the last dimension: 6 -> 2 (f32) and 2 (f16);
// 12 -> 4 (f16); an odd last dimension -> 1.
// CHECK-LABEL: tile.kernel @last_dim(
// CHECK: tile.alloc_fragment : !tile.buffer<64x6xf32, fragment, #tile.row_major<vec = 2>>
// CHECK: tile.alloc_fragment : !tile.buffer<64x6xf16, fragment, #tile.row_major<vec = 2>>
// CHECK: tile.alloc_fragment : !tile.buffer<2x32x12xf16, fragment, #tile.row_major<vec = 4>>
// CHECK: tile.alloc_fragment : !tile.buffer<128x3xf32, fragment, #tile.row_major<vec = 1>>
tile.kernel @last_dim() grid(%bx) = [1] threads(64) {
  %a = tile.alloc_fragment : !tile.buffer<64x6xf32, fragment>
  %b = tile.alloc_fragment : !tile.buffer<64x6xf16, fragment>
  %c = tile.alloc_fragment : !tile.buffer<2x32x12xf16, fragment>
  %d = tile.alloc_fragment : !tile.buffer<128x3xf32, fragment>
}

// A fragment too small for vec x threads gets a narrower vector: 256 f32
// over 128 threads is 2 per thread; 128 over 128 is 1; 512 f16 is 4.
// CHECK-LABEL: tile.kernel @small_fragments(
// CHECK: tile.alloc_fragment : !tile.buffer<256xf32, fragment, #tile.row_major<vec = 2>>
// CHECK: tile.alloc_fragment : !tile.buffer<128xf32, fragment, #tile.row_major<vec = 1>>
// CHECK: tile.alloc_fragment : !tile.buffer<16x32xf16, fragment, #tile.row_major<vec = 4>>
tile.kernel @small_fragments() grid(%bx) = [1] threads(128) {
  %a = tile.alloc_fragment : !tile.buffer<256xf32, fragment>
  %b = tile.alloc_fragment : !tile.buffer<128xf32, fragment>
  %c = tile.alloc_fragment : !tile.buffer<16x32xf16, fragment>
}

// The same shape gets different vectors under different thread counts.
// CHECK-LABEL: tile.kernel @threads_1024(
// CHECK: tile.alloc_fragment : !tile.buffer<2048xf32, fragment, #tile.row_major<vec = 2>>
tile.kernel @threads_1024() grid(%bx) = [1] threads(1024) {
  %a = tile.alloc_fragment : !tile.buffer<2048xf32, fragment>
}

// Existing layouts are kept, even when a wider one would fit; shared tiles
// and global buffers get none.
// CHECK-LABEL: tile.kernel @existing_layouts(
// CHECK-SAME: %A: !tile.buffer<?xf32, global>)
// CHECK: tile.alloc_fragment : !tile.buffer<1024xf32, fragment, #tile.row_major<vec = 1>>
// CHECK: tile.alloc_fragment : !tile.buffer<1024xf32, fragment, #tile.row_major<vec = 2>>
// CHECK: tile.alloc_fragment : !tile.buffer<1024xf32, fragment, #tile.row_major<vec = 4>>
// CHECK: tile.alloc_shared : !tile.buffer<1024xf32, shared>{{$}}
tile.kernel @existing_layouts(%A: !tile.buffer<?xf32, global>)
    grid(%bx) = [1] threads(256) {
  %a = tile.alloc_fragment : !tile.buffer<1024xf32, fragment, #tile.row_major<vec = 1>>
  %b = tile.alloc_fragment : !tile.buffer<1024xf32, fragment, #tile.row_major<vec = 2>>
  %c = tile.alloc_fragment : !tile.buffer<1024xf32, fragment>
  %s = tile.alloc_shared : !tile.buffer<1024xf32, shared>
}

// Fragments used together share one layout: the f32 accumulator allows
// vec = 4 and the f16 output vec = 8, so both get 4; the copy and the
// parallel loop that convert between them then lower.

// CHECK-LABEL: tile.kernel @mixed_types
// CHECK: tile.alloc_fragment : !tile.buffer<2048xf32, fragment, #tile.row_major<vec = 4>>
// CHECK: tile.alloc_fragment : !tile.buffer<2048xf16, fragment, #tile.row_major<vec = 4>>
// CHECK: tile.alloc_fragment : !tile.buffer<2048xf16, fragment, #tile.row_major<vec = 4>>
// CHECK: tile.alloc_fragment : !tile.buffer<2048xf16, fragment, #tile.row_major<vec = 8>>
tile.kernel @mixed_types(%X: !tile.buffer<?xf16, global>) grid(%bx) = [4] threads(256) {
  %acc = tile.alloc_fragment : !tile.buffer<2048xf32, fragment>
  %out = tile.alloc_fragment : !tile.buffer<2048xf16, fragment>
  %copied = tile.alloc_fragment : !tile.buffer<2048xf16, fragment>
  %alone = tile.alloc_fragment : !tile.buffer<2048xf16, fragment>
  tile.clear %acc : !tile.buffer<2048xf32, fragment>
  tile.parallel (%i) in [2048] {
    %v = tile.load %acc[%i] : !tile.buffer<2048xf32, fragment>
    %h = arith.truncf %v : f32 to f16
    tile.store %h, %out[%i] : !tile.buffer<2048xf16, fragment>
  }
  tile.copy %acc to %copied : !tile.buffer<2048xf32, fragment> to !tile.buffer<2048xf16, fragment>
  tile.copy %alone to %X : !tile.buffer<2048xf16, fragment> to !tile.buffer<?xf16, global>
}

// P x V: the scores S = Q x K^T, cast to f16 (P), are the A operand of the
// next gemm in registers, so S, P and O take #tile.mma with one warp
// column (4 x 1 here, where S alone would get 2 x 2).
// CHECK-LABEL: tile.kernel @register_a(
// CHECK: %[[S:.*]] = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment, #tile.mma<warps = [4, 1]>>
// CHECK: %[[P:.*]] = tile.alloc_fragment : !tile.buffer<64x64xf16, fragment, #tile.mma<warps = [4, 1]>>
// CHECK: %[[O:.*]] = tile.alloc_fragment : !tile.buffer<64x128xf32, fragment, #tile.mma<warps = [4, 1]>>
tile.kernel @register_a(%X: !tile.buffer<?x?xf16, global>) grid(%bx) = [1] threads(128) {
  %q = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %k = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %v = tile.alloc_shared : !tile.buffer<64x128xf16, shared>
  %s = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  %p = tile.alloc_fragment : !tile.buffer<64x64xf16, fragment>
  %o = tile.alloc_fragment : !tile.buffer<64x128xf32, fragment>
  tile.gemm %q, %k, %s {clear_accum, transpose_b} : !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
  tile.parallel (%i, %j) in [64, 64] {
    %x = tile.load %s[%i, %j] : !tile.buffer<64x64xf32, fragment>
    %h = arith.truncf %x : f32 to f16
    tile.store %h, %p[%i, %j] : !tile.buffer<64x64xf16, fragment>
  }
  tile.gemm %p, %v, %o : !tile.buffer<64x64xf16, fragment>, !tile.buffer<64x128xf16, shared>, !tile.buffer<64x128xf32, fragment>
}

// Shared tiles that tile.gemm reads with ldmatrix take #tile.swizzle, and a
// shared tile the accumulator is staged in takes #tile.swizzle<staging>
// (the MMA layout's lanes would otherwise write rows 512 bytes apart into
// the same banks; the plain swizzle leaves two-way conflicts); a shared
// tile that neither feeds a gemm nor receives an accumulator keeps its
// plain layout.
// CHECK-LABEL: tile.kernel @swizzled(
// CHECK: %[[A:.*]] = tile.alloc_shared : !tile.buffer<64x32xf16, shared, #tile.swizzle>
// CHECK: %[[B:.*]] = tile.alloc_shared : !tile.buffer<32x128xf16, shared, #tile.swizzle>
// CHECK: %[[S:.*]] = tile.alloc_shared : !tile.buffer<64x128xf32, shared, #tile.swizzle<staging>>
// CHECK: %[[P:.*]] = tile.alloc_shared : !tile.buffer<64x128xf32, shared>
// CHECK: tile.copy %{{.*}} to %[[S]] : !tile.buffer<64x128xf32, fragment, #tile.mma<{{.*}}>> to !tile.buffer<64x128xf32, shared, #tile.swizzle<staging>>
tile.kernel @swizzled(%C: !tile.buffer<64x128xf32, global>) grid(%bx) = [1] threads(128) {
  %a = tile.alloc_shared : !tile.buffer<64x32xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<32x128xf16, shared>
  %staged = tile.alloc_shared : !tile.buffer<64x128xf32, shared>
  %plain = tile.alloc_shared : !tile.buffer<64x128xf32, shared>
  %acc = tile.alloc_fragment : !tile.buffer<64x128xf32, fragment>
  tile.gemm %a, %b, %acc {clear_accum} : !tile.buffer<64x32xf16, shared>, !tile.buffer<32x128xf16, shared>, !tile.buffer<64x128xf32, fragment>
  tile.copy %acc to %staged : !tile.buffer<64x128xf32, fragment> to !tile.buffer<64x128xf32, shared>
  tile.copy %staged to %plain : !tile.buffer<64x128xf32, shared> to !tile.buffer<64x128xf32, shared>
  tile.copy %plain to %C : !tile.buffer<64x128xf32, shared> to !tile.buffer<64x128xf32, global>
}
