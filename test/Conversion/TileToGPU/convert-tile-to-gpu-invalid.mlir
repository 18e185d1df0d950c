// Diagnostics of -convert-tile-to-gpu itself: IR that verifies but cannot be
// lowered (missing or mismatched fragment layouts, non-tile uses of buffers,
// a TMA copy into a rank-3 tile). HopperToGPU.cpp's "has no tensor map
// parameter" cannot be reached from verified IR: the kernel function gets
// a tensor map for every TMA copy's buffer and box before any is lowered.
// The passes before it in the pipeline run first (but -tile-assign-layouts).
//
// RUN: tile-opt %s --tile-fuse-stores --tile-plan-shared-memory --tile-insert-barriers --convert-tile-to-gpu -split-input-file -verify-diagnostics --allow-unregistered-dialect

// Without -tile-assign-layouts a fragment has no layout.
tile.kernel @no_layout(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  // expected-error@+1 {{'tile.alloc_fragment' op expected a fragment with a layout; run -tile-assign-layouts first}}
  %f = tile.alloc_fragment : !tile.buffer<128xf32, fragment>
  tile.copy %A to %f : !tile.buffer<?xf32, global> to !tile.buffer<128xf32, fragment>
}

// -----

// A fragment-to-fragment copy moves registers within each thread, so both
// sides must be spread over the threads in the same way.
tile.kernel @copy_layout_mismatch() grid(%bx) = [1] threads(32) {
  %a = tile.alloc_fragment : !tile.buffer<128xf32, fragment, #tile.row_major<vec = 4>>
  %b = tile.alloc_fragment : !tile.buffer<128xf32, fragment, #tile.row_major<vec = 2>>
  // expected-error@+1 {{'tile.copy' op expected source and dest fragments with the same layout, but got #tile.row_major<vec = 4> and #tile.row_major<vec = 2>}}
  tile.copy %a to %b : !tile.buffer<128xf32, fragment, #tile.row_major<vec = 4>> to !tile.buffer<128xf32, fragment, #tile.row_major<vec = 2>>
}

// -----

tile.kernel @parallel_layout_mismatch() grid(%bx) = [1] threads(32) {
  %a = tile.alloc_fragment : !tile.buffer<256xf32, fragment, #tile.row_major<vec = 4>>
  %b = tile.alloc_fragment : !tile.buffer<256xf16, fragment, #tile.row_major<vec = 8>>
  // expected-error@+1 {{'tile.parallel' op accesses fragments with different layouts: #tile.row_major<vec = 4> and #tile.row_major<vec = 8>}}
  tile.parallel (%i) in [256] {
    // expected-note@+1 {{first layout used here}}
    %x = tile.load %a[%i] : !tile.buffer<256xf32, fragment, #tile.row_major<vec = 4>>
    %y = arith.truncf %x : f32 to f16
    // expected-note@+1 {{second layout used here}}
    tile.store %y, %b[%i] : !tile.buffer<256xf16, fragment, #tile.row_major<vec = 8>>
  }
}

// -----

tile.kernel @result_used_outside(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  // expected-error@+1 {{'tile.alloc_shared' op result is used by an operation that is not a tile op, which cannot be lowered}}
  %s = tile.alloc_shared : !tile.buffer<64xf32, shared>
  "test.use"(%s) : (!tile.buffer<64xf32, shared>) -> ()
}

// -----

// expected-error@+1 {{'tile.kernel' op parameter is used by an operation that is not a tile op, which cannot be lowered}}
tile.kernel @param_used_outside(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  "test.use"(%A) : (!tile.buffer<?xf32, global>) -> ()
}

// -----

tile.kernel @row_values_to_shared() grid(%bx) = [1] threads(32) {
  %x = tile.alloc_fragment : !tile.buffer<1x64xf32, fragment, #tile.row_major<vec = 2>>
  %m = tile.alloc_fragment : !tile.buffer<1xf32, fragment, #tile.slice<dim = 1, dim_size = 64, parent = #tile.row_major<vec = 2>>>
  %s = tile.alloc_shared : !tile.buffer<1xf32, shared>
  tile.reduce max %x into %m dim(1) : !tile.buffer<1x64xf32, fragment, #tile.row_major<vec = 2>>, !tile.buffer<1xf32, fragment, #tile.slice<dim = 1, dim_size = 64, parent = #tile.row_major<vec = 2>>>
  // expected-error@+1 {{'tile.copy' op can copy row values (#tile.slice) only to a rank-1 global buffer, but got '!tile.buffer<1xf32, shared>'}}
  tile.copy %m to %s : !tile.buffer<1xf32, fragment, #tile.slice<dim = 1, dim_size = 64, parent = #tile.row_major<vec = 2>>> to !tile.buffer<1xf32, shared>
}

// -----

// Each tile fits in shared memory; the two live together do not.
// expected-error@+1 {{'tile.kernel' op expected at most 232448 bytes of shared memory (227 KiB, a block's on the largest GPU), but its tiles take 262144 bytes}}
tile.kernel @shared_memory_total(%A: !tile.buffer<?x?xf32, global>) grid(%bx) = [1] threads(128) {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_shared : !tile.buffer<128x256xf32, shared>
  %b = tile.alloc_shared : !tile.buffer<128x256xf32, shared>
  tile.copy %A[%c0, %c0] to %a : !tile.buffer<?x?xf32, global> to !tile.buffer<128x256xf32, shared>
  tile.copy %a to %b : !tile.buffer<128x256xf32, shared> to !tile.buffer<128x256xf32, shared>
  tile.copy %b to %A[%c0, %c0] : !tile.buffer<128x256xf32, shared> to !tile.buffer<?x?xf32, global>
}

// -----

// A TMA copy moves a rank-2 box per panel: a #tile.nvmma tile of rank 3
// verifies (the staged form) but is no destination the lowering has.
tile.kernel @tma_rank_3(%Q: !tile.buffer<?x?x64xf16, global>) grid(%bx) = [1] threads(256) warp_specialized {
  %c0 = arith.constant 0 : index
  %bars = tile.alloc_shared : !tile.buffer<1xi64, shared>
  %q = tile.alloc_shared : !tile.buffer<2x64x64xf16, shared, #tile.nvmma<swizzle = 128>>
  tile.mbarrier_init %bars count(1) : !tile.buffer<1xi64, shared>
  tile.warp_specialize producer(registers = 40) {
    tile.mbarrier_arrive %bars[%c0] expect_tx(16384) : !tile.buffer<1xi64, shared>
    // expected-error@+1 {{'tile.copy' op expected a rank-2 TMA destination, but got rank 3}}
    tile.copy async %Q[%c0, %c0, %c0] to %q barrier(%bars[%c0] : !tile.buffer<1xi64, shared>) : !tile.buffer<?x?x64xf16, global> to !tile.buffer<2x64x64xf16, shared, #tile.nvmma<swizzle = 128>>
  } compute(registers = 232) {
    tile.mbarrier_wait %bars[%c0], %c0 : !tile.buffer<1xi64, shared>
  }
}

