// -tile-pipeline rejects loops it cannot pipeline, saying why.
// RUN: tile-opt %s -split-input-file -tile-pipeline -verify-diagnostics

tile.kernel @no_copies(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{has tile.num_stages but no global -> shared tile.copy to run ahead}}
  scf.for %i = %c0 to %c1 step %c1 {
  } {tile.num_stages = 2 : i64}
}

// -----

tile.kernel @written_inside(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = tile.alloc_shared : !tile.buffer<32xf32, shared>
  scf.for %i = %c0 to %c1 step %c1 {
    tile.copy %A[%i] to %s : !tile.buffer<?xf32, global> to !tile.buffer<32xf32, shared>
    // expected-error@+1 {{writes a shared tile that the pipelined loop's copies fill}}
    tile.clear %s : !tile.buffer<32xf32, shared>
  } {tile.num_stages = 2 : i64}
}

// -----

tile.kernel @used_after(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = tile.alloc_shared : !tile.buffer<32xf32, shared>
  scf.for %i = %c0 to %c1 step %c1 {
    tile.copy %A[%i] to %s : !tile.buffer<?xf32, global> to !tile.buffer<32xf32, shared>
  } {tile.num_stages = 2 : i64}
  // expected-error@+1 {{uses a shared tile that a pipelined loop fills; only the loop may use it}}
  tile.copy %s to %A : !tile.buffer<32xf32, shared> to !tile.buffer<?xf32, global>
}

// -----

tile.kernel @bad_stages(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{expected tile.num_stages to be an integer of at least 1}}
  scf.for %i = %c0 to %c1 step %c1 {
  } {tile.num_stages = 0 : i64}
}
