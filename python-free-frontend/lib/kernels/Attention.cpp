//===- Attention.cpp - FlashAttention forward -----------------------------===//
//
// FlashAttention-2's forward pass in the C++ frontend: a block owns blockM
// query rows of one (batch, head) and walks the key/value blocks: S = Q K^T
// on tensor cores, the running row maximum m and sum l updated in registers
// (online softmax, exp2 with scale * log2(e) folded in), the output
// accumulator rescaled by exp2(m_old - m_new), and O += P V with the
// probabilities P as the register A operand (no trip through shared
// memory). K and V tiles stream through a cp.async pipeline. Causal blocks
// above the diagonal are skipped (the loop ends at the block's last row).
//
//===----------------------------------------------------------------------===//

#include "tile/Frontend/Kernels.h"

#include "RowSoftmax.h"

#include <cmath>
#include <optional>

namespace tile::fe {

std::string AttentionConfig::kernelName() const {
  return std::string("attention_") + (causal ? "causal_" : "") + dtype + "_d" +
         std::to_string(headDim) + "_" + std::to_string(blockM) + "x" +
         std::to_string(blockN) + "_t" + std::to_string(threads) + "_s" +
         std::to_string(stages) + (lse ? "_lse" : "");
}

std::string buildAttention(Program &program, const AttentionConfig &config) {
  mlir::Type in = parseElementType(program, config.dtype);
  mlir::Type f32 = program.f32();
  std::string name = config.kernelName();
  int64_t bM = config.blockM, bN = config.blockN, d = config.headDim;
  // Scores go straight to the exp2 domain: s * scale * log2(e).
  double scoreScale = kLog2E / std::sqrt(double(d));

  Kernel k = program.kernel(name, config.threads);
  // [batch, heads, sequence, head_dim]; K and V may be longer or shorter
  // than Q.
  Buffer Q = k.tensor("Q", {kDynamic, kDynamic, kDynamic, d}, in);
  Buffer K = k.tensor("K", {kDynamic, kDynamic, kDynamic, d}, in);
  Buffer V = k.tensor("V", {kDynamic, kDynamic, kDynamic, d}, in);
  Buffer O = k.tensor("O", {kDynamic, kDynamic, kDynamic, d}, in);
  std::optional<Buffer> LSE;
  if (config.lse)
    LSE = k.tensor("LSE", {kDynamic, kDynamic, kDynamic}, f32);
  k.body({ceildiv(Q, 2, bM), ceildiv(Q, 1, 1), ceildiv(Q, 0, 1)},
         [&](Kernel &k) {
           Expr zero = k.index(0);
           Expr batch = k.blockIndex(2), head = k.blockIndex(1);
           Expr row = k.blockIndex(0) * double(bM);
           Buffer q = k.subview(Q, {batch, head});
           Buffer kh = k.subview(K, {batch, head});
           Buffer vh = k.subview(V, {batch, head});
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
           Expr minusInf = k.constant(-INFINITY, f32);
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
             // Scaled scores; keys past the end (and, causal, after the
             // query) are -inf.
             k.parallel({bM, bN}, [&](const Indices &i) {
               Expr key = col + i[1];
               Expr visible = less(key, keys);
               Expr s = select(visible, Expr(S[i]) * scoreScale, minusInf);
               if (config.causal)
                 s = select(less(row + i[0], key), minusInf, s);
               S[i] = s;
             });
             k.reduceMax(S, blockMax);
             // m_new = max(m, block max); the old sum and output rows scale
             // by exp2(m - m_new) (1 while both are -inf).
             k.parallel({bM}, [&](const Indices &i) {
               Expr m = runningMax[i];
               Expr grown = max(m, Expr(blockMax[i]));
               Expr factor = select(less(m, grown), exp2(m - grown), oneF);
               rescale[i] = factor;
               runningSum[i] = Expr(runningSum[i]) * factor;
               runningMax[i] = grown;
             });
             k.parallel({bM, bN}, [&](const Indices &i) {
               Expr s = S[i];
               Expr p =
                   select(less(minusInf, s), exp2(s - runningMax[i[0]]), zeroF);
               S[i] = p;
               P[i] = cast(p, in);
             });
             k.reduceSum(S, runningSum, /*accumulate=*/true);
             k.parallel({bM, d}, [&](const Indices &i) {
               acc[i] = Expr(acc[i]) * rescale[i[0]];
             });
             k.gemm(P, Vs, acc);
           });
           // LSE = m ln 2 + ln l (m is in the exp2 domain); -inf for rows
           // with no visible key.
           if (config.lse) {
             Buffer lse = k.allocFragment({bM}, f32);
             k.parallel({bM}, [&](const Indices &i) {
               Expr l = runningSum[i];
               lse[i] = select(less(zeroF, l),
                               Expr(runningMax[i]) * std::log(2.0) + log(l),
                               minusInf);
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
