// Every diagnostic of -tile-warp-specialize (WarpSpecialize.cpp), one
// kernel each: the marked loop it splits, the loop's bounds and body, and
// what the kernel may hold around it (fragments, the epilogue). The pass
// runs after -tile-assign-layouts, as in the pipeline.
//
// RUN: tile-opt %s -split-input-file --tile-assign-layouts --tile-warp-specialize -verify-diagnostics

// The pass splits one marked loop per kernel.
// expected-error@+1 {{'tile.kernel' op expected one loop marked tile.num_stages in a warp_specialized kernel, but got 0}}
tile.kernel @no_marked_loop(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf32, global>) grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  scf.for %i = %c0 to %k step %c1 {
    tile.copy %A[%c0, %i] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.copy %B[%i, %c0] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.gemm %a, %b, %acc : !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
  }
}

// -----

// expected-error@+1 {{'tile.kernel' op expected one loop marked tile.num_stages in a warp_specialized kernel, but got 2}}
tile.kernel @two_marked_loops(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf32, global>) grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  scf.for %i = %c0 to %k step %c1 {
    tile.copy %A[%c0, %i] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.copy %B[%i, %c0] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.gemm %a, %b, %acc : !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
  } {tile.num_stages = 2 : i64}
  scf.for %i = %c0 to %k step %c1 {
    tile.copy %A[%c0, %i] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.copy %B[%i, %c0] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.gemm %a, %b, %acc : !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
  } {tile.num_stages = 2 : i64}
}

// -----

// A nested marked loop counts too.
// expected-error@+1 {{'tile.kernel' op expected one loop marked tile.num_stages in a warp_specialized kernel, but got 2}}
tile.kernel @marked_loops_nested(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf32, global>) grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  scf.for %i = %c0 to %k step %c1 {
    tile.copy %A[%c0, %i] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.copy %B[%i, %c0] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.gemm %a, %b, %acc : !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
    scf.for %j = %c0 to %k step %c1 {
      tile.copy %A[%c0, %j] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
      tile.copy %B[%j, %c0] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
      tile.gemm %a, %b, %acc : !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
    } {tile.num_stages = 2 : i64}
  } {tile.num_stages = 2 : i64}
}

// -----

// At least double buffering, at most kMaxPipelineStages.
tile.kernel @one_stage(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf32, global>) grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  // expected-error@+1 {{'scf.for' op expected tile.num_stages from 2 to 16 in a warp_specialized kernel, but got 1 : i64}}
  scf.for %i = %c0 to %k step %c1 {
    tile.copy %A[%c0, %i] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.copy %B[%i, %c0] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.gemm %a, %b, %acc : !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
  } {tile.num_stages = 1 : i64}
}

// -----

tile.kernel @seventeen_stages(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf32, global>) grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  // expected-error@+1 {{'scf.for' op expected tile.num_stages from 2 to 16 in a warp_specialized kernel, but got 17 : i64}}
  scf.for %i = %c0 to %k step %c1 {
    tile.copy %A[%c0, %i] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.copy %B[%i, %c0] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.gemm %a, %b, %acc : !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
  } {tile.num_stages = 17 : i64}
}

// -----

tile.kernel @stages_not_an_integer(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf32, global>) grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  // expected-error@+1 {{'scf.for' op expected tile.num_stages from 2 to 16 in a warp_specialized kernel, but got "four"}}
  scf.for %i = %c0 to %k step %c1 {
    tile.copy %A[%c0, %i] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.copy %B[%i, %c0] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.gemm %a, %b, %acc : !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
  } {tile.num_stages = "four"}
}

// -----

tile.kernel @step_not_one(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf32, global>) grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %c2 = arith.constant 2 : index
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  // expected-error@+1 {{'scf.for' op expected the pipelined loop of a warp_specialized kernel to run in steps of 1}}
  scf.for %i = %c0 to %k step %c2 {
    tile.copy %A[%c0, %i] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.copy %B[%i, %c0] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.gemm %a, %b, %acc : !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
  } {tile.num_stages = 2 : i64}
}

// -----

tile.kernel @iter_args(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf32, global>) grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %z = arith.constant 0 : index
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  // expected-error@+1 {{'scf.for' op expected no iter_args in the pipelined loop of a warp_specialized kernel}}
  %r = scf.for %i = %c0 to %k step %c1 iter_args(%x = %z) -> (index) {
    tile.copy %A[%c0, %i] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.copy %B[%i, %c0] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.gemm %a, %b, %acc : !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
    %y = arith.addi %x, %i : index
    scf.yield %y : index
  } {tile.num_stages = 2 : i64}
}

// -----

// A copy into a tile the gemm does not read keeps its layout: TMA cannot
// write it.
tile.kernel @copy_not_to_an_operand(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf32, global>) grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  %s = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  scf.for %i = %c0 to %k step %c1 {
    tile.copy %A[%c0, %i] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.copy %B[%i, %c0] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    // expected-error@+1 {{'tile.copy' op expected the copies of a warp-specialized loop to move global tiles into #tile.nvmma shared tiles (the operands of its gemm)}}
    tile.copy %A[%c0, %i] to %s : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.gemm %a, %b, %acc : !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
  } {tile.num_stages = 2 : i64}
}

// -----

tile.kernel @copy_to_fragment(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf32, global>) grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  %f = tile.alloc_fragment : !tile.buffer<64x64xf16, fragment>
  scf.for %i = %c0 to %k step %c1 {
    tile.copy %A[%c0, %i] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.copy %B[%i, %c0] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    // expected-error@+1 {{'tile.copy' op expected the copies of a warp-specialized loop to move global tiles into #tile.nvmma shared tiles (the operands of its gemm)}}
    tile.copy %A[%c0, %i] to %f : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, fragment>
    tile.gemm %a, %b, %acc : !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
  } {tile.num_stages = 2 : i64}
}

// -----

// The staged tiles replace allocations of the kernel body, not views.
tile.kernel @copy_to_a_stage(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf32, global>) grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %a2 = tile.alloc_shared : !tile.buffer<2x64x64xf16, shared>
  %a = tile.stage %a2[%c0] : !tile.buffer<2x64x64xf16, shared> -> !tile.buffer<64x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  scf.for %i = %c0 to %k step %c1 {
    // expected-error@+1 {{'tile.copy' op expected the destination to be allocated in the kernel body}}
    tile.copy async %A[%c0, %i] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.copy %B[%i, %c0] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.gemm %a, %b, %acc : !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
  } {tile.num_stages = 2 : i64}
}

// -----

tile.kernel @two_gemms(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf32, global>) grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  scf.for %i = %c0 to %k step %c1 {
    tile.copy %A[%c0, %i] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.copy %B[%i, %c0] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.gemm %a, %b, %acc : !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
    // expected-error@+1 {{'tile.gemm' op expected one tile.gemm in the pipelined loop of a warp_specialized kernel}}
    tile.gemm %a, %b, %acc : !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
  } {tile.num_stages = 2 : i64}
}

// -----

// Only copies, the gemm and pure index arithmetic: no barrier ...
tile.kernel @barrier_in_loop(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf32, global>) grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  scf.for %i = %c0 to %k step %c1 {
    tile.copy %A[%c0, %i] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.copy %B[%i, %c0] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.gemm %a, %b, %acc : !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
    // expected-error@+1 {{'tile.barrier' op is not allowed in the pipelined loop of a warp_specialized kernel (only TMA-able copies, one gemm and pure index arithmetic)}}
    tile.barrier
  } {tile.num_stages = 2 : i64}
}

// -----

// ... no other tile work ...
tile.kernel @clear_in_loop(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf32, global>) grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  %f = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  scf.for %i = %c0 to %k step %c1 {
    tile.copy %A[%c0, %i] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.copy %B[%i, %c0] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.gemm %a, %b, %acc : !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
    // expected-error@+1 {{'tile.clear' op is not allowed in the pipelined loop of a warp_specialized kernel (only TMA-able copies, one gemm and pure index arithmetic)}}
    tile.clear %f : !tile.buffer<64x64xf32, fragment>
  } {tile.num_stages = 2 : i64}
}

// -----

// ... and no nested region, pure or not.
tile.kernel @region_in_loop(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf32, global>) grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  scf.for %i = %c0 to %k step %c1 {
    tile.copy %A[%c0, %i] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.copy %B[%i, %c0] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.gemm %a, %b, %acc : !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
    // expected-error@+1 {{'scf.for' op is not allowed in the pipelined loop of a warp_specialized kernel (only TMA-able copies, one gemm and pure index arithmetic)}}
    scf.for %j = %c0 to %c1 step %c1 {
    }
  } {tile.num_stages = 2 : i64}
}

// -----

tile.kernel @no_copies(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf32, global>) grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  // expected-error@+1 {{'scf.for' op expected the pipelined loop of a warp_specialized kernel to copy tiles and multiply them with one tile.gemm}}
  scf.for %i = %c0 to %k step %c1 {
    tile.gemm %a, %b, %acc : !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
  } {tile.num_stages = 2 : i64}
}

// -----

tile.kernel @empty_loop(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf32, global>) grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  // expected-error@+1 {{'scf.for' op expected the pipelined loop of a warp_specialized kernel to copy tiles and multiply them with one tile.gemm}}
  scf.for %i = %c0 to %k step %c1 {
  } {tile.num_stages = 2 : i64}
}

// -----

// An accumulator that has a layout keeps it; the wgmma form needs #tile.wgmma.
tile.kernel @mma_accumulator(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf32, global>) grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment, #tile.mma<warps = [4, 1]>>
  scf.for %i = %c0 to %k step %c1 {
    tile.copy %A[%c0, %i] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.copy %B[%i, %c0] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    // expected-error@+1 {{'tile.gemm' op expected a #tile.wgmma accumulator in a warp_specialized kernel; run -tile-assign-layouts first}}
    tile.gemm %a, %b, %acc : !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf32, fragment, #tile.mma<warps = [4, 1]>>
  } {tile.num_stages = 2 : i64}
}

// -----

// Both operands come through the pipeline.
tile.kernel @operand_not_copied(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf32, global>) grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  scf.for %i = %c0 to %k step %c1 {
    tile.copy %A[%c0, %i] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    // expected-error@+1 {{'tile.gemm' op expected A and B to be tiles the loop copies}}
    tile.gemm %a, %b, %acc : !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
  } {tile.num_stages = 2 : i64}
}

// -----

// The filled tiles exist only in their stages after the pass.
tile.kernel @tile_used_after_loop(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf32, global>) grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  %f = tile.alloc_fragment : !tile.buffer<64x64xf16, fragment>
  scf.for %i = %c0 to %k step %c1 {
    tile.copy %A[%c0, %i] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.copy %B[%i, %c0] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.gemm %a, %b, %acc : !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
  } {tile.num_stages = 2 : i64}
  // expected-error@+1 {{'tile.copy' op uses a tile that the warp-specialized loop fills, outside the loop}}
  tile.copy %a to %f : !tile.buffer<64x64xf16, shared> to !tile.buffer<64x64xf16, fragment>
}

// -----

// Before the loop, both roles would run it: no loads ...
tile.kernel @copy_before_loop(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf32, global>) grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  // expected-error@+1 {{'tile.copy' op is not allowed before the pipelined loop of a warp_specialized kernel (it would run in both roles)}}
  tile.copy %C[%c0, %c0] to %acc : !tile.buffer<?x?xf32, global> to !tile.buffer<64x64xf32, fragment>
  scf.for %i = %c0 to %k step %c1 {
    tile.copy %A[%c0, %i] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.copy %B[%i, %c0] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.gemm %a, %b, %acc : !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
  } {tile.num_stages = 2 : i64}
}

// -----

// ... and no clear but the accumulator's.
tile.kernel @other_clear_before_loop(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf32, global>) grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  %f = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  tile.clear %acc : !tile.buffer<64x64xf32, fragment>
  %one = arith.constant 1.0 : f32
  // expected-error@+1 {{'tile.fill' op is not allowed before the pipelined loop of a warp_specialized kernel (it would run in both roles)}}
  tile.fill %f, %one : !tile.buffer<64x64xf32, fragment>
  scf.for %i = %c0 to %k step %c1 {
    tile.copy %A[%c0, %i] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.copy %B[%i, %c0] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.gemm %a, %b, %acc : !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
  } {tile.num_stages = 2 : i64}
}

// -----

// The pipelined loop must be a top-level op of the kernel body.
tile.kernel @loop_nested(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf32, global>) grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %true = arith.constant true
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  scf.if %true {
    // expected-error@+1 {{'scf.for' op expected the pipelined loop of a warp_specialized kernel in the kernel body itself}}
    scf.for %i = %c0 to %k step %c1 {
      tile.copy %A[%c0, %i] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
      tile.copy %B[%i, %c0] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
      tile.gemm %a, %b, %acc : !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
    } {tile.num_stages = 2 : i64}
  }
}

// -----

// Each staged tile has one copy per iteration.
tile.kernel @tile_copied_twice(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf32, global>) grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  scf.for %i = %c0 to %k step %c1 {
    tile.copy %A[%c0, %i] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.copy %B[%i, %c0] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    // expected-error@+1 {{'tile.copy' op expected each shared tile of a warp-specialized loop to be filled by one copy, but this one fills it again}}
    tile.copy %A[%c0, %i] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.gemm %a, %b, %acc : !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
  } {tile.num_stages = 2 : i64}
  tile.copy %acc to %C[%c0, %c0] : !tile.buffer<64x64xf32, fragment> to !tile.buffer<?x?xf32, global>
}

// -----

// The epilogue runs in the compute role: thread 0 is a producer thread.
tile.kernel @print_from_producer(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf32, global>) grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  scf.for %i = %c0 to %k step %c1 {
    tile.copy %A[%c0, %i] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.copy %B[%i, %c0] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.gemm %a, %b, %acc : !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
  } {tile.num_stages = 2 : i64}
  // expected-error@+1 {{'tile.print' op selects a thread of the producer warpgroup, which does not run the epilogue of a warp_specialized kernel; expected thread(128 to 255) or warp(4 to 7)}}
  tile.print "bx" %bx thread(0) : index
  tile.copy %acc to %C[%c0, %c0] : !tile.buffer<64x64xf32, fragment> to !tile.buffer<?x?xf32, global>
}

// -----

// The same for a warp.
tile.kernel @print_from_producer_warp(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf32, global>) grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  scf.for %i = %c0 to %k step %c1 {
    tile.copy %A[%c0, %i] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.copy %B[%i, %c0] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.gemm %a, %b, %acc : !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
  } {tile.num_stages = 2 : i64}
  // expected-error@+1 {{'tile.print' op selects a thread of the producer warpgroup, which does not run the epilogue of a warp_specialized kernel; expected thread(128 to 255) or warp(4 to 7)}}
  tile.print "bx" %bx warp(3) : index
  tile.copy %acc to %C[%c0, %c0] : !tile.buffer<64x64xf32, fragment> to !tile.buffer<?x?xf32, global>
}

// -----

// Fragments other than the wgmma accumulator are spread over every thread.
tile.kernel @row_major_fragment(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf32, global>) grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  // expected-error@+1 {{'tile.alloc_fragment' op expected a #tile.wgmma fragment in a warp_specialized kernel (other layouts spread over all threads, the producer's included), but got '!tile.buffer<64x64xf32, fragment, #tile.row_major<vec = 4>>'}}
  %other = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  scf.for %i = %c0 to %k step %c1 {
    tile.copy %A[%c0, %i] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.copy %B[%i, %c0] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.gemm %a, %b, %acc : !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
  } {tile.num_stages = 2 : i64}
  tile.copy %acc to %C[%c0, %c0] : !tile.buffer<64x64xf32, fragment> to !tile.buffer<?x?xf32, global>
  tile.copy %other to %C[%c0, %c0] : !tile.buffer<64x64xf32, fragment> to !tile.buffer<?x?xf32, global>
}

// -----

// Stream-K deals out K iterations across tiles: each tile must have as many.
tile.kernel @stream_k_tile_dependent_k(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf32, global>)
    grid(%bx, %by) = [ceildiv(%B[1], 256), ceildiv(%A[0], 128)] threads(384) warp_specialized persistent attributes {stream_k} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %row = arith.muli %by, %c64 : index
  %a = tile.alloc_shared : !tile.buffer<128x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x256xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<128x256xf32, fragment>
  %n = arith.ceildivui %row, %c64 : index
  // expected-error@+1 {{'scf.for' op expected the bounds of the pipelined loop of a stream_k kernel not to depend on the block indices (its K iterations are dealt out across tiles)}}
  scf.for %i = %c0 to %n step %c1 {
    %k0 = arith.muli %i, %c64 : index
    tile.copy %A[%c0, %k0] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<128x64xf16, shared>
    tile.copy %B[%k0, %c0] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x256xf16, shared>
    tile.gemm %a, %b, %acc : !tile.buffer<128x64xf16, shared>, !tile.buffer<64x256xf16, shared>, !tile.buffer<128x256xf32, fragment>
  } {tile.num_stages = 4 : i64}
}
