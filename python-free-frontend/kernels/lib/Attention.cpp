//===- Attention.cpp - FlashAttention forward -----------------------------===//
//
// FlashAttention-2's forward pass in the C++ frontend: a block owns blockM
// query rows of one (batch, head) and walks the key/value blocks: S = Q K^T
// on tensor cores, the running row maximum m and sum l updated in registers
// (online softmax, exp2 with the caller's scale * log2(e) folded in), the
// output accumulator rescaled by exp2(m_old - m_new), and O += P V with the
// probabilities P as the register A operand (no trip through shared
// memory). K and V tiles stream through a cp.async pipeline. Causal blocks
// above the diagonal are skipped (the loop ends at the block's last row).
// K and V may have fewer heads than Q (grouped-query attention): a group of
// query heads reads one K/V head.
//
//===----------------------------------------------------------------------===//

#include "tile/Frontend/Kernels.h"

#include "ConfigCheck.h"
#include "RowSoftmax.h"

#include <cmath>
#include <limits>
#include <optional>

namespace tile::fe {

std::string AttentionConfig::kernelName() const {
  return std::string("attention_") + (causal ? "causal_" : "") + dtype + "_d" +
         std::to_string(headDim) + "_" + std::to_string(blockM) + "x" +
         std::to_string(blockN) + "_t" + std::to_string(threads) + "_s" +
         std::to_string(stages) + (lse ? "_lse" : "");
}

void AttentionConfig::validate() const {
  ConfigCheck check(config::attention::generator);
  check.fields(*this);
  int64_t bytes = bytesOf(dtype);
  // Q, and `stages` copies of the K and V tiles.
  check.sharedMemory(checkedProduct({blockM, headDim, bytes}) +
                         checkedProduct({2, stages, blockN, headDim, bytes}),
                     "its " + shapeText(blockM, headDim) + " Q tile and " +
                         std::to_string(stages) + " stages of " +
                         shapeText(blockN, headDim) + " K and V tiles");
  // The f32 scores S = Q K^T are computed while the f32 output
  // accumulator holds its rows: both live at once.
  check.registers(
      registersPerThread(checkedProduct({blockM, blockN}), 4, threads) +
          registersPerThread(checkedProduct({blockM, headDim}), 4, threads),
      "its " + shapeText(blockM, blockN) + " f32 scores and " +
          shapeText(blockM, headDim) + " f32 accumulator over " +
          std::to_string(threads) + " threads");
}

/// floor(n / d) for n < d 2^bits (d > 0), by restoring division: `bits`
/// unrolled steps of a compare, a subtraction and two selects, once per
/// block. A division would put the quotient, and the K and V addresses
/// computed from it, in regular registers: ptxas keeps block indices,
/// parameters and integer arithmetic on them in uniform registers, but a
/// division goes through a reciprocal (MUFU.RCP) on the regular datapath.
/// At 255 registers that doubled the spills of the D=128 kernels (40 -> 84
/// bytes for f16 128x64) and made the D=64 128x128 ones spill.
static Expr uniformQuotient(Kernel &k, Expr n, Expr d, int bits) {
  Expr quotient = k.index(0);
  for (int bit = bits - 1; bit >= 0; --bit) {
    double step = double(int64_t(1) << bit);
    Expr part = d * step;
    Expr below = less(n, part);
    n = select(below, n, n - part);
    quotient = select(below, quotient, quotient + step);
  }
  return quotient;
}

std::string buildAttention(Program &program, const AttentionConfig &config) {
  config.validate();
  mlir::Type in = parseElementType(program, config.dtype);
  mlir::Type f32 = program.f32();
  std::string name = config.kernelName();
  int64_t bM = config.blockM, bN = config.blockN, d = config.headDim;

  Kernel k = program.kernel(name, config.threads);
  // [batch, heads, sequence, head_dim]; K and V may be longer or shorter
  // than Q, and have fewer heads.
  Buffer Q = k.tensor("Q", {kDynamic, kDynamic, kDynamic, d}, in);
  Buffer K = k.tensor("K", {kDynamic, kDynamic, kDynamic, d}, in);
  Buffer V = k.tensor("V", {kDynamic, kDynamic, kDynamic, d}, in);
  Buffer O = k.tensor("O", {kDynamic, kDynamic, kDynamic, d}, in);
  std::optional<Buffer> LSE;
  if (config.lse)
    LSE = k.tensor("LSE", {kDynamic, kDynamic, kDynamic}, f32);
  // The softmax scale of the scores (1 / sqrt(D) in standard attention), a
  // positive f32: the running maximum is taken over the unscaled scores.
  int scaleParam = k.scalarParam("scale", f32);
  // Launch contract. The grid is (query blocks of Q, Q's heads, Q's
  // batch); each block reads K and V and writes O (and LSE) through
  // tile.subview, whose leading indices are not checked at run time: K, V,
  // O and LSE have Q's batch, O and LSE Q's heads (fewer would be read or
  // written past their end, more left out). Query head h reads K/V head
  // h / (Hq / Hkv): K and V have as many heads, and they divide Q's (each
  // K/V head serves a group of Hq / Hkv query heads; Hkv = Hq is
  // multi-head attention, Hkv = 0 only with Hq = 0, no blocks). Within a
  // head, copies mask at the view's sizes: V has one row per key of K (a
  // shorter V reads zero rows, a longer one is cut off), O and LSE one row
  // per query. The head dimension is static (checked per argument). Sk = 0
  // is defined: no row sees a key, O = 0 and LSE = -inf, as for a row that
  // sees no key anywhere.
  for (const Buffer &tensor : {K, V, O})
    k.require(size(tensor, 0) == size(Q, 0));
  k.require(size(O, 1) == size(Q, 1));
  k.require(size(V, 1) == size(K, 1));
  k.require(divides(size(K, 1), size(Q, 1)));
  k.require(size(V, 2) == size(K, 2));
  k.require(size(O, 2) == size(Q, 2));
  if (LSE)
    for (int dim = 0; dim < 3; ++dim)
      k.require(size(*LSE, dim) == size(Q, dim));
  k.body({ceildiv(Q, 2, bM), ceildiv(Q, 1, 1), ceildiv(Q, 0, 1)},
         [&](Kernel &k) {
           Expr zero = k.index(0);
           Expr batch = k.blockIndex(2), head = k.blockIndex(1);
           // Causal query blocks differ in work (block i reads i + 1 key
           // blocks): the GPU starts blocks in index order, so the heaviest
           // get the lowest indices and the light ones fill the last wave.
           Expr queryBlock = k.blockIndex(0);
           if (config.causal)
             queryBlock = ceilDiv(Q.dim(2), double(bM)) - 1.0 - queryBlock;
           Expr row = queryBlock * double(bM);
           // The K/V head of this query head: h / (Hq / Hkv) = h Hkv / Hq
           // (Hkv divides Hq), below Hkv <= Hq < 2^16 (a grid's y).
           Expr kvHead =
               uniformQuotient(k, head * K.dim(1), Q.dim(1), /*bits=*/16);
           Buffer q = k.subview(Q, {batch, head});
           Buffer kh = k.subview(K, {batch, kvHead});
           Buffer vh = k.subview(V, {batch, kvHead});
           Buffer o = k.subview(O, {batch, head});
           Expr keys = kh.dim(0);

           Buffer Qs = k.allocShared({bM, d}, in);
           Buffer Ks = k.allocShared({bN, d}, in);
           Buffer Vs = k.allocShared({bN, d}, in);
           Buffer S = k.allocFragment({bM, bN}, f32);
           Buffer P = k.allocFragment({bM, bN}, in);
           Buffer acc = k.allocFragment({bM, d}, f32);
           Buffer blockMax = k.allocFragment({bM}, f32);
           Buffer runningMax = k.allocFragment({bM}, f32);
           Buffer runningSum = k.allocFragment({bM}, f32);
           Buffer rescale = k.allocFragment({bM}, f32);
           Buffer expOffset = k.allocFragment({bM}, f32);
           Expr minusInf = k.constant(-INFINITY, f32);
           Expr lowestF = k.constant(std::numeric_limits<float>::lowest(), f32);
           // Scores go to the exp2 domain inside the exponent:
           // s * scale * log2(e), the factor computed once per thread.
           Expr scale = k.scalar(scaleParam);
           Expr expScale = scale * kLog2E, negExpScale = scale * -kLog2E;
           Expr zeroF = k.constant(0.0, f32), oneF = k.constant(1.0, f32);

           k.copy(q.at({row, zero}), Qs); // rows past the sequence: zero
           k.clear(acc);
           k.fill(runningMax, minusInf);
           k.fill(runningSum, zeroF);
           // Causal (query i sees keys j <= i): blocks past the block's
           // last row are skipped.
           Expr blocks = ceilDiv(keys, double(bN));
           if (config.causal)
             blocks = min(blocks, ceilDiv(row + double(bM), double(bN)));
           k.pipelined(zero, blocks, config.stages, [&](Expr j) {
             Expr col = j * double(bN);
             k.copy(kh.at({col, zero}), Ks);
             k.copy(vh.at({col, zero}), Vs);
             k.gemm(Qs, Ks, S, /*transposeB=*/true, /*transposeA=*/false,
                    /*clearAccum=*/true);
             // Keys past the end (and, causal, after the query) are -inf.
             // Only the blocks that reach past the last key, or past the
             // block's first query row, hold such keys: the others skip
             // the compares (a branch the whole block takes alike).
             Expr lastKey = col + double(bN - 1);
             Expr hasHidden = less(keys, lastKey + 1.0);
             if (config.causal)
               hasHidden = hasHidden | less(row, lastKey);
             k.when(hasHidden, [&] {
               k.parallel({bM, bN}, [&](const Indices &i) {
                 Expr key = col + i[1];
                 Expr s = select(less(key, keys), Expr(S[i]), minusInf);
                 if (config.causal)
                   s = select(less(row + i[0], key), minusInf, s);
                 S[i] = s;
               });
             });
             k.reduceMax(S, blockMax);
             // m_new = max(m, block max). Probabilities are
             // exp2(s * expScale - m_new * expScale), one FFMA and one
             // MUFU.EX2 per score; the offset is 0 while a row has seen only
             // -inf, so its probabilities are exp2(-inf) = 0, not NaN. The
             // old sum and output rows scale by exp2((m - m_new) *
             // expScale), 0 for m = -inf.
             k.parallel({bM}, [&](const Indices &i) {
               Expr m = runningMax[i];
               Expr grown = max(m, Expr(blockMax[i]));
               Expr offset =
                   select(less(grown, lowestF), zeroF, grown * negExpScale);
               Expr factor = exp2(fma(m, expScale, offset));
               rescale[i] = factor;
               runningSum[i] = Expr(runningSum[i]) * factor;
               runningMax[i] = grown;
               expOffset[i] = offset;
             });
             k.parallel({bM, bN}, [&](const Indices &i) {
               Expr p = exp2(fma(Expr(S[i]), expScale, expOffset[i[0]]));
               S[i] = p;
               P[i] = cast(p, in);
             });
             k.reduceSum(S, runningSum, /*accumulate=*/true);
             auto rescaleAccumulator = [&] {
               k.parallel({bM, d}, [&](const Indices &i) {
                 acc[i] = Expr(acc[i]) * rescale[i[0]];
               });
             };
             // Once the running maxima settle, most blocks change none of a
             // thread's rows (every factor is exactly 1): such threads can
             // skip the rescale of their accumulator registers. Measured on
             // the H200, that gains 2-5% for causal D=128 (128 accumulator
             // registers per thread) and loses 5-8% at D=64 (the branch
             // costs more than its 64 multiplies), neutral for non-causal
             // D=128; so only causal D=128 kernels branch.
             if (config.causal && d >= 128)
               k.when(less(k.threadMin(rescale), oneF), rescaleAccumulator);
             else
               rescaleAccumulator();
             k.gemm(P, Vs, acc);
           });
           // LSE = m * scale + ln l (m is the raw score maximum); -inf for
           // rows with no visible key.
           if (config.lse) {
             Buffer lse = k.allocFragment({bM}, f32);
             k.parallel({bM}, [&](const Indices &i) {
               Expr l = runningSum[i];
               Expr logSumExp = fma(Expr(runningMax[i]), scale, log(l));
               lse[i] = select(less(zeroF, l), logSumExp, minusInf);
             });
             k.copy(lse, k.subview(*LSE, {batch, head}).at({row}));
           }
           // O = acc / l (rows with no visible key keep zeros).
           k.parallel({bM}, [&](const Indices &i) {
             Expr l = runningSum[i];
             runningSum[i] = select(less(zeroF, l), oneF / l, zeroF);
           });
           k.parallel({bM, d}, [&](const Indices &i) {
             acc[i] = Expr(acc[i]) * runningSum[i[0]];
           });
           k.copy(acc, o.at({row, zero})); // rows past the sequence masked
         });
  return name;
}

} // namespace tile::fe
