// stream_k: a persistent kernel whose tiles do not fill whole rounds of
// the blocks splits the tiles of the partial round into K chunks. Pinned
// here: -tile-warp-specialize's choice of the number of chunks (2 to 4,
// the fewest rounds of chunks per chunk size, at most the trip count), the
// work loop (the block's whole tiles, then every blocks-th unit from its
// index; a unit's tile, chunk and trips computed only for units), the
// producer loading from the chunk's first trip, and in the compute role
// the fixup of a split tile (tile.stream_k_fixup) guarding the epilogue;
// convert-tile-to-gpu's workspace parameter (the last argument,
// #tile.workspace_param: 4 chunk slots of 128 registers x 256 threads x 4
// bytes, and a count, per block) and the fixup's protocol (every block
// stores its chunk, counts in between fences; the last sums the chunks in
// order); the manifest's "workspace" parameter.
//
// RUN: tile-opt %s --tile-assign-layouts --tile-warp-specialize | FileCheck %s --check-prefix=WS
// RUN: tile-opt %s --tile-to-gpu | FileCheck %s --check-prefix=GPU
// RUN: tile-translate %s --chip=sm_90a --emit=manifest | FileCheck %s --check-prefix=MANIFEST
// RUN: tile-translate %s --chip=sm_90a --emit=ptx | FileCheck %s --check-prefix=PTX

// WS-LABEL: tile.kernel @stream_k(
// WS-SAME: warp_specialized persistent divisible(%A[1] by 8, %B[1] by 8, %C[1] by 8)
// WS-SAME: attributes {stream_k} {
// WS: %[[K:.*]] = arith.ceildivui
// WS: tile.warp_specialize producer(registers = 56) {
// WS: } compute(registers = 224) {
// WS-NEXT: %[[FIRST:.*]], %[[BLOCKS:.*]], %[[TILES:.*]] = tile.tile_range
// WS-NEXT: %[[PARTIAL:.*]] = arith.remui %[[TILES]], %[[BLOCKS]] : index
// WS-NEXT: %[[ROUNDS1:.*]] = arith.ceildivui %[[PARTIAL]], %[[BLOCKS]] : index
// Two chunks beat one when ceil(2 S / blocks) x 1 < rounds(1) x 2 and the
// tile has at least two trips.
// WS-NEXT: %[[C2:.*]] = arith.constant 2 : index
// WS-NEXT: %[[S2:.*]] = arith.muli %[[PARTIAL]], %[[C2]] : index
// WS-NEXT: %[[ROUNDS2:.*]] = arith.ceildivui %[[S2]], %[[BLOCKS]] : index
// WS: %[[CHUNKS:.*]] = arith.select %{{.*}}, %c4{{.*}}, %{{.*}} : index
// WS-NEXT: %{{.*}} = arith.select
// WS-NEXT: %[[SPLIT:.*]] = arith.cmpi ugt, %[[CHUNKS]], %{{.*}} : index
// WS-NEXT: %[[SHARED:.*]] = arith.select %[[SPLIT]], %[[PARTIAL]], %{{.*}} : index
// WS-NEXT: %[[WHOLE:.*]] = arith.subi %[[TILES]], %[[SHARED]] : index
// WS-NEXT: %[[UNITS:.*]] = arith.muli %[[SHARED]], %[[CHUNKS]] : index
// WS: scf.for %[[W:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (index) {
// WS-NEXT: %[[ISWHOLE:.*]] = arith.cmpi ult, %[[W]], %[[OWNWHOLE:.*]] : index
// WS-NEXT: %[[PLACE:.*]]:3 = scf.if %[[ISWHOLE]] -> (index, index, index) {
// WS: scf.yield %{{.*}}, %{{.*}}, %[[K]] : index, index, index
// WS-NEXT: } else {
// Unit u = first + (w - whole tiles) x blocks: chunk u / S of shared tile
// u mod S, trips [c k / p, (c + 1) k / p).
// WS-NEXT: %[[J:.*]] = arith.subi %[[W]], %[[OWNWHOLE]] : index
// WS-NEXT: %[[JB:.*]] = arith.muli %[[J]], %[[BLOCKS]] : index
// WS-NEXT: %[[U:.*]] = arith.addi %[[FIRST]], %[[JB]] : index
// WS-NEXT: %[[T:.*]] = arith.remui %[[U]], %[[SHARED]] : index
// WS-NEXT: %[[CHUNK:.*]] = arith.divui %[[U]], %[[SHARED]] : index
// WS-NEXT: %[[LINEAR:.*]] = arith.addi %[[WHOLE]], %[[T]] : index
// WS-NEXT: %[[CK:.*]] = arith.muli %[[CHUNK]], %[[K]] : index
// WS-NEXT: %[[FIRSTTRIP:.*]] = arith.divui %[[CK]], %[[CHUNKS]] : index
// WS: scf.yield %[[LINEAR]], %[[FIRSTTRIP]], %{{.*}} : index, index, index
// WS: tile.tile_coords %[[PLACE]]#0 : index, index
// WS: tile.gemm_wait 0, %[[ACC:.*]] :
// The chunk's tile and number, recomputed after the main loop (no
// registers held through it).
// WS: %[[ISCHUNK:.*]] = arith.andi
// WS-NEXT: %[[FINISHES:.*]] = scf.if %[[ISCHUNK]] -> (i1) {
// WS: %[[T2:.*]] = arith.remui %{{.*}}, %[[SHARED]] : index
// WS-NEXT: %[[C2:.*]] = arith.divui %{{.*}}, %[[SHARED]] : index
// WS-NEXT: %[[F:.*]] = tile.stream_k_fixup %[[ACC]], %[[T2]], %[[C2]], %[[CHUNKS]] max_chunks(4) : !tile.buffer<128x256xf32, fragment, #tile.wgmma<warpgroups = [2, 1]>>
// WS-NEXT: scf.yield %[[F]] : i1
// WS-NEXT: } else {
// WS-NEXT: %[[TRUE:.*]] = arith.constant true
// WS-NEXT: scf.yield %[[TRUE]] : i1
// WS-NEXT: }
// WS-NEXT: scf.if %[[FINISHES]] {
// WS-NEXT: tile.copy %[[ACC]] to %C

// GPU: #tile.workspace_param<name = "workspace", bytes_per_block = 524292>
// GPU: gpu.func @stream_k({{.*}}, %[[WORKSPACE:.*]]: !llvm.ptr<1>) kernel
// Every block stores its chunk's 32 quads of registers, then after the
// compute threads' barrier its first thread counts it in between fences;
// a reducing barrier tells them all whether it came last.
// GPU-COUNT-32: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
// GPU: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// GPU: llvm.fence syncscope("device") acq_rel
// GPU: llvm.atomicrmw add %{{.*}}, %{{.*}} syncscope("device") monotonic : !llvm.ptr<1>, i32
// GPU-NEXT: llvm.fence syncscope("device") acq_rel
// GPU: llvm.inline_asm has_side_effects "{ .reg .pred q, p; setp.ne.u32 q, $1, 0; bar.red.or.pred p, 1, 256, q; selp.u32 $0, 1, 0, p; }"
// The last: chunk 0 loaded, then the others added in order.
// GPU-COUNT-32: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// GPU: scf.for
// GPU-COUNT-32: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>

// MANIFEST: "bytes_per_block": 524292,
// MANIFEST-NEXT: "kind": "workspace",
// MANIFEST-NEXT: "name": "workspace"

// PTX: fence.acq_rel.gpu;
// PTX-NEXT: add.s64
// PTX-NEXT: atom.global.add.u32
// PTX-NEXT: fence.acq_rel.gpu;
// PTX: bar.red.or.pred p, 1, 256, q;

tile.kernel @stream_k(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf32, global>)
    grid(%bx, %by) = [ceildiv(%B[1], 256), ceildiv(%A[0], 128)] threads(384) warp_specialized persistent divisible(%A[1] by 8, %B[1] by 8, %C[1] by 8) requires(%A[1] == %B[0], %C[0] == %A[0], %C[1] == %B[1]) attributes {stream_k} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %row = arith.muli %by, %c128 : index
  %col = arith.muli %bx, %c256 : index
  %a = tile.alloc_shared : !tile.buffer<128x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x256xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<128x256xf32, fragment>
  tile.clear %acc : !tile.buffer<128x256xf32, fragment>
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %n = arith.ceildivui %k, %c64 : index
  scf.for %i = %c0 to %n step %c1 {
    %k0 = arith.muli %i, %c64 : index
    tile.copy %A[%row, %k0] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<128x64xf16, shared>
    tile.copy %B[%k0, %col] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x256xf16, shared>
    tile.gemm %a, %b, %acc : !tile.buffer<128x64xf16, shared>, !tile.buffer<64x256xf16, shared>, !tile.buffer<128x256xf32, fragment>
  } {tile.num_stages = 4 : i64}
  tile.copy %acc to %C[%row, %col] : !tile.buffer<128x256xf32, fragment> to !tile.buffer<?x?xf32, global>
}
