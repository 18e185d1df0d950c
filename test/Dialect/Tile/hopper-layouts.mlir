// The Hopper layouts: #tile.wgmma (wgmma accumulators) and #tile.nvmma
// (shared tiles TMA writes and wgmma reads) round-trip, and every
// diagnostic of their verifiers (TileHopperLayouts.cpp), one case each.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: tile.kernel @layouts
// CHECK: tile.alloc_shared : !tile.buffer<128x64xf16, shared, #tile.nvmma<swizzle = 128>>
// CHECK: tile.alloc_shared : !tile.buffer<4x64x256xbf16, shared, #tile.nvmma<swizzle = 128>>
// CHECK: tile.alloc_shared : !tile.buffer<64x32xf16, shared, #tile.nvmma<swizzle = 64>>
// CHECK: tile.alloc_shared : !tile.buffer<16x8xf32, shared, #tile.nvmma<swizzle = 0>>
// CHECK: tile.alloc_fragment : !tile.buffer<128x256xf32, fragment, #tile.wgmma<warpgroups = [2, 1]>>
tile.kernel @layouts() grid(%bx) = [1] threads(384) {
  %a = tile.alloc_shared : !tile.buffer<128x64xf16, shared, #tile.nvmma<swizzle = 128>>
  %b = tile.alloc_shared : !tile.buffer<4x64x256xbf16, shared, #tile.nvmma<swizzle = 128>>
  %c = tile.alloc_shared : !tile.buffer<64x32xf16, shared, #tile.nvmma<swizzle = 64>>
  %d = tile.alloc_shared : !tile.buffer<16x8xf32, shared, #tile.nvmma<swizzle = 0>>
  %acc = tile.alloc_fragment : !tile.buffer<128x256xf32, fragment, #tile.wgmma<warpgroups = [2, 1]>>
}

// -----

// CHECK-LABEL: tile.kernel @without_producer
// CHECK: #tile.wgmma<warpgroups = [1, 2]>
tile.kernel @without_producer() grid(%bx) = [1] threads(256) {
  %acc = tile.alloc_fragment : !tile.buffer<64x128xf32, fragment, #tile.wgmma<warpgroups = [1, 2]>>
}

// -----

// expected-error@+1 {{expected 1 to 8 warpgroups (a block has at most 1024 threads), but got 3 x 3}}
func.func private @too_many_warpgroups(!tile.buffer<192x192xf32, fragment, #tile.wgmma<warpgroups = [3, 3]>>)

// -----

// expected-error@+1 {{expected 1 to 8 warpgroups (a block has at most 1024 threads), but got 0 x 1}}
func.func private @no_warpgroups(!tile.buffer<64x64xf32, fragment, #tile.wgmma<warpgroups = [0, 1]>>)

// -----

// expected-error@+1 {{expected a rank-2 fragment for #tile.wgmma<warpgroups = [1, 1]>, but got rank 1}}
func.func private @wgmma_rank(!tile.buffer<64xf32, fragment, #tile.wgmma<warpgroups = [1, 1]>>)

// -----

// expected-error@+1 {{expected a fragment shape whose rows are a multiple of 128 and columns of 1 for #tile.wgmma<warpgroups = [2, 1]>, but got 64x64}}
func.func private @wgmma_rows(!tile.buffer<64x64xf32, fragment, #tile.wgmma<warpgroups = [2, 1]>>)

// -----

// expected-error@+1 {{expected each warpgroup's columns to be a multiple of 8 and at most 256 (the N of one wgmma) for #tile.wgmma<warpgroups = [1, 1]>, but got 512}}
func.func private @wgmma_too_wide(!tile.buffer<64x512xf32, fragment, #tile.wgmma<warpgroups = [1, 1]>>)

// -----

// expected-error@+1 {{expected each warpgroup's columns to be a multiple of 8 and at most 256 (the N of one wgmma) for #tile.wgmma<warpgroups = [1, 2]>, but got 12}}
func.func private @wgmma_columns(!tile.buffer<64x24xf32, fragment, #tile.wgmma<warpgroups = [1, 2]>>)

// -----

tile.kernel @wgmma_threads() grid(%bx) = [1] threads(128) {
  // expected-error@+1 {{expected #tile.wgmma<warpgroups = [2, 1]> to cover the kernel's 128 threads (256, or 384 with a producer warpgroup), but it has 2 warpgroups}}
  %acc = tile.alloc_fragment : !tile.buffer<128x64xf32, fragment, #tile.wgmma<warpgroups = [2, 1]>>
}

// -----

// expected-error@+1 {{expected a swizzle of 0, 32, 64 or 128 bytes, but got 96}}
func.func private @nvmma_swizzle(!tile.buffer<64x64xf16, shared, #tile.nvmma<swizzle = 96>>)

// -----

// expected-error@+1 {{expected #tile.nvmma<swizzle = 128> on a tile of rank 2 or more, but got rank 1}}
func.func private @nvmma_rank(!tile.buffer<64xf16, shared, #tile.nvmma<swizzle = 128>>)

// -----

// expected-error@+1 {{expected rows of whole 128-byte panels for #tile.nvmma<swizzle = 128>, but got 96 x 'f16'}}
func.func private @nvmma_panels(!tile.buffer<64x96xf16, shared, #tile.nvmma<swizzle = 128>>)

// -----

// expected-error@+1 {{expected a multiple of 8 rows for #tile.nvmma<swizzle = 64> (one period of the swizzle per panel), but got 12}}
func.func private @nvmma_rows(!tile.buffer<12x32xf16, shared, #tile.nvmma<swizzle = 64>>)
