//===- Gemm.cpp - The tensor-core GEMM generator --------------------------===//
//
// TileLang's tiled GEMM in the C++ frontend: global -> shared copies of the A
// and B tiles, tile.gemm on tensor cores into an f32 fragment, one masked
// store. The same kernel written in the tile dialect is
// test/Examples/gemm.mlir.
//
//===----------------------------------------------------------------------===//

#include "tile/Frontend/Kernels.h"

#include "ConfigCheck.h"
#include "RowSoftmax.h"

#include "llvm/Support/ErrorHandling.h"

#include <cmath>
#include <optional>

namespace tile::fe {

using config::gemm::Epilogue;

/// Whether `c` has an epilogue, and whether it takes the bias. A name
/// validate() refuses counts as one with a bias, so that the estimates
/// before the refusal err high.
static bool hasEpilogue(const GemmConfig &c) {
  const config::gemm::EpilogueInfo *info = c.epilogueInfo();
  return !info || info->kind != Epilogue::none;
}
static bool hasBias(const GemmConfig &c) {
  const config::gemm::EpilogueInfo *info = c.epilogueInfo();
  return !info || info->hasBias;
}

/// The epilogue's function of x, the accumulator plus the bias (f32),
/// computed to `accuracy`, C's (buildGemm).
static Expr epilogueOf(Kernel &k, Epilogue kind, Expr x, Accuracy accuracy) {
  switch (kind) {
  case Epilogue::none:
  case Epilogue::bias:
    return x;
  case Epilogue::biasGelu:
    return gelu(x);
  case Epilogue::biasGeluTanh:
    return geluTanh(x, accuracy);
  case Epilogue::biasRelu:
    return max(x, k.constant(0.0, x.type()));
  }
  llvm_unreachable("an epilogue without its function");
}

/// The epilogue applied to accumulator value `element`: plus the bias of
/// C's column `column` (read from the block's slice `biasTile`) when the
/// kernel has one, then the epilogue's function.
static void applyEpilogue(Kernel &k, Epilogue kind, ElementRef element,
                          const std::optional<Buffer> &biasTile, Expr column,
                          Accuracy accuracy) {
  Expr x = Expr(element);
  if (biasTile)
    x = x + cast((*biasTile)[column], x.type());
  element = epilogueOf(k, kind, x, accuracy);
}

std::string GemmConfig::kernelName() const {
  return "gemm_" + inDtype + "_" + outDtype + "_" + std::to_string(blockM) +
         "x" + std::to_string(blockN) + "x" + std::to_string(blockK) + "_t" +
         std::to_string(threads) + "_s" + std::to_string(stages) +
         (rasterPanel ? "_r" + std::to_string(rasterPanel) : "") +
         (transposeA || transposeB
              ? std::string("_") + (transposeA ? "t" : "n") +
                    (transposeB ? "t" : "n")
              : std::string()) +
         (hasEpilogue(*this) ? "_" + epilogue : std::string()) +
         (stagedEpilogue && hasEpilogue(*this) ? "_staged" : "") +
         (divisibility > 1 ? "_div" + std::to_string(divisibility) : "") +
         (warpSpecialized ? "_ws" : "") + (swapAB ? "_swapab" : "") +
         (tmaStore ? "_tma" : "") +
         (tmaStore && tmaStoreColumns ? std::to_string(tmaStoreColumns) : "") +
         (splitK > 1 ? "_sk" + std::to_string(splitK) : "") +
         (persistent ? "_persistent" : "") +
         (clusterM > 1 ? "_cm" + std::to_string(clusterM) : "") +
         (consumers > 1 ? "_pingpong" : "") + (streamK ? "_streamk" : "");
}

int64_t GemmConfig::sharedMemoryBytes() const {
  // `stages` copies of the A (M x K) and B (K x N) tiles; the staged
  // accumulator reuses them once the loop is done; the bias slice; the
  // tile a TMA store reads (beside the stages: the producer of a
  // persistent kernel fills them with the next tile meanwhile).
  int64_t pipeline = checkedProduct(
      {std::max<int64_t>(stages, 1),
       checkedProduct({blockM, blockK}) + checkedProduct({blockK, blockN}),
       bytesOf(inDtype)});
  int64_t accumulator = hasEpilogue(*this) && stagedEpilogue
                            ? checkedProduct({blockM, blockN, 4})
                            : 0;
  // (Each set of compute threads of a ping-pong kernel has its own.)
  int64_t bias =
      hasBias(*this) ? checkedProduct({blockN, bytesOf(outDtype)}) : 0;
  int64_t stored =
      !tmaStore ? 0
      : tmaStoreColumns
          ? checkedProduct({2, blockM, tmaStoreColumns, bytesOf(outDtype)})
          : checkedProduct({blockM, blockN, bytesOf(outDtype)});
  // Swapped, C^T leaves through shared memory: the f32 tile, then C's
  // tile of the output type.
  int64_t transposed =
      swapAB ? checkedProduct({blockM, blockN, 4 + bytesOf(outDtype)}) : 0;
  return std::max(pipeline, accumulator) + transposed +
         checkedProduct({std::max<int64_t>(consumers, 1), bias + stored});
}

void GemmConfig::validate() const {
  ConfigCheck check(config::gemm::generator);
  check.fields(*this);
  bool fused = hasEpilogue(*this);
  if (tmaStoreColumns) {
    // Bands of whole 32-byte lines (the narrowest TMA swizzle), at least
    // two per tile; checked first, as the shared memory depends on them.
    int64_t lineColumns = 32 / bytesOf(outDtype);
    if (!tmaStore)
      check.fail("tma_store_columns stages the TMA store in bands: expected "
                 "tma_store, but got tma_store false");
    else if (tmaStoreColumns >= blockN || blockN % tmaStoreColumns != 0 ||
             tmaStoreColumns % lineColumns != 0)
      check.fail("tma_store_columns expects a proper divisor of block_n " +
                 std::to_string(blockN) + " that is a multiple of " +
                 std::to_string(lineColumns) + " (32 bytes of " + outDtype +
                 "), but got " + std::to_string(tmaStoreColumns));
  }
  check.sharedMemory(
      sharedMemoryBytes(),
      std::to_string(stages) + (stages == 1 ? " stage" : " stages") +
          " of its " + shapeText(blockM, blockK) + " A and " +
          shapeText(blockK, blockN) + " B " + inDtype + " tiles" +
          (fused && stagedEpilogue
               ? " or its staged " + shapeText(blockM, blockN) +
                     " f32 accumulator"
               : "") +
          (hasBias(*this) ? ", and the bias" : "") +
          (tmaStore
               ? ", and " +
                     (tmaStoreColumns
                          ? "its two " + shapeText(blockM, tmaStoreColumns) +
                                " " + outDtype + " bands"
                          : "its " + shapeText(blockM, blockN) + " " +
                                outDtype + " tile") +
                     " for the TMA store"
               : ""));
  // Split-K partial sums meet in C through f32 atomic adds; an epilogue
  // would apply to each partial sum.
  if (splitK > 1 && (outDtype != "f32" || fused))
    check.fail("split_k > 1 adds partial sums into C with f32 atomics: "
               "expected out_dtype f32 and no epilogue, but got out_dtype " +
               outDtype + " and epilogue " + epilogue);
  // Options of the warp-specialized pipeline that need whole C tiles per
  // block (no split-K); `what` says what the option does there.
  auto needsWholeTilePipeline = [&](bool on, const char *what) {
    if (on && (!warpSpecialized || splitK > 1))
      check.fail(std::string(what) +
                 " the warp-specialized pipeline: expected warp_specialized "
                 "and split_k 1, but got warp_specialized " +
                 std::string(warpSpecialized ? "true" : "false") +
                 " and split_k " + std::to_string(splitK));
  };
  needsWholeTilePipeline(persistent, "persistent walks C tiles in");
  if (clusterM > 1 && !persistent)
    check.fail("cluster_m > 1 keeps a cluster's blocks on neighbouring tiles "
               "through the persistent tile loop: expected persistent, but "
               "got cluster_m " +
               std::to_string(clusterM) + " without it");
  if (consumers > 1 && (!persistent || clusterM > 1))
    check.fail("consumers > 1 takes turns over the tiles of the persistent "
               "tile loop: expected persistent and cluster_m 1, but got "
               "persistent " +
               std::string(persistent ? "true" : "false") + " and cluster_m " +
               std::to_string(clusterM));
  if (streamK && (!persistent || clusterM > 1 || consumers > 1))
    check.fail("stream_k deals out the persistent tile loop's last rounds to "
               "one set of compute threads per block: expected persistent, "
               "cluster_m 1 and consumers 1, but got persistent " +
               std::string(persistent ? "true" : "false") + ", cluster_m " +
               std::to_string(clusterM) + " and consumers " +
               std::to_string(consumers));
  needsWholeTilePipeline(tmaStore,
                         "tma_store stores C from the compute warpgroups of");
  // The tile and its threads, as the shape refusals below quote them.
  std::string tileText = shapeText(blockM, blockN) + " x " +
                         std::to_string(blockK) + " over " +
                         std::to_string(threads) + " threads";
  // The wgmma paths read A and B through TMA, whose rows' byte strides are
  // multiples of 16.
  auto needsTmaRows = [&](const char *option) {
    if (divisibility % 8 != 0)
      check.fail(std::string(option) +
                 " reads A and B through TMA, whose row strides must be "
                 "multiples of 16 bytes: expected divisibility a multiple of "
                 "8, but got " +
                 std::to_string(divisibility));
  };
  if (swapAB) {
    // C^T = B^T A^T: the product's M is block_n (a compute warpgroup per
    // 64 columns of C), its N block_m, the rows of C.
    std::string others;
    for (auto [set, option] : {std::pair<bool, const char *>{
                                   !warpSpecialized, "warp_specialized false"},
                               {transposeA, "transpose_a"},
                               {transposeB, "transpose_b"},
                               {persistent, "persistent"},
                               {tmaStore, "tma_store"},
                               {splitK > 1, "split_k > 1"},
                               {clusterM > 1, "cluster_m > 1"},
                               {consumers > 1, "consumers > 1"},
                               {fused && stagedEpilogue, "staged_epilogue"}})
      if (set)
        others += (others.empty() ? "" : ", ") + std::string(option);
    if (!others.empty())
      check.fail("swap_ab runs the warp-specialized pipeline on an NN GEMM "
                 "and stores C through shared memory itself: expected "
                 "warp_specialized and no transposes, persistent, tma_store, "
                 "split_k, cluster_m, consumers or staged epilogue, but got " +
                 others);
    if (blockN % 64 != 0 || blockN > 128 || blockM % 8 != 0 || blockM > 256 ||
        threads != warpSpecializedThreads(blockN) || blockK % 64 != 0)
      check.fail("swap_ab expects block_n 64 or 128 (the products' M, a "
                 "compute warpgroup per 64) with threads = 128 x (1 + "
                 "block_n / 64), block_m a multiple of 8 up to 256 (their "
                 "N) and block_k a multiple of 64, but got " +
                 tileText);
    needsTmaRows("swap_ab");
    return;
  }
  if (warpSpecialized) {
    // The wgmma path: each compute warpgroup takes 64-row blocks of the
    // accumulator, one wgmma of the full block_n per K step.
    if (fused && stagedEpilogue)
      check.fail("warp_specialized supports no staged epilogue so far (the "
                 "staged accumulator would need its own shared memory beside "
                 "the pipeline's stages)");
    if (blockM % 64 != 0 ||
        threads != warpSpecializedThreads(blockM, consumers) ||
        (consumers > 1 && blockM * blockN > 128 * 128) || blockN % 64 != 0 ||
        blockN > 256 || blockK % 64 != 0)
      check.fail(std::string("warp_specialized expects block_m a multiple of "
                             "64 with ") +
                 (consumers > 1
                      ? "threads = 256 and block_m x block_n at most 16384 "
                        "(consumers > 1: one warpgroup holds a tile, 128 f32 "
                        "accumulator values a thread)"
                      : "threads = 128 x (1 + block_m / 64)") +
                 ", block_n a multiple of 64 up to 256 and block_k a "
                 "multiple of 64, but got " +
                 tileText);
    needsTmaRows("warp_specialized");
    return;
  }
  check.registers(
      registersPerThread(checkedProduct({blockM, blockN}), 4, threads),
      "its " + shapeText(blockM, blockN) + " f32 accumulator over " +
          std::to_string(threads) + " threads");
}

std::string buildGemm(Program &program, const GemmConfig &config) {
  config.validate();
  mlir::Type f16 = parseElementType(program, config.inDtype);
  mlir::Type f32 = program.f32();
  mlir::Type out = parseElementType(program, config.outDtype);
  // A C of 16-bit floats takes the tanh GELU through the hardware's tanh:
  // one MUFU operation a value instead of two, where the fused epilogue of
  // a block that holds the SM is MUFU-bound (docs/Reductions.md).
  Accuracy epilogueAccuracy =
      out.isF32() ? Accuracy::full : Accuracy::sixteenBit;
  std::string name = config.kernelName();
  int64_t bM = config.blockM, bN = config.blockN, bK = config.blockK;

  Kernel k = program.kernel(name, config.threads);
  Buffer A = k.tensor("A", {kDynamic, kDynamic}, f16);
  Buffer B = k.tensor("B", {kDynamic, kDynamic}, f16);
  Buffer C = k.tensor("C", {kDynamic, kDynamic}, out);
  Epilogue epilogue = config.epilogueInfo()->kind; // validated
  std::optional<Buffer> bias;
  if (hasBias(config))
    bias = k.tensor("Bias", {kDynamic}, out);
  // Launch contract. The grid covers C's tiles by B's N (x) and A's M (y);
  // the K loop runs over A's K. Every copy masks at its own tensor's sizes,
  // so no access leaves a buffer, but sizes that disagree give a wrong
  // product: a B with a shorter K reads zeros (A[:, :K_B] x B), a longer K
  // is cut off, a C smaller than M x N drops rows or columns and a larger one
  // keeps stale values past them. The bias has one value per column of C
  // (a shorter one adds zeros). Transposed, A is K x M and B is N x K.
  // K = 0 gives C = 0 (the empty sum; f(bias) with an epilogue), which
  // is right; M = 0 or N = 0 is an empty grid.
  int kOfA = config.transposeA ? 0 : 1, kOfB = config.transposeB ? 1 : 0;
  k.require(size(A, kOfA) == size(B, kOfB));
  k.require(size(C, 0) == size(A, 1 - kOfA));
  k.require(size(C, 1) == size(B, 1 - kOfB));
  if (bias)
    k.require(size(*bias, 0) == size(C, 1));
  k.rasterPanel(config.rasterPanel);
  if (config.warpSpecialized)
    k.warpSpecialized();
  if (config.persistent)
    k.persistent();
  // Tiles one above the other: the grid's y (M) runs the cluster.
  if (config.clusterM > 1)
    k.cluster({1, config.clusterM});
  if (config.consumers > 1)
    k.consumers(config.consumers);
  if (config.streamK)
    k.streamK();
  if (config.divisibility > 1) {
    for (const Buffer &tensor : {A, B, C})
      k.divisible(tensor, 1, config.divisibility);
    if (bias)
      k.divisible(*bias, 0, config.divisibility);
  }
  // Transposed operands are stored K x M (A) and N x K (B).
  bool ta = config.transposeA, nt = config.transposeB;
  // Split-K: grid z takes slices of the K loop (the last ones may be
  // empty, and then add zeros).
  std::vector<GridExtent> grid{ceildiv(B, nt ? 0 : 1, bN),
                               ceildiv(A, ta ? 1 : 0, bM)};
  if (config.splitK > 1)
    grid.push_back(constant(config.splitK));
  if (config.swapAB) {
    k.body(grid, [&](Kernel &k) {
      // The block's tile of C^T = B^T A^T: B's tile is the product's A
      // (MN-major: stored K x bN), A's tile its B (K-major: bM x K), the
      // accumulator bN x bM. A's rows past M read as zeros and leave no
      // products behind but those of the tile's own rows.
      Expr row = k.blockIndex(1) * double(bM);
      Expr col = k.blockIndex(0) * double(bN);
      Buffer Bs = k.allocShared({bK, bN}, f16);
      Buffer As = k.allocShared({bM, bK}, f16);
      Buffer accT = k.allocFragment({bN, bM}, f32);
      std::optional<Buffer> biasTile;
      if (bias)
        biasTile = k.allocShared({bN}, out);
      k.clear(accT);
      k.pipelined(k.index(0), ceilDiv(A.dim(1), double(bK)), config.stages,
                  [&](Expr kt) {
                    Expr kOffset = kt * double(bK);
                    k.copy(B.at({kOffset, col}), Bs);
                    k.copy(A.at({row, kOffset}), As);
                    k.gemm(Bs, As, accT, /*transposeB=*/true,
                           /*transposeA=*/true);
                  });
      if (bias)
        k.copy(bias->at({col}), *biasTile);
      // Element (n, m) of C^T is C's (m, n): the bias is per row here.
      if (epilogue != Epilogue::none)
        k.parallel({bN, bM}, [&](Indices i) {
          applyEpilogue(k, epilogue, accT[i], biasTile, i[0], epilogueAccuracy);
        });
      // C leaves transposed: the f32 tile in shared memory, read across
      // into C's tile of the output type, stored with C's masks.
      Buffer stagedT = k.allocShared({bN, bM}, f32);
      Buffer tile = k.allocShared({bM, bN}, out);
      k.copy(accT, stagedT);
      k.rolledParallel({bM, bN}, [&](Indices i) {
        tile[i] = cast(stagedT[{i[1], i[0]}], out);
      });
      k.copy(tile, C.at({row, col}));
    });
    return name;
  }
  k.body(grid, [&](Kernel &k) {
    Expr row = k.blockIndex(1) * double(bM);
    Expr col = k.blockIndex(0) * double(bN);
    Buffer As =
        ta ? k.allocShared({bK, bM}, f16) : k.allocShared({bM, bK}, f16);
    Buffer Bs =
        nt ? k.allocShared({bN, bK}, f16) : k.allocShared({bK, bN}, f16);
    Buffer acc = k.allocFragment({bM, bN}, f32);
    // The tile C leaves through (tile-assign-layouts swizzles it for TMA),
    // or the two that its bands leave through in turn.
    std::vector<Buffer> stored;
    int64_t band = config.tmaStoreColumns ? config.tmaStoreColumns : bN;
    if (config.tmaStore)
      for (int i = 0; i < (band < bN ? 2 : 1); ++i)
        stored.push_back(k.allocShared({bM, band}, out));
    std::optional<Buffer> biasTile;
    // The block's bias slice in shared memory: read before the loop, or,
    // warp-specialized, after it by the compute warpgroups (the producer
    // runs the loop alone).
    if (bias) {
      biasTile = k.allocShared({bN}, out);
      if (!config.warpSpecialized)
        k.copy(bias->at({col}), *biasTile);
    }
    k.clear(acc);
    Expr kTiles = ceilDiv(A.dim(ta ? 0 : 1), double(bK));
    Expr firstTile = k.index(0), endTile = kTiles;
    if (config.splitK > 1) {
      Expr slice = ceilDiv(kTiles, double(config.splitK));
      firstTile = k.blockIndex(2) * slice;
      endTile = min(firstTile + slice, kTiles);
    }
    k.pipelined(firstTile, endTile, config.stages, [&](Expr kt) {
      Expr kOffset = kt * double(bK);
      k.copy(ta ? A.at({kOffset, row}) : A.at({row, kOffset}), As);
      k.copy(nt ? B.at({col, kOffset}) : B.at({kOffset, col}), Bs);
      k.gemm(As, Bs, acc, nt, ta);
    });
    if (bias && config.warpSpecialized)
      k.copy(bias->at({col}), *biasTile);
    // The epilogue runs on the accumulator in registers (the MMA
    // layout), reading the block's slice of the bias from shared
    // memory; the result leaves in one store.
    auto applyEpilogueAt = [&](ElementRef element, const Indices &i) {
      applyEpilogue(k, epilogue, element, biasTile, i[1], epilogueAccuracy);
    };
    if (epilogue != Epilogue::none && config.stagedEpilogue) {
      // The accumulator staged in shared memory (the pipeline's freed
      // stages), the epilogue a loop over it: one copy of its code
      // instead of one per accumulator value.
      Buffer staged = k.allocShared({bM, bN}, f32);
      k.copy(acc, staged);
      k.rolledParallel({bM, bN},
                       [&](Indices i) { applyEpilogueAt(staged[i], i); });
      k.copy(staged, C.at({row, col}));
      return;
    }
    if (epilogue != Epilogue::none)
      k.parallel({bM, bN}, [&](Indices i) { applyEpilogueAt(acc[i], i); });
    if (config.splitK > 1) {
      k.atomicAdd(acc, C.at({row, col}));
    } else if (stored.size() == 1) {
      k.copy(acc, stored[0]);
      k.copy(stored[0], C.at({row, col}));
    } else if (!stored.empty()) {
      // Band j: columns [j band, (j + 1) band) of the accumulator, staged
      // in tile j mod 2 (tile-warp-specialize makes the rewrite wait for
      // that tile's previous store alone).
      for (int64_t j = 0; j < bN / band; ++j) {
        const Buffer &tile = stored[j % 2];
        k.copy(acc.at({k.index(0), k.index(j * band)}), tile);
        k.copy(tile, C.at({row, col + double(j * band)}));
      }
    } else {
      k.copy(acc, C.at({row, col}));
    }
  });
  return name;
}

std::string GemmSoftmaxConfig::kernelName() const {
  return "gemm_softmax_" +
         (headDim ? "pv" + std::to_string(headDim) + "_" : std::string()) +
         inDtype + "_" + std::to_string(blockM) + "x" + std::to_string(blockN) +
         "x" + std::to_string(blockK) + "_t" + std::to_string(threads) + "_s" +
         std::to_string(stages);
}

void GemmSoftmaxConfig::validate() const {
  ConfigCheck check(config::gemm_softmax::generator);
  check.fields(*this);
  int64_t bytes = bytesOf(inDtype);
  // `stages` copies of the A and B tiles; V's tile reuses them after the
  // loop.
  check.sharedMemory(
      std::max(checkedProduct({stages,
                               checkedProduct({blockM, blockK}) +
                                   checkedProduct({blockN, blockK}),
                               bytes}),
               checkedProduct({blockN, headDim, bytes})),
      std::to_string(stages) + " stages of its " + shapeText(blockM, blockK) +
          " A and " + shapeText(blockN, blockK) + " B tiles" +
          (headDim ? ", or its " + shapeText(blockN, headDim) + " V tile"
                   : std::string()));
  // The f32 scores; with V, the probabilities (input type) and the f32
  // output live at once in P x V.
  check.registers(
      registersPerThread(checkedProduct({blockM, blockN}), 4, threads),
      "its " + shapeText(blockM, blockN) + " f32 scores over " +
          std::to_string(threads) + " threads");
  if (headDim)
    check.registers(
        registersPerThread(checkedProduct({blockM, blockN}), bytes, threads) +
            registersPerThread(checkedProduct({blockM, headDim}), 4, threads),
        "its " + shapeText(blockM, blockN) + " " + inDtype +
            " probabilities and " + shapeText(blockM, headDim) +
            " f32 output over " + std::to_string(threads) + " threads");
}

std::string buildGemmSoftmax(Program &program,
                             const GemmSoftmaxConfig &config) {
  config.validate();
  mlir::Type in = parseElementType(program, config.inDtype);
  mlir::Type f32 = program.f32();
  std::string name = config.kernelName();
  int64_t bM = config.blockM, bN = config.blockN, bK = config.blockK;
  Kernel k = program.kernel(name, config.threads);
  Buffer A = k.tensor("A", {kDynamic, kDynamic}, in);
  Buffer B = k.tensor("B", {kDynamic, kDynamic}, in);
  std::optional<Buffer> V;
  if (config.headDim)
    V = k.tensor("V", {kDynamic, kDynamic}, in);
  Buffer Y = k.tensor("Y", {kDynamic, kDynamic}, f32);
  // Launch contract. The grid covers A's rows in blocks of bM; the K loop
  // runs over A's K; one block holds all its keys at once (the scores are
  // bM x bN and B is copied bN rows at a time from row 0), so B has at most
  // bN rows: more keys would be left out of every row's softmax. Copies
  // mask at their own tensor's sizes, so nothing leaves a buffer, but the
  // sizes must agree: B's K is A's (a shorter one reads zeros), Y has A's
  // rows, and its columns are the keys (Y = softmax(A B^T)) or, with V
  // (Y = softmax(A B^T) V), V's columns. V has one row per key and at most
  // headDim columns (Vs is bN x headDim: fewer columns read as zeros that Y,
  // as wide as V, never stores). With V there must be a key: with none,
  // every probability is exp(-inf - -inf) = NaN and so is Y; without V,
  // no keys means Y has no columns and nothing is written.
  k.require(size(A, 1) == size(B, 1));
  k.require(size(B, 0) <= bN);
  k.require(size(Y, 0) == size(A, 0));
  if (V) {
    k.require(size(*V, 0) == size(B, 0));
    k.require(size(*V, 1) <= config.headDim);
    k.require(size(Y, 1) == size(*V, 1));
    k.require(size(B, 0) >= 1);
  } else {
    k.require(size(Y, 1) == size(B, 0));
  }
  k.body({ceildiv(A, 0, bM)}, [&](Kernel &k) {
    Expr row = k.blockIndex(0) * double(bM);
    Expr zero = k.index(0);
    Expr n = B.dim(0);
    Buffer As = k.allocShared({bM, bK}, in);
    Buffer Bs = k.allocShared({bN, bK}, in);
    Buffer scores = k.allocFragment({bM, bN}, f32);
    Buffer rowMax = k.allocFragment({bM}, f32);
    Buffer rowSum = k.allocFragment({bM}, f32);
    k.clear(scores);
    k.pipelined(zero, ceilDiv(A.dim(1), double(bK)), config.stages,
                [&](Expr kt) {
                  Expr kOffset = kt * double(bK);
                  k.copy(A.at({row, kOffset}), As);
                  k.copy(B.at({zero, kOffset}), Bs);
                  k.gemm(As, Bs, scores, /*transposeB=*/true);
                });
    exponentiateRows(k, scores, bM, bN, f32, rowMax, rowSum, n);
    if (!config.headDim) {
      k.parallel({bM, bN}, [&](const Indices &i) {
        scores[i] = Expr(scores[i]) * rowSum[i[0]];
      });
      k.copy(scores, Y.at({row, zero}));
      return;
    }
    // Y = P x V with P in registers: the probabilities in the input type
    // (their fragment takes the scores' MMA layout, one warp column).
    Buffer Vs = k.allocShared({bN, config.headDim}, in);
    k.copy(V->at({zero, zero}), Vs); // rows past N read as zero
    Buffer P = k.allocFragment({bM, bN}, in);
    k.parallel({bM, bN}, [&](const Indices &i) {
      P[i] = cast(Expr(scores[i]) * rowSum[i[0]], in);
    });
    Buffer O = k.allocFragment({bM, config.headDim}, f32);
    k.clear(O);
    k.gemm(P, Vs, O);
    k.copy(O, Y.at({row, zero}));
  });
  return name;
}

} // namespace tile::fe
