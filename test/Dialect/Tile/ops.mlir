// Round trip of every tile op, type and attribute form through the custom and
// the generic assembly formats.
//
// RUN: tile-opt %s | tile-opt | FileCheck %s
// RUN: tile-opt %s --mlir-print-op-generic | tile-opt | FileCheck %s

//===----------------------------------------------------------------------===//
// tile.kernel: grids, extents, parameters, attributes
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tile.kernel @grid_1d_ceildiv(
// CHECK-SAME: %A: !tile.buffer<?xf32, global>, %alpha: f32, %n: i32)
// CHECK-SAME: grid(%bx) = [ceildiv(%A[0], 1024)] threads(256) {
// CHECK: %{{.*}} = tile.dim %A[0] : !tile.buffer<?xf32, global>
tile.kernel @grid_1d_ceildiv(%A: !tile.buffer<?xf32, global>, %alpha: f32,
                             %n: i32)
    grid(%bx) = [ceildiv(%A[0], 1024)] threads(256) {
  %size = tile.dim %A[0] : !tile.buffer<?xf32, global>
}

// A constant extent, and a grid of one block per element of a dimension.
// CHECK-LABEL: tile.kernel @grid_2d(
// CHECK-SAME: %A: !tile.buffer<?x?xf16, global>)
// CHECK-SAME: grid(%bx, %by) = [%A[1], 4] threads(32) {
tile.kernel @grid_2d(%A: !tile.buffer<?x?xf16, global>)
    grid(%x, %y) = [%A[1], 4] threads(32) {
}

// Divisibility promises on dynamic sizes, and raster_panel with them.
// CHECK-LABEL: tile.kernel @divisible(
// CHECK-SAME: grid(%bx, %by) = [ceildiv(%B[1], 128), ceildiv(%A[0], 128)] threads(128) divisible(%A[1] by 8, %B[1] by 16) attributes {raster_panel = 8 : i64} {
tile.kernel @divisible(%A: !tile.buffer<?x?xf16, global>,
                       %B: !tile.buffer<?x?xf16, global>)
    grid(%x, %y) = [ceildiv(%B[1], 128), ceildiv(%A[0], 128)] threads(128)
    divisible(%A[1] by 8, %B[1] by 16) attributes {raster_panel = 8} {
}

// A launch contract after the divisibility promises: sizes equal to other
// sizes, and bounds by constants.
// CHECK-LABEL: tile.kernel @contract(
// CHECK-SAME: threads(128) divisible(%A[1] by 8) requires(%A[1] == %B[0], %C[0] == %A[0], %C[1] == %B[1], %A[1] <= 4096, %B[1] >= 1, %C[0] <= %B[1], %C[1] >= %A[0]) attributes {raster_panel = 8 : i64} {
tile.kernel @contract(%A: !tile.buffer<?x?xf16, global>,
                      %B: !tile.buffer<?x?xf16, global>,
                      %C: !tile.buffer<?x?xf32, global>)
    grid(%x, %y) = [ceildiv(%B[1], 128), ceildiv(%A[0], 128)] threads(128)
    divisible(%A[1] by 8)
    requires(%A[1] == %B[0], %C[0] == %A[0], %C[1] == %B[1], %A[1] <= 4096,
             %B[1] >= 1, %C[0] <= %B[1], %C[1] >= %A[0])
    attributes {raster_panel = 8} {
}

// Grouped-query heads: K and V have as many heads, which divide Q's.
// CHECK-LABEL: tile.kernel @grouped_heads(
// CHECK-SAME: requires(%V[0] == %K[0], %K[0] divides %Q[0], %K[0] divides %Q[1]) {
tile.kernel @grouped_heads(%Q: !tile.buffer<?x?xf16, global>,
                           %K: !tile.buffer<?xf16, global>,
                           %V: !tile.buffer<?xf16, global>)
    grid(%bx) = [%Q[0]] threads(32)
    requires(%V[0] == %K[0], %K[0] divides %Q[0], %K[0] divides %Q[1]) {
}

// A contract without divisibility promises, on static sizes that meet it;
// kernel names are PTX identifiers ('$' and a leading '_' included).
// CHECK-LABEL: tile.kernel @_softmax$2(
// CHECK-SAME: grid(%bx) = [%X[0]] threads(256) requires(%Y[0] == %X[0], %Y[1] == %X[1], %X[1] <= 1024) {
tile.kernel @_softmax$2(%X: !tile.buffer<?x1024xf32, global>,
                        %Y: !tile.buffer<?x?xf32, global>)
    grid(%bx) = [%X[0]] threads(256)
    requires(%Y[0] == %X[0], %Y[1] == %X[1], %X[1] <= 1024) {
}

// Unnamed parameters get `argN` names; the block indices are bx, by, bz.
// CHECK-LABEL: tile.kernel @grid_3d(
// CHECK-SAME: %arg0: !tile.buffer<8x?x4x2xi8, global>, %B: !tile.buffer<?x?x?x?xbf16, global>)
// CHECK-SAME: grid(%bx, %by, %bz) = [ceildiv(%arg0[1], 3), 2, ceildiv(%B[3], 16)] threads(1024) {
// CHECK-NEXT: arith.addi %bx, %by : index
// CHECK-NEXT: arith.addi %{{.*}}, %bz : index
tile.kernel @grid_3d(%0: !tile.buffer<8x?x4x2xi8, global>,
                     %B: !tile.buffer<?x?x?x?xbf16, global>)
    grid(%i, %j, %k) = [ceildiv(%0[1], 3), 2, ceildiv(%B[3], 16)]
    threads(1024) {
  %ij = arith.addi %i, %j : index
  %ijk = arith.addi %ij, %k : index
}

// Every scalar parameter type, and a discardable attribute dictionary.
// CHECK-LABEL: tile.kernel @scalars(
// CHECK-SAME: %c: f32, %d: f64, %e: i32, %f: i64,
// CHECK-SAME: %G: !tile.buffer<16x32xf64, global>, %H: !tile.buffer<?x8x?xi64, global>, %I: !tile.buffer<4xi16, global>, %J: !tile.buffer<4xi32, global>)
// CHECK-SAME: grid(%bx) = [1] threads(64) attributes {tile.note = "hello", tile.version = 3 : i64} {
tile.kernel @scalars(%c: f32, %d: f64, %e: i32, %f: i64,
                     %G: !tile.buffer<16x32xf64, global>,
                     %H: !tile.buffer<?x8x?xi64, global>,
                     %I: !tile.buffer<4xi16, global>,
                     %J: !tile.buffer<4xi32, global>)
    grid(%bx) = [1] threads(64)
    attributes {tile.note = "hello", tile.version = 3 : i64} {
}

//===----------------------------------------------------------------------===//
// Allocations: every scope, rank 1 to 4, with and without layouts
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tile.kernel @allocs(
// CHECK: tile.alloc_shared : !tile.buffer<128xf16, shared>
// CHECK: tile.alloc_shared : !tile.buffer<128x32xbf16, shared>
// CHECK: tile.alloc_shared offset(8320) : !tile.buffer<2x4x8xi8, shared>
// CHECK: tile.alloc_shared {tile.tag} : !tile.buffer<2x2x4x8xf64, shared>
// CHECK: tile.alloc_shared : !tile.buffer<64x64xf16, shared, #tile.swizzle>
// CHECK: tile.alloc_shared : !tile.buffer<64x128xf32, shared, #tile.swizzle<staging>>
// CHECK: tile.alloc_fragment : !tile.buffer<1024xf32, fragment>
// CHECK: tile.alloc_fragment : !tile.buffer<64x64xf16, fragment, #tile.row_major<vec = 8>>
// CHECK: tile.alloc_fragment : !tile.buffer<2x8x16xi32, fragment, #tile.row_major<vec = 1>>
// CHECK: tile.alloc_fragment : !tile.buffer<2x4x16x16xi64, fragment, #tile.row_major<vec = 2>>
tile.kernel @allocs(%A: !tile.buffer<?xf32, global>)
    grid(%bx) = [1] threads(128) {
  %s1 = tile.alloc_shared : !tile.buffer<128xf16, shared>
  %s2 = tile.alloc_shared : !tile.buffer<128x32xbf16, shared>
  %s3 = tile.alloc_shared offset(8320) : !tile.buffer<2x4x8xi8, shared>
  %s4 = tile.alloc_shared {tile.tag} : !tile.buffer<2x2x4x8xf64, shared>
  %s5 = tile.alloc_shared : !tile.buffer<64x64xf16, shared, #tile.swizzle>
  %s6 = tile.alloc_shared : !tile.buffer<64x128xf32, shared, #tile.swizzle<staging>>
  %f1 = tile.alloc_fragment : !tile.buffer<1024xf32, fragment>
  %f2 = tile.alloc_fragment : !tile.buffer<64x64xf16, fragment, #tile.row_major<vec = 8>>
  %f3 = tile.alloc_fragment : !tile.buffer<2x8x16xi32, fragment, #tile.row_major<vec = 1>>
  %f4 = tile.alloc_fragment : !tile.buffer<2x4x16x16xi64, fragment, #tile.row_major<vec = 2>>
}

//===----------------------------------------------------------------------===//
// tile.copy in every legal scope combination
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tile.kernel @copies(
// CHECK-SAME: %A: !tile.buffer<?x?xf32, global>, %B: !tile.buffer<64x64xf32, global>, %C: !tile.buffer<?x?xf16, global>)
// CHECK: %[[S:.*]] = tile.alloc_shared : !tile.buffer<64x64xf32, shared>
// CHECK: %[[T:.*]] = tile.alloc_shared : !tile.buffer<64x64xf32, shared>
// CHECK: %[[F:.*]] = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment, #tile.row_major<vec = 4>>
// CHECK: %[[G:.*]] = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment, #tile.row_major<vec = 4>>
// CHECK: %[[H:.*]] = tile.alloc_fragment : !tile.buffer<64x64xf16, fragment, #tile.row_major<vec = 4>>
// CHECK: tile.copy %A[%[[R:.*]], %[[Q:.*]]] to %[[S]] : !tile.buffer<?x?xf32, global> to !tile.buffer<64x64xf32, shared>
// CHECK: tile.copy %B to %[[T]] : !tile.buffer<64x64xf32, global> to !tile.buffer<64x64xf32, shared>
// CHECK: tile.copy %A[%[[R]], %[[Q]]] to %[[F]] : !tile.buffer<?x?xf32, global> to !tile.buffer<64x64xf32, fragment, #tile.row_major<vec = 4>>
// CHECK: tile.copy %B to %[[G]] : !tile.buffer<64x64xf32, global> to !tile.buffer<64x64xf32, fragment, #tile.row_major<vec = 4>>
// CHECK: tile.copy %[[S]] to %[[T]] : !tile.buffer<64x64xf32, shared> to !tile.buffer<64x64xf32, shared>
// CHECK: tile.copy %[[S]] to %[[F]] : !tile.buffer<64x64xf32, shared> to !tile.buffer<64x64xf32, fragment, #tile.row_major<vec = 4>>
// CHECK: tile.copy %[[F]] to %[[S]] : !tile.buffer<64x64xf32, fragment, #tile.row_major<vec = 4>> to !tile.buffer<64x64xf32, shared>
// CHECK: tile.copy %[[F]] to %[[G]] : !tile.buffer<64x64xf32, fragment, #tile.row_major<vec = 4>> to !tile.buffer<64x64xf32, fragment, #tile.row_major<vec = 4>>
// CHECK: tile.copy %[[S]] to %A[%[[Q]], %[[R]]] : !tile.buffer<64x64xf32, shared> to !tile.buffer<?x?xf32, global>
// CHECK: tile.copy %[[G]] to %B : !tile.buffer<64x64xf32, fragment, #tile.row_major<vec = 4>> to !tile.buffer<64x64xf32, global>
// CHECK: tile.copy %[[T]] to %B : !tile.buffer<64x64xf32, shared> to !tile.buffer<64x64xf32, global>
// CHECK: tile.copy %[[F]] to %[[H]] : !tile.buffer<64x64xf32, fragment, #tile.row_major<vec = 4>> to !tile.buffer<64x64xf16, fragment, #tile.row_major<vec = 4>>
// CHECK: tile.copy %A[%[[R]], %[[Q]]] to %[[H]] {tile.tag} : !tile.buffer<?x?xf32, global> to !tile.buffer<64x64xf16, fragment, #tile.row_major<vec = 4>>
// CHECK: tile.copy %[[H]] to %C[%[[R]], %[[Q]]] : !tile.buffer<64x64xf16, fragment, #tile.row_major<vec = 4>> to !tile.buffer<?x?xf16, global>
// CHECK: tile.copy %[[H]] to %A[%[[R]], %[[Q]]] : !tile.buffer<64x64xf16, fragment, #tile.row_major<vec = 4>> to !tile.buffer<?x?xf32, global>
tile.kernel @copies(%A: !tile.buffer<?x?xf32, global>,
                    %B: !tile.buffer<64x64xf32, global>,
                    %C: !tile.buffer<?x?xf16, global>)
    grid(%bx, %by) = [ceildiv(%A[0], 64), ceildiv(%A[1], 64)] threads(128) {
  %c64 = arith.constant 64 : index
  %row = arith.muli %bx, %c64 : index
  %col = arith.muli %by, %c64 : index
  %s = tile.alloc_shared : !tile.buffer<64x64xf32, shared>
  %t = tile.alloc_shared : !tile.buffer<64x64xf32, shared>
  %f = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment, #tile.row_major<vec = 4>>
  %g = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment, #tile.row_major<vec = 4>>
  %h = tile.alloc_fragment : !tile.buffer<64x64xf16, fragment, #tile.row_major<vec = 4>>
  // global -> shared, with and without offsets
  tile.copy %A[%row, %col] to %s : !tile.buffer<?x?xf32, global> to !tile.buffer<64x64xf32, shared>
  tile.copy %B to %t : !tile.buffer<64x64xf32, global> to !tile.buffer<64x64xf32, shared>
  // global -> fragment, with and without offsets
  tile.copy %A[%row, %col] to %f : !tile.buffer<?x?xf32, global> to !tile.buffer<64x64xf32, fragment, #tile.row_major<vec = 4>>
  tile.copy %B to %g : !tile.buffer<64x64xf32, global> to !tile.buffer<64x64xf32, fragment, #tile.row_major<vec = 4>>
  // tile -> tile
  tile.copy %s to %t : !tile.buffer<64x64xf32, shared> to !tile.buffer<64x64xf32, shared>
  tile.copy %s to %f : !tile.buffer<64x64xf32, shared> to !tile.buffer<64x64xf32, fragment, #tile.row_major<vec = 4>>
  tile.copy %f to %s : !tile.buffer<64x64xf32, fragment, #tile.row_major<vec = 4>> to !tile.buffer<64x64xf32, shared>
  tile.copy %f to %g : !tile.buffer<64x64xf32, fragment, #tile.row_major<vec = 4>> to !tile.buffer<64x64xf32, fragment, #tile.row_major<vec = 4>>
  // tile -> global, with and without offsets
  tile.copy %s to %A[%col, %row] : !tile.buffer<64x64xf32, shared> to !tile.buffer<?x?xf32, global>
  tile.copy %g to %B : !tile.buffer<64x64xf32, fragment, #tile.row_major<vec = 4>> to !tile.buffer<64x64xf32, global>
  tile.copy %t to %B : !tile.buffer<64x64xf32, shared> to !tile.buffer<64x64xf32, global>
  // f32 -> f16 and f16 -> f32 conversions
  tile.copy %f to %h : !tile.buffer<64x64xf32, fragment, #tile.row_major<vec = 4>> to !tile.buffer<64x64xf16, fragment, #tile.row_major<vec = 4>>
  tile.copy %A[%row, %col] to %h {tile.tag} : !tile.buffer<?x?xf32, global> to !tile.buffer<64x64xf16, fragment, #tile.row_major<vec = 4>>
  tile.copy %h to %C[%row, %col] : !tile.buffer<64x64xf16, fragment, #tile.row_major<vec = 4>> to !tile.buffer<?x?xf16, global>
  tile.copy %h to %A[%row, %col] : !tile.buffer<64x64xf16, fragment, #tile.row_major<vec = 4>> to !tile.buffer<?x?xf32, global>
}

//===----------------------------------------------------------------------===//
// tile.atomic_add
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tile.kernel @atomic_add(
// CHECK: tile.atomic_add %[[ACC:.*]] to %C[%{{.*}}, %{{.*}}] : !tile.buffer<64x64xf32, fragment> to !tile.buffer<?x?xf32, global>
// CHECK: tile.atomic_add %[[H:.*]] to %D : !tile.buffer<256xf16, fragment> to !tile.buffer<?xf32, global>
tile.kernel @atomic_add(%C: !tile.buffer<?x?xf32, global>, %D: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(128) {
  %c0 = arith.constant 0 : index
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  %h = tile.alloc_fragment : !tile.buffer<256xf16, fragment>
  tile.atomic_add %acc to %C[%c0, %bx] : !tile.buffer<64x64xf32, fragment> to !tile.buffer<?x?xf32, global>
  tile.atomic_add %h to %D : !tile.buffer<256xf16, fragment> to !tile.buffer<?xf32, global>
}

//===----------------------------------------------------------------------===//
// tile.fill, tile.clear
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tile.kernel @fills(
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[S:.*]] = tile.alloc_shared : !tile.buffer<32x32xf32, shared>
// CHECK: %[[F:.*]] = tile.alloc_fragment : !tile.buffer<32x32xi8, fragment>
// CHECK: tile.fill %[[S]], %[[ZERO]] : !tile.buffer<32x32xf32, shared>
// CHECK: tile.fill %[[F]], %[[B:.*]] : !tile.buffer<32x32xi8, fragment>
// CHECK: tile.clear %[[S]] : !tile.buffer<32x32xf32, shared>
// CHECK: tile.clear %[[F]] {tile.tag} : !tile.buffer<32x32xi8, fragment>
tile.kernel @fills(%b: i32) grid(%bx) = [1] threads(32) {
  %zero = arith.constant 0.0 : f32
  %s = tile.alloc_shared : !tile.buffer<32x32xf32, shared>
  %f = tile.alloc_fragment : !tile.buffer<32x32xi8, fragment>
  %byte = arith.trunci %b : i32 to i8
  tile.fill %s, %zero : !tile.buffer<32x32xf32, shared>
  tile.fill %f, %byte : !tile.buffer<32x32xi8, fragment>
  tile.clear %s : !tile.buffer<32x32xf32, shared>
  tile.clear %f {tile.tag} : !tile.buffer<32x32xi8, fragment>
}

//===----------------------------------------------------------------------===//
// tile.parallel with 1 to 4 induction variables, tile.load, tile.store
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tile.kernel @parallels(
// CHECK: %[[S1:.*]] = tile.alloc_shared : !tile.buffer<256xf32, shared>
// CHECK: %[[F1:.*]] = tile.alloc_fragment : !tile.buffer<256xf32, fragment, #tile.row_major<vec = 2>>
// CHECK: %[[S2:.*]] = tile.alloc_shared : !tile.buffer<16x16xf16, shared>
// CHECK: %[[F2:.*]] = tile.alloc_fragment : !tile.buffer<16x16xf16, fragment>
// CHECK: %[[F3:.*]] = tile.alloc_fragment : !tile.buffer<4x8x8xi32, fragment>
// CHECK: %[[S4:.*]] = tile.alloc_shared : !tile.buffer<2x2x4x8xf32, shared>
//
// CHECK: tile.parallel (%[[I:.*]]) in [256] {
// CHECK-NEXT: %[[X:.*]] = tile.load %[[F1]][%[[I]]] : !tile.buffer<256xf32, fragment, #tile.row_major<vec = 2>>
// CHECK-NEXT: %[[Y:.*]] = arith.mulf %[[X]], %alpha : f32
// CHECK-NEXT: tile.store %[[Y]], %[[S1]][%[[I]]] : !tile.buffer<256xf32, shared>
// CHECK-NEXT: }
//
// CHECK: tile.parallel (%[[I:.*]], %[[J:.*]]) in [16, 16] attributes {tile.tag} {
// CHECK-NEXT: %[[X:.*]] = tile.load %[[S2]][%[[J]], %[[I]]] : !tile.buffer<16x16xf16, shared>
// CHECK-NEXT: tile.store %[[X]], %[[F2]][%[[I]], %[[J]]] : !tile.buffer<16x16xf16, fragment>
// CHECK-NEXT: }
//
// CHECK: tile.parallel (%[[I:.*]], %[[J:.*]], %[[K:.*]]) in [4, 8, 8] {
// CHECK-NEXT: %[[X:.*]] = tile.load %[[F3]][%[[I]], %[[J]], %[[K]]] : !tile.buffer<4x8x8xi32, fragment>
// CHECK-NEXT: %[[Y:.*]] = arith.addi %[[X]], %[[X]] : i32
// CHECK-NEXT: tile.store %[[Y]], %[[F3]][%[[I]], %[[J]], %[[K]]] : !tile.buffer<4x8x8xi32, fragment>
// CHECK-NEXT: }
//
// CHECK: tile.parallel (%[[I:.*]], %[[J:.*]], %[[K:.*]], %[[L:.*]]) in [2, 2, 4, 8] {
// CHECK-NEXT: %[[X:.*]] = tile.load %[[S4]][%[[I]], %[[J]], %[[K]], %[[L]]] : !tile.buffer<2x2x4x8xf32, shared>
// CHECK-NEXT: tile.store %[[X]], %[[S4]][%[[J]], %[[I]], %[[K]], %[[L]]] : !tile.buffer<2x2x4x8xf32, shared>
// CHECK-NEXT: }
//
// CHECK: tile.parallel (%[[I:.*]]) in [256] rolled attributes {tile.tag} {
// CHECK-NEXT: %[[X:.*]] = tile.load %[[S1]][%[[I]]] : !tile.buffer<256xf32, shared>
tile.kernel @parallels(%alpha: f32) grid(%bx) = [1] threads(64) {
  %s1 = tile.alloc_shared : !tile.buffer<256xf32, shared>
  %f1 = tile.alloc_fragment : !tile.buffer<256xf32, fragment, #tile.row_major<vec = 2>>
  %s2 = tile.alloc_shared : !tile.buffer<16x16xf16, shared>
  %f2 = tile.alloc_fragment : !tile.buffer<16x16xf16, fragment>
  %f3 = tile.alloc_fragment : !tile.buffer<4x8x8xi32, fragment>
  %s4 = tile.alloc_shared : !tile.buffer<2x2x4x8xf32, shared>
  tile.parallel (%i) in [256] {
    %x = tile.load %f1[%i] : !tile.buffer<256xf32, fragment, #tile.row_major<vec = 2>>
    %y = arith.mulf %x, %alpha : f32
    tile.store %y, %s1[%i] : !tile.buffer<256xf32, shared>
  }
  // Shared tiles may be indexed by any index; the explicit terminator is
  // elided when printed.
  tile.parallel (%i, %j) in [16, 16] attributes {tile.tag} {
    %x = tile.load %s2[%j, %i] : !tile.buffer<16x16xf16, shared>
    tile.store %x, %f2[%i, %j] : !tile.buffer<16x16xf16, fragment>
    tile.yield
  }
  tile.parallel (%i, %j, %k) in [4, 8, 8] {
    %x = tile.load %f3[%i, %j, %k] : !tile.buffer<4x8x8xi32, fragment>
    %y = arith.addi %x, %x : i32
    tile.store %y, %f3[%i, %j, %k] : !tile.buffer<4x8x8xi32, fragment>
  }
  tile.parallel (%i, %j, %k, %l) in [2, 2, 4, 8] {
    %x = tile.load %s4[%i, %j, %k, %l] : !tile.buffer<2x2x4x8xf32, shared>
    tile.store %x, %s4[%j, %i, %k, %l] : !tile.buffer<2x2x4x8xf32, shared>
  }
  // A loop over shared tiles only may be rolled.
  tile.parallel (%i) in [256] rolled attributes {tile.tag} {
    %x = tile.load %s1[%i] : !tile.buffer<256xf32, shared>
    %y = math.exp %x : f32
    tile.store %y, %s1[%i] : !tile.buffer<256xf32, shared>
  }
}

//===----------------------------------------------------------------------===//
// tile.dim
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tile.kernel @dims(
// CHECK: tile.dim %A[0] : !tile.buffer<?x8x?xf32, global>
// CHECK: tile.dim %A[2] : !tile.buffer<?x8x?xf32, global>
// CHECK: %[[S:.*]] = tile.alloc_shared : !tile.buffer<4x8xf32, shared>
// CHECK: tile.dim %[[S]][1] {tile.tag} : !tile.buffer<4x8xf32, shared>
tile.kernel @dims(%A: !tile.buffer<?x8x?xf32, global>)
    grid(%bx) = [ceildiv(%A[2], 32)] threads(32) {
  %d0 = tile.dim %A[0] : !tile.buffer<?x8x?xf32, global>
  %d2 = tile.dim %A[2] : !tile.buffer<?x8x?xf32, global>
  %s = tile.alloc_shared : !tile.buffer<4x8xf32, shared>
  %d = tile.dim %s[1] {tile.tag} : !tile.buffer<4x8xf32, shared>
}

// tile.subview: one head's S x D matrix of a B x H x S x D tensor.
// CHECK-LABEL: tile.kernel @subview(
// CHECK: %{{.*}} = tile.subview %Q[%{{.*}}, %{{.*}}] : !tile.buffer<?x?x?x64xf16, global> to !tile.buffer<?x64xf16, global>
tile.kernel @subview(%Q: !tile.buffer<?x?x?x64xf16, global>) grid(%bx, %by) = [%Q[1], %Q[0]] threads(128) {
  %q = tile.subview %Q[%by, %bx] : !tile.buffer<?x?x?x64xf16, global> to !tile.buffer<?x64xf16, global>
  %s = tile.dim %q[0] : !tile.buffer<?x64xf16, global>
}

// tile.gemm with both operands transposed (A stored K x M, B stored N x K).
// CHECK-LABEL: tile.kernel @gemm_tt(
// CHECK: tile.gemm %{{.*}}, %{{.*}}, %{{.*}} {transpose_a, transpose_b} : !tile.buffer<32x64xf16, shared>, !tile.buffer<128x32xf16, shared>, !tile.buffer<64x128xf32, fragment>
tile.kernel @gemm_tt(%A: !tile.buffer<?x?xf16, global>) grid(%bx) = [1] threads(128) {
  %a = tile.alloc_shared : !tile.buffer<32x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<128x32xf16, shared>
  %c = tile.alloc_fragment : !tile.buffer<64x128xf32, fragment>
  tile.gemm %a, %b, %c {transpose_a, transpose_b} : !tile.buffer<32x64xf16, shared>, !tile.buffer<128x32xf16, shared>, !tile.buffer<64x128xf32, fragment>
}

// tile.gemm with A in registers: a fragment in the accumulator's layout of
// one warp column (P x V in attention).
// CHECK-LABEL: tile.kernel @gemm_register_a(
// CHECK: tile.gemm %{{.*}}, %{{.*}}, %{{.*}} : !tile.buffer<64x32xf16, fragment, #tile.mma<warps = [4, 1]>>, !tile.buffer<32x64xf16, shared>, !tile.buffer<64x64xf32, fragment, #tile.mma<warps = [4, 1]>>
tile.kernel @gemm_register_a(%A: !tile.buffer<?x?xf16, global>) grid(%bx) = [1] threads(128) {
  %p = tile.alloc_fragment : !tile.buffer<64x32xf16, fragment, #tile.mma<warps = [4, 1]>>
  %v = tile.alloc_shared : !tile.buffer<32x64xf16, shared>
  %o = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment, #tile.mma<warps = [4, 1]>>
  tile.gemm %p, %v, %o : !tile.buffer<64x32xf16, fragment, #tile.mma<warps = [4, 1]>>, !tile.buffer<32x64xf16, shared>, !tile.buffer<64x64xf32, fragment, #tile.mma<warps = [4, 1]>>
}

// The prefetching forms tile-pipeline writes: the first K step's operands
// loaded ahead, and a gemm that waits for and prefetches the next stage.
// CHECK-LABEL: tile.kernel @gemm_prefetching(
// CHECK: tile.gemm_prefetch %[[A0:.*]], %[[B0:.*]], %[[C:.*]] : !tile.buffer<64x32xf16, shared>, !tile.buffer<32x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
// CHECK: tile.gemm %[[A0]], %[[B0]], %[[C]] prefetched then wait 1 prefetch %[[A1:.*]], %[[B1:.*]] : !tile.buffer<64x32xf16, shared>
// CHECK: tile.gemm %[[A1]], %[[B1]], %[[C]] prefetched {clear_accum} :
tile.kernel @gemm_prefetching(%A: !tile.buffer<?x?xf16, global>) grid(%bx) = [1] threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %as = tile.alloc_shared : !tile.buffer<2x64x32xf16, shared>
  %bs = tile.alloc_shared : !tile.buffer<2x32x64xf16, shared>
  %a0 = tile.stage %as[%c0] : !tile.buffer<2x64x32xf16, shared> -> !tile.buffer<64x32xf16, shared>
  %b0 = tile.stage %bs[%c0] : !tile.buffer<2x32x64xf16, shared> -> !tile.buffer<32x64xf16, shared>
  %a1 = tile.stage %as[%c1] : !tile.buffer<2x64x32xf16, shared> -> !tile.buffer<64x32xf16, shared>
  %b1 = tile.stage %bs[%c1] : !tile.buffer<2x32x64xf16, shared> -> !tile.buffer<32x64xf16, shared>
  %c = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  tile.gemm_prefetch %a0, %b0, %c : !tile.buffer<64x32xf16, shared>, !tile.buffer<32x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
  tile.gemm %a0, %b0, %c prefetched then wait 1 prefetch %a1, %b1 : !tile.buffer<64x32xf16, shared>, !tile.buffer<32x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
  tile.gemm %a1, %b1, %c prefetched {clear_accum} : !tile.buffer<64x32xf16, shared>, !tile.buffer<32x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
}

// tile.reduce and the #tile.slice layout of its result.
// CHECK-LABEL: tile.kernel @reductions(
// CHECK: tile.reduce max %[[X:.*]] into %[[M:.*]] dim(1) : !tile.buffer<4x256xf32, fragment, #tile.row_major<vec = 4>>, !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 256, parent = #tile.row_major<vec = 4>>>
// CHECK: tile.reduce sum %[[X]] into %[[M]] dim(1) accumulate :
// CHECK: tile.reduce min %[[X]] into %[[M]] dim(1) :
tile.kernel @reductions(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(256) {
  %x = tile.alloc_fragment : !tile.buffer<4x256xf32, fragment, #tile.row_major<vec = 4>>
  %m = tile.alloc_fragment : !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 256, parent = #tile.row_major<vec = 4>>>
  tile.reduce max %x into %m dim(1) : !tile.buffer<4x256xf32, fragment, #tile.row_major<vec = 4>>, !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 256, parent = #tile.row_major<vec = 4>>>
  tile.reduce sum %x into %m dim(1) accumulate : !tile.buffer<4x256xf32, fragment, #tile.row_major<vec = 4>>, !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 256, parent = #tile.row_major<vec = 4>>>
  tile.reduce min %x into %m dim(1) : !tile.buffer<4x256xf32, fragment, #tile.row_major<vec = 4>>, !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 256, parent = #tile.row_major<vec = 4>>>
}

// tile.thread_reduce: each thread's own elements, no communication.
// CHECK-LABEL: tile.kernel @thread_reductions(
// CHECK: tile.thread_reduce min %{{.*}} : !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 256, parent = #tile.row_major<vec = 4>>> -> f32
// CHECK: tile.thread_reduce sum %{{.*}} : !tile.buffer<4x256xf32, fragment> -> f32
tile.kernel @thread_reductions(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(256) {
  %m = tile.alloc_fragment : !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 256, parent = #tile.row_major<vec = 4>>>
  %x = tile.alloc_fragment : !tile.buffer<4x256xf32, fragment>
  %smallest = tile.thread_reduce min %m : !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 256, parent = #tile.row_major<vec = 4>>> -> f32
  %total = tile.thread_reduce sum %x : !tile.buffer<4x256xf32, fragment> -> f32
}

// Device printing: a scalar from a thread, a shared tile from a thread, a
// fragment from a warp of a chosen block.
// CHECK-LABEL: tile.kernel @printing(
// CHECK: tile.print "x" %{{.*}} thread(3) : f32
// CHECK: tile.print "s" %{{.*}} thread(0) : !tile.buffer<8x8xf16, shared>
// CHECK: tile.print "f" %{{.*}} warp(1) block [2, 0, 1] : !tile.buffer<64xf32, fragment>
tile.kernel @printing(%x: f32) grid(%bx) = [4] threads(64) {
  %s = tile.alloc_shared : !tile.buffer<8x8xf16, shared>
  %f = tile.alloc_fragment : !tile.buffer<64xf32, fragment>
  tile.print "x" %x thread(3) : f32
  tile.print "s" %s thread(0) : !tile.buffer<8x8xf16, shared>
  tile.print "f" %f warp(1) block [2, 0, 1] : !tile.buffer<64xf32, fragment>
}

// Block barriers, at the top level and in a loop; a planned kernel's shared
// memory total.
// CHECK-LABEL: tile.kernel @barriers(
// CHECK-SAME: attributes {tile.shared_memory_bytes = 256 : i64}
// CHECK: tile.alloc_shared offset(0) : !tile.buffer<64xf32, shared>
// CHECK: tile.barrier
// CHECK: scf.for
// CHECK-NEXT: tile.barrier
tile.kernel @barriers(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32)
    attributes {tile.shared_memory_bytes = 256 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = tile.alloc_shared offset(0) : !tile.buffer<64xf32, shared>
  tile.copy %A to %s : !tile.buffer<?xf32, global> to !tile.buffer<64xf32, shared>
  tile.barrier
  scf.for %i = %c0 to %c1 step %c1 {
    tile.barrier
  }
}
