// Which copies a tile.parallel stores itself, chunk by chunk (marked
// {tile.fused}), and, with remarks=1, why each candidate is fused or not.
//
// RUN: tile-opt %s -split-input-file -tile-fuse-stores="remarks=1" -verify-diagnostics | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-fuse-stores -tile-fuse-stores | FileCheck %s

#rm = #tile.row_major<vec = 2>

// An epilogue: the loop writes the fragment that the next op copies to
// global memory, in the same layout.
// CHECK-LABEL: tile.kernel @epilogue
// CHECK: tile.copy %{{.*}} to %{{.*}} {tile.fused}
tile.kernel @epilogue(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  %f = tile.alloc_fragment : !tile.buffer<64xf32, fragment, #rm>
  tile.copy %A to %f : !tile.buffer<?xf32, global> to !tile.buffer<64xf32, fragment, #rm>
  tile.parallel (%i) in [64] {
    %x = tile.load %f[%i] : !tile.buffer<64xf32, fragment, #rm>
    %y = arith.addf %x, %x : f32
    tile.store %y, %f[%i] : !tile.buffer<64xf32, fragment, #rm>
  }
  // expected-remark@+1 {{fused into the tile.parallel before it: each chunk is stored as soon as the loop computed it}}
  tile.copy %f to %A : !tile.buffer<64xf32, fragment, #rm> to !tile.buffer<?xf32, global>
}

// -----

#rm = #tile.row_major<vec = 2>
#rm4 = #tile.row_major<vec = 4>

// CHECK-LABEL: tile.kernel @other_layout
// CHECK-NOT: tile.fused
tile.kernel @other_layout(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  %f = tile.alloc_fragment : !tile.buffer<128xf32, fragment, #rm>
  %g = tile.alloc_fragment : !tile.buffer<128xf32, fragment, #rm4>
  tile.copy %A to %g : !tile.buffer<?xf32, global> to !tile.buffer<128xf32, fragment, #rm4>
  tile.parallel (%i) in [128] {
    %x = tile.load %g[%i] : !tile.buffer<128xf32, fragment, #rm4>
    tile.store %x, %g[%i] : !tile.buffer<128xf32, fragment, #rm4>
  }
  // expected-remark@+1 {{not fused into the tile.parallel before it: the copy's fragment has another layout (#tile.row_major<vec = 2>) than the loop (#tile.row_major<vec = 4>)}}
  tile.copy %f to %A : !tile.buffer<128xf32, fragment, #rm> to !tile.buffer<?xf32, global>
}

// -----

#rm = #tile.row_major<vec = 2>

// CHECK-LABEL: tile.kernel @loop_does_not_write
// CHECK-NOT: tile.fused
tile.kernel @loop_does_not_write(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  %f = tile.alloc_fragment : !tile.buffer<64xf32, fragment, #rm>
  %g = tile.alloc_fragment : !tile.buffer<64xf32, fragment, #rm>
  tile.copy %A to %f : !tile.buffer<?xf32, global> to !tile.buffer<64xf32, fragment, #rm>
  tile.parallel (%i) in [64] {
    %x = tile.load %f[%i] : !tile.buffer<64xf32, fragment, #rm>
    tile.store %x, %g[%i] : !tile.buffer<64xf32, fragment, #rm>
  }
  // expected-remark@+1 {{not fused into the tile.parallel before it: the loop does not write the copied fragment}}
  tile.copy %f to %A : !tile.buffer<64xf32, fragment, #rm> to !tile.buffer<?xf32, global>
}

// -----

#rm = #tile.row_major<vec = 2>

// CHECK-LABEL: tile.kernel @not_to_global
// CHECK-NOT: tile.fused
tile.kernel @not_to_global(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  %f = tile.alloc_fragment : !tile.buffer<64xf32, fragment, #rm>
  %s = tile.alloc_shared : !tile.buffer<64xf32, shared>
  tile.parallel (%i) in [64] {
    %x = tile.load %f[%i] : !tile.buffer<64xf32, fragment, #rm>
    tile.store %x, %f[%i] : !tile.buffer<64xf32, fragment, #rm>
  }
  // expected-remark@+1 {{not fused into the tile.parallel before it: the copy does not store to global memory}}
  tile.copy %f to %s : !tile.buffer<64xf32, fragment, #rm> to !tile.buffer<64xf32, shared>
}

// -----

#rm = #tile.row_major<vec = 2>

// CHECK-LABEL: tile.kernel @other_shape
// CHECK-NOT: tile.fused
tile.kernel @other_shape(%A: !tile.buffer<?x?xf32, global>) grid(%bx) = [1] threads(32) {
  %c0 = arith.constant 0 : index
  %f = tile.alloc_fragment : !tile.buffer<8x8xf32, fragment, #rm>
  %g = tile.alloc_fragment : !tile.buffer<64xf32, fragment, #rm>
  tile.parallel (%i) in [64] {
    %c = arith.constant 1.0 : f32
    tile.store %c, %g[%i] : !tile.buffer<64xf32, fragment, #rm>
  }
  // expected-remark@+1 {{not fused into the tile.parallel before it: the copy moves a 8x8 tile, but the loop runs over 64}}
  tile.copy %f to %A[%c0, %c0] : !tile.buffer<8x8xf32, fragment, #rm> to !tile.buffer<?x?xf32, global>
}

// -----

// A rolled loop rewriting a shared tile in place right before its last use.
// CHECK-LABEL: tile.kernel @rolled_in_place
// CHECK: tile.copy %{{.*}} to %{{.*}} {tile.fused}
tile.kernel @rolled_in_place(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  %s = tile.alloc_shared : !tile.buffer<64xf32, shared>
  tile.copy %A to %s : !tile.buffer<?xf32, global> to !tile.buffer<64xf32, shared>
  tile.parallel (%i) in [64] rolled {
    %x = tile.load %s[%i] : !tile.buffer<64xf32, shared>
    %y = arith.addf %x, %x : f32
    tile.store %y, %s[%i] : !tile.buffer<64xf32, shared>
  }
  // expected-remark@+1 {{fused into the tile.parallel before it: the loop stores the copy's chunks instead of rewriting the tile}}
  tile.copy %s to %A : !tile.buffer<64xf32, shared> to !tile.buffer<?xf32, global>
}

// -----

// The tile is read again after the copy: the loop must write it back.
// CHECK-LABEL: tile.kernel @rolled_tile_lives_on
// CHECK-NOT: tile.fused
tile.kernel @rolled_tile_lives_on(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  %s = tile.alloc_shared : !tile.buffer<64xf32, shared>
  tile.copy %A to %s : !tile.buffer<?xf32, global> to !tile.buffer<64xf32, shared>
  tile.parallel (%i) in [64] rolled {
    %x = tile.load %s[%i] : !tile.buffer<64xf32, shared>
    %y = arith.addf %x, %x : f32
    tile.store %y, %s[%i] : !tile.buffer<64xf32, shared>
  }
  // expected-remark@+1 {{not fused into the tile.parallel before it: the tile is used after the loop by another op than the copy}}
  tile.copy %s to %A : !tile.buffer<64xf32, shared> to !tile.buffer<?xf32, global>
  tile.copy %s to %A : !tile.buffer<64xf32, shared> to !tile.buffer<?xf32, global>
}

// -----

// A rolled loop that reads a neighbour's element.
// CHECK-LABEL: tile.kernel @rolled_other_element
// CHECK-NOT: tile.fused
tile.kernel @rolled_other_element(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : !tile.buffer<64xf32, shared>
  tile.copy %A to %s : !tile.buffer<?xf32, global> to !tile.buffer<64xf32, shared>
  tile.parallel (%i) in [64] rolled {
    %x = tile.load %s[%c0] : !tile.buffer<64xf32, shared>
    tile.store %x, %s[%i] : !tile.buffer<64xf32, shared>
  }
  // expected-remark@+1 {{not fused into the tile.parallel before it: the loop's body accesses the tile at another element than its own}}
  tile.copy %s to %A : !tile.buffer<64xf32, shared> to !tile.buffer<?xf32, global>
}

// -----

// No candidate, no remark: the loop is not followed by a copy.
// CHECK-LABEL: tile.kernel @no_candidate
// CHECK-NOT: tile.fused
tile.kernel @no_candidate(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  %s = tile.alloc_shared : !tile.buffer<64xf32, shared>
  tile.parallel (%i) in [64] rolled {
    %x = tile.load %s[%i] : !tile.buffer<64xf32, shared>
    tile.store %x, %s[%i] : !tile.buffer<64xf32, shared>
  }
}
