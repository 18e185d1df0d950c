//===- TileHopperOps.td - Hopper (sm_90a) operations -------*- tablegen -*-===//
//
// The ops of the Hopper lowering that tile-warp-specialize writes: mbarriers,
// the wait for asynchronous warpgroup MMAs, and the producer/compute split
// of a warp-specialized kernel, the wait for TMA stores. Included by
// TileOps.td; the verifiers are in TileHopperOps.cpp. The TMA copies (load
// and store) and the asynchronous gemm are forms of tile.copy and tile.gemm.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_TILEHOPPEROPS_TD
#define TILE_DIALECT_TILE_IR_TILEHOPPEROPS_TD

def Tile_MbarrierInitOp : Tile_Op<"mbarrier_init",
    [MemoryEffects<[MemWrite<DefaultResource>]>]> {
  let summary = "initialize every mbarrier of a shared tile";
  let description = [{
    `%bars` is a 1-D shared tile of `i64`, one
    [mbarrier](https://docs.nvidia.com/cuda/parallel-thread-execution/#parallel-synchronization-and-communication-instructions-mbarrier)
    per element. Every thread of the block executes this op: thread 0
    initializes each mbarrier with the arrival count `count` (its phase
    completes when `count` threads have arrived and the transaction bytes
    announced to it have landed), then `fence.mbarrier_init` and a block
    barrier make them visible before any thread (or TMA) uses them.

    Example:

    ```mlir
    tile.mbarrier_init %full count(1) : !tile.buffer<4xi64, shared>
    ```
  }];
  let arguments = (ins Arg<Tile_Buffer, "", [MemWrite]>:$barriers,
                       ConfinedAttr<I64Attr, [IntPositive]>:$count);
  let assemblyFormat = [{
    $barriers `count` `(` $count `)` attr-dict `:` qualified(type($barriers))
  }];
  let hasVerifier = 1;
}

def Tile_MbarrierArriveOp : Tile_Op<"mbarrier_arrive",
    [MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "arrive on an mbarrier, optionally announcing TMA bytes";
  let description = [{
    Each thread that executes the op arrives once on mbarrier `%index` of
    `%bars` (`mbarrier.arrive`). With `expect_tx(B)` it first announces
    that `B` more bytes will land on the barrier's current phase
    (`mbarrier.arrive.expect_tx`): the phase then completes only when the
    TMA copies that complete on it have written them.

    With `cluster` (a kernel with a `cluster`, no `expect_tx`) the calling
    warps release a stage that multicast copies fill in every block of
    the cluster: lane `r < blocks` of each warp arrives on mbarrier
    `%index` of block `r` (`mapa`, `mbarrier.arrive.release.cluster`), so
    the barrier counts one arrival per warp of each block of the cluster.
    The warp's lanes must have converged (as after `tile.gemm_wait`).

    Example:

    ```mlir
    tile.mbarrier_arrive %full[%s] expect_tx(49152) : !tile.buffer<4xi64, shared>
    tile.mbarrier_arrive %empty[%s] : !tile.buffer<4xi64, shared>
    tile.mbarrier_arrive %empty[%s] cluster : !tile.buffer<4xi64, shared>
    ```
  }];
  let arguments = (ins Arg<Tile_Buffer, "", [MemRead, MemWrite]>:$barriers,
                       Index:$index,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntPositive]>>:$expect_tx,
                       UnitAttr:$cluster);
  let assemblyFormat = [{
    $barriers `[` $index `]` (`expect_tx` `(` $expect_tx^ `)`)? (`cluster` $cluster^)? attr-dict
    `:` qualified(type($barriers))
  }];
  let hasVerifier = 1;
}

def Tile_MbarrierWaitOp : Tile_Op<"mbarrier_wait",
    [MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "wait until a phase of an mbarrier has completed";
  let description = [{
    Blocks the calling thread until the phase of parity `%parity` (an `i1`
    or index, taken mod 2) of mbarrier `%index` of `%bars` has completed
    (`mbarrier.try_wait.parity` in a retry loop); memory written before the
    arrivals that completed it (and by the TMA copies that completed on it)
    is then visible. A fresh barrier is in phase 0: waiting for parity 1
    returns at once, which is how a producer's first wait on an "empty"
    barrier passes.

    Example:

    ```mlir
    tile.mbarrier_wait %full[%s], %phase : !tile.buffer<4xi64, shared>
    ```
  }];
  let arguments = (ins Arg<Tile_Buffer, "", [MemRead, MemWrite]>:$barriers,
                       Index:$index, Index:$parity);
  let assemblyFormat = [{
    $barriers `[` $index `]` `,` $parity attr-dict `:` qualified(type($barriers))
  }];
  let hasVerifier = 1;
}

def Tile_GemmWaitOp : Tile_Op<"gemm_wait",
    [MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "wait until at most N asynchronous gemm groups are pending";
  let description = [{
    Waits until at most `pending` of the calling warpgroup's committed
    `tile.gemm async` groups are still running (`wgmma.wait_group`).
    `%acc` is the accumulator they write. With `pending = 0` its values are
    final: the lowering threads them through the wait (an inline-asm wait
    whose operands are the accumulator registers, tied), so no arithmetic
    on them can be scheduled before it, as Triton's `warp_group_dot_wait`
    does. With `pending > 0` the accumulator still belongs to the groups in
    flight and the wait only orders the shared-memory reads of the
    completed ones (their stages may be released after it).

    Example:

    ```mlir
    tile.gemm_wait 1, %acc : !tile.buffer<128x256xf32, fragment, #tile.wgmma<warpgroups = [2, 1]>>
    ```
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntNonNegative]>:$pending,
                       Arg<Tile_Buffer, "", [MemRead, MemWrite]>:$acc);
  let assemblyFormat = [{
    $pending `,` $acc attr-dict `:` qualified(type($acc))
  }];
  let hasVerifier = 1;
}

def Tile_StreamKFixupOp : Tile_Op<"stream_k_fixup",
    [MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "sum a split tile's K chunks across the blocks that ran them";
  let description = [{
    In the compute role of a `stream_k` kernel, after the main loop over
    chunk `%chunk` of the `%chunks` K chunks of shared tile `%tile` (the
    tiles of the partial round, numbered from 0): `%acc` (a #tile.wgmma
    f32 fragment) holds the sum over this chunk's iterations. Every block
    that ran a chunk of the tile stores its accumulator to the tile's slot
    for that chunk in the kernel's workspace (fragment order, coalesced)
    and counts itself in (an acq_rel atomic add). The last to count resets
    the count for the next launch, sums the `%chunks` stored accumulators
    in chunk order into `%acc` and returns true: it runs the tile's
    epilogue; the others return false. Nothing waits for another block, so
    no launch order or residency can deadlock it, and the sum's order does
    not depend on which block came last. `max_chunks` (at least 2) bounds
    `%chunks`: each tile has that many slots.

    Example:

    ```mlir
    %finishes = tile.stream_k_fixup %acc, %tile, %chunk, %chunks max_chunks(4) : !tile.buffer<128x256xf32, fragment, #tile.wgmma<warpgroups = [2, 1]>>
    ```
  }];
  let arguments = (ins Arg<Tile_Buffer, "", [MemRead, MemWrite]>:$acc,
                       Index:$tile, Index:$chunk, Index:$chunks,
                       ConfinedAttr<I64Attr, [IntMinValue<2>]>:$max_chunks);
  let results = (outs I1:$finishes);
  let assemblyFormat = [{
    $acc `,` $tile `,` $chunk `,` $chunks `max_chunks` `(` $max_chunks `)`
    attr-dict `:` qualified(type($acc))
  }];
  let hasVerifier = 1;
}

def Tile_TmaStoreWaitOp : Tile_Op<"tma_store_wait",
    [MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "wait until the TMA stores of a shared tile have read it";
  let description = [{
    Every thread of the calling group executes the op: the group's first
    thread, which issued the group's TMA stores (`tile.copy async` from a
    shared tile to global, one bulk group each), waits until at most
    `pending` of its most recent bulk groups are still reading their
    shared sources (`cp.async.bulk.wait_group.read pending`; 0 when
    omitted), then the group synchronizes. The `pending` newest stores must
    not read `%tile`: then every store of `%tile` has read it, and `%tile`
    may be written again while the others go on (double-buffered staging).
    The stores' writes to global memory may still be in flight (they are
    visible once the kernel has finished).

    `tile-warp-specialize` puts one before each write of a stored tile
    that follows a store of it (later in the epilogue, or in a later tile
    of a persistent kernel), counting the stores issued since, and one
    with `pending` 0 at the end of the compute role (shared memory must
    outlive the reads). The verifier checks the count where the stores
    precede the wait in its block.

    Example:

    ```mlir
    tile.tma_store_wait %cs : !tile.buffer<128x256xf16, shared, #tile.nvmma<swizzle = 128>>
    tile.tma_store_wait %c0 pending(1) : !tile.buffer<128x64xf16, shared, #tile.nvmma<swizzle = 128>>
    ```
  }];
  let arguments = (ins Arg<Tile_Buffer, "", [MemRead, MemWrite]>:$tile,
                       DefaultValuedAttr<I64Attr, "0">:$pending);
  let assemblyFormat = [{
    $tile (`pending` `(` $pending^ `)`)? attr-dict `:` qualified(type($tile))
  }];
  let hasVerifier = 1;
}

def Tile_WarpSpecializeOp : Tile_Op<"warp_specialize", [
    SingleBlock, NoTerminator, RecursiveMemoryEffects
  ]> {
  let summary = "split a warp-specialized kernel into producer and compute roles";
  let description = [{
    In a `warp_specialized` kernel, the first warpgroup (threads 0-127)
    produces and the others compute. The `producer` region runs on one
    thread of the first warpgroup (thread 0), which issues the TMA copies
    and their mbarrier handshakes; the `compute` region runs on every
    thread of the compute warpgroups. Each warpgroup first moves its
    register budget with `setmaxnreg` (`registers` per thread, multiples of
    8 from 24 to 256; the producer gives registers up, the compute
    warpgroups take them), which needs the kernel's `.maxntid` and keeps
    the two roles in one `if`/`else` on the warpgroup index, so no
    compute warp branches while a wgmma group is in flight. Both budgets
    must fit the registers the block holds at entry (`threads` x
    `65536 / threads` rounded down to 8, at most 255): setmaxnreg only
    moves registers between warpgroups, and an increase that finds none
    free waits forever. Without `registers` (both roles or neither) there
    is no `setmaxnreg`: a block of one compute warpgroup (256 threads)
    already holds what a compute thread may use (248 each at entry), and
    ptxas ignores a `setmaxnreg` in a kernel that needs fewer registers
    than that (C7508).

    The roles meet only through mbarriers: a block-wide `tile.barrier`
    cannot appear inside either region.

    Example:

    ```mlir
    tile.warp_specialize producer(registers = 40) {
      tile.mbarrier_wait %empty[%s], %p : !tile.buffer<4xi64, shared>
      ...
    } compute(registers = 232) {
      tile.mbarrier_wait %full[%s], %p : !tile.buffer<4xi64, shared>
      ...
    }
    ```
  }];
  let arguments = (ins OptionalAttr<ConfinedAttr<I64Attr, [IntMinValue<24>, IntMaxValue<256>]>>:$producer_registers,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntMinValue<24>, IntMaxValue<256>]>>:$compute_registers);
  let regions = (region SizedRegion<1>:$producer, SizedRegion<1>:$compute);
  let assemblyFormat = [{
    `producer` (`(` `registers` `=` $producer_registers^ `)`)? $producer
    `compute` (`(` `registers` `=` $compute_registers^ `)`)? $compute attr-dict
  }];
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "std::optional<int64_t>":$producerRegisters,
                   "std::optional<int64_t>":$computeRegisters)>
  ];
  let extraClassDeclaration = [{
    Block &getProducerBlock() { return getProducer().front(); }
    Block &getComputeBlock() { return getCompute().front(); }
  }];
}

def Tile_TileRangeOp : Tile_Op<"tile_range", [Pure]> {
  let summary = "the tiles a block of a persistent kernel walks";
  let description = [{
    In a `persistent` kernel, the linear tiles this block runs: `%first`
    (the block's index), then every `%step` (the number of blocks
    launched), below `%count` (the tiles of the kernel's grid, the product
    of its extents). `tile-warp-specialize` writes each role's tile loop
    over them; `tile.tile_coords` turns a linear tile into block indices.
    In a kernel with a `cluster` the tiles are cluster tiles (the grid's
    extents divided by the cluster's, rounded up) and `%first` and `%step`
    count clusters: the blocks of a cluster walk the same ones.

    Example:

    ```mlir
    %first, %step, %count = tile.tile_range : index, index, index
    scf.for %t = %first to %count step %step { ... }
    ```
  }];
  let results = (outs Index:$first, Index:$step, Index:$count);
  let assemblyFormat = "attr-dict `:` type(results)";
  let hasVerifier = 1;
}

def Tile_TileCoordsOp : Tile_Op<"tile_coords", [Pure]> {
  let summary = "the block indices of a linear tile of a persistent kernel";
  let description = [{
    The grid position of linear tile `%tile` of a `persistent` kernel, one
    index per grid dimension: what the kernel's block indices are in the
    body of a non-persistent kernel, rasterized the same way
    (`raster_panel`): x fastest, or panel by panel, down a column of the
    panel first. In a kernel with a `cluster`, `%tile` is a cluster tile,
    rasterized over the cluster grid (panels of `raster_panel / c` cluster
    rows for a cluster of `c` rows), and the block's index in its cluster
    picks its tile within it: `cluster coordinate x c + rank`.

    Example:

    ```mlir
    %bx, %by = tile.tile_coords %t : index, index
    ```
  }];
  let arguments = (ins Index:$tile);
  let results = (outs Variadic<Index>:$coords);
  let assemblyFormat = "$tile attr-dict `:` type($coords)";
  let hasVerifier = 1;
}

def Tile_ConsumerIndexOp : Tile_Op<"consumer_index", [Pure]> {
  let summary = "which compute set of a ping-pong kernel runs this thread";
  let description = [{
    In the compute role of a kernel with `consumers = n`, the set of
    compute threads this thread belongs to, from 0 to n - 1 (0 without
    `consumers`). `tile-warp-specialize` gives set `c` the tiles whose
    position in the block's tile walk is `c` modulo n, and each set its own
    copy of the epilogue's shared tiles (`tile.stage` of them at `%c`).

    Example:

    ```mlir
    %c = tile.consumer_index : index
    ```
  }];
  let results = (outs Index:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

#endif // TILE_DIALECT_TILE_IR_TILEHOPPEROPS_TD
