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
  // expected-error@+1 {{expected tile.num_stages to be an integer from 1 to 16, but got 0 : i64}}
  scf.for %i = %c0 to %c1 step %c1 {
  } {tile.num_stages = 0 : i64}
}

// -----

// Bounded: a prologue of 2^31 - 2 copy groups and a 2^31-stage tile before.
tile.kernel @huge_stages(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %s = tile.alloc_shared : !tile.buffer<32xf32, shared>
  // expected-error@+1 {{expected tile.num_stages to be an integer from 1 to 16, but got 2147483647 : i64}}
  scf.for %i = %c0 to %c4 step %c1 {
    tile.copy %A[%i] to %s : !tile.buffer<?xf32, global> to !tile.buffer<32xf32, shared>
  } {tile.num_stages = 2147483647 : i64}
}

// -----

tile.kernel @wide_stages(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %s = tile.alloc_shared : !tile.buffer<32xf32, shared>
  // expected-error@+1 {{expected tile.num_stages to be an integer from 1 to 16, but got 1267650600228229401496703205376 : i128}}
  scf.for %i = %c0 to %c4 step %c1 {
    tile.copy %A[%i] to %s : !tile.buffer<?xf32, global> to !tile.buffer<32xf32, shared>
  } {tile.num_stages = 1267650600228229401496703205376 : i128}
}

// -----

tile.kernel @not_an_integer(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{expected tile.num_stages to be an integer from 1 to 16, but got "3"}}
  scf.for %i = %c0 to %c1 step %c1 {
  } {tile.num_stages = "3"}
}

// -----

// The stages must fit in shared memory: 8 x (64 KiB + 32 KiB) do not.
tile.kernel @stages_too_large(%A: !tile.buffer<?x?xf16, global>) grid(%bx) = [1] threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = tile.alloc_shared : !tile.buffer<256x128xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<128x128xf16, shared>
  // expected-error@+1 {{expected the 8 stages of its shared tiles to fit in 232448 bytes (227 KiB, the shared memory of a block on the largest GPU), but they take 8 x 98304 = 786432 bytes}}
  scf.for %i = %c0 to %c4 step %c1 {
    tile.copy %A[%c0, %i] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<256x128xf16, shared>
    tile.copy %A[%i, %c0] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<128x128xf16, shared>
  } {tile.num_stages = 8 : i64}
}
