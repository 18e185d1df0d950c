//===- Passes.td - Tile dialect transformation passes ------*- tablegen -*-===//
//
// Passes that rewrite tile IR into tile IR.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD
#define TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileAssignLayouts : Pass<"tile-assign-layouts", "ModuleOp"> {
  let summary = "give every fragment without a layout a layout";
  let description = [{
    Fragments used together (in one `tile.parallel`, or copied into each
    other) must share a layout, so they are grouped first. A group that
    holds a `tile.gemm` accumulator gets `#tile.mma<warps = [wm, wn]>`,
    with the warp grid whose per-warp tile is closest to square (the
    accumulator keeps a layout it already has). Any other group gets
    `#tile.row_major<vec = N>` with the widest `vec` that every member
    allows: at most 16 bytes of its element type, dividing its last
    dimension, and with the kernel's thread count dividing its element
    count. Fragments that already have a layout keep it and decide for
    their group. Uses of a fragment follow its new type.

    Before:

    ```mlir
    %a = tile.alloc_fragment : !tile.buffer<1024xf32, fragment>
    ```

    After (256 threads):

    ```mlir
    %a = tile.alloc_fragment : !tile.buffer<1024xf32, fragment, #tile.row_major<vec = 4>>
    ```
  }];
  let dependentDialects = [];
}

def TilePipeline : Pass<"tile-pipeline", "ModuleOp"> {
  let summary = "software-pipeline loops marked with tile.num_stages";
  let description = [{
    Rewrites each `scf.for` inside a `tile.kernel` that carries
    `tile.num_stages = S` (S >= 2) so that the global -> shared copies of
    iteration `i + S - 1` run asynchronously while iteration `i` computes
    (S is at most 16, and the S stages of the loop's tiles must fit in 227
    KiB of shared memory; both are checked before anything is built):

    - every shared tile that such a copy writes gets `S` stages (a leading
      dimension) and is read through `tile.stage`;
    - a prologue issues the copies of the first `S - 1` iterations (each
      guarded by the trip count), one `tile.async_commit` per iteration;
    - each iteration issues the copies of iteration `i + S - 1` into the
      stage iteration `i - 1` used (unguarded: past the end they fill a
      stage nobody reads, and tile copies never read outside the tensor),
      commits, and computes on stage `i mod S`, after `tile.async_wait S-2`
      (its stage is ready, and every thread is done with the stage about to
      be refilled);
    - when the loop's only reader of the tiles is one `tile.gemm`, that wait
      moves into the gemm (`prefetched then wait S-2 prefetch`): it waits
      for stage `i + 1` before its last K step and loads that stage's first
      K step into registers, and the prologue ends with the wait for stage
      0 and a `tile.gemm_prefetch`;
    - `tile.async_wait 0` follows the loop;
    - when a copied tensor's rows may not be whole 16-byte chunks (a
      dynamic row length without a `divisible` promise on the kernel that
      makes it a multiple of the chunk), the pipelined loop runs under
      `scf.if` on that test and a one-stage copy of the loop (async copies
      into stage 0, each iteration waiting for its own) is the else branch,
      so the pipelined steady state has no branch.

    The loop body must start with the copies (global -> shared, into tiles
    allocated outside the loop and written by nothing else); the rest of
    the body may only read those tiles. Correct for any trip count,
    including fewer iterations than stages.

    Before:

    ```mlir
    scf.for %kt = %c0 to %n step %c1 {
      tile.copy %A[%row, %k] to %As : ...
      tile.copy %B[%k, %col] to %Bs : ...
      tile.gemm %As, %Bs, %acc : ...
    } {tile.num_stages = 3 : i64}
    ```

    After (sketch):

    ```mlir
    %As3 = tile.alloc_shared : !tile.buffer<3x128x32xf16, shared>
    scf.if (K % 8 == 0 && N % 8 == 0) {
      scf.if (0 < %n) { tile.copy async %A[...] to (tile.stage %As3[0]) ... }
      tile.async_commit
      scf.if (1 < %n) { ... stage 1 ... }
      tile.async_commit
      tile.async_wait 1
      tile.gemm_prefetch (tile.stage %As3[0]), (tile.stage %Bs3[0]), %acc
      scf.for %kt = %c0 to %n step %c1 {
        tile.copy async ... to (tile.stage %As3[(%kt + 2) mod 3]) ...
        tile.async_commit
        tile.gemm (tile.stage %As3[%kt mod 3]), ..., %acc prefetched
            then wait 1 prefetch (tile.stage %As3[(%kt + 1) mod 3]), ...
      }
      tile.async_wait 0
    } else {
      scf.for %kt = %c0 to %n step %c1 {
        tile.async_wait 0
        tile.copy async ... to (tile.stage %As3[0]) ...
        tile.async_commit
        tile.async_wait 0
        tile.gemm (tile.stage %As3[0]), ...
      }
    }
    ```
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
}

def TileWarpSpecialize : Pass<"tile-warp-specialize", "ModuleOp"> {
  let summary = "split a warp-specialized kernel's pipelined GEMM loop into "
                "a TMA producer and wgmma compute warpgroups";
  let description = [{
    In each `warp_specialized` kernel (`sm_90a`), rewrites the loop marked
    `tile.num_stages = S`, whose body copies global tiles into `#tile.nvmma`
    shared tiles and multiplies them with one `tile.gemm` into a
    `#tile.wgmma` accumulator (`tile-assign-layouts` gives both layouts),
    into an mbarrier pipeline of `S` stages split between the roles
    (`tile.warp_specialize`; the producer warpgroup gives registers up to
    the compute warpgroups with setmaxnreg, 40 against up to 232 each,
    except in a block of one compute warpgroup, whose threads already hold
    248 at entry):

    - each copied tile gets `S` stages; `full` and `empty` hold one
      mbarrier per stage (`full` completes when the stage's TMA bytes have
      landed, `empty` when every compute thread is done with it);
    - the producer (one thread) runs the loop, and in iteration `i` waits
      for `empty[i mod S]` with parity `(i / S + 1) mod 2` (a fresh
      barrier passes at once), announces the stage's bytes on `full[i mod
      S]` and issues the copies as TMA copies into stage `i mod S`;
    - the compute warpgroups wait for `full[i mod S]` with parity
      `(i / S) mod 2`, issue the gemm asynchronously on that stage, wait
      until one group is pending (so group `i - 1` is done) and, from the
      second iteration on, release stage `(i - 1) mod S` on `empty`; a
      final `tile.gemm_wait 0` makes the accumulator readable by the ops
      after the loop, which move into the compute role;
    - iteration 0 is peeled: its gemm overwrites the accumulator (wgmma
      scale-d = 0) in place of the `tile.clear` before the loop, because
      zeros written by other instructions make ptxas fence the wgmma
      (C7519); with no K steps (an empty reduction) nothing is copied or
      waited for and the clear runs instead, so the zeros are stored.

    The loop must run in steps of 1 (from any lower bound: a slice of a
    split K loop counts its stages from 0), its body hold only the copies,
    the gemm and pure index arithmetic, and the kernel body hold only pure
    ops, allocations and the accumulator's `tile.clear` before it. Kernels
    that are not `warp_specialized` are left alone.

    In a `persistent` kernel each role runs this inside a loop over the
    block's tiles (`tile.tile_range`, `tile.tile_coords`): the ops before
    the loop that read a block index are recomputed per tile from the
    tile's coordinates, the pipeline iteration that stages and parities
    come from runs on across tiles (a loop-carried base, plus each tile's
    trips), the compute role also gives the tile's last stage back after
    its final wait, and the epilogue runs per tile. The producer thus loads
    the next tile while the compute warpgroups store the last one.

    In a kernel with a `cluster` (blocks of neighbouring tiles along one
    grid dimension), a copy whose offsets do not read that dimension's
    block index loads the same tile in every block of the cluster: it is
    marked `multicast` (each block issues a share of its panels to all),
    the `empty` barriers count one arrival per compute warp of each block
    of the cluster, and the compute role releases stages with `cluster`
    arrivals, so that no block refills a stage that another still reads.

    In a persistent kernel with `consumers = 2` (ping-pong), two compute
    sets take the block's tiles in turn. Each set walks every tile (the
    pipeline iteration runs on over all of them) but computes those at its
    positions (`(t - first) / step` modulo 2, against
    `tile.consumer_index`); the epilogue's shared tiles get one copy per
    set (`tile.stage` of a copy per set at the set's index); and a pair of
    "turn" mbarriers orders the sets' main loops: the set of the tile at
    position p waits for the turn passed after the tile at p - 1 had waited
    on all of its stages, since a parity wait is only sound for a phase at
    most one ahead. The producer keeps 24 registers (setmaxnreg), the
    compute sets the rest.

    In a persistent `stream_k` kernel whose tiles leave a partial round of
    the blocks, the partial round's tiles are split into K chunks: 2 to 4,
    picked at run time as the fewest rounds of chunks per chunk size (1
    runs them whole), and never more than the loop's trips, whose bounds
    must not read a block index. Each role walks the block's whole tiles,
    then every blocks-th chunk (chunk c of shared tile t is unit c S + t
    for S shared tiles), its loop running from the chunk's first trip;
    the producer keeps 56 registers. After a chunk's final wait the
    compute role runs `tile.stream_k_fixup`, and the epilogue only where
    that finishes the tile.

    In the epilogue, a copy of a `#tile.nvmma` shared tile (an accumulator
    staged there; `tile-assign-layouts` swizzles it) to a kernel parameter
    of the same element type becomes a TMA store (`tile.copy async`). Each
    write of a stored tile that follows a store of it (a later band of the
    same epilogue, or in a persistent kernel the next tile's) waits first
    with `tile.tma_store_wait`, leaving the stores issued since in flight
    (`pending`): the last tile's stores drain while the next tile's
    products run, and a band's store while the next band is staged. The
    compute role ends with one wait for all of them.

    Before (`threads(384) warp_specialized`):

    ```mlir
    tile.clear %acc : ...
    scf.for %k = %c0 to %n step %c1 {
      tile.copy %A[%row, %k0] to %a : ... to !tile.buffer<128x64xf16, shared, #tile.nvmma<swizzle = 128>>
      tile.copy %B[%k0, %col] to %b : ...
      tile.gemm %a, %b, %acc : ...
    } {tile.num_stages = 4 : i64}
    tile.copy %acc to %C[%row, %col] : ...
    ```

    After (sketch):

    ```mlir
    %full = tile.alloc_shared : !tile.buffer<4xi64, shared>
    %empty = tile.alloc_shared : !tile.buffer<4xi64, shared>
    %a4 = tile.alloc_shared : !tile.buffer<4x128x64xf16, shared, #tile.nvmma<swizzle = 128>>
    tile.mbarrier_init %full count(1) : ...
    tile.mbarrier_init %empty count(256) : ...
    tile.warp_specialize producer(registers = 40) {
      scf.for %k = %c0 to %n step %c1 {
        tile.mbarrier_wait %empty[%s], %pe : ...
        tile.mbarrier_arrive %full[%s] expect_tx(49152) : ...
        tile.copy async %A[%row, %k0] to %as barrier(%full[%s] : ...) : ...
        ...
      }
    } compute(registers = 232) {
      scf.if %any {
        tile.mbarrier_wait %full[%c0], %c0 : ...
        tile.gemm async %as0, %bs0, %acc {clear_accum} : ...
        tile.gemm_wait 1, %acc : ...
        scf.for %k = %c1 to %n step %c1 {
          tile.mbarrier_wait %full[%s], %p : ...
          tile.gemm async %as, %bs, %acc : ...
          tile.gemm_wait 1, %acc : ...
          tile.mbarrier_arrive %empty[%sprev] : ...
        }
        tile.gemm_wait 0, %acc : ...
      } else {
        tile.clear %acc : ...
      }
      tile.copy %acc to %C[%row, %col] : ...
    }
    ```
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}

def TilePlanSharedMemory : Pass<"tile-plan-shared-memory", "ModuleOp"> {
  let summary = "give every shared tile and reduction scratch its offset in "
                "dynamic shared memory";
  let description = [{
    Places each `tile.alloc_shared` of a kernel in the kernel's dynamic
    shared memory and records the byte offset on it (`offset(N)`, a
    multiple of 128); gives each `tile.reduce` whose rows span several
    warps the f32 scratch of its cross-warp step (`scratch(offset = N,
    bytes = B)`); and records the bytes of all of them on the kernel
    (`tile.shared_memory_bytes`). `convert-tile-to-gpu` builds the views
    and the manifest's `dynamic_shared_memory` from these and places
    nothing itself.

    Liveness is counted in the kernel body's top-level order: a tile is
    live from the first top-level op that uses it (directly or through a
    `tile.stage` view) to the last, so a use inside a loop keeps it live for
    the whole loop. Tiles are placed in allocation order, first fit among
    offset 0 and the aligned ends of the tiles placed before, so tiles that
    are live together keep consecutive offsets and a tile used only after
    another's last use may take its bytes (`tile-insert-barriers` then puts
    a barrier before the new tile's first use). A tile nobody uses takes no
    bytes (offset 0).

    The scratch comes after the tiles: each reduction that needs one, in
    program order (outside `tile.parallel` bodies, the order the conversion
    lowers them in), gets `slots x rows per warp x warps` f32 at the next
    offset that is a multiple of 128, never shared with a tile or another
    reduction (the reduction's own two barriers guard it); a reduction
    whose rows lie within one warp (`tile.thread_reduce` always) needs
    none, and one it had is removed. A total above 227 KiB is an error.

    Before (256 threads):

    ```mlir
    %a = tile.alloc_shared : !tile.buffer<64x64xf32, shared>
    %b = tile.alloc_shared : !tile.buffer<64x64xf32, shared>
    tile.copy %A to %a : ...
    tile.copy %a to %B : ...   // last use of %a
    tile.copy %A to %b : ...
    tile.copy %b to %B : ...
    tile.reduce max %x into %m dim(1) : !tile.buffer<4x1024xf32, fragment, #tile.row_major<vec = 4>>, ...
    ```

    After (each row spans the 8 warps: 4 rows x 8 warps of f32):

    ```mlir
    tile.kernel @k(...) ... attributes {tile.shared_memory_bytes = 16512 : i64} {
      %a = tile.alloc_shared offset(0) : !tile.buffer<64x64xf32, shared>
      %b = tile.alloc_shared offset(0) : !tile.buffer<64x64xf32, shared>
      ...
      tile.reduce max %x into %m dim(1) scratch(offset = 16384, bytes = 128) : ...
    ```
  }];
  let dependentDialects = [];
}

def TileFuseStores : Pass<"tile-fuse-stores", "ModuleOp"> {
  let summary = "mark the stores that a tile.parallel lowers chunk by chunk";
  let description = [{
    A `tile.copy` to global memory right after the `tile.parallel` that
    computes its source is marked `tile.fused` when `convert-tile-to-gpu`
    can emit its stores inside the loop, each chunk as soon as its
    elements are computed, so that an epilogue's values need not all stay
    live until the copy:

    - an unrolled loop fuses the copy of a fragment it writes, in the
      loop's own layout (`#tile.row_major` or `#tile.mma`, whose chunks the
      copy moves), when the loop reads no row values (`#tile.slice`);
    - a rolled loop fuses the copy of a shared tile that it rewrites in
      place (each iteration loads, then stores, only its own element) right
      before the tile's last use (the tile is allocated in the loop's block
      and used there only before the loop): the loop then runs over the
      copy's 16-byte chunks and never writes the tile back.

    The conversion lowers a marked copy with the loop (and checks the
    conditions again: a mark it cannot honour is ignored). With
    `remarks=1` each decision on such a copy is a remark saying why (LLVM's
    `-debug` does not exist in a release build):

    ```
    remark: not fused into the tile.parallel before it: the copy's fragment
    has another layout (#tile.row_major<vec = 2>) than the loop
    (#tile.row_major<vec = 4>)
    ```

    Before:

    ```mlir
    tile.parallel (%i, %j) in [128, 128] {
      %x = tile.load %acc[%i, %j] : !tile.buffer<128x128xf32, fragment, #tile.mma<warps = [2, 2]>>
      %y = arith.addf %x, %x : f32
      tile.store %y, %acc[%i, %j] : !tile.buffer<128x128xf32, fragment, #tile.mma<warps = [2, 2]>>
    }
    tile.copy %acc to %C[%row, %col] : ... to !tile.buffer<?x?xf32, global>
    ```

    After:

    ```mlir
    tile.parallel (%i, %j) in [128, 128] { ... }
    tile.copy %acc to %C[%row, %col] {tile.fused} : ... to !tile.buffer<?x?xf32, global>
    ```
  }];
  let options = [
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "emit a remark for each candidate copy: fused, or why not">
  ];
  let dependentDialects = [];
}

def TileInsertBarriers : Pass<"tile-insert-barriers", "ModuleOp"> {
  let summary = "synchronize the block between conflicting shared accesses";
  let description = [{
    Inserts a `tile.barrier`

    - after each tile op (a copy, fill, clear, gemm or `tile.parallel`, and
      the ops in loops and branches) that writes a shared tile (read after
      write: the next op's threads read elements other threads wrote), or
      reads a shared tile that an op which may run later (after it in the
      program, or in a later iteration of a loop around it) writes (write
      after read). Reading a tile that is only read afterwards (attention's
      Q) needs none, nor does reading a pipeline stage (`tile.stage`: stages
      are refilled only after the next `tile.async_wait`) or an async copy
      (`tile.async_wait` synchronizes). A `tile.parallel` with a fused store
      (`tile-fuse-stores`) gets its barrier after the copy;
    - before the first top-level op that uses a shared tile whose bytes
      (`offset` from `tile-plan-shared-memory`) another tile used before:
      every thread must be done with the old tile.

    Where both meet, one barrier serves; running the pass again adds none.
    Barriers inside one op's own lowering (`tile.async_wait`, the
    cross-warp step of `tile.reduce`, `tile.print` of a shared tile) are
    left to `convert-tile-to-gpu`, which lowers each `tile.barrier` to
    `gpu.barrier`. In a `tile.warp_specialize`, the producer role (TMA,
    meeting the compute role through mbarriers) gets none; the compute
    role's epilogue gets them as above, and they lower to a named barrier
    of the compute threads.

    Before:

    ```mlir
    tile.copy %A[%row, %k] to %As : ... to !tile.buffer<128x32xf16, shared>
    tile.gemm %As, %Bs, %acc : ...
    ```

    After (the gemm reads what other threads wrote; the next iteration's
    copy overwrites what the gemm reads):

    ```mlir
    tile.copy %A[%row, %k] to %As : ... to !tile.buffer<128x32xf16, shared>
    tile.barrier
    tile.gemm %As, %Bs, %acc : ...
    tile.barrier
    ```
  }];
  let dependentDialects = [];
}

#endif // TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD
