// Every diagnostic of the Hopper (sm_90a) verifiers, one case each: the ops
// of TileHopperOps.cpp (mbarriers, tile.gemm_wait, tile.tma_store_wait,
// tile.warp_specialize), the `warp_specialized` flag of tile.kernel
// (TileKernelOp.cpp), the TMA forms of tile.copy (load and store) and the
// #tile.nvmma offsets (TileMemoryOps.cpp), and
// `tile.gemm async` (TileComputeOps.cpp). The round trip is in
// hopper-ops.mlir.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// tile.kernel warp_specialized
//===----------------------------------------------------------------------===//

// A producer warpgroup and at least one compute warpgroup.
// expected-error@+1 {{'tile.kernel' op expected a warp_specialized kernel to have a multiple of 128 threads, at least 256 (a producer warpgroup and compute warpgroups), but got 128}}
tile.kernel @ws_one_warpgroup() grid(%bx) = [1] threads(128) warp_specialized {
}

// -----

// expected-error@+1 {{'tile.kernel' op expected a warp_specialized kernel to have a multiple of 128 threads, at least 256 (a producer warpgroup and compute warpgroups), but got 320}}
tile.kernel @ws_partial_warpgroup() grid(%bx) = [1] threads(320) warp_specialized {
}

// -----

// Fragments are spread over the compute threads only (384 - 128).
tile.kernel @ws_fragment_threads() grid(%bx) = [1] threads(384) warp_specialized {
  // expected-error@+1 {{'tile.alloc_fragment' op expected the fragment's 384 elements to be a multiple of the kernel's 256 compute threads}}
  %f = tile.alloc_fragment : !tile.buffer<384xf32, fragment, #tile.row_major<vec = 1>>
}

// -----

// The register limit counts the compute threads too: 65536 elements over
// 256 threads are 256 registers each.
tile.kernel @ws_fragment_registers() grid(%bx) = [1] threads(384) warp_specialized {
  // expected-error@+1 {{'tile.alloc_fragment' op expected a fragment of at most 255 32-bit registers per thread, but its 65536 elements over the kernel's 256 threads take 256}}
  %f = tile.alloc_fragment : !tile.buffer<256x256xf32, fragment>
}

// -----

//===----------------------------------------------------------------------===//
// Mbarrier operands (all four users)
//===----------------------------------------------------------------------===//

tile.kernel @mbarrier_init_element() grid(%bx) = [1] threads(256) warp_specialized {
  %bars = tile.alloc_shared : !tile.buffer<4xi32, shared>
  // expected-error@+1 {{'tile.mbarrier_init' op expected mbarriers as a 1-D shared tile of i64 without a layout, but got '!tile.buffer<4xi32, shared>'}}
  tile.mbarrier_init %bars count(1) : !tile.buffer<4xi32, shared>
}

// -----

tile.kernel @mbarrier_arrive_rank() grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %bars = tile.alloc_shared : !tile.buffer<2x2xi64, shared>
  tile.warp_specialize producer(registers = 40) {
    // expected-error@+1 {{'tile.mbarrier_arrive' op expected mbarriers as a 1-D shared tile of i64 without a layout, but got '!tile.buffer<2x2xi64, shared>'}}
    tile.mbarrier_arrive %bars[%c0] : !tile.buffer<2x2xi64, shared>
  } compute(registers = 232) {
  }
}

// -----

tile.kernel @mbarrier_wait_fragment() grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %bars = tile.alloc_fragment : !tile.buffer<128xi64, fragment, #tile.row_major<vec = 1>>
  tile.warp_specialize producer(registers = 40) {
  } compute(registers = 232) {
    // expected-error@+1 {{'tile.mbarrier_wait' op expected mbarriers as a 1-D shared tile of i64 without a layout, but got '!tile.buffer<128xi64, fragment, #tile.row_major<vec = 1>>'}}
    tile.mbarrier_wait %bars[%c0], %c0 : !tile.buffer<128xi64, fragment, #tile.row_major<vec = 1>>
  }
}

// -----

tile.kernel @tma_barriers_layout(%A: !tile.buffer<?x?xf16, global>) grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %bars = tile.alloc_shared : !tile.buffer<8x8xi64, shared, #tile.nvmma<swizzle = 0>>
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>
  tile.warp_specialize producer(registers = 40) {
    // expected-error@+1 {{'tile.copy' op expected mbarriers as a 1-D shared tile of i64 without a layout, but got '!tile.buffer<8x8xi64, shared, #tile.nvmma<swizzle = 0>>'}}
    tile.copy async %A[%c0, %c0] to %a barrier(%bars[%c0] : !tile.buffer<8x8xi64, shared, #tile.nvmma<swizzle = 0>>) : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>
  } compute(registers = 232) {
  }
}

// -----

//===----------------------------------------------------------------------===//
// tile.mbarrier_init, tile.mbarrier_arrive, tile.mbarrier_wait
//===----------------------------------------------------------------------===//

tile.kernel @mbarrier_init_not_specialized() grid(%bx) = [1] threads(256) {
  %bars = tile.alloc_shared : !tile.buffer<4xi64, shared>
  // expected-error@+1 {{'tile.mbarrier_init' op expected to be in a warp_specialized kernel (mbarriers, TMA and wgmma are the sm_90a lowering's)}}
  tile.mbarrier_init %bars count(1) : !tile.buffer<4xi64, shared>
}

// -----

tile.kernel @mbarrier_arrive_not_specialized() grid(%bx) = [1] threads(256) {
  %c0 = arith.constant 0 : index
  %bars = tile.alloc_shared : !tile.buffer<4xi64, shared>
  // expected-error@+1 {{'tile.mbarrier_arrive' op expected to be in a warp_specialized kernel (mbarriers, TMA and wgmma are the sm_90a lowering's)}}
  tile.mbarrier_arrive %bars[%c0] expect_tx(1024) : !tile.buffer<4xi64, shared>
}

// -----

tile.kernel @mbarrier_wait_not_specialized() grid(%bx) = [1] threads(256) {
  %c0 = arith.constant 0 : index
  %bars = tile.alloc_shared : !tile.buffer<4xi64, shared>
  // expected-error@+1 {{'tile.mbarrier_wait' op expected to be in a warp_specialized kernel (mbarriers, TMA and wgmma are the sm_90a lowering's)}}
  tile.mbarrier_wait %bars[%c0], %c0 : !tile.buffer<4xi64, shared>
}

// -----

// Every thread initializes (then the block synchronizes): not in a role.
tile.kernel @mbarrier_init_in_role() grid(%bx) = [1] threads(256) warp_specialized {
  %bars = tile.alloc_shared : !tile.buffer<4xi64, shared>
  tile.warp_specialize producer(registers = 40) {
    // expected-error@+1 {{'tile.mbarrier_init' op expected to be in the kernel body itself (every thread initializes, then synchronizes the block)}}
    tile.mbarrier_init %bars count(1) : !tile.buffer<4xi64, shared>
  } compute(registers = 232) {
  }
}

// -----

// Nor in a loop of the kernel body.
tile.kernel @mbarrier_init_in_loop() grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bars = tile.alloc_shared : !tile.buffer<4xi64, shared>
  scf.for %i = %c0 to %c1 step %c1 {
    // expected-error@+1 {{'tile.mbarrier_init' op expected to be in the kernel body itself (every thread initializes, then synchronizes the block)}}
    tile.mbarrier_init %bars count(1) : !tile.buffer<4xi64, shared>
  }
}

// -----

// The arrival count is 20 bits wide.
tile.kernel @mbarrier_count_too_large() grid(%bx) = [1] threads(256) warp_specialized {
  %bars = tile.alloc_shared : !tile.buffer<4xi64, shared>
  // expected-error@+1 {{'tile.mbarrier_init' op expected an arrival count below 2^20, but got 1048576}}
  tile.mbarrier_init %bars count(1048576) : !tile.buffer<4xi64, shared>
}

// -----

tile.kernel @mbarrier_count_zero() grid(%bx) = [1] threads(256) warp_specialized {
  %bars = tile.alloc_shared : !tile.buffer<4xi64, shared>
  // expected-error@+1 {{'tile.mbarrier_init' op attribute 'count' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
  tile.mbarrier_init %bars count(0) : !tile.buffer<4xi64, shared>
}

// -----

// So is the transaction count of a phase.
tile.kernel @expect_tx_too_large() grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %bars = tile.alloc_shared : !tile.buffer<4xi64, shared>
  tile.warp_specialize producer(registers = 40) {
    // expected-error@+1 {{'tile.mbarrier_arrive' op expected expect_tx below 2^20 bytes, but got 1048576}}
    tile.mbarrier_arrive %bars[%c0] expect_tx(1048576) : !tile.buffer<4xi64, shared>
  } compute(registers = 232) {
  }
}

// -----

tile.kernel @expect_tx_zero() grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %bars = tile.alloc_shared : !tile.buffer<4xi64, shared>
  tile.warp_specialize producer(registers = 40) {
    // expected-error@+1 {{'tile.mbarrier_arrive' op attribute 'expect_tx' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
    tile.mbarrier_arrive %bars[%c0] expect_tx(0) : !tile.buffer<4xi64, shared>
  } compute(registers = 232) {
  }
}

// -----

//===----------------------------------------------------------------------===//
// tile.gemm_wait
//===----------------------------------------------------------------------===//

tile.kernel @gemm_wait_mma_layout() grid(%bx) = [1] threads(256) warp_specialized {
  %acc = tile.alloc_fragment : !tile.buffer<128x128xf32, fragment, #tile.mma<warps = [8, 1]>>
  // expected-error@+1 {{'tile.gemm_wait' op expected a fragment in the #tile.wgmma layout, but got '!tile.buffer<128x128xf32, fragment, #tile.mma<warps = [8, 1]>>'}}
  tile.gemm_wait 0, %acc : !tile.buffer<128x128xf32, fragment, #tile.mma<warps = [8, 1]>>
}

// -----

// A shared tile is no accumulator.
tile.kernel @gemm_wait_shared() grid(%bx) = [1] threads(256) warp_specialized {
  %acc = tile.alloc_shared : !tile.buffer<64x64xf32, shared>
  // expected-error@+1 {{'tile.gemm_wait' op expected a fragment in the #tile.wgmma layout, but got '!tile.buffer<64x64xf32, shared>'}}
  tile.gemm_wait 0, %acc : !tile.buffer<64x64xf32, shared>
}

// -----

tile.kernel @gemm_wait_too_many() grid(%bx) = [1] threads(256) warp_specialized {
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment, #tile.wgmma<warpgroups = [1, 1]>>
  // expected-error@+1 {{'tile.gemm_wait' op expected at most 7 pending groups, but got 8}}
  tile.gemm_wait 8, %acc : !tile.buffer<64x64xf32, fragment, #tile.wgmma<warpgroups = [1, 1]>>
}

// -----

tile.kernel @gemm_wait_negative() grid(%bx) = [1] threads(256) warp_specialized {
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment, #tile.wgmma<warpgroups = [1, 1]>>
  // expected-error@+1 {{'tile.gemm_wait' op attribute 'pending' failed to satisfy constraint: 64-bit signless integer attribute whose value is non-negative}}
  tile.gemm_wait -1, %acc : !tile.buffer<64x64xf32, fragment, #tile.wgmma<warpgroups = [1, 1]>>
}

// -----

//===----------------------------------------------------------------------===//
// tile.warp_specialize
//===----------------------------------------------------------------------===//

tile.kernel @roles_not_specialized() grid(%bx) = [1] threads(384) {
  // expected-error@+1 {{'tile.warp_specialize' op expected to be in a warp_specialized kernel}}
  tile.warp_specialize producer(registers = 40) {
  } compute(registers = 232) {
  }
}

// -----

// The roles branch on the warpgroup index once, in the kernel body.
tile.kernel @roles_in_loop() grid(%bx) = [1] threads(384) warp_specialized {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c1 step %c1 {
    // expected-error@+1 {{'tile.warp_specialize' op expected to be in the kernel body itself (the roles branch on the warpgroup index once)}}
    tile.warp_specialize producer(registers = 40) {
    } compute(registers = 232) {
    }
  }
}

// -----

func.func @roles_outside_kernel() {
  // expected-error@+1 {{'tile.warp_specialize' op expected to be in the kernel body itself (the roles branch on the warpgroup index once)}}
  tile.warp_specialize producer(registers = 40) {
  } compute(registers = 232) {
  }
  return
}

// -----

// setmaxnreg in one role alone would leave the other's budget unknown.
tile.kernel @producer_registers_alone() grid(%bx) = [1] threads(384) warp_specialized {
  // expected-error@+1 {{'tile.warp_specialize' op expected registers for both roles or for neither, but got them for the producer alone}}
  tile.warp_specialize producer(registers = 40) {
  } compute {
  }
}

// -----

tile.kernel @compute_registers_alone() grid(%bx) = [1] threads(384) warp_specialized {
  // expected-error@+1 {{'tile.warp_specialize' op expected registers for both roles or for neither, but got them for the compute role alone}}
  tile.warp_specialize producer {
  } compute(registers = 232) {
  }
}

// -----

tile.kernel @producer_registers_not_multiple_of_8() grid(%bx) = [1] threads(384) warp_specialized {
  // expected-error@+1 {{'tile.warp_specialize' op expected register counts that are multiples of 8 (setmaxnreg), but got 36}}
  tile.warp_specialize producer(registers = 36) {
  } compute(registers = 232) {
  }
}

// -----

tile.kernel @compute_registers_not_multiple_of_8() grid(%bx) = [1] threads(384) warp_specialized {
  // expected-error@+1 {{'tile.warp_specialize' op expected register counts that are multiples of 8 (setmaxnreg), but got 230}}
  tile.warp_specialize producer(registers = 40) {
  } compute(registers = 230) {
  }
}

// -----

tile.kernel @producer_keeps_more() grid(%bx) = [1] threads(384) warp_specialized {
  // expected-error@+1 {{'tile.warp_specialize' op expected the producer to keep at most as many registers as the compute warpgroups, but got 128 and 120}}
  tile.warp_specialize producer(registers = 128) {
  } compute(registers = 120) {
  }
}

// -----

// 128 x 40 + 256 x 240 = 66560 registers: more than 384 threads hold at
// entry (and than an SM has).
tile.kernel @roles_exceed_register_file() grid(%bx) = [1] threads(384) warp_specialized {
  // expected-error@+1 {{'tile.warp_specialize' op expected the roles' registers to fit the 64512 that 384 threads hold at entry (168 each), but 128 x 40 + 256 x 240 = 66560}}
  tile.warp_specialize producer(registers = 40) {
  } compute(registers = 240) {
  }
}

// -----

// 640 threads hold 96 registers each at entry: 61,440 for both roles.
tile.kernel @roles_over_entry_registers() grid(%bx) = [1] threads(640) warp_specialized {
  // expected-error@+1 {{'tile.warp_specialize' op expected the roles' registers to fit the 61440 that 640 threads hold at entry (96 each), but 128 x 40 + 512 x 112 = 62464}}
  tile.warp_specialize producer(registers = 40) {
  } compute(registers = 112) {
  }
}

// -----

tile.kernel @producer_registers_below_24() grid(%bx) = [1] threads(384) warp_specialized {
  // expected-error@+1 {{'tile.warp_specialize' op attribute 'producer_registers' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 24 whose maximum value is 256}}
  tile.warp_specialize producer(registers = 16) {
  } compute(registers = 232) {
  }
}

// -----

tile.kernel @compute_registers_above_256() grid(%bx) = [1] threads(256) warp_specialized {
  // expected-error@+1 {{'tile.warp_specialize' op attribute 'compute_registers' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 24 whose maximum value is 256}}
  tile.warp_specialize producer(registers = 40) {
  } compute(registers = 264) {
  }
}

// -----

// The producer runs on one thread: no barrier there, nested in a loop too.
// (In the compute role a tile.barrier is a named barrier of its threads.)
tile.kernel @barrier_in_role_loop() grid(%bx) = [1] threads(384) warp_specialized {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.warp_specialize producer(registers = 40) {
    scf.for %i = %c0 to %c1 step %c1 {
      // expected-error@+1 {{'tile.barrier' op expected no tile.barrier in the producer role (one thread issues its copies; the roles meet through mbarriers)}}
      tile.barrier
    }
  } compute(registers = 232) {
  }
}

// -----

//===----------------------------------------------------------------------===//
// tile.copy async ... barrier(...) (TMA) and #tile.nvmma offsets
//===----------------------------------------------------------------------===//

// The mbarriers and their index come together (the custom form cannot
// leave one out; the generic form and an empty index can).
tile.kernel @barrier_without_index(%A: !tile.buffer<?x?xf16, global>) grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %bars = tile.alloc_shared : !tile.buffer<1xi64, shared>
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>
  tile.warp_specialize producer(registers = 40) {
    // expected-error@+1 {{'tile.copy' op expected mbarriers and an index into them together (barrier(%bars[%i] : type)), but got no index}}
    tile.copy async %A[%c0, %c0] to %a barrier(%bars[] : !tile.buffer<1xi64, shared>) : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>
  } compute(registers = 232) {
  }
}

// -----

tile.kernel @index_without_barriers(%A: !tile.buffer<?x?xf16, global>) grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>
  tile.warp_specialize producer(registers = 40) {
    // expected-error@+1 {{'tile.copy' op expected mbarriers and an index into them together (barrier(%bars[%i] : type)), but got no mbarriers}}
    "tile.copy"(%A, %c0, %c0, %a, %c0) <{async, operandSegmentSizes = array<i32: 1, 2, 1, 0, 0, 1>}> : (!tile.buffer<?x?xf16, global>, index, index, !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>, index) -> ()
  } compute(registers = 232) {
  }
}

// -----


tile.kernel @tma_not_async(%A: !tile.buffer<?x?xf16, global>) grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %bars = tile.alloc_shared : !tile.buffer<1xi64, shared>
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>
  tile.warp_specialize producer(registers = 40) {
    // expected-error@+1 {{'tile.copy' op expected `async` on a copy that completes on an mbarrier (a TMA copy)}}
    tile.copy %A[%c0, %c0] to %a barrier(%bars[%c0] : !tile.buffer<1xi64, shared>) : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>
  } compute(registers = 232) {
  }
}

// -----

tile.kernel @tma_dest_swizzle_layout(%A: !tile.buffer<?x?xf16, global>) grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %bars = tile.alloc_shared : !tile.buffer<1xi64, shared>
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared, #tile.swizzle>
  tile.warp_specialize producer(registers = 40) {
    // expected-error@+1 {{'tile.copy' op expected a TMA copy's destination to have a #tile.nvmma layout, but got '!tile.buffer<64x64xf16, shared, #tile.swizzle>'}}
    tile.copy async %A[%c0, %c0] to %a barrier(%bars[%c0] : !tile.buffer<1xi64, shared>) : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared, #tile.swizzle>
  } compute(registers = 232) {
  }
}

// -----

// The tensor map is of a kernel parameter, not of a view of one.
tile.kernel @tma_source_subview(%Q: !tile.buffer<?x?x64xf16, global>) grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %bars = tile.alloc_shared : !tile.buffer<1xi64, shared>
  %q = tile.alloc_shared : !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>
  %head = tile.subview %Q[%c0] : !tile.buffer<?x?x64xf16, global> to !tile.buffer<?x64xf16, global>
  tile.warp_specialize producer(registers = 40) {
    // expected-error@+1 {{'tile.copy' op expected a TMA copy to read a kernel parameter (its tensor map is encoded at launch)}}
    tile.copy async %head[%c0, %c0] to %q barrier(%bars[%c0] : !tile.buffer<1xi64, shared>) : !tile.buffer<?x64xf16, global> to !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>
  } compute(registers = 232) {
  }
}

// -----

// Nor of a function's argument outside a kernel.
func.func @tma_outside_kernel(%A: !tile.buffer<?x?xf16, global>, %a: !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>, %bars: !tile.buffer<1xi64, shared>, %i: index) {
  // expected-error@+1 {{'tile.copy' op expected a TMA copy to read a kernel parameter (its tensor map is encoded at launch)}}
  tile.copy async %A[%i, %i] to %a barrier(%bars[%i] : !tile.buffer<1xi64, shared>) : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>
  return
}

// -----

// A TMA copy is the producer's, in a warp_specialized kernel only.
tile.kernel @tma_not_specialized(%A: !tile.buffer<?x?xf16, global>) grid(%bx) = [1] threads(256) {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>
  %bars = tile.alloc_shared : !tile.buffer<1xi64, shared>
  // expected-error@+1 {{'tile.copy' op expected to be in a warp_specialized kernel (mbarriers, TMA and wgmma are the sm_90a lowering's)}}
  tile.copy async %A[%c0, %c0] to %a barrier(%bars[%c0] : !tile.buffer<1xi64, shared>) : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>
}

// -----

// A #tile.nvmma tile starts at a multiple of the 128-byte swizzle's period.
tile.kernel @nvmma_offset() grid(%bx) = [1] threads(256) warp_specialized {
  // expected-error@+1 {{'tile.alloc_shared' op expected the offset of a #tile.nvmma tile to be a multiple of 1024 bytes (the swizzle's period), but got 128}}
  %a = tile.alloc_shared offset(128) : !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>
}

// -----

//===----------------------------------------------------------------------===//
// tile.copy async shared -> global (TMA store) and tile.tma_store_wait
//===----------------------------------------------------------------------===//

// TMA stores the swizzled panels it knows: a #tile.nvmma source.
tile.kernel @tma_store_plain_source(%C: !tile.buffer<?x?xf16, global>) grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %cs = tile.alloc_shared : !tile.buffer<64x128xf16, shared>
  tile.warp_specialize producer(registers = 40) {
  } compute(registers = 232) {
    // expected-error@+1 {{'tile.copy' op expected a TMA store's source to have a #tile.nvmma layout, but got '!tile.buffer<64x128xf16, shared>'}}
    tile.copy async %cs to %C[%c0, %c0] : !tile.buffer<64x128xf16, shared> to !tile.buffer<?x?xf16, global>
  }
}

// -----

// TMA moves bytes: no conversion on the way.
tile.kernel @tma_store_convert(%C: !tile.buffer<?x?xf32, global>) grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %cs = tile.alloc_shared : !tile.buffer<64x128xf16, shared, #tile.nvmma<swizzle = 128>>
  tile.warp_specialize producer(registers = 40) {
  } compute(registers = 232) {
    // expected-error@+1 {{'tile.copy' op expected a TMA store of the same element type, but got 'f16' and 'f32'}}
    tile.copy async %cs to %C[%c0, %c0] : !tile.buffer<64x128xf16, shared, #tile.nvmma<swizzle = 128>> to !tile.buffer<?x?xf32, global>
  }
}

// -----

tile.kernel @tma_store_rank(%C: !tile.buffer<?x?x?xf16, global>) grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %cs = tile.alloc_shared : !tile.buffer<2x64x128xf16, shared, #tile.nvmma<swizzle = 128>>
  tile.warp_specialize producer(registers = 40) {
  } compute(registers = 232) {
    // expected-error@+1 {{'tile.copy' op expected a rank-2 TMA store, but got rank 3}}
    tile.copy async %cs to %C[%c0, %c0, %c0] : !tile.buffer<2x64x128xf16, shared, #tile.nvmma<swizzle = 128>> to !tile.buffer<?x?x?xf16, global>
  }
}

// -----

// A store completes through tile.tma_store_wait, not on an mbarrier.
tile.kernel @tma_store_barrier(%C: !tile.buffer<?x?xf16, global>) grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %bars = tile.alloc_shared : !tile.buffer<1xi64, shared>
  %cs = tile.alloc_shared : !tile.buffer<64x128xf16, shared, #tile.nvmma<swizzle = 128>>
  tile.warp_specialize producer(registers = 40) {
  } compute(registers = 232) {
    // expected-error@+1 {{'tile.copy' op expected no mbarrier on a TMA store (it completes through tile.tma_store_wait)}}
    tile.copy async %cs to %C[%c0, %c0] barrier(%bars[%c0] : !tile.buffer<1xi64, shared>) : !tile.buffer<64x128xf16, shared, #tile.nvmma<swizzle = 128>> to !tile.buffer<?x?xf16, global>
  }
}

// -----

tile.kernel @tma_store_subview(%C: !tile.buffer<?x?x?xf16, global>) grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %cs = tile.alloc_shared : !tile.buffer<64x128xf16, shared, #tile.nvmma<swizzle = 128>>
  %head = tile.subview %C[%c0] : !tile.buffer<?x?x?xf16, global> to !tile.buffer<?x?xf16, global>
  tile.warp_specialize producer(registers = 40) {
  } compute(registers = 232) {
    // expected-error@+1 {{'tile.copy' op expected a TMA store to write a kernel parameter (its tensor map is encoded at launch)}}
    tile.copy async %cs to %head[%c0, %c0] : !tile.buffer<64x128xf16, shared, #tile.nvmma<swizzle = 128>> to !tile.buffer<?x?xf16, global>
  }
}

// -----

tile.kernel @tma_store_not_specialized(%C: !tile.buffer<?x?xf16, global>) grid(%bx) = [1] threads(256) {
  %c0 = arith.constant 0 : index
  %cs = tile.alloc_shared : !tile.buffer<64x128xf16, shared, #tile.nvmma<swizzle = 128>>
  // expected-error@+1 {{'tile.copy' op expected to be in a warp_specialized kernel (mbarriers, TMA and wgmma are the sm_90a lowering's)}}
  tile.copy async %cs to %C[%c0, %c0] : !tile.buffer<64x128xf16, shared, #tile.nvmma<swizzle = 128>> to !tile.buffer<?x?xf16, global>
}

// -----

// The producer's one thread does not share the tiles the compute role
// writes.
tile.kernel @tma_store_in_producer(%C: !tile.buffer<?x?xf16, global>) grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %cs = tile.alloc_shared : !tile.buffer<64x128xf16, shared, #tile.nvmma<swizzle = 128>>
  tile.warp_specialize producer(registers = 40) {
    // expected-error@+1 {{'tile.copy' op expected to be outside the producer role (its one thread does not share the compute role's shared tiles)}}
    tile.copy async %cs to %C[%c0, %c0] : !tile.buffer<64x128xf16, shared, #tile.nvmma<swizzle = 128>> to !tile.buffer<?x?xf16, global>
  } compute(registers = 232) {
  }
}

// -----

tile.kernel @tma_store_wait_plain_tile() grid(%bx) = [1] threads(256) warp_specialized {
  %cs = tile.alloc_shared : !tile.buffer<64x128xf16, shared>
  tile.warp_specialize producer(registers = 40) {
  } compute(registers = 232) {
    // expected-error@+1 {{'tile.tma_store_wait' op expected a shared tile in a #tile.nvmma layout (the source of TMA stores), but got '!tile.buffer<64x128xf16, shared>'}}
    tile.tma_store_wait %cs : !tile.buffer<64x128xf16, shared>
  }
}

// -----

tile.kernel @tma_store_wait_in_producer() grid(%bx) = [1] threads(256) warp_specialized {
  %cs = tile.alloc_shared : !tile.buffer<64x128xf16, shared, #tile.nvmma<swizzle = 128>>
  tile.warp_specialize producer(registers = 40) {
    // expected-error@+1 {{'tile.tma_store_wait' op expected to be outside the producer role (its one thread does not share the compute role's shared tiles)}}
    tile.tma_store_wait %cs : !tile.buffer<64x128xf16, shared, #tile.nvmma<swizzle = 128>>
  } compute(registers = 232) {
  }
}

// -----

tile.kernel @tma_store_wait_not_specialized() grid(%bx) = [1] threads(256) {
  %cs = tile.alloc_shared : !tile.buffer<64x128xf16, shared, #tile.nvmma<swizzle = 128>>
  // expected-error@+1 {{'tile.tma_store_wait' op expected to be in a warp_specialized kernel (mbarriers, TMA and wgmma are the sm_90a lowering's)}}
  tile.tma_store_wait %cs : !tile.buffer<64x128xf16, shared, #tile.nvmma<swizzle = 128>>
}

// -----

tile.kernel @tma_store_wait_pending_range() grid(%bx) = [1] threads(256) warp_specialized {
  %cs = tile.alloc_shared : !tile.buffer<64x128xf16, shared, #tile.nvmma<swizzle = 128>>
  tile.warp_specialize producer(registers = 40) {
  } compute(registers = 232) {
    // expected-error@+1 {{'tile.tma_store_wait' op expected 0 to 63 pending TMA stores, but got 64}}
    tile.tma_store_wait %cs pending(64) : !tile.buffer<64x128xf16, shared, #tile.nvmma<swizzle = 128>>
  }
}

// -----

// Leaving the newest store in flight would let %c0 be rewritten while that
// store still reads it.
tile.kernel @tma_store_wait_pending_reads_tile(%C: !tile.buffer<?x?xf16, global>) grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %s0 = tile.alloc_shared : !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>
  %s1 = tile.alloc_shared : !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>
  tile.warp_specialize producer(registers = 40) {
  } compute(registers = 232) {
    tile.copy async %s0 to %C[%c0, %c0] : !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>> to !tile.buffer<?x?xf16, global>
    tile.copy async %s1 to %C[%c0, %c64] : !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>> to !tile.buffer<?x?xf16, global>
    // expected-error@+1 {{'tile.tma_store_wait' op expected the 2 newest TMA stores not to read the tile, but store 2 of them (counting back from the wait) reads it}}
    tile.tma_store_wait %s0 pending(2) : !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>
  }
}

// -----

//===----------------------------------------------------------------------===//
// tile.copy from a window of a fragment
//===----------------------------------------------------------------------===//

// The offsets index registers at compile time.
tile.kernel @window_dynamic_offset() grid(%bx) = [1] threads(256) {
  %c0 = arith.constant 0 : index
  %acc = tile.alloc_fragment : !tile.buffer<128x256xf32, fragment>
  %cs = tile.alloc_shared : !tile.buffer<128x64xf16, shared>
  // expected-error@+1 {{'tile.copy' op expected constant offsets into a fragment (its registers are indexed statically), but source offset 1 is not a constant}}
  tile.copy %acc[%c0, %bx] to %cs : !tile.buffer<128x256xf32, fragment> to !tile.buffer<128x64xf16, shared>
}

// -----

tile.kernel @window_outside() grid(%bx) = [1] threads(256) {
  %c0 = arith.constant 0 : index
  %c224 = arith.constant 224 : index
  %acc = tile.alloc_fragment : !tile.buffer<128x256xf32, fragment>
  %cs = tile.alloc_shared : !tile.buffer<128x64xf16, shared>
  // expected-error@+1 {{'tile.copy' op expected the window 128x64 at source offset 1 = 224 inside the fragment 128x256, but it ends at 288}}
  tile.copy %acc[%c0, %c224] to %cs : !tile.buffer<128x256xf32, fragment> to !tile.buffer<128x64xf16, shared>
}

// -----

tile.kernel @window_to_fragment() grid(%bx) = [1] threads(256) {
  %c0 = arith.constant 0 : index
  %acc = tile.alloc_fragment : !tile.buffer<128x256xf32, fragment>
  %part = tile.alloc_fragment : !tile.buffer<128x64xf32, fragment>
  // expected-error@+1 {{'tile.copy' op expected a window of a fragment (a fragment source at offsets) to be copied synchronously to a shared tile, but got a copy to a fragment buffer}}
  tile.copy %acc[%c0, %c0] to %part : !tile.buffer<128x256xf32, fragment> to !tile.buffer<128x64xf32, fragment>
}

// -----

// A window 8 rows down: its row 8 is the fragment's row 16, which the
// next warp holds.
tile.kernel @window_moves_rows() grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %acc = tile.alloc_fragment : !tile.buffer<128x64xf32, fragment, #tile.wgmma<warpgroups = [1, 1]>>
  %cs = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  tile.warp_specialize producer(registers = 40) {
  } compute(registers = 232) {
    // expected-error@+1 {{'tile.copy' op expected a window that every thread holds in its own registers (#tile.wgmma<warpgroups = [1, 1]> over 256 threads), but element (8, 0) of the window is held by thread 160 in the fragment but by thread 128 in the window}}
    tile.copy %acc[%c8, %c0] to %cs : !tile.buffer<128x64xf32, fragment, #tile.wgmma<warpgroups = [1, 1]>> to !tile.buffer<64x64xf16, shared>
  }
}

// -----

//===----------------------------------------------------------------------===//
// tile.gemm async
//===----------------------------------------------------------------------===//

// wgmma runs in the compute warpgroups of a warp_specialized kernel.
tile.kernel @gemm_async_not_specialized() grid(%bx) = [1] threads(256) {
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>
  %b = tile.alloc_shared : !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment, #tile.wgmma<warpgroups = [1, 1]>>
  // expected-error@+1 {{'tile.gemm' op expected to be in a warp_specialized kernel (mbarriers, TMA and wgmma are the sm_90a lowering's)}}
  tile.gemm async %a, %b, %acc : !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>, !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>, !tile.buffer<64x64xf32, fragment, #tile.wgmma<warpgroups = [1, 1]>>
}

// -----

tile.kernel @gemm_async_mma_accumulator() grid(%bx) = [1] threads(256) warp_specialized {
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>
  %b = tile.alloc_shared : !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment, #tile.mma<warps = [4, 1]>>
  // expected-error@+1 {{'tile.gemm' op expected an async gemm's accumulator to have a #tile.wgmma layout, but got '!tile.buffer<64x64xf32, fragment, #tile.mma<warps = [4, 1]>>'}}
  tile.gemm async %a, %b, %acc : !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>, !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>, !tile.buffer<64x64xf32, fragment, #tile.mma<warps = [4, 1]>>
}

// -----

// The common gemm checks name both accumulator layouts.
tile.kernel @gemm_accumulator_row_major() grid(%bx) = [1] threads(256) warp_specialized {
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment, #tile.row_major<vec = 4>>
  // expected-error@+1 {{'tile.gemm' op expected the accumulator to have a #tile.mma or #tile.wgmma layout, but got #tile.row_major<vec = 4>}}
  tile.gemm async %a, %b, %acc : !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf32, fragment, #tile.row_major<vec = 4>>
}

// -----

tile.kernel @gemm_async_a_unswizzled() grid(%bx) = [1] threads(256) warp_specialized {
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment, #tile.wgmma<warpgroups = [1, 1]>>
  // expected-error@+1 {{'tile.gemm' op expected an async gemm's A and B to be shared tiles with a #tile.nvmma layout, but got '!tile.buffer<64x64xf16, shared>' and '!tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>'}}
  tile.gemm async %a, %b, %acc : !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>, !tile.buffer<64x64xf32, fragment, #tile.wgmma<warpgroups = [1, 1]>>
}

// -----

// An A in registers is the mma.sync form's, not wgmma's (yet).
tile.kernel @gemm_async_a_fragment() grid(%bx) = [1] threads(256) warp_specialized {
  %a = tile.alloc_fragment : !tile.buffer<64x64xf16, fragment, #tile.mma<warps = [4, 1]>>
  %b = tile.alloc_shared : !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment, #tile.wgmma<warpgroups = [1, 1]>>
  // expected-error@+1 {{'tile.gemm' op expected an async gemm's A and B to be shared tiles with a #tile.nvmma layout, but got '!tile.buffer<64x64xf16, fragment, #tile.mma<warps = [4, 1]>>' and '!tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>'}}
  tile.gemm async %a, %b, %acc : !tile.buffer<64x64xf16, fragment, #tile.mma<warps = [4, 1]>>, !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>, !tile.buffer<64x64xf32, fragment, #tile.wgmma<warpgroups = [1, 1]>>
}

// -----

tile.kernel @gemm_async_prefetched() grid(%bx) = [1] threads(256) warp_specialized {
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>
  %b = tile.alloc_shared : !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment, #tile.wgmma<warpgroups = [1, 1]>>
  // expected-error@+1 {{'tile.gemm' op expected no operand prefetch on an async gemm (wgmma reads shared memory itself)}}
  tile.gemm async %a, %b, %acc prefetched : !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>, !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>, !tile.buffer<64x64xf32, fragment, #tile.wgmma<warpgroups = [1, 1]>>
}

// -----

tile.kernel @gemm_async_next_operands() grid(%bx) = [1] threads(256) warp_specialized {
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>
  %b = tile.alloc_shared : !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment, #tile.wgmma<warpgroups = [1, 1]>>
  // expected-error@+1 {{'tile.gemm' op expected no operand prefetch on an async gemm (wgmma reads shared memory itself)}}
  tile.gemm async %a, %b, %acc then wait 0 prefetch %a, %b : !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>, !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>, !tile.buffer<64x64xf32, fragment, #tile.wgmma<warpgroups = [1, 1]>>
}

// -----

// A 64-byte swizzle is a valid layout, but not one the lowering emits.
tile.kernel @gemm_async_swizzle_64() grid(%bx) = [1] threads(256) warp_specialized {
  %a = tile.alloc_shared : !tile.buffer<64x32xf16, shared, #tile.nvmma<swizzle = 64>>
  %b = tile.alloc_shared : !tile.buffer<32x64xf16, shared, #tile.nvmma<swizzle = 128>>
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment, #tile.wgmma<warpgroups = [1, 1]>>
  // expected-error@+1 {{'tile.gemm' op expected #tile.nvmma<swizzle = 128> operands (the only swizzle the wgmma lowering emits yet), but got #tile.nvmma<swizzle = 64>}}
  tile.gemm async %a, %b, %acc : !tile.buffer<64x32xf16, shared, #tile.nvmma<swizzle = 64>>, !tile.buffer<32x64xf16, shared, #tile.nvmma<swizzle = 128>>, !tile.buffer<64x64xf32, fragment, #tile.wgmma<warpgroups = [1, 1]>>
}

// -----

// An N-major B is split between warpgroups by whole 64-column panels.
tile.kernel @gemm_async_partial_panels() grid(%bx) = [1] threads(384) warp_specialized {
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>
  %b = tile.alloc_shared : !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment, #tile.wgmma<warpgroups = [1, 2]>>
  tile.warp_specialize producer(registers = 40) {
  } compute(registers = 232) {
    // expected-error@+1 {{'tile.gemm' op expected each warpgroup's columns to be a multiple of 64 (a 128-byte panel of the N-major B) for #tile.wgmma<warpgroups = [1, 2]>, but got 32}}
    tile.gemm async %a, %b, %acc {clear_accum} : !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>, !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>, !tile.buffer<64x64xf32, fragment, #tile.wgmma<warpgroups = [1, 2]>>
  }
}

// -----

// expected-error@+1 {{'tile.kernel' op expected a persistent kernel to be warp_specialized (tile-warp-specialize writes its tile loop)}}
tile.kernel @persistent_not_specialized() grid(%bx) = [4] threads(256) persistent {
}

// -----

// expected-error@+1 {{'tile.kernel' op expected a persistent kernel to have a grid of 1 or 2 dimensions, but got 3}}
tile.kernel @persistent_split_k() grid(%bx, %by, %bz) = [4, 4, 2] threads(256) warp_specialized persistent {
}

// -----

tile.kernel @tile_range_not_persistent() grid(%bx) = [4] threads(256) warp_specialized {
  // expected-error@+1 {{'tile.tile_range' op expected to be in a persistent kernel (a non-persistent one runs one tile per block: its block indices)}}
  %first, %step, %count = tile.tile_range : index, index, index
}

// -----

tile.kernel @tile_coords_rank(%A: !tile.buffer<?x?xf16, global>) grid(%bx, %by) = [ceildiv(%A[1], 256), ceildiv(%A[0], 128)] threads(256) warp_specialized persistent {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'tile.tile_coords' op expected one index per grid dimension (2), but got 1}}
  %x = tile.tile_coords %c0 : index
}

// -----

//===----------------------------------------------------------------------===//
// Thread-block clusters: the kernel's `cluster`, multicast copies and
// cluster arrivals
//===----------------------------------------------------------------------===//

// expected-error@+1 {{'tile.kernel' op expected a kernel with a cluster to be persistent (its tile loop keeps the cluster's blocks on neighbouring tiles)}}
tile.kernel @cluster_not_persistent() grid(%bx, %by) = [4, 4] threads(256) warp_specialized attributes {cluster = array<i64: 1, 2>} {
}

// -----

// expected-error@+1 {{'tile.kernel' op expected one cluster extent per grid dimension (2), but got 1}}
tile.kernel @cluster_rank() grid(%bx, %by) = [4, 4] threads(256) warp_specialized persistent attributes {cluster = array<i64: 2>} {
}

// -----

// expected-error@+1 {{'tile.kernel' op expected a cluster of more than one block along exactly one grid dimension, but got 2 such dimensions}}
tile.kernel @cluster_two_dimensions() grid(%bx, %by) = [4, 4] threads(256) warp_specialized persistent attributes {cluster = array<i64: 2, 2>} {
}

// -----

// expected-error@+1 {{'tile.kernel' op expected a cluster of more than one block along exactly one grid dimension, but got 0 such dimensions}}
tile.kernel @cluster_of_one() grid(%bx, %by) = [4, 4] threads(256) warp_specialized persistent attributes {cluster = array<i64: 1, 1>} {
}

// -----

// expected-error@+1 {{'tile.kernel' op expected cluster extents of at least 1, but got 0}}
tile.kernel @cluster_zero() grid(%bx, %by) = [4, 4] threads(256) warp_specialized persistent attributes {cluster = array<i64: 0, 2>} {
}

// -----

// expected-error@+1 {{'tile.kernel' op expected at most 8 blocks per cluster, but got 16}}
tile.kernel @cluster_too_large() grid(%bx, %by) = [4, 4] threads(256) warp_specialized persistent attributes {cluster = array<i64: 1, 16>} {
}

// -----

tile.kernel @multicast_without_cluster(%A: !tile.buffer<?x?xf16, global>) grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %bars = tile.alloc_shared : !tile.buffer<1xi64, shared>
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>
  tile.warp_specialize producer(registers = 40) {
    // expected-error@+1 {{'tile.copy' op expected a multicast copy to be in a kernel with a cluster (its blocks share the stage)}}
    tile.copy async %A[%c0, %c0] to %a barrier(%bars[%c0] : !tile.buffer<1xi64, shared>) multicast : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>
  } compute(registers = 232) {
  }
}

// -----

tile.kernel @multicast_not_tma(%A: !tile.buffer<?x?xf16, global>) grid(%bx, %by) = [1, 2] threads(256) warp_specialized persistent attributes {cluster = array<i64: 1, 2>} {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  // expected-error@+1 {{'tile.copy' op expected multicast only on a TMA copy (async, to a shared tile, completing on an mbarrier)}}
  tile.copy %A[%c0, %c0] to %a multicast : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
}

// -----

tile.kernel @cluster_arrive_without_cluster() grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %bars = tile.alloc_shared : !tile.buffer<4xi64, shared>
  tile.warp_specialize producer(registers = 40) {
  } compute(registers = 232) {
    // expected-error@+1 {{'tile.mbarrier_arrive' op expected a cluster arrival to be in a kernel with a cluster (its blocks share the stage)}}
    tile.mbarrier_arrive %bars[%c0] cluster : !tile.buffer<4xi64, shared>
  }
}

// -----

tile.kernel @cluster_arrive_expect_tx() grid(%bx, %by) = [1, 2] threads(256) warp_specialized persistent attributes {cluster = array<i64: 1, 2>} {
  %c0 = arith.constant 0 : index
  %bars = tile.alloc_shared : !tile.buffer<4xi64, shared>
  tile.warp_specialize producer(registers = 40) {
    // expected-error@+1 {{'tile.mbarrier_arrive' op expected no expect_tx on a cluster arrival (each block announces its own bytes)}}
    tile.mbarrier_arrive %bars[%c0] expect_tx(1024) cluster : !tile.buffer<4xi64, shared>
  } compute(registers = 232) {
  }
}

// -----

//===----------------------------------------------------------------------===//
// Ping-pong: the kernel's `consumers` and tile.consumer_index.
//===----------------------------------------------------------------------===//

// expected-error@+1 {{'tile.kernel' op expected consumers of at least 2 in a persistent kernel without a cluster (the compute sets take turns over its tiles), but got consumers = 2 in a kernel that is not persistent}}
tile.kernel @consumers_not_persistent() grid(%bx) = [4] threads(256) warp_specialized attributes {consumers = 2 : i64} {
}

// -----

// expected-error@+1 {{'tile.kernel' op expected consumers of at least 2 in a persistent kernel without a cluster (the compute sets take turns over its tiles), but got consumers = 1}}
tile.kernel @consumers_one() grid(%bx) = [4] threads(256) warp_specialized persistent attributes {consumers = 1 : i64} {
}

// -----

// expected-error@+1 {{'tile.kernel' op expected consumers of at least 2 in a persistent kernel without a cluster (the compute sets take turns over its tiles), but got consumers = 2 with a cluster}}
tile.kernel @consumers_cluster() grid(%bx, %by) = [4, 4] threads(256) warp_specialized persistent attributes {cluster = array<i64: 1, 2>, consumers = 2 : i64} {
}

// -----

// expected-error@+1 {{'tile.kernel' op expected the block's threads, 640 + 1 x 512 = 1152, to be at most 1024}}
tile.kernel @consumers_too_many_threads() grid(%bx) = [4] threads(640) warp_specialized persistent attributes {consumers = 2 : i64} {
}

// -----

tile.kernel @consumer_index_outside_compute() grid(%bx) = [4] threads(256) warp_specialized persistent attributes {consumers = 2 : i64} {
  // expected-error@+1 {{'tile.consumer_index' op expected to be in the compute role of a tile.warp_specialize (the producer belongs to no compute set)}}
  %c = tile.consumer_index : index
}

// -----

tile.kernel @consumer_index_in_producer() grid(%bx) = [4] threads(256) warp_specialized persistent attributes {consumers = 2 : i64} {
  tile.warp_specialize producer {
    // expected-error@+1 {{'tile.consumer_index' op expected to be in the compute role of a tile.warp_specialize (the producer belongs to no compute set)}}
    %c = tile.consumer_index : index
  } compute {
  }
}

// -----

//===----------------------------------------------------------------------===//
// Stream-K: the kernel's `stream_k` and tile.stream_k_fixup.
//===----------------------------------------------------------------------===//

// expected-error@+1 {{'tile.kernel' op expected stream_k in a persistent kernel with one set of compute threads and no cluster, but got it in a kernel that is not persistent}}
tile.kernel @stream_k_not_persistent() grid(%bx) = [4] threads(384) warp_specialized attributes {stream_k} {
}

// -----

// expected-error@+1 {{'tile.kernel' op expected stream_k in a persistent kernel with one set of compute threads and no cluster, but got it with consumers}}
tile.kernel @stream_k_ping_pong() grid(%bx) = [4] threads(256) warp_specialized persistent attributes {consumers = 2 : i64, stream_k} {
}

// -----

// expected-error@+1 {{'tile.kernel' op expected stream_k in a persistent kernel with one set of compute threads and no cluster, but got it with a cluster}}
tile.kernel @stream_k_cluster() grid(%bx, %by) = [4, 4] threads(384) warp_specialized persistent attributes {cluster = array<i64: 1, 2>, stream_k} {
}

// -----

tile.kernel @fixup_not_stream_k() grid(%bx) = [4] threads(384) warp_specialized persistent {
  %c0 = arith.constant 0 : index
  %acc = tile.alloc_fragment : !tile.buffer<128x256xf32, fragment, #tile.wgmma<warpgroups = [2, 1]>>
  // expected-error@+1 {{'tile.stream_k_fixup' op expected to be in a stream_k kernel (its workspace holds the split tiles' chunks)}}
  %f = tile.stream_k_fixup %acc, %c0, %c0, %c0 max_chunks(2) : !tile.buffer<128x256xf32, fragment, #tile.wgmma<warpgroups = [2, 1]>>
}

// -----

tile.kernel @fixup_not_wgmma() grid(%bx) = [4] threads(384) warp_specialized persistent attributes {stream_k} {
  %c0 = arith.constant 0 : index
  %acc = tile.alloc_fragment : !tile.buffer<128x256xf16, fragment, #tile.wgmma<warpgroups = [2, 1]>>
  // expected-error@+1 {{'tile.stream_k_fixup' op expected an f32 fragment in the #tile.wgmma layout, but got '!tile.buffer<128x256xf16, fragment, #tile.wgmma<warpgroups = [2, 1]>>'}}
  %f = tile.stream_k_fixup %acc, %c0, %c0, %c0 max_chunks(2) : !tile.buffer<128x256xf16, fragment, #tile.wgmma<warpgroups = [2, 1]>>
}

// -----

tile.kernel @fixup_in_producer() grid(%bx) = [4] threads(384) warp_specialized persistent attributes {stream_k} {
  %c0 = arith.constant 0 : index
  %acc = tile.alloc_fragment : !tile.buffer<128x256xf32, fragment, #tile.wgmma<warpgroups = [2, 1]>>
  tile.warp_specialize producer {
    // expected-error@+1 {{'tile.stream_k_fixup' op expected to be outside the producer role (its one thread does not share the compute role's shared tiles)}}
    %f = tile.stream_k_fixup %acc, %c0, %c0, %c0 max_chunks(2) : !tile.buffer<128x256xf32, fragment, #tile.wgmma<warpgroups = [2, 1]>>
  } compute {
  }
}

// -----

tile.kernel @fixup_one_chunk() grid(%bx) = [4] threads(384) warp_specialized persistent attributes {stream_k} {
  %c0 = arith.constant 0 : index
  %acc = tile.alloc_fragment : !tile.buffer<128x256xf32, fragment, #tile.wgmma<warpgroups = [2, 1]>>
  // expected-error@+1 {{'tile.stream_k_fixup' op attribute 'max_chunks' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 2}}
  %f = tile.stream_k_fixup %acc, %c0, %c0, %c0 max_chunks(1) : !tile.buffer<128x256xf32, fragment, #tile.wgmma<warpgroups = [2, 1]>>
}
