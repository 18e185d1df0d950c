// tile-to-gpu{stop-after=<pass>} runs stage 1 up to and including that pass
// (without the cleanup), so each decision can be read in the IR: the fused
// stores, the shared-memory offsets, the barriers.
//
// RUN: tile-opt %s --tile-to-gpu="stop-after=tile-assign-layouts" | FileCheck %s --check-prefix=LAYOUTS
// RUN: tile-opt %s --tile-to-gpu="stop-after=tile-fuse-stores" | FileCheck %s --check-prefix=FUSED
// RUN: tile-opt %s --tile-to-gpu="stop-after=tile-plan-shared-memory" | FileCheck %s --check-prefix=PLANNED
// RUN: tile-opt %s --tile-to-gpu="stop-after=tile-insert-barriers" | FileCheck %s --check-prefix=BARRIERS
// RUN: tile-opt %s --tile-to-gpu="stop-after=convert-tile-to-gpu" | FileCheck %s --check-prefix=GPU
// RUN: tile-opt %s --tile-to-gpu="stop-after=tile-insert-barriers" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=PASSES
// RUN: not tile-opt %s --tile-to-gpu="stop-after=canonicalize" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not tile-opt %s --tile-to-gpu="stop=cse" 2>&1 | FileCheck %s --check-prefix=BADOPTION

// LAYOUTS: tile.alloc_fragment : !tile.buffer<64x64xf32, fragment, #tile.row_major<vec = 4>>
// LAYOUTS-NOT: tile.fused
// LAYOUTS-NOT: offset(

// FUSED: tile.copy %{{.*}} to %{{.*}} {tile.fused}
// FUSED-NOT: offset(
// FUSED-NOT: tile.barrier

// PLANNED: tile.kernel @stage_and_scale({{.*}} attributes {tile.shared_memory_bytes = 16384 : i64}
// PLANNED: tile.alloc_shared offset(0) : !tile.buffer<64x64xf32, shared>
// PLANNED-NOT: tile.barrier

// The shared tile is written, then read: one barrier between. The fragment
// is stored by the loop itself; no barrier follows it (no shared access).
// BARRIERS: tile.copy %{{.*}} to %[[S:.*]] : !tile.buffer<?x?xf32, global> to !tile.buffer<64x64xf32, shared>
// BARRIERS-NEXT: tile.barrier
// BARRIERS-NEXT: tile.copy %[[S]] to
// BARRIERS-NOT: tile.barrier

// GPU: gpu.func @stage_and_scale
// GPU: gpu.barrier
// GPU-NOT: gpu.barrier
// GPU: gpu.return

// PASSES: builtin.module(
// PASSES-NEXT: tile-pipeline,
// PASSES-NEXT: tile-assign-layouts,
// PASSES-NEXT: tile-warp-specialize,
// PASSES-NEXT: tile-fuse-stores{remarks=false},
// PASSES-NEXT: tile-plan-shared-memory,
// PASSES-NEXT: tile-insert-barriers
// PASSES-NEXT: )

// UNKNOWN: error: tile-to-gpu: expected stop-after to name a pass of the pipeline (tile-pipeline, tile-assign-layouts, tile-warp-specialize, tile-fuse-stores, tile-plan-shared-memory, tile-insert-barriers, convert-tile-to-gpu), but got 'canonicalize'
// BADOPTION: error: tile-to-gpu: expected the option stop-after=<pass>, but got 'stop=cse'

tile.kernel @stage_and_scale(%A: !tile.buffer<?x?xf32, global>, %B: !tile.buffer<?x?xf32, global>)
    grid(%bx) = [1] threads(256) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : !tile.buffer<64x64xf32, shared>
  %f = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  tile.copy %A[%c0, %c0] to %s : !tile.buffer<?x?xf32, global> to !tile.buffer<64x64xf32, shared>
  tile.copy %s to %f : !tile.buffer<64x64xf32, shared> to !tile.buffer<64x64xf32, fragment>
  tile.parallel (%i, %j) in [64, 64] {
    %x = tile.load %f[%i, %j] : !tile.buffer<64x64xf32, fragment>
    %y = arith.addf %x, %x : f32
    tile.store %y, %f[%i, %j] : !tile.buffer<64x64xf32, fragment>
  }
  tile.copy %f to %B[%c0, %c0] : !tile.buffer<64x64xf32, fragment> to !tile.buffer<?x?xf32, global>
}
