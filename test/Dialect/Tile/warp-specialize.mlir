// -tile-warp-specialize: the pipelined GEMM loop of a warp_specialized
// kernel becomes an mbarrier pipeline split between a TMA producer and the
// wgmma compute warpgroups (tile.warp_specialize). Pinned: the staged
// #tile.nvmma tiles (the unstaged ones and the accumulator's clear are
// gone), the full/empty mbarriers and their arrival counts, the register
// budgets, the producer loop (wait on `empty` with the flipped parity,
// expect_tx of one stage's bytes, TMA copies into the stage), the compute
// role (a guard on the trip count, iteration 0 peeled with clear_accum, the
// loop from 1 with one group in flight, the release of the previous stage,
// the final wait, the clear for K = 0) and the epilogue in the compute role.
// Kernels that are not warp_specialized are left alone. The diagnostics
// are in warp-specialize-invalid.mlir. A persistent kernel (@persistent)
// gets each role a loop over its tiles; a ping-pong one (@ping_pong) two
// compute sets that take turns over them.
//
// RUN: tile-opt %s -split-input-file --tile-assign-layouts --tile-warp-specialize | FileCheck %s

// Two compute warpgroups, three stages of a 128x64 A and a 64x128 B tile.
// CHECK-LABEL: tile.kernel @gemm(
// CHECK-SAME: threads(384) warp_specialized {
// CHECK-NOT: tile.alloc_shared
// CHECK: %[[ROW:.*]] = arith.muli %by, %c128 : index
// CHECK-NEXT: %[[COL:.*]] = arith.muli %bx, %c128 : index
// CHECK-NOT: tile.alloc_shared
// CHECK: %[[ACC:.*]] = tile.alloc_fragment : !tile.buffer<128x128xf32, fragment, #tile.wgmma<warpgroups = [2, 1]>>
// CHECK-NOT: tile.clear
// CHECK: %[[N:.*]] = arith.ceildivui
// CHECK-NOT: tile.alloc_shared
// CHECK: %[[AS:.*]] = tile.alloc_shared : !tile.buffer<3x128x64xf16, shared, #tile.nvmma<swizzle = 128>>
// CHECK-NEXT: %[[BS:.*]] = tile.alloc_shared : !tile.buffer<3x64x128xf16, shared, #tile.nvmma<swizzle = 128>>
// CHECK-NEXT: %[[FULL:.*]] = tile.alloc_shared : !tile.buffer<3xi64, shared>
// CHECK-NEXT: %[[EMPTY:.*]] = tile.alloc_shared : !tile.buffer<3xi64, shared>
// CHECK-NEXT: tile.mbarrier_init %[[FULL]] count(1) : !tile.buffer<3xi64, shared>
// CHECK-NEXT: tile.mbarrier_init %[[EMPTY]] count(256) : !tile.buffer<3xi64, shared>
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : index
//
// The producer: iteration i waits for empty[i mod 3] with parity
// (i / 3 + 1) mod 2, announces 16384 + 16384 bytes on full[i mod 3] and
// copies both tiles into stage i mod 3 with TMA.
// CHECK-NEXT: tile.warp_specialize producer(registers = 40) {
// CHECK-NEXT: scf.for %[[I:.*]] = %[[ZERO]] to %[[N]] step %[[ONE]] {
// CHECK-NEXT: %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT: %[[S:.*]] = arith.remui %[[I]], %[[C3]] : index
// CHECK-NEXT: %[[C3B:.*]] = arith.constant 3 : index
// CHECK-NEXT: %[[ROUND:.*]] = arith.divui %[[I]], %[[C3B]] : index
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[FLIP:.*]] = arith.addi %[[ROUND]], %[[C1]] : index
// CHECK-NEXT: %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[PE:.*]] = arith.remui %[[FLIP]], %[[C2]] : index
// CHECK-NEXT: tile.mbarrier_wait %[[EMPTY]][%[[S]]], %[[PE]] : !tile.buffer<3xi64, shared>
// CHECK-NEXT: tile.mbarrier_arrive %[[FULL]][%[[S]]] expect_tx(32768) : !tile.buffer<3xi64, shared>
// CHECK-NEXT: %[[K0:.*]] = arith.muli %[[I]], %c64 : index
// CHECK-NEXT: %[[A:.*]] = tile.stage %[[AS]][%[[S]]] : !tile.buffer<3x128x64xf16, shared, #tile.nvmma<swizzle = 128>> -> !tile.buffer<128x64xf16, shared, #tile.nvmma<swizzle = 128>>
// CHECK-NEXT: tile.copy async %A[%[[ROW]], %[[K0]]] to %[[A]] barrier(%[[FULL]][%[[S]]] : !tile.buffer<3xi64, shared>) : !tile.buffer<?x?xf16, global> to !tile.buffer<128x64xf16, shared, #tile.nvmma<swizzle = 128>>
// CHECK-NEXT: %[[B:.*]] = tile.stage %[[BS]][%[[S]]] : !tile.buffer<3x64x128xf16, shared, #tile.nvmma<swizzle = 128>> -> !tile.buffer<64x128xf16, shared, #tile.nvmma<swizzle = 128>>
// CHECK-NEXT: tile.copy async %B[%[[K0]], %[[COL]]] to %[[B]] barrier(%[[FULL]][%[[S]]] : !tile.buffer<3xi64, shared>) : !tile.buffer<?x?xf16, global> to !tile.buffer<64x128xf16, shared, #tile.nvmma<swizzle = 128>>
// CHECK-NEXT: }
//
// The compute role: nothing to wait for without K steps.
// CHECK-NEXT: } compute(registers = 232) {
// CHECK-NEXT: %[[ANY:.*]] = arith.cmpi sgt, %[[N]], %[[ZERO]] : index
// CHECK-NEXT: scf.if %[[ANY]] {
//
// Iteration 0, peeled: full[0] with parity 0, the gemm overwrites the
// accumulator (in place of the clear), then one group stays in flight.
// CHECK-NEXT: %[[P3:.*]] = arith.constant 3 : index
// CHECK-NEXT: %[[S0:.*]] = arith.remui %[[ZERO]], %[[P3]] : index
// CHECK-NEXT: %[[P3B:.*]] = arith.constant 3 : index
// CHECK-NEXT: %[[R0:.*]] = arith.divui %[[ZERO]], %[[P3B]] : index
// CHECK-NEXT: %[[P2:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[PF0:.*]] = arith.remui %[[R0]], %[[P2]] : index
// CHECK-NEXT: tile.mbarrier_wait %[[FULL]][%[[S0]]], %[[PF0]] : !tile.buffer<3xi64, shared>
// CHECK-NEXT: arith.muli %[[ZERO]], %c64 : index
// CHECK-NEXT: %[[B0:.*]] = tile.stage %[[BS]][%[[S0]]]
// CHECK-NEXT: %[[A0:.*]] = tile.stage %[[AS]][%[[S0]]]
// CHECK-NEXT: tile.gemm async %[[A0]], %[[B0]], %[[ACC]] {clear_accum} : !tile.buffer<128x64xf16, shared, #tile.nvmma<swizzle = 128>>, !tile.buffer<64x128xf16, shared, #tile.nvmma<swizzle = 128>>, !tile.buffer<128x128xf32, fragment, #tile.wgmma<warpgroups = [2, 1]>>
// CHECK-NEXT: tile.gemm_wait 1, %[[ACC]] : !tile.buffer<128x128xf32, fragment, #tile.wgmma<warpgroups = [2, 1]>>
//
// Iterations 1..n-1: full[j mod 3] with parity (j / 3) mod 2, the gemm
// accumulates; once group j is issued, group j - 1 is done and stage
// (j - 1) mod 3 goes back to the producer.
// CHECK-NEXT: scf.for %[[J:.*]] = %[[ONE]] to %[[N]] step %[[ONE]] {
// CHECK-NEXT: %[[J3:.*]] = arith.constant 3 : index
// CHECK-NEXT: %[[SJ:.*]] = arith.remui %[[J]], %[[J3]] : index
// CHECK-NEXT: %[[J3B:.*]] = arith.constant 3 : index
// CHECK-NEXT: %[[RJ:.*]] = arith.divui %[[J]], %[[J3B]] : index
// CHECK-NEXT: %[[J2:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[PJ:.*]] = arith.remui %[[RJ]], %[[J2]] : index
// CHECK-NEXT: tile.mbarrier_wait %[[FULL]][%[[SJ]]], %[[PJ]] : !tile.buffer<3xi64, shared>
// CHECK-NEXT: arith.muli %[[J]], %c64 : index
// CHECK-NEXT: %[[BJ:.*]] = tile.stage %[[BS]][%[[SJ]]]
// CHECK-NEXT: %[[AJ:.*]] = tile.stage %[[AS]][%[[SJ]]]
// CHECK-NEXT: tile.gemm async %[[AJ]], %[[BJ]], %[[ACC]] : !tile.buffer<128x64xf16, shared, #tile.nvmma<swizzle = 128>>, !tile.buffer<64x128xf16, shared, #tile.nvmma<swizzle = 128>>, !tile.buffer<128x128xf32, fragment, #tile.wgmma<warpgroups = [2, 1]>>
// CHECK-NEXT: tile.gemm_wait 1, %[[ACC]] : !tile.buffer<128x128xf32, fragment, #tile.wgmma<warpgroups = [2, 1]>>
// CHECK-NEXT: %[[PREV:.*]] = arith.subi %[[J]], %[[ONE]] : index
// CHECK-NEXT: %[[E3:.*]] = arith.constant 3 : index
// CHECK-NEXT: %[[SP:.*]] = arith.remui %[[PREV]], %[[E3]] : index
// CHECK-NEXT: tile.mbarrier_arrive %[[EMPTY]][%[[SP]]] : !tile.buffer<3xi64, shared>
// CHECK-NEXT: }
// CHECK-NEXT: tile.gemm_wait 0, %[[ACC]] : !tile.buffer<128x128xf32, fragment, #tile.wgmma<warpgroups = [2, 1]>>
//
// K = 0: the clear runs instead, so the zeros are stored.
// CHECK-NEXT: } else {
// CHECK-NEXT: tile.clear %[[ACC]] : !tile.buffer<128x128xf32, fragment, #tile.wgmma<warpgroups = [2, 1]>>
// CHECK-NEXT: }
//
// The epilogue moved into the compute role; nothing follows the roles.
// CHECK-NEXT: tile.copy %[[ACC]] to %C[%[[ROW]], %[[COL]]] : !tile.buffer<128x128xf32, fragment, #tile.wgmma<warpgroups = [2, 1]>> to !tile.buffer<?x?xf32, global>
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NOT: scf.for
tile.kernel @gemm(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf32, global>)
    grid(%bx, %by) = [ceildiv(%B[1], 128), ceildiv(%A[0], 128)] threads(384) warp_specialized {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %row = arith.muli %by, %c128 : index
  %col = arith.muli %bx, %c128 : index
  %a = tile.alloc_shared : !tile.buffer<128x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x128xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<128x128xf32, fragment>
  tile.clear %acc : !tile.buffer<128x128xf32, fragment>
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %n = arith.ceildivui %k, %c64 : index
  scf.for %i = %c0 to %n step %c1 {
    %k0 = arith.muli %i, %c64 : index
    tile.copy %A[%row, %k0] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<128x64xf16, shared>
    tile.copy %B[%k0, %col] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x128xf16, shared>
    tile.gemm %a, %b, %acc : !tile.buffer<128x64xf16, shared>, !tile.buffer<64x128xf16, shared>, !tile.buffer<128x128xf32, fragment>
  } {tile.num_stages = 3 : i64}
  tile.copy %acc to %C[%row, %col] : !tile.buffer<128x128xf32, fragment> to !tile.buffer<?x?xf32, global>
}

// -----

// Three compute warpgroups (512 threads): 384 arrivals empty a stage and
// each compute thread gets (65536 - 128 x 40) / 384 = 157, rounded down to
// 152 registers. Without a clear before the loop the first gemm
// accumulates and K = 0 does nothing; transpose_b (a K-major B) stays on
// both gemms; 192 x 64 + 128 x 64 bf16 are 40960 bytes a stage.
// CHECK-LABEL: tile.kernel @three_compute_warpgroups(
// CHECK: %[[ACC:.*]] = tile.alloc_fragment : !tile.buffer<192x128xf32, fragment, #tile.wgmma<warpgroups = [3, 1]>>
// CHECK: tile.alloc_shared : !tile.buffer<2x192x64xbf16, shared, #tile.nvmma<swizzle = 128>>
// CHECK-NEXT: tile.alloc_shared : !tile.buffer<2x128x64xbf16, shared, #tile.nvmma<swizzle = 128>>
// CHECK-NEXT: %[[FULL:.*]] = tile.alloc_shared : !tile.buffer<2xi64, shared>
// CHECK-NEXT: %[[EMPTY:.*]] = tile.alloc_shared : !tile.buffer<2xi64, shared>
// CHECK-NEXT: tile.mbarrier_init %[[FULL]] count(1) : !tile.buffer<2xi64, shared>
// CHECK-NEXT: tile.mbarrier_init %[[EMPTY]] count(384) : !tile.buffer<2xi64, shared>
// CHECK: tile.warp_specialize producer(registers = 40) {
// CHECK: tile.mbarrier_arrive %[[FULL]][%{{.*}}] expect_tx(40960) : !tile.buffer<2xi64, shared>
// CHECK-NEXT: arith.muli
// CHECK-NEXT: tile.stage
// CHECK-NEXT: tile.copy async %A[%c0, %{{.*}}] to %{{.*}} barrier(%[[FULL]][%{{.*}}] : !tile.buffer<2xi64, shared>) : !tile.buffer<?x?xbf16, global> to !tile.buffer<192x64xbf16, shared, #tile.nvmma<swizzle = 128>>
// CHECK-NEXT: tile.stage
// CHECK-NEXT: tile.copy async %B[%c0, %{{.*}}] to %{{.*}} barrier(%[[FULL]][%{{.*}}] : !tile.buffer<2xi64, shared>) : !tile.buffer<?x?xbf16, global> to !tile.buffer<128x64xbf16, shared, #tile.nvmma<swizzle = 128>>
// CHECK: } compute(registers = 152) {
// CHECK: tile.gemm async %{{.*}}, %{{.*}}, %[[ACC]] {transpose_b} : !tile.buffer<192x64xbf16
// CHECK: scf.for
// CHECK: tile.gemm async %{{.*}}, %{{.*}}, %[[ACC]] {transpose_b} : !tile.buffer<192x64xbf16
// CHECK: tile.mbarrier_arrive %[[EMPTY]][%{{.*}}] : !tile.buffer<2xi64, shared>
// CHECK: tile.gemm_wait 0, %[[ACC]]
// CHECK-NEXT: } else {
// CHECK-NEXT: }
// CHECK-NEXT: tile.copy %[[ACC]] to %C[%c0, %c0]
tile.kernel @three_compute_warpgroups(%A: !tile.buffer<?x?xbf16, global>, %B: !tile.buffer<?x?xbf16, global>, %C: !tile.buffer<?x?xf32, global>)
    grid(%bx) = [1] threads(512) warp_specialized {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %a = tile.alloc_shared : !tile.buffer<192x64xbf16, shared>
  %b = tile.alloc_shared : !tile.buffer<128x64xbf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<192x128xf32, fragment>
  %k = tile.dim %A[1] : !tile.buffer<?x?xbf16, global>
  scf.for %i = %c0 to %k step %c1 {
    %k0 = arith.muli %i, %c64 : index
    tile.copy %A[%c0, %k0] to %a : !tile.buffer<?x?xbf16, global> to !tile.buffer<192x64xbf16, shared>
    tile.copy %B[%c0, %k0] to %b : !tile.buffer<?x?xbf16, global> to !tile.buffer<128x64xbf16, shared>
    tile.gemm %a, %b, %acc {transpose_b} : !tile.buffer<192x64xbf16, shared>, !tile.buffer<128x64xbf16, shared>, !tile.buffer<192x128xf32, fragment>
  } {tile.num_stages = 2 : i64}
  tile.copy %acc to %C[%c0, %c0] : !tile.buffer<192x128xf32, fragment> to !tile.buffer<?x?xf32, global>
}

// -----

// Four compute warpgroups (640 threads) hold 96 registers each at entry,
// 61,440 in all: the compute role gets (61,440 - 128 x 40) / 512 = 110,
// 104 in whole units of 8. (112 would fit the SM's 65,536 but not the
// block's registers, and setmaxnreg.inc would wait forever.)
// CHECK-LABEL: tile.kernel @four_compute_warpgroups(
// CHECK: tile.mbarrier_init %{{.*}} count(512) : !tile.buffer<2xi64, shared>
// CHECK: tile.warp_specialize producer(registers = 40) {
// CHECK: } compute(registers = 104) {
tile.kernel @four_compute_warpgroups(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf32, global>)
    grid(%bx) = [1] threads(640) warp_specialized {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %a = tile.alloc_shared : !tile.buffer<256x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x128xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<256x128xf32, fragment>
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  scf.for %i = %c0 to %k step %c1 {
    %k0 = arith.muli %i, %c64 : index
    tile.copy %A[%c0, %k0] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<256x64xf16, shared>
    tile.copy %B[%k0, %c0] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x128xf16, shared>
    tile.gemm %a, %b, %acc : !tile.buffer<256x64xf16, shared>, !tile.buffer<64x128xf16, shared>, !tile.buffer<256x128xf32, fragment>
  } {tile.num_stages = 2 : i64}
  tile.copy %acc to %C[%c0, %c0] : !tile.buffer<256x128xf32, fragment> to !tile.buffer<?x?xf32, global>
}

// -----

// One compute warpgroup (256 threads) needs no setmaxnreg: each thread
// holds 248 registers at entry, more than a compute thread would be given
// (232), and ptxas ignores the instruction (C7508) in a kernel that needs
// fewer, as this 64x64 tile does.
// CHECK-LABEL: tile.kernel @one_compute_warpgroup(
// CHECK: tile.mbarrier_init %{{.*}} count(128) : !tile.buffer<4xi64, shared>
// CHECK: tile.warp_specialize producer {
// CHECK: } compute {
tile.kernel @one_compute_warpgroup(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf32, global>)
    grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  tile.clear %acc : !tile.buffer<64x64xf32, fragment>
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  scf.for %i = %c0 to %k step %c1 {
    tile.copy %A[%c0, %i] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.copy %B[%i, %c0] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.gemm %a, %b, %acc : !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
  } {tile.num_stages = 4 : i64}
  tile.copy %acc to %C[%c0, %c0] : !tile.buffer<64x64xf32, fragment> to !tile.buffer<?x?xf32, global>
}

// -----

// Not warp_specialized: the loop stays as it is (tile-pipeline's).
// CHECK-LABEL: tile.kernel @not_specialized(
// CHECK-NOT: tile.warp_specialize
// CHECK-NOT: tile.mbarrier
// CHECK: tile.clear
// CHECK: scf.for
// CHECK: tile.copy %A
// CHECK: tile.gemm %{{.*}}, %{{.*}}, %{{.*}} : !tile.buffer<64x64xf16, shared, #tile.swizzle>
// CHECK: } {tile.num_stages = 3 : i64}
tile.kernel @not_specialized(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf32, global>)
    grid(%bx) = [1] threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  tile.clear %acc : !tile.buffer<64x64xf32, fragment>
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  scf.for %i = %c0 to %k step %c1 {
    tile.copy %A[%c0, %i] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.copy %B[%i, %c0] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.gemm %a, %b, %acc : !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
  } {tile.num_stages = 3 : i64}
  tile.copy %acc to %C[%c0, %c0] : !tile.buffer<64x64xf32, fragment> to !tile.buffer<?x?xf32, global>
}

// -----

// A slice of a split K loop (split-K, grid z): the loop runs from %lo to
// %hi; both roles count max(%hi - %lo, 0) trips from 0 (stages and parities
// from the trip), and the loop body sees %lo + trip. The sum leaves through
// tile.atomic_add in the compute role.
// CHECK-LABEL: tile.kernel @split_k(
// CHECK: %[[LO:.*]] = arith.muli %bz, %{{.*}} : index
// CHECK: %[[HI:.*]] = arith.minui
// CHECK: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[SPAN:.*]] = arith.subi %[[HI]], %[[LO]] : index
// CHECK-NEXT: %[[TRIPS:.*]] = arith.maxsi %[[SPAN]], %[[ZERO]] : index
// CHECK-NEXT: tile.warp_specialize producer(registers = 40) {
// CHECK-NEXT: scf.for %[[I:.*]] = %[[ZERO]] to %[[TRIPS]] step %[[ONE]] {
// CHECK: %[[S:.*]] = arith.remui %[[I]], %{{.*}} : index
// CHECK: tile.mbarrier_arrive
// CHECK-NEXT: %[[KT:.*]] = arith.addi %[[LO]], %[[I]] : index
// CHECK-NEXT: %[[K0:.*]] = arith.muli %[[KT]], %c64 : index
// CHECK: tile.copy async %A[%{{.*}}, %[[K0]]]
// CHECK: } compute(registers = 232) {
// CHECK-NEXT: arith.cmpi sgt, %[[TRIPS]], %[[ZERO]] : index
// CHECK: tile.mbarrier_wait
// CHECK-NEXT: %[[KT0:.*]] = arith.addi %[[LO]], %[[ZERO]] : index
// CHECK-NEXT: arith.muli %[[KT0]], %c64 : index
// CHECK: scf.for %[[J:.*]] = %[[ONE]] to %[[TRIPS]] step %[[ONE]] {
// CHECK: tile.mbarrier_wait
// CHECK-NEXT: %[[KTJ:.*]] = arith.addi %[[LO]], %[[J]] : index
// CHECK-NEXT: arith.muli %[[KTJ]], %c64 : index
// CHECK: tile.atomic_add %{{.*}} to %C[%{{.*}}, %{{.*}}] : !tile.buffer<128x128xf32, fragment, #tile.wgmma<warpgroups = [2, 1]>> to !tile.buffer<?x?xf32, global>
// CHECK-NEXT: }
tile.kernel @split_k(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf32, global>)
    grid(%bx, %by, %bz) = [ceildiv(%B[1], 128), ceildiv(%A[0], 128), 4] threads(384) warp_specialized {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %row = arith.muli %by, %c128 : index
  %col = arith.muli %bx, %c128 : index
  %a = tile.alloc_shared : !tile.buffer<128x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x128xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<128x128xf32, fragment>
  tile.clear %acc : !tile.buffer<128x128xf32, fragment>
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %n = arith.ceildivui %k, %c64 : index
  %slice = arith.ceildivui %n, %c4 : index
  %lo = arith.muli %bz, %slice : index
  %end = arith.addi %lo, %slice : index
  %hi = arith.minui %end, %n : index
  scf.for %i = %lo to %hi step %c1 {
    %k0 = arith.muli %i, %c64 : index
    tile.copy %A[%row, %k0] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<128x64xf16, shared>
    tile.copy %B[%k0, %col] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x128xf16, shared>
    tile.gemm %a, %b, %acc : !tile.buffer<128x64xf16, shared>, !tile.buffer<64x128xf16, shared>, !tile.buffer<128x128xf32, fragment>
  } {tile.num_stages = 3 : i64}
  tile.atomic_add %acc to %C[%row, %col] : !tile.buffer<128x128xf32, fragment> to !tile.buffer<?x?xf32, global>
}

// -----

// A persistent kernel: each role walks the block's tiles (tile.tile_range,
// tile.tile_coords) with the pipeline iteration carried across tiles
// (iter_args %base, + the tile's trips each time), so the stages and
// parities continue from the last tile's; the values read from the block
// indices (%row, %col) are recomputed per tile in each role, the compute
// role gives the tile's last stage back after its final wait, and the
// epilogue runs per tile, on the tile's values.
// CHECK-LABEL: tile.kernel @persistent(
// CHECK-SAME: threads(384) warp_specialized persistent {
// CHECK-NOT: arith.muli %by
// CHECK: %[[N:.*]] = arith.ceildivui
// CHECK: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT: tile.warp_specialize producer(registers = 40) {
// CHECK-NEXT: %[[FIRST:.*]], %[[STEP:.*]], %[[COUNT:.*]] = tile.tile_range : index, index, index
// CHECK-NEXT: scf.for %[[T:.*]] = %[[FIRST]] to %[[COUNT]] step %[[STEP]] iter_args(%[[BASE:.*]] = %[[ZERO]]) -> (index) {
// CHECK-NEXT: %[[XY:.*]]:2 = tile.tile_coords %[[T]] : index, index
// CHECK-NEXT: %[[ROW:.*]] = arith.muli %[[XY]]#1, %c128 : index
// CHECK-NEXT: %[[COL:.*]] = arith.muli %[[XY]]#0, %c128 : index
// CHECK-NEXT: scf.for %[[I:.*]] = %[[ZERO]] to %[[N]] step %[[ONE]] {
// CHECK-NEXT: %[[G:.*]] = arith.addi %[[BASE]], %[[I]] : index
// CHECK: arith.remui %[[G]]
// CHECK: tile.mbarrier_wait
// CHECK: tile.copy async %A[%[[ROW]], %{{.*}}]
// CHECK: tile.copy async %B[%{{.*}}, %[[COL]]]
// CHECK: }
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[BASE]], %[[N]] : index
// CHECK-NEXT: scf.yield %[[NEXT]] : index
// CHECK: } compute(registers = 232) {
// CHECK-NEXT: %[[CFIRST:.*]], %[[CSTEP:.*]], %[[CCOUNT:.*]] = tile.tile_range : index, index, index
// CHECK-NEXT: scf.for %[[CT:.*]] = %[[CFIRST]] to %[[CCOUNT]] step %[[CSTEP]] iter_args(%[[CBASE:.*]] = %[[ZERO]]) -> (index) {
// CHECK-NEXT: %[[CXY:.*]]:2 = tile.tile_coords %[[CT]] : index, index
// CHECK-NEXT: %[[CROW:.*]] = arith.muli %[[CXY]]#1, %c128 : index
// CHECK-NEXT: %[[CCOL:.*]] = arith.muli %[[CXY]]#0, %c128 : index
// CHECK-NEXT: arith.cmpi sgt, %[[N]], %[[ZERO]] : index
// CHECK: arith.addi %[[CBASE]], %[[ZERO]] : index
// CHECK: tile.gemm async {{.*}} {clear_accum}
// CHECK: scf.for %[[J:.*]] = %[[ONE]] to %[[N]] step %[[ONE]] {
// CHECK-NEXT: arith.addi %[[CBASE]], %[[J]] : index
// CHECK: tile.mbarrier_arrive %[[EMPTY:.*]][%{{.*}}] : !tile.buffer<3xi64, shared>
// CHECK-NEXT: }
// CHECK-NEXT: tile.gemm_wait 0
// CHECK-NEXT: %[[END:.*]] = arith.addi %[[CBASE]], %[[N]] : index
// CHECK-NEXT: %[[LAST:.*]] = arith.subi %[[END]], %[[ONE]] : index
// CHECK-NEXT: %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT: %[[LASTSTAGE:.*]] = arith.remui %[[LAST]], %[[C3]] : index
// CHECK-NEXT: tile.mbarrier_arrive %[[EMPTY]][%[[LASTSTAGE]]] : !tile.buffer<3xi64, shared>
// CHECK-NEXT: } else {
// CHECK-NEXT: tile.clear
// CHECK-NEXT: }
// CHECK-NEXT: %[[CNEXT:.*]] = arith.addi %[[CBASE]], %[[N]] : index
// CHECK-NEXT: tile.copy %{{.*}} to %C[%[[CROW]], %[[CCOL]]]
// CHECK-NEXT: scf.yield %[[CNEXT]] : index
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
tile.kernel @persistent(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf32, global>)
    grid(%bx, %by) = [ceildiv(%B[1], 128), ceildiv(%A[0], 128)] threads(384) warp_specialized persistent {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %row = arith.muli %by, %c128 : index
  %col = arith.muli %bx, %c128 : index
  %a = tile.alloc_shared : !tile.buffer<128x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x128xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<128x128xf32, fragment>
  tile.clear %acc : !tile.buffer<128x128xf32, fragment>
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %n = arith.ceildivui %k, %c64 : index
  scf.for %i = %c0 to %n step %c1 {
    %k0 = arith.muli %i, %c64 : index
    tile.copy %A[%row, %k0] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<128x64xf16, shared>
    tile.copy %B[%k0, %col] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x128xf16, shared>
    tile.gemm %a, %b, %acc : !tile.buffer<128x64xf16, shared>, !tile.buffer<64x128xf16, shared>, !tile.buffer<128x128xf32, fragment>
  } {tile.num_stages = 3 : i64}
  tile.copy %acc to %C[%row, %col] : !tile.buffer<128x128xf32, fragment> to !tile.buffer<?x?xf32, global>
}

// -----

// An epilogue through a shared tile stored to a kernel parameter: the
// staged tile gets #tile.nvmma (tile-assign-layouts), its store becomes a
// TMA store (`tile.copy async` shared -> global), and, the kernel being
// persistent, each tile first waits until the last tile's store has read
// the staged tile; the compute role ends with a wait too (the shared tile
// must outlive the reads).
// CHECK-LABEL: tile.kernel @tma_store(
// CHECK: %[[CS:.*]] = tile.alloc_shared : !tile.buffer<128x128xf16, shared, #tile.nvmma<swizzle = 128>>
// CHECK: } compute(registers = 232) {
// CHECK: scf.for
// CHECK: tile.gemm_wait 0
// CHECK: } else {
// CHECK: tile.tma_store_wait %[[CS]] : !tile.buffer<128x128xf16, shared, #tile.nvmma<swizzle = 128>>
// CHECK-NEXT: tile.copy %{{.*}} to %[[CS]] : !tile.buffer<128x128xf32, fragment, #tile.wgmma<warpgroups = [2, 1]>> to !tile.buffer<128x128xf16, shared, #tile.nvmma<swizzle = 128>>
// CHECK-NEXT: tile.copy async %[[CS]] to %C[%{{.*}}, %{{.*}}] : !tile.buffer<128x128xf16, shared, #tile.nvmma<swizzle = 128>> to !tile.buffer<?x?xf16, global>
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: tile.tma_store_wait %[[CS]] : !tile.buffer<128x128xf16, shared, #tile.nvmma<swizzle = 128>>
// CHECK-NEXT: }
tile.kernel @tma_store(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf16, global>)
    grid(%bx, %by) = [ceildiv(%B[1], 128), ceildiv(%A[0], 128)] threads(384) warp_specialized persistent {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %row = arith.muli %by, %c128 : index
  %col = arith.muli %bx, %c128 : index
  %a = tile.alloc_shared : !tile.buffer<128x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x128xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<128x128xf32, fragment>
  %cs = tile.alloc_shared : !tile.buffer<128x128xf16, shared>
  tile.clear %acc : !tile.buffer<128x128xf32, fragment>
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %n = arith.ceildivui %k, %c64 : index
  scf.for %i = %c0 to %n step %c1 {
    %k0 = arith.muli %i, %c64 : index
    tile.copy %A[%row, %k0] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<128x64xf16, shared>
    tile.copy %B[%k0, %col] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x128xf16, shared>
    tile.gemm %a, %b, %acc : !tile.buffer<128x64xf16, shared>, !tile.buffer<64x128xf16, shared>, !tile.buffer<128x128xf32, fragment>
  } {tile.num_stages = 3 : i64}
  tile.copy %acc to %cs : !tile.buffer<128x128xf32, fragment> to !tile.buffer<128x128xf16, shared>
  tile.copy %cs to %C[%row, %col] : !tile.buffer<128x128xf16, shared> to !tile.buffer<?x?xf16, global>
}

// -----

// Not persistent: one tile per block, so the only wait is the last one.
// A copy of a staged tile to a buffer that is not a kernel parameter (a
// subview) stays a plain copy.
// CHECK-LABEL: tile.kernel @tma_store_once(
// CHECK: } compute(registers = 232) {
// CHECK-NOT: tile.tma_store_wait
// CHECK: tile.copy %{{.*}} to %[[CS:.*]] : !tile.buffer<128x128xf32, fragment, #tile.wgmma<warpgroups = [2, 1]>> to !tile.buffer<128x128xf32, shared, #tile.nvmma<swizzle = 128>>
// CHECK-NEXT: tile.copy async %[[CS]] to %C[%{{.*}}, %{{.*}}] : !tile.buffer<128x128xf32, shared, #tile.nvmma<swizzle = 128>> to !tile.buffer<?x?xf32, global>
// CHECK-NEXT: %[[VIEW:.*]] = tile.subview
// CHECK-NEXT: tile.copy %[[CS]] to %[[VIEW]][%{{.*}}, %{{.*}}] : !tile.buffer<128x128xf32, shared, #tile.nvmma<swizzle = 128>> to
// CHECK-NEXT: tile.tma_store_wait %[[CS]]
// CHECK-NEXT: }
tile.kernel @tma_store_once(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf32, global>, %D: !tile.buffer<?x?x?xf32, global>)
    grid(%bx) = [ceildiv(%A[0], 128)] threads(384) warp_specialized {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %row = arith.muli %bx, %c128 : index
  %a = tile.alloc_shared : !tile.buffer<128x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x128xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<128x128xf32, fragment>
  %cs = tile.alloc_shared : !tile.buffer<128x128xf32, shared>
  tile.clear %acc : !tile.buffer<128x128xf32, fragment>
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %n = arith.ceildivui %k, %c64 : index
  scf.for %i = %c0 to %n step %c1 {
    %k0 = arith.muli %i, %c64 : index
    tile.copy %A[%row, %k0] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<128x64xf16, shared>
    tile.copy %B[%k0, %c0] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x128xf16, shared>
    tile.gemm %a, %b, %acc : !tile.buffer<128x64xf16, shared>, !tile.buffer<64x128xf16, shared>, !tile.buffer<128x128xf32, fragment>
  } {tile.num_stages = 2 : i64}
  tile.copy %acc to %cs : !tile.buffer<128x128xf32, fragment> to !tile.buffer<128x128xf32, shared>
  tile.copy %cs to %C[%row, %c0] : !tile.buffer<128x128xf32, shared> to !tile.buffer<?x?xf32, global>
  %view = tile.subview %D[%c0] : !tile.buffer<?x?x?xf32, global> to !tile.buffer<?x?xf32, global>
  tile.copy %cs to %view[%c0, %c0] : !tile.buffer<128x128xf32, shared> to !tile.buffer<?x?xf32, global>
}

// -----

// C in four bands staged in two tiles in turn (a window of the accumulator
// each): each rewrite of a tile waits until the store of its previous band
// has read it, leaving the one store issued since in flight (pending 1);
// in a persistent kernel the first two bands wait for the last tile's
// stores of their tile, through the tile loop's back edge.
// CHECK-LABEL: tile.kernel @tma_store_bands(
// CHECK: %[[S0:.*]] = tile.alloc_shared : !tile.buffer<128x64xf16, shared, #tile.nvmma<swizzle = 128>>
// CHECK: %[[S1:.*]] = tile.alloc_shared : !tile.buffer<128x64xf16, shared, #tile.nvmma<swizzle = 128>>
// CHECK: tile.gemm_wait 0
// CHECK: } else {
// CHECK: tile.tma_store_wait %[[S0]] pending(1) :
// CHECK-NEXT: tile.copy %[[ACC:.*]][%{{.*}}, %{{.*}}] to %[[S0]] :
// CHECK-NEXT: tile.copy async %[[S0]] to %C
// CHECK-NEXT: tile.tma_store_wait %[[S1]] pending(1) :
// CHECK-NEXT: tile.copy %[[ACC]][%{{.*}}, %{{.*}}] to %[[S1]] :
// CHECK: tile.copy async %[[S1]] to %C
// CHECK-NEXT: tile.tma_store_wait %[[S0]] pending(1) :
// CHECK-NEXT: tile.copy %[[ACC]][%{{.*}}, %{{.*}}] to %[[S0]] :
// CHECK: tile.copy async %[[S0]] to %C
// CHECK-NEXT: tile.tma_store_wait %[[S1]] pending(1) :
// CHECK-NEXT: tile.copy %[[ACC]][%{{.*}}, %{{.*}}] to %[[S1]] :
// CHECK: tile.copy async %[[S1]] to %C
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: tile.tma_store_wait %[[S0]] :
// CHECK-NEXT: }
tile.kernel @tma_store_bands(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf16, global>)
    grid(%bx, %by) = [ceildiv(%B[1], 256), ceildiv(%A[0], 128)] threads(384) warp_specialized persistent {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c192 = arith.constant 192 : index
  %c256 = arith.constant 256 : index
  %row = arith.muli %by, %c128 : index
  %col = arith.muli %bx, %c256 : index
  %a = tile.alloc_shared : !tile.buffer<128x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x256xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<128x256xf32, fragment>
  %s0 = tile.alloc_shared : !tile.buffer<128x64xf16, shared>
  %s1 = tile.alloc_shared : !tile.buffer<128x64xf16, shared>
  tile.clear %acc : !tile.buffer<128x256xf32, fragment>
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %n = arith.ceildivui %k, %c64 : index
  scf.for %i = %c0 to %n step %c1 {
    %k0 = arith.muli %i, %c64 : index
    tile.copy %A[%row, %k0] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<128x64xf16, shared>
    tile.copy %B[%k0, %col] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x256xf16, shared>
    tile.gemm %a, %b, %acc : !tile.buffer<128x64xf16, shared>, !tile.buffer<64x256xf16, shared>, !tile.buffer<128x256xf32, fragment>
  } {tile.num_stages = 4 : i64}
  tile.copy %acc[%c0, %c0] to %s0 : !tile.buffer<128x256xf32, fragment> to !tile.buffer<128x64xf16, shared>
  tile.copy %s0 to %C[%row, %col] : !tile.buffer<128x64xf16, shared> to !tile.buffer<?x?xf16, global>
  tile.copy %acc[%c0, %c64] to %s1 : !tile.buffer<128x256xf32, fragment> to !tile.buffer<128x64xf16, shared>
  %col1 = arith.addi %col, %c64 : index
  tile.copy %s1 to %C[%row, %col1] : !tile.buffer<128x64xf16, shared> to !tile.buffer<?x?xf16, global>
  tile.copy %acc[%c0, %c128] to %s0 : !tile.buffer<128x256xf32, fragment> to !tile.buffer<128x64xf16, shared>
  %col2 = arith.addi %col, %c128 : index
  tile.copy %s0 to %C[%row, %col2] : !tile.buffer<128x64xf16, shared> to !tile.buffer<?x?xf16, global>
  tile.copy %acc[%c0, %c192] to %s1 : !tile.buffer<128x256xf32, fragment> to !tile.buffer<128x64xf16, shared>
  %col3 = arith.addi %col, %c192 : index
  tile.copy %s1 to %C[%row, %col3] : !tile.buffer<128x64xf16, shared> to !tile.buffer<?x?xf16, global>
}

// -----

// Not persistent: the first write of each tile waits for nothing.
// CHECK-LABEL: tile.kernel @tma_store_bands_once(
// CHECK: tile.gemm_wait 0
// CHECK-NOT: tile.tma_store_wait
// CHECK: tile.copy async %[[S0:[^ ]*]] to %C
// CHECK-NOT: tile.tma_store_wait
// CHECK: tile.copy async %[[S1:[^ ]*]] to %C
// CHECK-NEXT: tile.tma_store_wait %[[S0]] pending(1) :
// CHECK: tile.copy async %[[S0]] to %C
// CHECK-NEXT: tile.tma_store_wait %[[S1]] pending(1) :
// CHECK: tile.copy async %[[S1]] to %C
// CHECK-NEXT: tile.tma_store_wait %[[S0]] :
// CHECK-NEXT: }
tile.kernel @tma_store_bands_once(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf16, global>)
    grid(%bx, %by) = [ceildiv(%B[1], 256), ceildiv(%A[0], 128)] threads(384) warp_specialized {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c192 = arith.constant 192 : index
  %c256 = arith.constant 256 : index
  %row = arith.muli %by, %c128 : index
  %col = arith.muli %bx, %c256 : index
  %a = tile.alloc_shared : !tile.buffer<128x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x256xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<128x256xf32, fragment>
  %s0 = tile.alloc_shared : !tile.buffer<128x64xf16, shared>
  %s1 = tile.alloc_shared : !tile.buffer<128x64xf16, shared>
  tile.clear %acc : !tile.buffer<128x256xf32, fragment>
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %n = arith.ceildivui %k, %c64 : index
  scf.for %i = %c0 to %n step %c1 {
    %k0 = arith.muli %i, %c64 : index
    tile.copy %A[%row, %k0] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<128x64xf16, shared>
    tile.copy %B[%k0, %col] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x256xf16, shared>
    tile.gemm %a, %b, %acc : !tile.buffer<128x64xf16, shared>, !tile.buffer<64x256xf16, shared>, !tile.buffer<128x256xf32, fragment>
  } {tile.num_stages = 4 : i64}
  tile.copy %acc[%c0, %c0] to %s0 : !tile.buffer<128x256xf32, fragment> to !tile.buffer<128x64xf16, shared>
  tile.copy %s0 to %C[%row, %col] : !tile.buffer<128x64xf16, shared> to !tile.buffer<?x?xf16, global>
  tile.copy %acc[%c0, %c64] to %s1 : !tile.buffer<128x256xf32, fragment> to !tile.buffer<128x64xf16, shared>
  %col1 = arith.addi %col, %c64 : index
  tile.copy %s1 to %C[%row, %col1] : !tile.buffer<128x64xf16, shared> to !tile.buffer<?x?xf16, global>
  tile.copy %acc[%c0, %c128] to %s0 : !tile.buffer<128x256xf32, fragment> to !tile.buffer<128x64xf16, shared>
  %col2 = arith.addi %col, %c128 : index
  tile.copy %s0 to %C[%row, %col2] : !tile.buffer<128x64xf16, shared> to !tile.buffer<?x?xf16, global>
  tile.copy %acc[%c0, %c192] to %s1 : !tile.buffer<128x256xf32, fragment> to !tile.buffer<128x64xf16, shared>
  %col3 = arith.addi %col, %c192 : index
  tile.copy %s1 to %C[%row, %col3] : !tile.buffer<128x64xf16, shared> to !tile.buffer<?x?xf16, global>
}

// -----

// Ping-pong (`consumers = 2`): the body describes one compute set (threads
// 256: the producer and one warpgroup holding the whole 128x128
// accumulator). The epilogue's shared tiles (the staged C tile, the bias
// slice) get one copy per set, viewed at tile.consumer_index; the stages
// and their mbarriers are shared, each stage consumed by one set (empty
// counts 128 arrivals). Each set walks every tile of the block, keeping the
// pipeline iteration, and computes those at its positions ((t - first) /
// step mod 2); before its main loop it waits for its turn (barrier p mod 2,
// phase (p - 1) / 2 mod 2; none at p = 0), and passes the turn on once
// every stage of the tile has been waited for (or at once with K = 0): the
// stages fill tile after tile, and a parity wait is sound only for a phase
// at most one ahead. The producer gives up all but 24 registers, so that
// each compute thread gets 240.
// CHECK-LABEL: tile.kernel @ping_pong(
// CHECK-SAME: threads(256) warp_specialized persistent attributes {consumers = 2 : i64} {
// CHECK: %[[ACC:.*]] = tile.alloc_fragment : !tile.buffer<128x128xf32, fragment, #tile.wgmma<warpgroups = [1, 1]>>
// CHECK: %[[FULL:.*]] = tile.alloc_shared : !tile.buffer<4xi64, shared>
// CHECK-NEXT: %[[EMPTY:.*]] = tile.alloc_shared : !tile.buffer<4xi64, shared>
// CHECK-NEXT: tile.mbarrier_init %[[FULL]] count(1)
// CHECK-NEXT: tile.mbarrier_init %[[EMPTY]] count(128)
// CHECK-NEXT: %[[CS2:.*]] = tile.alloc_shared : !tile.buffer<2x128x128xf16, shared, #tile.nvmma<swizzle = 128>>
// CHECK-NEXT: %[[BS2:.*]] = tile.alloc_shared : !tile.buffer<2x128xf16, shared>
// CHECK-NEXT: %[[TURNS:.*]] = tile.alloc_shared : !tile.buffer<2xi64, shared>
// CHECK-NEXT: tile.mbarrier_init %[[TURNS]] count(128)
// CHECK: tile.warp_specialize producer(registers = 24) {
// CHECK: } compute(registers = 240) {
// CHECK-NEXT: %[[SET:.*]] = tile.consumer_index : index
// CHECK-NEXT: %[[CS:.*]] = tile.stage %[[CS2]][%[[SET]]]
// CHECK-NEXT: %[[BS:.*]] = tile.stage %[[BS2]][%[[SET]]]
// CHECK-NEXT: %[[FIRST:.*]], %[[STEP:.*]], %{{.*}} = tile.tile_range
// CHECK-NEXT: scf.for %[[T:.*]] = %[[FIRST]] to %{{.*}} step %[[STEP]] iter_args(%[[BASE:.*]] = %{{.*}}) -> (index) {
// CHECK: %[[OFF:.*]] = arith.subi %[[T]], %[[FIRST]] : index
// CHECK-NEXT: %[[P:.*]] = arith.divui %[[OFF]], %[[STEP]] : index
// CHECK-NEXT: %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[POS:.*]] = arith.remui %[[P]], %[[C2]] : index
// CHECK-NEXT: %[[MINE:.*]] = arith.cmpi eq, %[[POS]], %[[SET]] : index
// CHECK-NEXT: scf.if %[[MINE]] {
// CHECK-NEXT: %[[LATER:.*]] = arith.cmpi ugt, %[[P]], %{{.*}} : index
// CHECK-NEXT: scf.if %[[LATER]] {
// CHECK-NEXT: %[[PREV:.*]] = arith.subi %[[P]], %{{.*}} : index
// CHECK: %[[ROUND:.*]] = arith.divui %[[PREV]], %{{.*}} : index
// CHECK: %[[PHASE:.*]] = arith.remui %[[ROUND]], %{{.*}} : index
// CHECK: %[[TURN:.*]] = arith.remui %[[P]], %{{.*}} : index
// CHECK-NEXT: tile.mbarrier_wait %[[TURNS]][%[[TURN]]], %[[PHASE]]
// CHECK-NEXT: }
// CHECK: scf.for
// CHECK: tile.mbarrier_arrive %[[EMPTY]]
// CHECK: }
// CHECK: %[[NEXTP:.*]] = arith.addi %[[P]], %{{.*}} : index
// CHECK-NEXT: %[[NEXT:.*]] = arith.remui %[[NEXTP]], %{{.*}} : index
// CHECK-NEXT: tile.mbarrier_arrive %[[TURNS]][%[[NEXT]]]
// CHECK-NEXT: tile.gemm_wait 0, %[[ACC]]
// CHECK: } else {
// CHECK: tile.mbarrier_arrive %[[TURNS]]
// CHECK-NEXT: tile.clear %[[ACC]]
// CHECK-NEXT: }
// CHECK-NEXT: tile.copy %Bias[%{{.*}}] to %[[BS]]
// CHECK-NEXT: tile.tma_store_wait %[[CS]]
// CHECK-NEXT: tile.copy %[[ACC]] to %[[CS]]
// CHECK-NEXT: tile.copy async %[[CS]] to %C
// CHECK-NEXT: }
// CHECK-NEXT: %[[NEXTBASE:.*]] = arith.addi %[[BASE]], %{{.*}} : index
// CHECK-NEXT: scf.yield %[[NEXTBASE]] : index
// CHECK-NEXT: }
// CHECK-NEXT: tile.tma_store_wait %[[CS]]
// CHECK-NEXT: }
tile.kernel @ping_pong(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf16, global>, %Bias: !tile.buffer<?xf16, global>)
    grid(%bx, %by) = [ceildiv(%B[1], 128), ceildiv(%A[0], 128)] threads(256) warp_specialized persistent attributes {consumers = 2 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %row = arith.muli %by, %c128 : index
  %col = arith.muli %bx, %c128 : index
  %a = tile.alloc_shared : !tile.buffer<128x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x128xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<128x128xf32, fragment>
  %cs = tile.alloc_shared : !tile.buffer<128x128xf16, shared>
  %bs = tile.alloc_shared : !tile.buffer<128xf16, shared>
  tile.clear %acc : !tile.buffer<128x128xf32, fragment>
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %n = arith.ceildivui %k, %c64 : index
  scf.for %i = %c0 to %n step %c1 {
    %k0 = arith.muli %i, %c64 : index
    tile.copy %A[%row, %k0] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<128x64xf16, shared>
    tile.copy %B[%k0, %col] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x128xf16, shared>
    tile.gemm %a, %b, %acc : !tile.buffer<128x64xf16, shared>, !tile.buffer<64x128xf16, shared>, !tile.buffer<128x128xf32, fragment>
  } {tile.num_stages = 4 : i64}
  tile.copy %Bias[%col] to %bs : !tile.buffer<?xf16, global> to !tile.buffer<128xf16, shared>
  tile.copy %acc to %cs : !tile.buffer<128x128xf32, fragment> to !tile.buffer<128x128xf16, shared>
  tile.copy %cs to %C[%row, %col] : !tile.buffer<128x128xf16, shared> to !tile.buffer<?x?xf16, global>
}
