//===- Softmax.cpp - Row softmax with on-chip rows ------------------------===//
//
// TileLang's softmax: a block copies its rows into an f32 fragment, takes
// each row's maximum (tile.reduce max), exponentiates the shifted values
// (exp2 with log2(e) folded in), sums them (tile.reduce sum) and scales,
// then stores the rows. The row values broadcast back into the element
// loops through their #tile.slice layout.
//
//===----------------------------------------------------------------------===//

#include "tile/Frontend/Kernels.h"

#include "ConfigCheck.h"
#include "RowSoftmax.h"

#include <cmath>
#include <functional>
#include <optional>

namespace tile::fe {

std::string SoftmaxConfig::kernelName() const {
  return std::string(online ? "softmax_online_" : "softmax_") + dtype + "_" +
         std::to_string(rows) + "x" + std::to_string(blockN) + "_t" +
         std::to_string(threads) +
         (online && stages > 1 ? "_s" + std::to_string(stages) : "");
}

void SoftmaxConfig::validate() const {
  ConfigCheck check(config::softmax::generator);
  check.fields(*this);
  // The key's range holds for both forms; only the online one stages.
  if (!online && stages != 1)
    check.fail("stages must be 1 without online (only the online softmax "
               "streams chunks through shared memory), but got " +
               std::to_string(stages));
  // Staged, one pass at a time streams its chunks through `stages` shared
  // tiles of rows x block_n.
  if (online && stages > 1)
    check.sharedMemory(checkedProduct({stages, rows, blockN, bytesOf(dtype)}),
                       std::to_string(stages) + " stages of a " +
                           shapeText(rows, blockN) + " " + dtype + " chunk");
  check.registers(
      registersPerThread(checkedProduct({rows, blockN}), 4, threads),
      "its " + shapeText(rows, blockN) + " f32 fragment over " +
          std::to_string(threads) + " threads");
}

namespace {

/// The softmax kernel's frame: X and Y (M x N, `dtype`), one block per
/// `rows` rows; `body` gets the block's first row and N.
std::string buildSoftmaxFrame(
    Program &program, const SoftmaxConfig &config,
    const std::function<void(Kernel &, Buffer &X, Buffer &Y, Expr row, Expr n)>
        &body) {
  mlir::Type type = parseElementType(program, config.dtype);
  std::string name = config.kernelName();
  Kernel k = program.kernel(name, config.threads);
  Buffer X = k.tensor("X", {kDynamic, kDynamic}, type);
  Buffer Y = k.tensor("Y", {kDynamic, kDynamic}, type);
  // Launch contract. The grid covers X's rows, `rows` per block; Y is
  // written where X is read, each copy masked at its own tensor's sizes, so
  // nothing leaves a buffer, but Y must have X's shape (a smaller Y drops
  // rows or columns, a larger one keeps stale values past X's). The single
  // pass kernel holds blockN columns of a row on chip (its fragment is
  // rows x blockN, copied from column 0): a longer row would be cut off,
  // its maximum and sum taken over the first blockN columns and the rest of
  // Y never written. The online kernel walks a row in blockN chunks and
  // takes any length. N = 0 writes nothing (Y has no columns).
  k.require(size(Y, 0) == size(X, 0));
  k.require(size(Y, 1) == size(X, 1));
  if (!config.online)
    k.require(size(X, 1) <= config.blockN);
  k.body({ceildiv(X, 0, config.rows)}, [&](Kernel &k) {
    Expr row = k.blockIndex(0) * double(config.rows);
    Expr n = X.dim(1);
    body(k, X, Y, row, n);
  });
  return name;
}
} // namespace

/// Online softmax for rows longer than a block holds: pass 1 over
/// column chunks keeps m (running max) and l (running sum of exp(x - m),
/// rescaled by exp(m_old - m_new) when m grows); pass 2 writes
/// exp(x - m) / l chunk by chunk. Staged (stages > 1), each pass copies its
/// chunks through shared tiles in a pipelined loop, so the next chunks load
/// while one is reduced.
static std::string buildOnlineSoftmax(Program &program,
                                      const SoftmaxConfig &config) {
  mlir::Type f32 = program.f32();
  mlir::Type type = parseElementType(program, config.dtype);
  int64_t rows = config.rows, bN = config.blockN;
  bool staged = config.stages > 1;
  return buildSoftmaxFrame(
      program, config, [&](Kernel &k, Buffer &X, Buffer &Y, Expr row, Expr n) {
        Expr chunks = ceilDiv(n, double(bN));
        // One shared tile per pass: a pipelined loop owns the tiles it
        // fills.
        std::optional<Buffer> passTile[2];
        if (staged)
          for (auto &tile : passTile)
            tile = k.allocShared({rows, bN}, type);
        auto chunkLoop = [&](const std::function<void(Expr)> &body) {
          if (staged)
            k.pipelined(k.index(0), chunks, config.stages, body);
          else
            k.forLoop(k.index(0), chunks, 1, body);
        };
        Buffer x = k.allocFragment({rows, bN}, f32);
        auto loadChunk = [&](int pass, Expr col) {
          if (!staged)
            return k.copy(X.at({row, col}), x);
          k.copy(X.at({row, col}), *passTile[pass]);
          k.copy(*passTile[pass], x);
        };
        Buffer chunkMax = k.allocFragment({rows}, f32);
        Buffer runningMax = k.allocFragment({rows}, f32);
        Buffer runningSum = k.allocFragment({rows}, f32);
        Expr minusInf = k.constant(-INFINITY, f32);
        Expr zeroF = k.constant(0.0, f32);
        Expr oneF = k.constant(1.0, f32);
        k.fill(runningMax, minusInf);
        k.fill(runningSum, zeroF);
        // exp(x - m), 0 where x is -inf (also when m is: a row that starts
        // with masked entries must not turn into NaN).
        auto shiftedExp = [&](Expr value, Expr max) {
          return select(less(minusInf, value), exp2((value - max) * kLog2E),
                        zeroF);
        };
        chunkLoop([&](Expr c) {
          Expr col = c * double(bN);
          loadChunk(0, col);
          k.parallel({rows, bN}, [&](const Indices &i) {
            x[i] = select(less(col + i[1], n), x[i], minusInf);
          });
          k.reduceMax(x, chunkMax);
          // m_new = max(m, chunk max); l *= exp(m - m_new) (1 when equal).
          k.parallel({rows}, [&](const Indices &i) {
            Expr m = runningMax[i];
            Expr grown = max(m, Expr(chunkMax[i]));
            runningSum[i] =
                Expr(runningSum[i]) *
                select(less(m, grown), exp2((m - grown) * kLog2E), oneF);
            runningMax[i] = grown;
          });
          k.parallel({rows, bN}, [&](const Indices &i) {
            x[i] = shiftedExp(x[i], runningMax[i[0]]);
          });
          k.reduceSum(x, runningSum, /*accumulate=*/true);
        });
        // One division per row; the elements multiply.
        k.parallel({rows}, [&](const Indices &i) {
          runningSum[i] = oneF / Expr(runningSum[i]);
        });
        chunkLoop([&](Expr c) {
          Expr col = c * double(bN);
          loadChunk(1, col);
          k.parallel({rows, bN}, [&](const Indices &i) {
            x[i] = shiftedExp(x[i], runningMax[i[0]]) * runningSum[i[0]];
          });
          k.copy(x, Y.at({row, col}));
        });
      });
}

std::string buildSoftmax(Program &program, const SoftmaxConfig &config) {
  config.validate();
  if (config.online)
    return buildOnlineSoftmax(program, config);
  mlir::Type f32 = program.f32();
  int64_t rows = config.rows, bN = config.blockN;
  return buildSoftmaxFrame(
      program, config, [&](Kernel &k, Buffer &X, Buffer &Y, Expr row, Expr n) {
        Expr zero = k.index(0);
        Buffer x = k.allocFragment({rows, bN}, f32);
        Buffer rowMax = k.allocFragment({rows}, f32);
        Buffer rowSum = k.allocFragment({rows}, f32);
        k.copy(X.at({row, zero}), x); // converts to f32; zero past the end
        exponentiateRows(k, x, rows, bN, f32, rowMax, rowSum, n);
        k.parallel({rows, bN},
                   [&](const Indices &i) { x[i] = Expr(x[i]) * rowSum[i[0]]; });
        k.copy(x, Y.at({row, zero}));
      });
}

} // namespace tile::fe
