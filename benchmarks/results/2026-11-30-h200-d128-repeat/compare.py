#!/usr/bin/env python3
"""Table of the rounds that command.sh ran: tile TFLOP/s / FLASH TFLOP/s per
(type, mode, N), per round, and the median of the rounds' ratios."""
import json
import os
import statistics
import sys

out = sys.argv[1]
rows = {}
for r in (1, 2, 3):
    try:
        tile = json.load(open(os.path.join(out, f"tile-{r}.json")))
        flash = json.load(open(os.path.join(out, f"flash-{r}.json")))
    except (OSError, ValueError) as e:
        print(f"round {r}: {e}")
        continue
    for b in tile.get("benchmarks", []):
        if b.get("aggregate_name") != "median":
            continue
        name, n = b["run_name"].split("/")[:2]
        if "_d128_128x64_" not in name:
            continue
        dtype = "bf16" if "bf16" in name else "f16"
        mode = "causal" if "causal" in name else "full"
        peer = flash.get(f"{dtype}/{mode}/{n}")
        if peer:
            rows.setdefault((dtype, mode, int(n)), []).append(
                (b["TFLOP/s"] / 1e12, peer))
print(f"{'type':<5} {'mode':<7} {'N':>6}  " +
      "  ".join(f"round {r}: tile / FLASH" for r in (1, 2, 3)) +
      "   median ratio")
for (dtype, mode, n), values in sorted(rows.items()):
    cells = "  ".join(f"{t:6.1f} / {f:6.1f} {t / f:6.1%}" for t, f in values)
    ratio = statistics.median(t / f for t, f in values)
    print(f"{dtype:<5} {mode:<7} {n:>6}  {cells}   {ratio:6.1%}")
