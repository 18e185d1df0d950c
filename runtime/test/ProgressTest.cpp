//===- ProgressTest.cpp - Progress lines of tuning searches ---------------===//
//
// No GPU needed: the lines tile-tune and tile-tune-run print per candidate
// (Progress.h): elapsed times at each change of form, k padded to n's
// width, the best so far of a timing search (untimed candidates never win,
// ties keep the first) and what a line says for each status.
//
//===----------------------------------------------------------------------===//

#include "tile/runtime/Progress.h"

#include <gtest/gtest.h>

#include <cmath>
#include <thread>

using namespace tile::rt;

namespace {

TEST(Progress, ElapsedChangesFormAtTheMinuteAndTheHour) {
  EXPECT_EQ(formatElapsed(0), "0.0s");
  EXPECT_EQ(formatElapsed(-3), "0.0s");
  EXPECT_EQ(formatElapsed(0.44), "0.4s");
  EXPECT_EQ(formatElapsed(12.34), "12.3s");
  EXPECT_EQ(formatElapsed(59.94), "59.9s");
  // Would round to "60.0s".
  EXPECT_EQ(formatElapsed(59.96), "1m00s");
  EXPECT_EQ(formatElapsed(125.4), "2m05s");
  EXPECT_EQ(formatElapsed(3599.4), "59m59s");
  EXPECT_EQ(formatElapsed(3599.6), "1h00m");
  EXPECT_EQ(formatElapsed(3725), "1h02m");
  EXPECT_EQ(formatElapsed(100 * 3600.0), "100h00m");
}

TEST(Progress, LinesOfOneSearchLineUp) {
  EXPECT_EQ(progressLine(3, 12, 4.2, "gemm_a", "ok"),
            "[ 3/12] 4.2s gemm_a: ok");
  EXPECT_EQ(progressLine(12, 12, 64, "gemm_b", "ok"),
            "[12/12] 1m04s gemm_b: ok");
  EXPECT_EQ(progressLine(1, 1, 0, "k", "d"), "[1/1] 0.0s k: d");
  EXPECT_EQ(progressLine(7, 168, 1, "k", "d"), "[  7/168] 1.0s k: d");
}

TEST(Progress, BestSoFarTakesTheFastestTimedCandidate) {
  BestSoFar best;
  EXPECT_TRUE(best.empty());
  // Not timed (rejected, skipped, pruned): never the best.
  EXPECT_FALSE(best.offer("rejected", 0));
  EXPECT_TRUE(best.empty());
  EXPECT_TRUE(best.offer("a", 315.2));
  EXPECT_FALSE(best.offer("slower", 365.3));
  EXPECT_FALSE(best.offer("tie", 315.2));
  EXPECT_EQ(best.candidate(), "a");
  EXPECT_TRUE(best.offer("b", 294.5));
  EXPECT_FALSE(best.offer("nan", std::nan("")));
  EXPECT_EQ(best.candidate(), "b");
  EXPECT_DOUBLE_EQ(best.medianUs(), 294.5);
}

TEST(Progress, TimingDetailSaysStatusTimeAndBest) {
  // 4096^3: 2 M N K floating-point operations.
  double flops = 2.0 * 4096 * 4096 * 4096;
  EXPECT_EQ(formatTiming(294.528, flops), "294.5 us, 466.6 TFLOP/s");
  BestSoFar best;
  EXPECT_EQ(timingDetail("w", "rejected: relative error 1.45 > 0.0001", 0,
                         flops, best),
            "rejected: relative error 1.45 > 0.0001; no valid candidate yet");
  best.offer("a", 315.2);
  EXPECT_EQ(timingDetail("a", "ok", 315.2, flops, best),
            "ok, 315.2 us, 436.0 TFLOP/s; best so far: this one");
  best.offer("b", 365.3);
  EXPECT_EQ(timingDetail("b", "ok", 365.3, flops, best),
            "ok, 365.3 us, 376.2 TFLOP/s; best so far: a (315.2 us, 436.0 "
            "TFLOP/s)");
  EXPECT_EQ(timingDetail("s", "skipped: rows", 0, flops, best),
            "skipped: rows; best so far: a (315.2 us, 436.0 TFLOP/s)");
}

TEST(Progress, StopwatchCounts) {
  Stopwatch clock;
  double before = clock.seconds();
  EXPECT_GE(before, 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_GE(clock.seconds() - before, 0.015);
}

} // namespace
