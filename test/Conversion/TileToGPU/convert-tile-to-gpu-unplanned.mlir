// convert-tile-to-gpu places no shared tiles itself: it reads the offsets of
// -tile-plan-shared-memory and refuses a tile without one.
//
// RUN: tile-opt %s --convert-tile-to-gpu -split-input-file -verify-diagnostics

tile.kernel @unplanned(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  // expected-error@+1 {{'tile.alloc_shared' op expected an offset in shared memory; run -tile-plan-shared-memory first}}
  %s = tile.alloc_shared : !tile.buffer<64xf32, shared>
  tile.copy %A to %s : !tile.buffer<?xf32, global> to !tile.buffer<64xf32, shared>
}
