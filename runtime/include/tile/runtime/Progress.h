//===- Progress.h - Progress lines of long tuning searches ------*- C++ -*-===//
//
// One line per finished candidate of a long search, "[k/n] elapsed name:
// what happened", which tile-tune (compiling) and tile-tune-run (timing on
// the GPU) write to standard error and flush at once, so that a terminal or
// a log shows how far a search got while its tables (standard output) wait
// for the end. Header only and free of LLVM: tile-tune, which does not link
// the runtime, includes it too. No GPU needed.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_PROGRESS_H
#define TILE_RUNTIME_PROGRESS_H

#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>

namespace tile::rt {

/// Wall-clock seconds since construction (a steady clock: a change of the
/// system's time does not move it).
class Stopwatch {
public:
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start)
        .count();
  }

private:
  std::chrono::steady_clock::time_point start =
      std::chrono::steady_clock::now();
};

/// A duration as a log reads it: "0.4s" and "59.9s" below a minute, then
/// "1m00s", "12m05s", then "1h02m" (negative durations read as 0).
inline std::string formatElapsed(double seconds) {
  char text[32];
  if (!(seconds > 0))
    seconds = 0;
  // 59.96 s would print as "60.0s": from there on, whole seconds.
  if (seconds < 59.95) {
    std::snprintf(text, sizeof(text), "%.1fs", seconds);
    return text;
  }
  long long whole = std::llround(seconds);
  if (whole < 3600)
    std::snprintf(text, sizeof(text), "%lldm%02llds", whole / 60, whole % 60);
  else
    std::snprintf(text, sizeof(text), "%lldh%02lldm", whole / 3600,
                  whole % 3600 / 60);
  return text;
}

/// "[ 3/12] 4.2s name: detail": k right-aligned to n's width, so that the
/// lines of one search line up.
inline std::string progressLine(size_t done, size_t total,
                                double elapsedSeconds, const std::string &name,
                                const std::string &detail) {
  std::string count = std::to_string(done), of = std::to_string(total);
  if (count.size() < of.size())
    count.insert(0, of.size() - count.size(), ' ');
  return "[" + count + "/" + of + "] " + formatElapsed(elapsedSeconds) + " " +
         name + ": " + detail;
}

/// The fastest valid candidate of a timing search so far.
class BestSoFar {
public:
  /// Takes a candidate's median time (0: not timed, never the best); true
  /// when it is the new best.
  bool offer(const std::string &candidate, double medianUs) {
    if (!(medianUs > 0) || (!name.empty() && medianUs >= us))
      return false;
    name = candidate;
    us = medianUs;
    return true;
  }
  bool empty() const { return name.empty(); }
  const std::string &candidate() const { return name; }
  double medianUs() const { return us; }

private:
  std::string name;
  double us = 0;
};

/// A median time and the rate it gives for `flops` floating-point
/// operations: "315.2 us, 436.0 TFLOP/s".
inline std::string formatTiming(double medianUs, double flops) {
  char text[64];
  std::snprintf(text, sizeof(text), "%.1f us, %.1f TFLOP/s", medianUs,
                flops / medianUs / 1e6);
  return text;
}

/// What tile-tune-run says after timing candidate `name`: its status, its
/// time when it was timed, and the best so far (after `best` was offered
/// this candidate): "ok, 315.2 us, 436.0 TFLOP/s; best so far: this one",
/// "rejected: ...; best so far: NAME (294.5 us, 466.6 TFLOP/s)" or "...;
/// no valid candidate yet".
inline std::string timingDetail(const std::string &name,
                                const std::string &status, double medianUs,
                                double flops, const BestSoFar &best) {
  std::string detail = status;
  if (medianUs > 0)
    detail += ", " + formatTiming(medianUs, flops);
  if (best.empty())
    return detail + "; no valid candidate yet";
  if (best.candidate() == name)
    return detail + "; best so far: this one";
  return detail + "; best so far: " + best.candidate() + " (" +
         formatTiming(best.medianUs(), flops) + ")";
}

} // namespace tile::rt

#endif // TILE_RUNTIME_PROGRESS_H
