// Round trip of the Hopper (sm_90a) forms through the custom and the generic
// assembly formats: the `warp_specialized` flag of tile.kernel, the ops of
// TileHopperOps.td (tile.mbarrier_init, tile.mbarrier_arrive with and
// without expect_tx, tile.mbarrier_wait, tile.gemm_wait,
// tile.warp_specialize with its register counts, tile.tile_range and
// tile.tile_coords of a `persistent` kernel), the TMA form of tile.copy
// (`async ... barrier(...)`), the TMA store (`async` shared -> global) with
// tile.tma_store_wait (and its `pending` count), a copy from a window of a
// #tile.wgmma accumulator, `tile.gemm async`, and a kernel's thread-block
// `cluster` with a `multicast` TMA copy and a `cluster` arrival, a
// ping-pong kernel's `consumers` with tile.consumer_index, at the limits
// their verifiers accept. The diagnostics are in hopper-ops-invalid.mlir.
//
// RUN: tile-opt %s | tile-opt | FileCheck %s
// RUN: tile-opt %s --mlir-print-op-generic | tile-opt | FileCheck %s

// The shape tile-warp-specialize writes: one producer warpgroup and two
// compute warpgroups, four stages, `full` and `empty` mbarriers.
// CHECK-LABEL: tile.kernel @pipeline(
// CHECK-SAME: grid(%bx) = [1] threads(384) warp_specialized {
// CHECK: %[[FULL:.*]] = tile.alloc_shared : !tile.buffer<4xi64, shared>
// CHECK: %[[EMPTY:.*]] = tile.alloc_shared : !tile.buffer<4xi64, shared>
// CHECK: %[[A:.*]] = tile.alloc_shared : !tile.buffer<4x128x64xf16, shared, #tile.nvmma<swizzle = 128>>
// CHECK: %[[B:.*]] = tile.alloc_shared offset(65536) : !tile.buffer<4x64x256xf16, shared, #tile.nvmma<swizzle = 128>>
// CHECK: %[[ACC:.*]] = tile.alloc_fragment : !tile.buffer<128x256xf32, fragment, #tile.wgmma<warpgroups = [2, 1]>>
// CHECK: tile.mbarrier_init %[[FULL]] count(1) : !tile.buffer<4xi64, shared>
// CHECK: tile.mbarrier_init %[[EMPTY]] count(256) : !tile.buffer<4xi64, shared>
// CHECK: tile.warp_specialize producer(registers = 40) {
// CHECK-NEXT: tile.mbarrier_wait %[[EMPTY]][%[[S:.*]]], %[[P:.*]] : !tile.buffer<4xi64, shared>
// CHECK-NEXT: tile.mbarrier_arrive %[[FULL]][%[[S]]] expect_tx(49152) : !tile.buffer<4xi64, shared>
// CHECK-NEXT: %[[AS:.*]] = tile.stage %[[A]][%[[S]]]
// CHECK-NEXT: tile.copy async %A[%{{.*}}, %{{.*}}] to %[[AS]] barrier(%[[FULL]][%[[S]]] : !tile.buffer<4xi64, shared>) : !tile.buffer<?x?xf16, global> to !tile.buffer<128x64xf16, shared, #tile.nvmma<swizzle = 128>>
// CHECK-NEXT: %[[BS:.*]] = tile.stage %[[B]][%[[S]]]
// CHECK-NEXT: tile.copy async %B[%{{.*}}, %{{.*}}] to %[[BS]] barrier(%[[FULL]][%[[S]]] : !tile.buffer<4xi64, shared>) : !tile.buffer<?x?xf16, global> to !tile.buffer<64x256xf16, shared, #tile.nvmma<swizzle = 128>>
// CHECK-NEXT: } compute(registers = 232) {
// CHECK-NEXT: tile.mbarrier_wait %[[FULL]][%[[S]]], %[[S]] : !tile.buffer<4xi64, shared>
// CHECK-NEXT: %[[AC:.*]] = tile.stage %[[A]][%[[S]]]
// CHECK-NEXT: %[[BC:.*]] = tile.stage %[[B]][%[[S]]]
// CHECK-NEXT: tile.gemm async %[[AC]], %[[BC]], %[[ACC]] {clear_accum} : !tile.buffer<128x64xf16, shared, #tile.nvmma<swizzle = 128>>, !tile.buffer<64x256xf16, shared, #tile.nvmma<swizzle = 128>>, !tile.buffer<128x256xf32, fragment, #tile.wgmma<warpgroups = [2, 1]>>
// CHECK-NEXT: tile.gemm_wait 1, %[[ACC]] : !tile.buffer<128x256xf32, fragment, #tile.wgmma<warpgroups = [2, 1]>>
// CHECK-NEXT: tile.gemm async %[[AC]], %[[BC]], %[[ACC]] : !tile.buffer
// CHECK-NEXT: tile.mbarrier_arrive %[[EMPTY]][%[[S]]] : !tile.buffer<4xi64, shared>
// CHECK-NEXT: tile.gemm_wait 0, %[[ACC]] : !tile.buffer<128x256xf32, fragment, #tile.wgmma<warpgroups = [2, 1]>>
// CHECK-NEXT: tile.copy %[[ACC]] to %C[%{{.*}}, %{{.*}}] : !tile.buffer<128x256xf32, fragment, #tile.wgmma<warpgroups = [2, 1]>> to !tile.buffer<?x?xf32, global>
// CHECK-NEXT: }
tile.kernel @pipeline(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf32, global>)
    grid(%bx) = [1] threads(384) warp_specialized {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %full = tile.alloc_shared : !tile.buffer<4xi64, shared>
  %empty = tile.alloc_shared : !tile.buffer<4xi64, shared>
  %a = tile.alloc_shared : !tile.buffer<4x128x64xf16, shared, #tile.nvmma<swizzle = 128>>
  %b = tile.alloc_shared offset(65536) : !tile.buffer<4x64x256xf16, shared, #tile.nvmma<swizzle = 128>>
  %acc = tile.alloc_fragment : !tile.buffer<128x256xf32, fragment, #tile.wgmma<warpgroups = [2, 1]>>
  tile.mbarrier_init %full count(1) : !tile.buffer<4xi64, shared>
  tile.mbarrier_init %empty count(256) : !tile.buffer<4xi64, shared>
  tile.warp_specialize producer(registers = 40) {
    tile.mbarrier_wait %empty[%c0], %c1 : !tile.buffer<4xi64, shared>
    tile.mbarrier_arrive %full[%c0] expect_tx(49152) : !tile.buffer<4xi64, shared>
    %as = tile.stage %a[%c0] : !tile.buffer<4x128x64xf16, shared, #tile.nvmma<swizzle = 128>> -> !tile.buffer<128x64xf16, shared, #tile.nvmma<swizzle = 128>>
    tile.copy async %A[%c0, %c0] to %as barrier(%full[%c0] : !tile.buffer<4xi64, shared>) : !tile.buffer<?x?xf16, global> to !tile.buffer<128x64xf16, shared, #tile.nvmma<swizzle = 128>>
    %bs = tile.stage %b[%c0] : !tile.buffer<4x64x256xf16, shared, #tile.nvmma<swizzle = 128>> -> !tile.buffer<64x256xf16, shared, #tile.nvmma<swizzle = 128>>
    tile.copy async %B[%c0, %c0] to %bs barrier(%full[%c0] : !tile.buffer<4xi64, shared>) : !tile.buffer<?x?xf16, global> to !tile.buffer<64x256xf16, shared, #tile.nvmma<swizzle = 128>>
  } compute(registers = 232) {
    tile.mbarrier_wait %full[%c0], %c0 : !tile.buffer<4xi64, shared>
    %as = tile.stage %a[%c0] : !tile.buffer<4x128x64xf16, shared, #tile.nvmma<swizzle = 128>> -> !tile.buffer<128x64xf16, shared, #tile.nvmma<swizzle = 128>>
    %bs = tile.stage %b[%c0] : !tile.buffer<4x64x256xf16, shared, #tile.nvmma<swizzle = 128>> -> !tile.buffer<64x256xf16, shared, #tile.nvmma<swizzle = 128>>
    tile.gemm async %as, %bs, %acc {clear_accum} : !tile.buffer<128x64xf16, shared, #tile.nvmma<swizzle = 128>>, !tile.buffer<64x256xf16, shared, #tile.nvmma<swizzle = 128>>, !tile.buffer<128x256xf32, fragment, #tile.wgmma<warpgroups = [2, 1]>>
    tile.gemm_wait 1, %acc : !tile.buffer<128x256xf32, fragment, #tile.wgmma<warpgroups = [2, 1]>>
    tile.gemm async %as, %bs, %acc : !tile.buffer<128x64xf16, shared, #tile.nvmma<swizzle = 128>>, !tile.buffer<64x256xf16, shared, #tile.nvmma<swizzle = 128>>, !tile.buffer<128x256xf32, fragment, #tile.wgmma<warpgroups = [2, 1]>>
    tile.mbarrier_arrive %empty[%c0] : !tile.buffer<4xi64, shared>
    tile.gemm_wait 0, %acc : !tile.buffer<128x256xf32, fragment, #tile.wgmma<warpgroups = [2, 1]>>
    tile.copy %acc to %C[%c0, %c0] : !tile.buffer<128x256xf32, fragment, #tile.wgmma<warpgroups = [2, 1]>> to !tile.buffer<?x?xf32, global>
  }
}

// The fewest threads (one compute warpgroup), the largest arrival count and
// expect_tx (2^20 - 1), a TMA copy of a whole tile (no offsets), a K-major
// B (transpose_b) in bf16, seven groups pending, and register counts at
// both ends of setmaxnreg's range.
// CHECK-LABEL: tile.kernel @limits(
// CHECK-SAME: threads(256) warp_specialized {
// CHECK: tile.mbarrier_init %[[BARS:.*]] count(1048575) : !tile.buffer<2xi64, shared>
// CHECK: tile.warp_specialize producer(registers = 24) {
// CHECK-NEXT: tile.mbarrier_arrive %[[BARS]][%{{.*}}] expect_tx(1048575) : !tile.buffer<2xi64, shared>
// CHECK-NEXT: tile.copy async %A to %{{.*}} barrier(%[[BARS]][%{{.*}}] : !tile.buffer<2xi64, shared>) : !tile.buffer<?x?xbf16, global> to !tile.buffer<64x64xbf16, shared, #tile.nvmma<swizzle = 128>>
// CHECK-NEXT: } compute(registers = 256) {
// CHECK-NEXT: tile.gemm async %{{.*}}, %{{.*}}, %{{.*}} {transpose_b} : !tile.buffer<64x64xbf16, shared, #tile.nvmma<swizzle = 128>>, !tile.buffer<128x64xbf16, shared, #tile.nvmma<swizzle = 128>>, !tile.buffer<64x128xf32, fragment, #tile.wgmma<warpgroups = [1, 1]>>
// CHECK-NEXT: tile.gemm_wait 7, %{{.*}} : !tile.buffer<64x128xf32, fragment, #tile.wgmma<warpgroups = [1, 1]>>
tile.kernel @limits(%A: !tile.buffer<?x?xbf16, global>)
    grid(%bx) = [1] threads(256) warp_specialized {
  %c1 = arith.constant 1 : index
  %bars = tile.alloc_shared : !tile.buffer<2xi64, shared>
  %a = tile.alloc_shared : !tile.buffer<64x64xbf16, shared, #tile.nvmma<swizzle = 128>>
  %b = tile.alloc_shared : !tile.buffer<128x64xbf16, shared, #tile.nvmma<swizzle = 128>>
  %acc = tile.alloc_fragment : !tile.buffer<64x128xf32, fragment, #tile.wgmma<warpgroups = [1, 1]>>
  tile.mbarrier_init %bars count(1048575) : !tile.buffer<2xi64, shared>
  tile.warp_specialize producer(registers = 24) {
    tile.mbarrier_arrive %bars[%c1] expect_tx(1048575) : !tile.buffer<2xi64, shared>
    tile.copy async %A to %a barrier(%bars[%c1] : !tile.buffer<2xi64, shared>) : !tile.buffer<?x?xbf16, global> to !tile.buffer<64x64xbf16, shared, #tile.nvmma<swizzle = 128>>
  } compute(registers = 256) {
    tile.gemm async %a, %b, %acc {transpose_b} : !tile.buffer<64x64xbf16, shared, #tile.nvmma<swizzle = 128>>, !tile.buffer<128x64xbf16, shared, #tile.nvmma<swizzle = 128>>, !tile.buffer<64x128xf32, fragment, #tile.wgmma<warpgroups = [1, 1]>>
    tile.gemm_wait 7, %acc : !tile.buffer<64x128xf32, fragment, #tile.wgmma<warpgroups = [1, 1]>>
  }
}

// Empty roles; the most threads: 128 x 24 + 896 x 64 registers fit an SM.
// CHECK-LABEL: tile.kernel @empty_roles()
// CHECK-SAME: threads(1024) warp_specialized {
// CHECK-NEXT: tile.warp_specialize producer(registers = 24) {
// CHECK-NEXT: } compute(registers = 64) {
// CHECK-NEXT: }
// CHECK-NEXT: }
tile.kernel @empty_roles() grid(%bx) = [1] threads(1024) warp_specialized {
  tile.warp_specialize producer(registers = 24) {
  } compute(registers = 64) {
  }
}

// Without register counts the roles keep the registers of their entry (no
// setmaxnreg).
// CHECK-LABEL: tile.kernel @roles_without_registers()
// CHECK-NEXT: tile.warp_specialize producer {
// CHECK-NEXT: } compute {
tile.kernel @roles_without_registers() grid(%bx) = [1] threads(256) warp_specialized {
  tile.warp_specialize producer {
  } compute {
  }
}

// Without the flag nothing prints; the flag comes before the divisibility
// promises and the contract.
// CHECK-LABEL: tile.kernel @flag_order(
// CHECK-SAME: threads(512) warp_specialized divisible(%A[1] by 8) requires(%A[0] <= 4096) {
tile.kernel @flag_order(%A: !tile.buffer<?x?xf16, global>)
    grid(%bx) = [1] threads(512) warp_specialized divisible(%A[1] by 8)
    requires(%A[0] <= 4096) {
}

// CHECK-LABEL: tile.kernel @not_specialized()
// CHECK-SAME: threads(384) {
tile.kernel @not_specialized() grid(%bx) = [1] threads(384) {
}

// A persistent kernel and its tile ops: the flag after warp_specialized,
// the block's tile range and a tile's coordinates (one per grid
// dimension).
// CHECK-LABEL: tile.kernel @persistent(
// CHECK-SAME: threads(384) warp_specialized persistent divisible(%A[1] by 8) {
// CHECK: %[[FIRST:.*]], %[[STEP:.*]], %[[COUNT:.*]] = tile.tile_range : index, index, index
// CHECK: scf.for %[[T:.*]] = %[[FIRST]] to %[[COUNT]] step %[[STEP]] {
// CHECK-NEXT: %{{.*}}:2 = tile.tile_coords %[[T]] : index, index
tile.kernel @persistent(%A: !tile.buffer<?x?xf16, global>)
    grid(%bx, %by) = [ceildiv(%A[1], 256), ceildiv(%A[0], 128)] threads(384) warp_specialized persistent divisible(%A[1] by 8) {
  %first, %step, %count = tile.tile_range : index, index, index
  scf.for %t = %first to %count step %step {
    %x, %y = tile.tile_coords %t : index, index
  }
}

// A ping-pong kernel (`consumers`, with persistent): its registers are
// those of the 384 threads it launches (168 each at entry: 128 x 24 +
// 256 x 240 = 64,512), and each compute set's own copy of a shared tile, a
// stage indexed by tile.consumer_index, is written like any shared tile.
// CHECK-LABEL: tile.kernel @ping_pong(
// CHECK-SAME: threads(256) warp_specialized persistent attributes {consumers = 2 : i64} {
// CHECK: } compute(registers = 240) {
// CHECK-NEXT: %[[SET:.*]] = tile.consumer_index : index
// CHECK-NEXT: %[[OWN:.*]] = tile.stage %{{.*}}[%[[SET]]] : !tile.buffer<2x128xf16, shared> -> !tile.buffer<128xf16, shared>
// CHECK-NEXT: tile.copy %Bias[%{{.*}}] to %[[OWN]]
tile.kernel @ping_pong(%Bias: !tile.buffer<?xf16, global>)
    grid(%bx) = [4] threads(256) warp_specialized persistent attributes {consumers = 2 : i64} {
  %c0 = arith.constant 0 : index
  %bs = tile.alloc_shared : !tile.buffer<2x128xf16, shared>
  tile.warp_specialize producer(registers = 24) {
  } compute(registers = 240) {
    %set = tile.consumer_index : index
    %own = tile.stage %bs[%set] : !tile.buffer<2x128xf16, shared> -> !tile.buffer<128xf16, shared>
    tile.copy %Bias[%c0] to %own : !tile.buffer<?xf16, global> to !tile.buffer<128xf16, shared>
  }
}

// A TMA store of a #tile.nvmma tile to a kernel parameter from the compute
// role, and the wait for its reads.
// CHECK-LABEL: tile.kernel @tma_store(
// CHECK: %[[CS:.*]] = tile.alloc_shared : !tile.buffer<64x128xf16, shared, #tile.nvmma<swizzle = 128>>
// CHECK: } compute(registers = 232) {
// CHECK-NEXT: tile.copy async %[[CS]] to %C[%{{.*}}, %{{.*}}] : !tile.buffer<64x128xf16, shared, #tile.nvmma<swizzle = 128>> to !tile.buffer<?x?xf16, global>
// CHECK-NEXT: tile.tma_store_wait %[[CS]] : !tile.buffer<64x128xf16, shared, #tile.nvmma<swizzle = 128>>
tile.kernel @tma_store(%C: !tile.buffer<?x?xf16, global>)
    grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %cs = tile.alloc_shared : !tile.buffer<64x128xf16, shared, #tile.nvmma<swizzle = 128>>
  tile.warp_specialize producer(registers = 40) {
  } compute(registers = 232) {
    tile.copy async %cs to %C[%c0, %c0] : !tile.buffer<64x128xf16, shared, #tile.nvmma<swizzle = 128>> to !tile.buffer<?x?xf16, global>
    tile.tma_store_wait %cs : !tile.buffer<64x128xf16, shared, #tile.nvmma<swizzle = 128>>
  }
}

// Bands of an accumulator staged in two tiles in turn: the window copies
// (constant offsets into the fragment) and the waits that leave the other
// tile's store in flight (`pending(1)`, at the verifier's bound of 63 too).
// CHECK-LABEL: tile.kernel @tma_store_bands(
// CHECK: tile.tma_store_wait %{{.*}} pending(63) :
// CHECK-NEXT: tile.copy %[[ACC:.*]][%[[C0:.*]], %[[C0]]] to %[[S0:[^ ]*]] : !tile.buffer<128x256xf32, fragment, #tile.wgmma<warpgroups = [2, 1]>> to !tile.buffer<128x64xf16, shared, #tile.nvmma<swizzle = 128>>
// CHECK: tile.copy %[[ACC]][%[[C0]], %[[C64:.*]]] to %[[S1:[^ ]*]] :
// CHECK: tile.tma_store_wait %[[S0]] pending(1) : !tile.buffer<128x64xf16, shared, #tile.nvmma<swizzle = 128>>
// CHECK-NEXT: tile.copy %[[ACC]][%[[C0]], %{{.*}}] to %[[S0]] :
// CHECK: tile.tma_store_wait %[[S0]] :
tile.kernel @tma_store_bands(%C: !tile.buffer<?x?xf16, global>)
    grid(%bx) = [1] threads(384) warp_specialized {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %acc = tile.alloc_fragment : !tile.buffer<128x256xf32, fragment, #tile.wgmma<warpgroups = [2, 1]>>
  %s0 = tile.alloc_shared : !tile.buffer<128x64xf16, shared, #tile.nvmma<swizzle = 128>>
  %s1 = tile.alloc_shared : !tile.buffer<128x64xf16, shared, #tile.nvmma<swizzle = 128>>
  tile.warp_specialize producer(registers = 40) {
  } compute(registers = 232) {
    tile.tma_store_wait %s1 pending(63) : !tile.buffer<128x64xf16, shared, #tile.nvmma<swizzle = 128>>
    tile.copy %acc[%c0, %c0] to %s0 : !tile.buffer<128x256xf32, fragment, #tile.wgmma<warpgroups = [2, 1]>> to !tile.buffer<128x64xf16, shared, #tile.nvmma<swizzle = 128>>
    tile.copy async %s0 to %C[%c0, %c0] : !tile.buffer<128x64xf16, shared, #tile.nvmma<swizzle = 128>> to !tile.buffer<?x?xf16, global>
    tile.copy %acc[%c0, %c64] to %s1 : !tile.buffer<128x256xf32, fragment, #tile.wgmma<warpgroups = [2, 1]>> to !tile.buffer<128x64xf16, shared, #tile.nvmma<swizzle = 128>>
    tile.copy async %s1 to %C[%c0, %c64] : !tile.buffer<128x64xf16, shared, #tile.nvmma<swizzle = 128>> to !tile.buffer<?x?xf16, global>
    tile.tma_store_wait %s0 pending(1) : !tile.buffer<128x64xf16, shared, #tile.nvmma<swizzle = 128>>
    tile.copy %acc[%c0, %c128] to %s0 : !tile.buffer<128x256xf32, fragment, #tile.wgmma<warpgroups = [2, 1]>> to !tile.buffer<128x64xf16, shared, #tile.nvmma<swizzle = 128>>
    tile.copy async %s0 to %C[%c0, %c128] : !tile.buffer<128x64xf16, shared, #tile.nvmma<swizzle = 128>> to !tile.buffer<?x?xf16, global>
    tile.tma_store_wait %s0 : !tile.buffer<128x64xf16, shared, #tile.nvmma<swizzle = 128>>
  }
}

// A kernel with a cluster of two blocks along y: its `cluster` attribute,
// a multicast TMA copy and a cluster arrival.
// CHECK-LABEL: tile.kernel @cluster(
// CHECK-SAME: warp_specialized persistent attributes {cluster = array<i64: 1, 2>} {
// CHECK: tile.copy async %A[%{{.*}}, %{{.*}}] to %{{.*}} barrier(%{{.*}}[%{{.*}}] : !tile.buffer<2xi64, shared>) multicast : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>
// CHECK: tile.mbarrier_arrive %{{.*}}[%{{.*}}] cluster : !tile.buffer<2xi64, shared>
tile.kernel @cluster(%A: !tile.buffer<?x?xf16, global>)
    grid(%bx, %by) = [4, 4] threads(256) warp_specialized persistent attributes {cluster = array<i64: 1, 2>} {
  %c0 = arith.constant 0 : index
  %bars = tile.alloc_shared : !tile.buffer<2xi64, shared>
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>
  tile.warp_specialize producer(registers = 40) {
    tile.copy async %A[%c0, %c0] to %a barrier(%bars[%c0] : !tile.buffer<2xi64, shared>) multicast : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 128>>
  } compute(registers = 232) {
    tile.mbarrier_arrive %bars[%c0] cluster : !tile.buffer<2xi64, shared>
  }
}
