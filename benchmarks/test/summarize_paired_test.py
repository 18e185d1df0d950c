#!/usr/bin/env python3
"""Runs `scripts/gpu/hopper-gemm.sh summarize` on hand-made reports, no GPU
needed:

  paired-sample/bench-library.json  a paired run (tile-bench-gemm since
                                    2026-12-06): the library's choice and the
                                    fused one take the ratio of their pairs
                                    (over_peer), not of the separate cuBLAS /
                                    cuBLASLt rows, and the control is printed;
  plot-sample/bench-gemm.json       an older run, without pairs: ratios of the
                                    separate rows, as before.
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "scripts", "gpu", "hopper-gemm.sh")
failures = 0


def summarize(report):
    result = subprocess.run(["bash", SCRIPT, "summarize", report],
                            capture_output=True, text=True)
    return result.returncode, result.stdout + result.stderr


def check(condition, what, output):
    global failures
    if not condition:
        failures += 1
        print(f"FAILED: {what}\n--- output ---\n{output}")


rc, out = summarize(os.path.join(HERE, "paired-sample", "bench-library.json"))
check(rc == 0, f"summarize exits with 0 (got {rc})", out)
# 1 / 0.96 from the pairs; the separate rows would give 701 / 687 = 1.02x.
check("| 701 (1.04x paired) |" in out,
      "the library's choice takes its pairs' ratio", out)
# Without a separate cuBLAS run (hopper-gemm.sh library), cuBLAS's column
# comes from its launches in the pairs: 200 us, 687 TFLOP/s.
check("| 4096x4096x4096 | bf16 -> f32 | NN | 687 | 694 (1.01x paired) |" in out,
      "cuBLAS's column from the pairs when it has no row of its own", out)
check("medians: 4096x4096x4096 1.002; 1.001" in out,
      "the control line gives 1 / over_peer and second_over_first", out)
# The fused row: cuBLASLt's time from its pairs (208 us: 661 TFLOP/s), the
# ratio 1 / 0.98.
check("| 661 TFLOP/s | library's choice: "
      "`gemm_bf16_bf16_128x256x64_t384_s4_r8_bias_gelu_tanh_div8_ws_tma64_"
      "persistent` | 670 | 1.02x paired |" in out,
      "the fused choice takes its pairs' cuBLASLt time and ratio", out)

rc, out = summarize(os.path.join(HERE, "plot-sample", "bench-gemm.json"))
check(rc == 0, f"summarize exits with 0 (got {rc})", out)
check("| 427 (0.61x) |" in out and "paired" not in out,
      "an older report keeps the ratios of its separate rows", out)
check("| 687 TFLOP/s | `gemm_f16_f16_128x256x64_t384_s4_r8_bias_gelu_div8_ws`"
      " | 592 | 0.86x | 227 | +2.2% |" in out,
      "an older report's fused row is unchanged", out)

print("summarize_paired_test: " + ("all passed" if not failures
                                   else f"{failures} failed"))
sys.exit(1 if failures else 0)
