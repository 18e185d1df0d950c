//===- TileOps.td - Tile dialect operations ----------------*- tablegen -*-===//
//
// Kernels, buffer allocation, tile copies, fills and element-wise parallel
// loops.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_TILEOPS_TD
#define TILE_DIALECT_TILE_IR_TILEOPS_TD

include "tile/Dialect/Tile/IR/TileTypes.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Tile_Buffer : Type<CPred<"::llvm::isa<::mlir::tile::BufferType>($_self)">,
                       "tile buffer", "::mlir::tile::BufferType">;

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

def Tile_KernelOp : Tile_Op<"kernel", [
    IsolatedFromAbove, Symbol, SingleBlock, NoTerminator,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>
  ]> {
  let summary = "a GPU kernel launched on a grid of thread blocks";
  let description = [{
    Defines a kernel named `sym_name`. Its parameters are global buffers
    (`!tile.buffer<..., global>`) and scalars (`f32`, `i32`, ...). The body
    runs once per thread block: the block's threads (`threads`, a multiple of
    32 up to 1024) execute it together, and tile ops inside distribute their
    work over them.

    The grid has one to three dimensions, each a constant or
    `ceildiv(%param[dim], n)`. The entry block's arguments are the
    parameters followed by one block index (`index`) per grid dimension.

    `raster_panel = P` (2-D grids) reorders the blocks for L2 reuse: block
    ids are handed out panel by panel, each panel `P` rows of the grid
    (y) tall, going down a column of the panel before moving right, so the
    blocks running together share rows of A and columns of B.

    `divisible(%A[1] by 8, ...)` promises that those dynamic sizes are
    multiples of the given numbers at every launch (Triton's divisibility
    specialization): copies of rows whose length is a known multiple of
    their vector width need no scalar fallback, and a pipelined loop over
    them no synchronous copy. The kernel manifest lists the promise and the
    runtime checks it at launch.

    `requires(...)` is the kernel's launch contract: the relations between
    the sizes of its buffer parameters that its code relies on, each
    `%P[d] == rhs`, `%P[d] <= rhs` or `%P[d] >= rhs` with `rhs` a size
    `%Q[e]` or an integer, or `%P[d] divides %Q[e]` (`%Q[e]` is a multiple
    of `%P[d]`; 0 divides only 0). A GEMM states that A's K is B's K and
    that C is M x N, a softmax that its rows fit the columns a block holds
    on chip, grouped-query attention that the K/V heads divide the query
    heads.
    Every copy masks at its own tensor's sizes, so a launch that breaks the
    contract would not fault: it would read zeros, drop outputs or return
    garbage. The manifest lists the contract under "requires" and the
    runtime refuses such a launch, naming the relation and the sizes. A
    complete contract is one that no launch can meet and still reach
    outside a buffer or compute a wrong result. The verifier rejects
    relations that no launch can meet (static sizes that differ, bounds
    that exclude each other, a size below 0) and ones that say nothing new
    (a size compared with itself, a relation stated twice).

    `warp_specialized` (`sm_90a`) makes the first warpgroup a producer: it
    issues the TMA copies of the kernel's pipelined loops while the other
    warpgroups compute (`tile-warp-specialize`). Fragments are spread over
    the compute threads (`threads - 128`); `threads` is a multiple of 128
    of at least 256.

    `persistent` (with `warp_specialized`) launches one block per
    multiprocessor instead of one per tile: each block walks the grid's
    tiles `t = blockIdx.x, blockIdx.x + gridDim.x, ...` (rasterized as
    above), running the body once per tile, and its producer loads the next
    tile while the compute warpgroups finish the last one's epilogue
    (`tile-warp-specialize`; the mbarrier phases run on across tiles). The
    grid still says how many tiles there are; the manifest marks the kernel
    `persistent` and the runtime launches `min(tiles, multiprocessors)`
    blocks.

    `cluster = array<i64: 1, 2>` (with `persistent`; one extent per grid
    dimension, more than 1 along exactly one, at most 8 blocks) launches
    the blocks in thread-block clusters (`.reqnctapercluster`) that run
    neighbouring tiles together: the blocks of a cluster walk the grid's
    cluster tiles (here pairs of tiles one above the other), each running
    its own tile of the pair. A TMA copy that does not depend on the
    clustered block index (B, with the pair along y) is then loaded once
    for the cluster: each block fetches a share of its panels and
    multicasts them to all (`tile-warp-specialize` marks such copies
    `multicast`), halving the L2 traffic for that operand. Tiles past the
    grid's edge (an odd number of rows) are computed on zero-filled
    operands and not stored. The runtime launches a multiple of the
    cluster size blocks.

    `consumers = 2` (with `persistent`, no `cluster`) is the ping-pong
    schedule: the block runs two sets of compute threads, each the
    `threads - 128` that the body describes, which take the block's tiles
    in turn, so that one set's epilogue runs while the other's wgmma
    products use the tensor cores. The sets share the producer and its
    stages (filled tile after tile, so the sets' main loops follow each
    other); each has its own copy of the shared tiles its epilogue uses.
    `threads` stays one set's view of the block: the block launches
    `threads + (consumers - 1) x (threads - 128)` threads.

    `stream_k` (with `persistent`, one set of compute threads, no
    `cluster`) balances the last round of tiles: when the tiles do not
    fill whole rounds of the launched blocks, the tiles of the partial
    round are split into K chunks, as many as fill the blocks' rounds
    best, which the blocks take in turn, chunk after chunk
    (`tile-warp-specialize`); the blocks that ran a tile's chunks sum them
    through a workspace the runtime provides (`tile.stream_k_fixup`, the
    manifest's `workspace` parameter).

    The kernel name must be a PTX identifier that LLVM's NVPTX back end can
    print: a letter followed by letters, digits, `_` and `$`, or `_` or `$`
    followed by at least one of those; `WARP_SZ` (PTX), `vprintf` and names
    starting with `__` (the compiler's and libdevice's) are reserved.
    Parameter names are unique (the manifest names arguments by them).

    Lowers (`convert-tile-to-gpu`) to a `gpu.func` kernel in a `gpu.module`;
    each global buffer becomes a pointer parameter, and each of its dynamic
    dimensions one `i64` parameter after all buffers and scalars.

    Example:

    ```mlir
    tile.kernel @vector_add(%A: !tile.buffer<?xf32, global>,
                            %B: !tile.buffer<?xf32, global>,
                            %C: !tile.buffer<?xf32, global>)
        grid(%bx) = [ceildiv(%A[0], 1024)] threads(256) {
      ...
    }

    tile.kernel @gemm(%A: !tile.buffer<?x?xf16, global>, ...)
        grid(%bx, %by) = [ceildiv(%B[1], 128), ceildiv(%A[0], 128)]
        threads(128) divisible(%A[1] by 8, %B[1] by 8, %C[1] by 8)
        requires(%A[1] == %B[0], %C[0] == %A[0], %C[1] == %B[1]) {
      ...
    }

    tile.kernel @softmax(%X: !tile.buffer<?x?xf32, global>,
                         %Y: !tile.buffer<?x?xf32, global>)
        grid(%bx) = [%X[0]] threads(256)
        requires(%Y[0] == %X[0], %Y[1] == %X[1], %X[1] <= 1024) {
      ...
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       StrArrayAttr:$param_names,
                       TypedArrayAttrBase<Tile_GridExtentAttr,
                                          "grid extents">:$grid,
                       I64Attr:$threads,
                       UnitAttr:$warp_specialized,
                       UnitAttr:$persistent,
                       OptionalAttr<I64Attr>:$consumers,
                       UnitAttr:$stream_k,
                       OptionalAttr<I64Attr>:$raster_panel,
                       OptionalAttr<DenseI64ArrayAttr>:$cluster,
                       OptionalAttr<TypedArrayAttrBase<Tile_DivisibilityAttr,
                                    "size divisibility promises">>:$divisibility,
                       OptionalAttr<TypedArrayAttrBase<Tile_ShapeRelationAttr,
                                    "launch contract">>:$requirements);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "StringRef":$name, "ArrayRef<Type>":$paramTypes,
                   "ArrayRef<std::string>":$paramNames,
                   "ArrayRef<GridExtentAttr>":$grid, "int64_t":$threads)>
  ];
  let extraClassDeclaration = [{
    unsigned getNumParams() { return getFunctionType().getNumInputs(); }
    unsigned getGridRank() { return getGrid().size(); }
    Block &getEntryBlock() { return getBody().front(); }
    BlockArgument getParam(unsigned i) { return getEntryBlock().getArgument(i); }
    /// The block index of grid dimension `dim` (0 = x).
    BlockArgument getBlockIndex(unsigned dim) {
      return getEntryBlock().getArgument(getNumParams() + dim);
    }
    StringRef getParamName(unsigned i) {
      return ::llvm::cast<StringAttr>(getParamNames()[i]).getValue();
    }
    /// The threads that compute one tile: all of them, or all but the
    /// producer warpgroup of a warp-specialized kernel.
    int64_t getComputeThreads() {
      return getThreads() - (getWarpSpecialized() ? kWarpgroupThreads : 0);
    }
    /// The sets of compute threads that take turns over a persistent
    /// kernel's tiles (`consumers(n)`, ping-pong): 1 without.
    int64_t getConsumerCount() { return getConsumers().value_or(1); }
    /// The threads a block launches: `threads` is one consumer's view of
    /// the block (the producer warpgroup and one set of compute threads);
    /// each further consumer adds its compute threads.
    int64_t getBlockThreads() {
      return getThreads() + (getConsumerCount() - 1) * getComputeThreads();
    }
    /// The registers each thread holds at entry, before any setmaxnreg:
    /// ptxas gives a kernel the most its `.maxntid` (the block's threads)
    /// allows, 65536 / threads in whole allocation units of 8 and at most
    /// 255. setmaxnreg only moves these between warpgroups, so the roles'
    /// budgets must fit threads x this (more waits forever).
    int64_t getRegistersAtEntry() {
      return std::min<int64_t>(
                 65536 / std::max<int64_t>(getBlockThreads(), 1), 255) /
             8 * 8;
    }
    /// All that the block holds at entry: getBlockThreads() x
    /// getRegistersAtEntry(), what the roles of tile.warp_specialize share.
    int64_t getBlockRegisters() {
      return getBlockThreads() * getRegistersAtEntry();
    }
    /// The blocks of one cluster (the product of `cluster`); 1 without one.
    int64_t getClusterBlocks() {
      int64_t blocks = 1;
      if (std::optional<ArrayRef<int64_t>> cluster = getCluster())
        for (int64_t extent : *cluster)
          blocks *= extent;
      return blocks;
    }
    /// The number that dimension `dim` of parameter `param` is promised to
    /// be a multiple of (`divisible`); 1 without a promise.
    int64_t getDivisor(unsigned param, unsigned dim);
    /// The relations of the launch contract (`requires`); empty without one.
    SmallVector<ShapeRelationAttr> getContract();
    /// The name of the hidden size parameter that the manifest lists for
    /// dynamic dimension `dim` of buffer parameter `param`: "A.dim1".
    static std::string getDimParamName(StringRef param, int64_t dim);
  }];
}

def Tile_DimOp : Tile_Op<"dim", [Pure]> {
  let summary = "the size of one dimension of a buffer";
  let description = [{
    Returns the size of dimension `dim` of `source`. For a dynamic dimension
    of a global buffer this is the value the runtime passes at launch.

    Example:

    ```mlir
    %n = tile.dim %A[0] : !tile.buffer<?xf32, global>
    ```
  }];
  let arguments = (ins Tile_Buffer:$source, I64Attr:$dim);
  let results = (outs Index:$result);
  let assemblyFormat = "$source `[` $dim `]` attr-dict `:` qualified(type($source))";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_SubviewOp : Tile_Op<"subview", [Pure]> {
  let summary = "the buffer of a global tensor's trailing dimensions at "
                "fixed leading indices";
  let description = [{
    Fixes the first `k` indices of a global buffer of rank `r > k` and
    returns the global buffer of its last `r - k` dimensions there: e.g. the
    `S x D` matrix of one (batch, head) of a `B x H x S x D` tensor. Copies
    from and to the view are bounded by its own sizes, so tiles past the
    end of one head are masked instead of reaching into the next.

    The leading indices must be in bounds (they are not checked at run
    time, as a grid over the leading dimensions guarantees). Lowered to a
    rank-reducing `memref.subview`.

    Example:

    ```mlir
    %q = tile.subview %Q[%b, %h] : !tile.buffer<?x?x?x64xf16, global> to !tile.buffer<?x64xf16, global>
    ```
  }];
  let arguments = (ins Tile_Buffer:$source, Variadic<Index>:$indices);
  let results = (outs Tile_Buffer:$result);
  let assemblyFormat = [{
    $source `[` $indices `]` attr-dict `:` qualified(type($source)) `to`
    qualified(type($result))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Allocation
//===----------------------------------------------------------------------===//

def Tile_AllocSharedOp : Tile_Op<"alloc_shared",
    [MemoryEffects<[MemAlloc<DefaultResource>]>]> {
  let summary = "allocate a tile in shared memory";
  let description = [{
    Allocates a statically shaped tile in the block's shared memory. Its
    bytes are its own from its first use to its last (a loop's whole body
    when it is used inside one); a tile used only after another's last use
    may get the same bytes, behind a barrier. Lowered to a view into the
    kernel's dynamic shared memory at byte `offset`, which
    `-tile-plan-shared-memory` chooses (a multiple of 128) and which
    `convert-tile-to-gpu` requires; the kernel manifest reports the total
    (the kernel's `tile.shared_memory_bytes`).

    Example:

    ```mlir
    %As = tile.alloc_shared : !tile.buffer<128x32xf16, shared>
    %Bs = tile.alloc_shared offset(8192) : !tile.buffer<32x128xf16, shared>
    ```
  }];
  let arguments = (ins OptionalAttr<I64Attr>:$offset);
  let results = (outs Tile_Buffer:$result);
  let assemblyFormat = [{
    (`offset` `(` $offset^ `)`)? attr-dict `:` qualified(type($result))
  }];
  let builders = [
    OpBuilder<(ins "Type":$type), [{
      build($_builder, $_state, type, IntegerAttr());
    }]>
  ];
  let hasVerifier = 1;
}

def Tile_AllocFragmentOp : Tile_Op<"alloc_fragment",
    [MemoryEffects<[MemAlloc<DefaultResource>]>]> {
  let summary = "allocate a register tile spread over the block's threads";
  let description = [{
    Allocates a statically shaped fragment: each thread of the block holds
    the part of the tile that the fragment's layout gives it, in registers.

    Example:

    ```mlir
    %acc = tile.alloc_fragment : !tile.buffer<1024xf32, fragment>
    ```
  }];
  let results = (outs Tile_Buffer:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

def Tile_CopyOp : Tile_Op<"copy", [AttrSizedOperandSegments]> {
  let summary = "copy a tile between memory scopes";
  let description = [{
    Copies a tile from `source` to `dest`. The tile's shape is the shape of
    the non-global operand (the destination's if both are tiles); a global
    operand is addressed at the given offsets (one `index` per dimension,
    all zero when omitted).

    A fragment source with offsets (constants) is read as a window: the
    destination's shape at those offsets, copied to a shared tile. Each
    thread writes the window's elements it holds, so the window must keep
    every element in the thread that holds it in the window's own layout
    (e.g. a band of columns of a `#tile.wgmma` accumulator whose
    warpgroups split its rows): an epilogue can stage an accumulator
    through a shared tile smaller than it.

    Bounds are checked element by element against the global tensor's
    sizes: source elements outside the tensor read as zero, destination
    elements outside it are not written. So any tensor size works, and the
    tails of the last blocks are masked.

    Element types may differ between floating-point types; values are then
    converted (`arith.extf` / `arith.truncf`).

    `async` (global -> shared of one element type only) starts the copy
    without waiting for it: it lowers to `cp.async` (16-byte `.cg` where
    the chunk is 16 bytes and aligned; the missing elements of a chunk at
    the tensor's edge are zero-filled) and joins the group that the next
    `tile.async_commit` closes; `tile.async_wait` makes it visible.
    `tile-pipeline` produces these from pipelined loops.

    `async ... barrier(%bars[%i])` (global -> a `#tile.nvmma` shared tile,
    `sm_90a`) is a TMA copy issued by the calling thread alone: one
    `cp.async.bulk.tensor` per panel of the tile through a tensor map of the
    global buffer (a `tensor_map` kernel parameter the runtime encodes at
    launch), completing on mbarrier `%i` of `%bars` with the tile's bytes
    (`tile.mbarrier_arrive ... expect_tx` announces them). The hardware
    zero-fills the elements outside the tensor, and counts them.
    `tile-warp-specialize` produces these; they are allowed in
    `warp_specialized` kernels only. With `multicast` (a kernel with a
    `cluster`) the tile is the same in every block of the cluster: block
    `r` issues the panels `p` with `p mod blocks = r`, each written to the
    same offset of every block's shared memory and completing on the same
    mbarrier of each (`.multicast::cluster`), so every block still
    receives the whole tile's bytes.

    `async` from a `#tile.nvmma` shared tile to a global kernel parameter
    (`sm_90a`, same element type, no barrier) is a TMA store: every thread
    of the calling group fences its shared-memory writes for the async
    proxy (`fence.proxy.async.shared::cta`), the group synchronizes, and
    its first thread issues one `cp.async.bulk.tensor` store per panel
    through a tensor map of the global buffer and commits them as one bulk
    group. The hardware drops the elements outside the tensor. The shared
    tile may be written again only after `tile.tma_store_wait`.
    `tile-warp-specialize` produces these from the epilogue's stores of
    `#tile.nvmma` tiles.

    Lowering: the tile is cut into chunks following the fragment's layout
    (or a 16-byte row-major distribution for shared tiles); each thread
    moves its chunks with one 128-bit access where the chunk is inside the
    tensor and aligned, and with masked scalar accesses otherwise.

    Example:

    ```mlir
    tile.copy %A[%off] to %a : !tile.buffer<?xf32, global> to !tile.buffer<1024xf32, fragment>
    tile.copy %c to %C[%off] : !tile.buffer<1024xf32, fragment> to !tile.buffer<?xf32, global>
    ```
  }];
  let arguments = (ins Arg<Tile_Buffer, "", [MemRead]>:$source,
                       Variadic<Index>:$sourceOffsets,
                       Arg<Tile_Buffer, "", [MemWrite]>:$dest,
                       Variadic<Index>:$destOffsets,
                       UnitAttr:$async,
                       Arg<Optional<Tile_Buffer>, "", [MemWrite]>:$barriers,
                       Optional<Index>:$barrierIndex,
                       UnitAttr:$multicast);
  let assemblyFormat = [{
    (`async` $async^)? $source (`[` $sourceOffsets^ `]`)? `to` $dest (`[` $destOffsets^ `]`)?
    (`barrier` `(` $barriers^ `[` $barrierIndex `]` `:` qualified(type($barriers)) `)`)?
    (`multicast` $multicast^)? attr-dict `:` qualified(type($source)) `to` qualified(type($dest))
  }];
  let hasVerifier = 1;
  let builders = [
    OpBuilder<(ins "Value":$source, "ValueRange":$sourceOffsets,
                   "Value":$dest, "ValueRange":$destOffsets,
                   CArg<"bool", "false">:$async), [{
      build($_builder, $_state, source, sourceOffsets, dest, destOffsets,
            async, /*barriers=*/Value(), /*barrierIndex=*/Value(),
            /*multicast=*/false);
    }]>
  ];
  let extraClassDeclaration = [{
    BufferType getSourceType() { return ::llvm::cast<BufferType>(getSource().getType()); }
    BufferType getDestType() { return ::llvm::cast<BufferType>(getDest().getType()); }
    /// The shape of the tile that is copied.
    ArrayRef<int64_t> getTileShape();
    /// The checks of a copy from a window of a fragment (a fragment source
    /// at offsets).
    ::llvm::LogicalResult verifyFragmentWindow();
    /// Whether the copy is a TMA load completing on an mbarrier.
    bool isTmaLoad() { return static_cast<bool>(getBarriers()); }
    /// Whether the copy is a TMA store (async, from shared to global).
    bool isTmaStore() {
      return getAsync() && getSourceType().isShared() &&
             getDestType().isGlobal();
    }
    bool isTma() { return isTmaLoad() || isTmaStore(); }
    /// The global buffer the tensor map of a TMA copy describes.
    Value getTmaGlobal() { return isTmaStore() ? getDest() : getSource(); }
    /// The #tile.nvmma shared tile of a TMA copy.
    Value getTmaTile() { return isTmaStore() ? getSource() : getDest(); }
  }];
}

def Tile_AtomicAddOp : Tile_Op<"atomic_add"> {
  let summary = "add a fragment into a global tile with atomics";
  let description = [{
    Adds each element of the fragment `source` to the element of the global
    f32 buffer `dest` at the given offsets (one `index` per dimension, all
    zero when omitted), with one relaxed atomic add per element: blocks that
    cover the same tile (split-K: one block per slice of the K loop) sum
    into it in some order. Elements outside the buffer are not written, as
    with `tile.copy`; the source is converted to f32 first.

    A buffer parameter that only atomic adds touch is described as
    `accumulate` in the manifest, and the runtime zero-fills it before the
    launch, so that the kernel's result is the sum alone.

    Example:

    ```mlir
    tile.atomic_add %acc to %C[%row, %col] : !tile.buffer<128x128xf32, fragment> to !tile.buffer<?x?xf32, global>
    ```
  }];
  let arguments = (ins Arg<Tile_Buffer, "", [MemRead]>:$source,
                       Arg<Tile_Buffer, "", [MemRead, MemWrite]>:$dest,
                       Variadic<Index>:$destOffsets);
  let assemblyFormat = [{
    $source `to` $dest (`[` $destOffsets^ `]`)? attr-dict `:`
    qualified(type($source)) `to` qualified(type($dest))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    BufferType getSourceType() { return ::llvm::cast<BufferType>(getSource().getType()); }
    BufferType getDestType() { return ::llvm::cast<BufferType>(getDest().getType()); }
  }];
}

def Tile_FillOp : Tile_Op<"fill", [
    TypesMatchWith<"value type matches the element type of the buffer",
                   "dest", "value",
                   "::llvm::cast<BufferType>($_self).getElementType()">
  ]> {
  let summary = "set every element of a tile to a value";
  let description = [{
    Writes `value` to every element of a shared or fragment tile.

    Example:

    ```mlir
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !tile.buffer<128x128xf32, fragment>
    ```
  }];
  let arguments = (ins Arg<Tile_Buffer, "", [MemWrite]>:$dest, AnyType:$value);
  let assemblyFormat = "$dest `,` $value attr-dict `:` qualified(type($dest))";
  let hasVerifier = 1;
}

def Tile_ClearOp : Tile_Op<"clear"> {
  let summary = "set every element of a tile to zero";
  let description = [{
    Shorthand for `tile.fill` with zero.

    Example:

    ```mlir
    tile.clear %acc : !tile.buffer<128x128xf32, fragment>
    ```
  }];
  let arguments = (ins Arg<Tile_Buffer, "", [MemWrite]>:$dest);
  let assemblyFormat = "$dest attr-dict `:` qualified(type($dest))";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Debugging
//===----------------------------------------------------------------------===//

def Tile_PrintOp : Tile_Op<"print"> {
  let summary = "print a scalar or a tile from the device (printf)";
  let description = [{
    Prints `value` with `printf` from one block (`block`, default block
    (0, 0, 0)) and either one thread (`thread`) or the 32 lanes of one warp
    (`warp`); exactly one of the two is given.

    - A scalar (integer, index or float) prints as `label = value`, from
      the chosen thread (or each lane of the chosen warp).
    - A shared tile prints element by element, `label[i][j] = value`, from
      the chosen thread, after a barrier (so earlier writes are visible).
      It needs `thread`.
    - A fragment prints the elements the chosen threads hold, each with its
      coordinates and lane: `label[i][j] = value (thread t)`. With `warp`,
      the warp's 32 lanes together print the part of the tile that warp
      owns in the fragment's layout.

    Lowered by convert-tile-to-gpu to `gpu.printf` (vprintf in the PTX).
    Device printf is slow and its buffer is limited (1 MB by default):
    print small tiles, or from one block.

    Example:

    ```mlir
    tile.print "m" %max thread(0) : f32
    tile.print "Ks" %k thread(0) : !tile.buffer<16x16xf16, shared>
    tile.print "S" %s warp(1) block [2, 0, 0] : !tile.buffer<64x64xf32, fragment, #tile.mma<warps = [4, 1]>>
    ```
  }];
  let arguments = (ins StrAttr:$label, AnyType:$value,
                       OptionalAttr<I64Attr>:$thread,
                       OptionalAttr<I64Attr>:$warp,
                       OptionalAttr<DenseI64ArrayAttr>:$block);
  let assemblyFormat = [{
    $label $value (`thread` `(` $thread^ `)`)? (`warp` `(` $warp^ `)`)?
    (`block` $block^)? attr-dict `:` type($value)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Multi-buffering and asynchronous copies
//===----------------------------------------------------------------------===//

def Tile_StageOp : Tile_Op<"stage", [Pure]> {
  let summary = "one stage of a multi-buffered shared tile";
  let description = [{
    Views stage `index` of a shared tile whose leading dimension counts the
    stages of a software pipeline: the result has the remaining dimensions.
    Lowered to a rank-reducing `memref.subview`. Stages are filled by async
    copies only. Indexed by `tile.consumer_index`, the leading dimension
    counts the compute sets of a ping-pong kernel instead, and the view is
    that set's own copy of a tile, written and read like any shared tile.

    Example:

    ```mlir
    %s = tile.stage %As[%i] : !tile.buffer<3x128x32xf16, shared> -> !tile.buffer<128x32xf16, shared>
    ```
  }];
  let arguments = (ins Tile_Buffer:$source, Index:$index);
  let results = (outs Tile_Buffer:$result);
  let assemblyFormat = [{
    $source `[` $index `]` attr-dict `:` qualified(type($source)) `->`
    qualified(type($result))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// A stage of a software pipeline, not a compute set's own copy of a
    /// tile (indexed by tile.consumer_index).
    bool isPipelineStage();
  }];
}

def Tile_AsyncCommitOp : Tile_Op<"async_commit",
    [MemoryEffects<[MemWrite<DefaultResource>]>]> {
  let summary = "close the group of async copies issued so far";
  let description = [{
    The `tile.copy async` ops issued by the calling thread since the last
    commit form one group (`cp.async.commit_group`); an empty group is
    allowed.
  }];
  let assemblyFormat = "attr-dict";
}

def Tile_AsyncWaitOp : Tile_Op<"async_wait",
    [MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "wait for async copy groups, then synchronize the block";
  let description = [{
    Waits until at most `pending` of the committed groups are still in
    flight (`cp.async.wait_group`), then synchronizes the block
    (`bar.sync`), so every thread sees the tiles the completed groups
    wrote.

    `pending` is at most 16, the deepest pipeline (`tile.num_stages`).

    Example: `tile.async_wait 1`
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntNonNegative]>:$pending);
  let assemblyFormat = "$pending attr-dict";
  let hasVerifier = 1;
}

def Tile_BarrierOp : Tile_Op<"barrier",
    [MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "synchronize the threads of the block";
  let description = [{
    Every thread of the block waits here until all have arrived, and the
    shared-memory writes made before it are visible to every thread after
    it. Lowered to `gpu.barrier`
    ([`bar.sync 0`](https://docs.nvidia.com/cuda/parallel-thread-execution/#parallel-synchronization-and-communication-instructions-bar)).

    `-tile-insert-barriers` puts one after each op that writes a shared tile
    (read after write) or reads one that a later op writes again (write
    after read), and before the first use of a tile that takes bytes of
    another (`-tile-plan-shared-memory`). Barriers that belong to one op's
    own lowering (`tile.async_wait`, the cross-warp step of `tile.reduce`,
    `tile.print` of a shared tile) are not written as `tile.barrier`.

    Every thread must reach it: it is not allowed inside `tile.parallel`,
    whose iterations the threads share (and it must not be put under a
    condition that differs between threads). In the compute role of
    `tile.warp_specialize` it synchronizes the compute threads alone (a
    named barrier, `bar.sync 1, N`); the producer role has none.

    Example:

    ```mlir
    tile.copy %A[%row, %k] to %As : !tile.buffer<?x?xf16, global> to !tile.buffer<128x32xf16, shared>
    tile.barrier
    tile.gemm %As, %Bs, %acc : ...
    ```
  }];
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Tensor cores
//===----------------------------------------------------------------------===//

def Tile_GemmOp : Tile_Op<"gemm", [
    AttrSizedOperandSegments,
    OptionalTypesMatchWith<"the next A has A's type", "a", "next_a", "$_self">,
    OptionalTypesMatchWith<"the next B has B's type", "b", "next_b", "$_self">
  ]> {
  let summary = "C += A x B on tensor cores";
  let description = [{
    Multiplies the shared-memory tiles `A` (`M x K`, or `K x M` with
    `transpose_a`) and `B` (`K x N`, or `N x K` with `transpose_b`) and adds
    the product to the f32 fragment (or, with `clear_accum`, stores the
    product in it: `C = A x B`)
    `C` (`M x N`), whose layout is `#tile.mma` (given by
    `tile-assign-layouts` when absent). Inputs are f16 or bf16; M must be a
    multiple of 16 times the warp rows, N of 8 times the warp columns, and K
    of 16.

    Lowering: each warp loads its A and B operands with `nvgpu.ldmatrix`
    (`.trans` for a K x M A and a K x N B) and issues one `nvgpu.mma.sync` (m16n8k16,
    f32 accumulation; `nvvm.mma.sync` for bf16, which `nvgpu.mma.sync`
    does not lower) per 16x8 tile of its sub-tile per 16-wide K step
    ([PTX ISA: mma](https://docs.nvidia.com/cuda/parallel-thread-execution/#warp-level-matrix-instructions-mma)).

    `A` may instead be an f16/bf16 fragment (`M x K`) in the `#tile.mma`
    layout with one warp column (`warps = [w, 1]`), the layout of `C` too:
    each lane then already holds the A operand of its rows, so the product
    needs no trip through shared memory. This is FlashAttention's P x V: the
    scores of one GEMM, exponentiated and cast to f16 in registers, are the
    A operand of the next (the accumulator of two adjacent 16x8 tiles is
    exactly the A operand of one 16x16 K step).

    In a pipelined loop (`tile-pipeline` writes this form), `prefetched`
    takes the first K step's operands from the registers that the last
    `tile.gemm_prefetch` or `then ... prefetch` on this accumulator loaded,
    and `then wait N prefetch %na, %nb` ends the operand loads of this
    product early: before the last K step's MMAs it waits until at most N
    async copy groups are pending, synchronizes the block (as
    `tile.async_wait N`) and loads the first K step of `%na` x `%nb`, so
    the next iteration's first MMAs need not wait for shared memory. Every
    path to a `prefetched` gemm must pass such a prefetch on its
    accumulator, with the gemm's transposes and element type: before it,
    and in the body of each loop around it (for the loop's next
    iteration). N is at most 16, as in `tile.async_wait`.

    On `sm_90a`, an accumulator in the `#tile.wgmma` layout with A and B
    in `#tile.nvmma` shared tiles is computed by warpgroup MMA. `async`
    (written by `tile-warp-specialize`; `warp_specialized` kernels only)
    then only issues the product: one
    `wgmma.mma_async` per 64-row block and 16-wide K step after a
    `wgmma.fence`, closed by one `wgmma.commit_group`; `clear_accum`
    becomes scale-d = 0 on the first K step. The accumulator must not be
    read, and its shared tiles not rewritten, before a `tile.gemm_wait`
    that leaves fewer groups pending
    ([PTX ISA: wgmma](https://docs.nvidia.com/cuda/parallel-thread-execution/#asynchronous-warpgroup-level-matrix-instructions)).

    Example:

    ```mlir
    tile.gemm %As, %Bs, %acc : !tile.buffer<128x32xf16, shared>, !tile.buffer<32x128xf16, shared>, !tile.buffer<128x128xf32, fragment>
    tile.gemm async %As, %Bs, %acc : !tile.buffer<128x64xf16, shared, #tile.nvmma<swizzle = 128>>, !tile.buffer<64x256xf16, shared, #tile.nvmma<swizzle = 128>>, !tile.buffer<128x256xf32, fragment, #tile.wgmma<warpgroups = [2, 1]>>
    tile.gemm %A1, %B1, %acc prefetched then wait 1 prefetch %A2, %B2 : !tile.buffer<128x32xf16, shared>, !tile.buffer<32x128xf16, shared>, !tile.buffer<128x128xf32, fragment>
    tile.gemm %P, %Vs, %O : !tile.buffer<64x64xf16, fragment>, !tile.buffer<64x128xf16, shared>, !tile.buffer<64x128xf32, fragment>
    ```
  }];
  let arguments = (ins Arg<Tile_Buffer, "", [MemRead]>:$a,
                       Arg<Tile_Buffer, "", [MemRead]>:$b,
                       Arg<Tile_Buffer, "", [MemRead, MemWrite]>:$c,
                       UnitAttr:$transpose_b,
                       UnitAttr:$transpose_a,
                       UnitAttr:$clear_accum,
                       UnitAttr:$prefetched,
                       UnitAttr:$async,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntNonNegative]>>:$wait_pending,
                       Arg<Optional<Tile_Buffer>, "", [MemRead]>:$next_a,
                       Arg<Optional<Tile_Buffer>, "", [MemRead]>:$next_b);
  let assemblyFormat = [{
    (`async` $async^)? $a `,` $b `,` $c (`prefetched` $prefetched^)?
    (`then` `wait` $wait_pending `prefetch` $next_a^ `,` $next_b)?
    attr-dict `:` qualified(type($a)) `,` qualified(type($b))
    `,` qualified(type($c))
  }];
  let builders = [
    OpBuilder<(ins "Value":$a, "Value":$b, "Value":$c, "bool":$transposeB,
                   "bool":$transposeA, "bool":$clearAccum), [{
      build($_builder, $_state, a, b, c, transposeB, transposeA, clearAccum,
            /*prefetched=*/false, /*async=*/false, /*wait_pending=*/nullptr,
            /*next_a=*/Value(), /*next_b=*/Value());
    }]>
  ];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    BufferType getAType() { return ::llvm::cast<BufferType>(getA().getType()); }
    BufferType getBType() { return ::llvm::cast<BufferType>(getB().getType()); }
    BufferType getCType() { return ::llvm::cast<BufferType>(getC().getType()); }
  }];
}

def Tile_GemmPrefetchOp : Tile_Op<"gemm_prefetch"> {
  let summary = "loads the first K step's operands of a tile.gemm ahead of it";
  let description = [{
    Loads into registers the A and B operands of the first 16-wide K step
    of `tile.gemm %a, %b, %c` (with the same transposes), for a following
    `tile.gemm ... prefetched` on the accumulator `%c`, which then starts
    its MMAs without waiting for shared memory. `tile-pipeline` emits it
    before a pipelined loop; inside the loop each `tile.gemm` prefetches the
    next stage's first K step itself (`then wait N prefetch %na, %nb`).

    Example:

    ```mlir
    tile.gemm_prefetch %A0, %B0, %acc : !tile.buffer<128x64xf16, shared>, !tile.buffer<64x128xf16, shared>, !tile.buffer<128x128xf32, fragment>
    ```
  }];
  let arguments = (ins Arg<Tile_Buffer, "", [MemRead]>:$a,
                       Arg<Tile_Buffer, "", [MemRead]>:$b,
                       Arg<Tile_Buffer, "", [MemRead, MemWrite]>:$c,
                       UnitAttr:$transpose_b,
                       UnitAttr:$transpose_a);
  let assemblyFormat = [{
    $a `,` $b `,` $c attr-dict `:` qualified(type($a)) `,` qualified(type($b))
    `,` qualified(type($c))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    BufferType getAType() { return ::llvm::cast<BufferType>(getA().getType()); }
    BufferType getBType() { return ::llvm::cast<BufferType>(getB().getType()); }
    BufferType getCType() { return ::llvm::cast<BufferType>(getC().getType()); }
  }];
}

def Tile_ReduceOp : Tile_Op<"reduce", [
    PredOpTrait<"scratch_offset and scratch_bytes are given together",
                CPred<[{static_cast<bool>($_op.getAttr("scratch_offset")) ==
                        static_cast<bool>($_op.getAttr("scratch_bytes"))}]>>
  ]> {
  let summary = "reduces a fragment along one dimension into a smaller fragment";
  let description = [{
    `dst[r] = combine over c of src[r, c]` (sum, max or min) for a rank-2
    f32 fragment `src` reduced along dimension `dim` (1: along each row).
    With `accumulate`, `dst`'s current values take part (`dst[r] =
    combine(dst[r], ...)`: a running maximum or sum across a loop);
    otherwise they are overwritten.

    `dst` gets `#tile.slice<dim, dim_size = src's size along dim, parent =
    src's layout>` (from
    `tile-assign-layouts` when absent): every thread that holds part of a
    row ends up with the row's result, so a `tile.parallel` over `src`'s
    shape can read `dst[i]` (broadcast) directly.

    Lowering: each thread combines its own elements of a row, the lanes of
    a warp that share the row combine with `shfl.sync.bfly`, and where a
    row spans several warps their partial results meet in shared memory
    (between two barriers): `bytes` of f32 scratch at byte `offset` of the
    kernel's dynamic shared memory, which `-tile-plan-shared-memory`
    chooses (after the shared tiles, a multiple of 128) and
    `convert-tile-to-gpu` requires.

    ```mlir
    tile.reduce max %x into %m dim(1) : !tile.buffer<4x1024xf32, fragment>, !tile.buffer<4xf32, fragment>
    tile.reduce sum %p into %l dim(1) accumulate : !tile.buffer<4x1024xf32, fragment>, !tile.buffer<4xf32, fragment>
    tile.reduce max %s into %r dim(1) scratch(offset = 16384, bytes = 128) : !tile.buffer<4x1024xf32, fragment, #tile.row_major<vec = 4>>, !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 1024, parent = #tile.row_major<vec = 4>>>
    ```
  }];
  let arguments = (ins Tile_ReduceKind:$kind,
                       Arg<Tile_Buffer, "", [MemRead]>:$src,
                       Arg<Tile_Buffer, "", [MemRead, MemWrite]>:$dst,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$dim,
                       UnitAttr:$accumulate,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntNonNegative]>>:$scratch_offset,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntPositive]>>:$scratch_bytes);
  let assemblyFormat = [{
    $kind $src `into` $dst `dim` `(` $dim `)` (`accumulate` $accumulate^)?
    (`scratch` `(` `offset` `=` $scratch_offset^ `,` `bytes` `=` $scratch_bytes `)`)?
    attr-dict `:` qualified(type($src)) `,` qualified(type($dst))
  }];
  let builders = [
    // Unplanned: -tile-plan-shared-memory adds the scratch.
    OpBuilder<(ins "ReduceKind":$kind, "Value":$src, "Value":$dst,
                   "uint64_t":$dim, "bool":$accumulate), [{
      build($_builder, $_state, kind, src, dst, dim, accumulate,
            ::mlir::IntegerAttr(), ::mlir::IntegerAttr());
    }]>
  ];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    BufferType getSrcType() { return ::llvm::cast<BufferType>(getSrc().getType()); }
    BufferType getDstType() { return ::llvm::cast<BufferType>(getDst().getType()); }
  }];
}

def Tile_ThreadReduceOp : Tile_Op<"thread_reduce"> {
  let summary = "combines the elements of a fragment that the calling thread holds";
  let description = [{
    `result = combine over the elements of src that this thread holds`
    (sum, max or min), with no communication between threads: the result
    generally differs from thread to thread. It serves conditions on work
    that each thread does on its own registers, e.g. skipping the rescale
    of an accumulator when all of a thread's row factors are 1:

    ```mlir
    %smallest = tile.thread_reduce min %rescale : !tile.buffer<128xf32, fragment> -> f32
    %changed = arith.cmpf olt, %smallest, %one : f32
    scf.if %changed { tile.parallel ... }
    ```

    A branch on such a value must not contain barriers or shared-memory
    tiles (threads of a block may take different sides).
  }];
  let arguments = (ins Tile_ReduceKind:$kind,
                       Arg<Tile_Buffer, "", [MemRead]>:$src);
  let results = (outs F32:$result);
  let assemblyFormat = [{
    $kind $src attr-dict `:` qualified(type($src)) `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    BufferType getSrcType() { return ::llvm::cast<BufferType>(getSrc().getType()); }
  }];
}

//===----------------------------------------------------------------------===//
// Element-wise computation
//===----------------------------------------------------------------------===//

def Tile_ParallelOp : Tile_Op<"parallel", [
    SingleBlockImplicitTerminator<"YieldOp">, RecursiveMemoryEffects
  ]> {
  let summary = "an element-wise loop over a tile, spread over the threads";
  let description = [{
    Runs the body once for every index of the iteration space `extents`.
    The iterations are independent and are distributed over the block's
    threads: following the layout of the fragments the body accesses (all
    of which must have the shape of the loop), or round-robin when it
    touches only shared tiles. The body reads and writes tiles with
    `tile.load` / `tile.store` and computes with `arith` and `math`.

    A fragment may only be indexed by the loop's own induction variables, in
    order: each thread then touches just the registers it owns.

    `rolled` (loops over shared tiles only) asks for a loop over the
    thread's elements instead of one copy of the body per element: a
    fraction of the code. A rolled loop that rewrites a shared tile in place
    right before the tile's last use, a copy to global memory, stores its
    results to global memory directly, chunk by chunk.

    Example:

    ```mlir
    tile.parallel (%i) in [1024] {
      %a = tile.load %a_frag[%i] : !tile.buffer<1024xf32, fragment>
      %b = tile.load %b_frag[%i] : !tile.buffer<1024xf32, fragment>
      %c = arith.addf %a, %b : f32
      tile.store %c, %c_frag[%i] : !tile.buffer<1024xf32, fragment>
    }
    tile.parallel (%i, %j) in [128, 128] rolled {
      %x = tile.load %staged[%i, %j] : !tile.buffer<128x128xf32, shared>
      %y = math.exp %x : f32
      tile.store %y, %staged[%i, %j] : !tile.buffer<128x128xf32, shared>
    }
    ```
  }];
  let arguments = (ins DenseI64ArrayAttr:$extents, UnitAttr:$rolled);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "ArrayRef<int64_t>":$extents,
                   CArg<"bool", "false">:$rolled)>
  ];
  let extraClassDeclaration = [{
    Block &getBodyBlock() { return getBody().front(); }
    ValueRange getInductionVars() { return getBodyBlock().getArguments(); }
  }];
}

def Tile_YieldOp : Tile_Op<"yield", [Pure, Terminator, HasParent<"ParallelOp">]> {
  let summary = "terminates the body of tile.parallel";
  let assemblyFormat = "attr-dict";
}

def Tile_LoadOp : Tile_Op<"load", [
    TypesMatchWith<"result type matches the element type of the buffer",
                   "buffer", "result",
                   "::llvm::cast<BufferType>($_self).getElementType()">
  ]> {
  let summary = "read one element of a shared or fragment tile";
  let description = [{
    Reads the element at `indices` of a tile. Only inside `tile.parallel`;
    a fragment must be indexed by the loop's induction variables.

    Example:

    ```mlir
    %v = tile.load %a_frag[%i] : !tile.buffer<1024xf32, fragment>
    ```
  }];
  let arguments = (ins Arg<Tile_Buffer, "", [MemRead]>:$buffer,
                       Variadic<Index>:$indices);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$buffer `[` $indices `]` attr-dict `:` qualified(type($buffer))";
  let hasVerifier = 1;
}

def Tile_StoreOp : Tile_Op<"store", [
    TypesMatchWith<"value type matches the element type of the buffer",
                   "buffer", "value",
                   "::llvm::cast<BufferType>($_self).getElementType()">
  ]> {
  let summary = "write one element of a shared or fragment tile";
  let description = [{
    Writes `value` at `indices` of a tile. Only inside `tile.parallel`; a
    fragment must be indexed by the loop's induction variables.

    Example:

    ```mlir
    tile.store %v, %c_frag[%i] : !tile.buffer<1024xf32, fragment>
    ```
  }];
  let arguments = (ins AnyType:$value,
                       Arg<Tile_Buffer, "", [MemWrite]>:$buffer,
                       Variadic<Index>:$indices);
  let assemblyFormat = [{
    $value `,` $buffer `[` $indices `]` attr-dict `:` qualified(type($buffer))
  }];
  let hasVerifier = 1;
}

include "tile/Dialect/Tile/IR/TileHopperOps.td"

#endif // TILE_DIALECT_TILE_IR_TILEOPS_TD
