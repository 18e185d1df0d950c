#!/usr/bin/env bash
# ncu's Speed Of Light and launch sections for the few-row GEMMs, f16 -> f32,
# at the card's own clocks (caches flushed before each kernel, ncu's
# default): the library's choice and cuBLAS, launched in turn by
# tile-bench-gemm, at 64x8192x8192 (the 64x64 s8 tile), at 16x8192x8192
# (the 16x64 swap_ab tile), and the 64x128 s6 tile alone at 64x8192x8192
# (the one that missed the bar on the H200). From the repository root on
# the GPU machine with the bundle of `scripts/gpu/run-gpu.sh prepare`:
#
#   benchmarks/results/2026-12-06-h200-closing/ncu-rows.sh
#
# Writes ncu-<case>.csv and gpu-ncu.txt under $OUT, and prints per kernel
# its duration, DRAM and SM throughput and grid size.
set -u
root=$PWD; b=$root/gpu-bundle; out=${OUT:-/tmp/out}; mkdir -p "$out"
export LD_LIBRARY_PATH=$b/lib:${LD_LIBRARY_PATH:-}
{ nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader
  echo "bundle commit $(cat "$b/COMMIT")"; date -u; } | tee "$out/gpu-ncu.txt"
python3 scripts/gpu/kernel-subset.py /tmp/old64 "$b/kernels" \
  '^gemm_f16_f32_64x128x64_t256_s6_div8_ws$' > /dev/null
profile() { # case kernel-dir shape
  # Past the warm-ups: 8 launches of the paired repetitions (peer, ours,
  # ours, peer).
  TILE_KERNEL_DIR=$2 timeout 150 ncu --clock-control none --launch-skip 24 \
    --launch-count 8 --section SpeedOfLight --section LaunchStats --csv \
    "$b/bin/tile-bench-gemm" --shapes="$3" \
    --benchmark_filter='^library_f16_f32/' > "$out/ncu-$1.csv" 2> /tmp/ncu.err
  local rc=$?
  echo "== $1 ($3) rc=$rc"
  [ $rc = 0 ] || tail -3 /tmp/ncu.err
  python3 - "$out/ncu-$1.csv" <<'PY'
import collections, csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
head, rows = rows[0], rows[1:]
col = {name: i for i, name in enumerate(head)}
want = ["Duration", "DRAM Throughput", "Compute (SM) Throughput",
        "SM Frequency", "Grid Size", "Registers Per Thread"]
per = collections.OrderedDict()
for r in rows:
    key = (r[col["ID"]], r[col["Kernel Name"]][:60])
    if r[col["Metric Name"]] in want:
        per.setdefault(key, {})[r[col["Metric Name"]]] = (
            r[col["Metric Value"]] + " " + r[col["Metric Unit"]])
for (i, name), m in per.items():
    print(i, name, "; ".join(f"{k} {m.get(k, '-')}" for k in want))
PY
}
profile choice64 "$b/kernels" 64x8192x8192
profile choice16 "$b/kernels" 16x8192x8192
profile old64 /tmp/old64 64x8192x8192
