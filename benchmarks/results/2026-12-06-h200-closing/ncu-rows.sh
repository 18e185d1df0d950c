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
# Writes ncu-<case>.csv and gpu-ncu.txt under $OUT and prints, per case and
# kernel, the range over its launches of duration, DRAM and SM throughput,
# with its grid and registers. `ncu-rows.sh summarize DIR` prints that
# table again from the CSV files in DIR (h100-ncu/ here), on any machine.
set -u
summarize() {
  python3 - "$@" <<'PY'
import collections, csv, glob, sys
want = {"Duration": "us", "DRAM Throughput": "%", "Compute (SM) Throughput": "%"}
print("| case | kernel | blocks | registers | duration | DRAM throughput | SM throughput |")
print("|---|---|---|---|---|---|---|")
for path in sorted(glob.glob(sys.argv[1] + "/ncu-*.csv")):
    rows = [r for r in csv.reader(open(path)) if len(r) > 10]
    if not rows:
        print(f"| {path} | no ncu rows | | | | | |")
        continue
    col = {name: i for i, name in enumerate(rows[0])}
    per = collections.defaultdict(lambda: collections.defaultdict(list))
    for r in rows[1:]:
        value = r[col["Metric Value"]].replace(",", "")
        if r[col["Metric Name"]] == "Duration":  # in us, whatever ncu chose
            scale = {"ns": 1e-3, "us": 1, "usecond": 1, "msecond": 1e3,
                     "ms": 1e3, "nsecond": 1e-3}[r[col["Metric Unit"]]]
            value = float(value) * scale
        per[r[col["Kernel Name"]]][r[col["Metric Name"]]].append(value)
    case = path.rsplit("/ncu-", 1)[1][:-len(".csv")]
    for kernel, m in per.items():
        def span(metric):
            v = [float(x) for x in m[metric]]
            if not v:
                return "-"
            return f"{min(v):.1f}-{max(v):.1f} {want[metric]} ({len(v)})"
        first = lambda metric: (m[metric] or ["-"])[0]
        print(f"| {case} | `{kernel[:60]}` | {first('Grid Size')} | "
              f"{first('Registers Per Thread')} | "
              + " | ".join(span(k) for k in want) + " |")
PY
}
if [ "${1:-}" = summarize ]; then summarize "${2:?usage: $0 summarize DIR}"; exit; fi
root=$PWD; b=$root/gpu-bundle; out=${OUT:-/tmp/out}; mkdir -p "$out"
export LD_LIBRARY_PATH=$b/lib:${LD_LIBRARY_PATH:-}
{ nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader
  echo "bundle commit $(cat "$b/COMMIT")"; date -u; } | tee "$out/gpu-ncu.txt"
python3 scripts/gpu/kernel-subset.py /tmp/old64 "$b/kernels" \
  '^gemm_f16_f32_64x128x64_t256_s6_div8_ws$' > /dev/null
profile() { # case kernel-dir shape
  # Past the warm-ups (5 paired repetitions) and the first timed one: 8
  # launches of peer, ours, ours, peer.
  TILE_KERNEL_DIR=$2 timeout 150 ncu --clock-control none --launch-skip 24 \
    --launch-count 8 --section SpeedOfLight --section LaunchStats --csv \
    "$b/bin/tile-bench-gemm" --shapes="$3" \
    --benchmark_filter='^library_f16_f32/' > "$out/ncu-$1.csv" 2> /tmp/ncu.err
  local rc=$?
  echo "== $1 ($3) rc=$rc"
  [ $rc = 0 ] || tail -3 /tmp/ncu.err
}
profile choice64 "$b/kernels" 64x8192x8192
profile choice16 "$b/kernels" 16x8192x8192
profile old64 /tmp/old64 64x8192x8192
summarize "$out"
