#!/usr/bin/env bash
# Session 38 (2026-12-06), call D: the persistent 128x256 leaders (plain and
# fused tanh GELU, f16 and bf16) with raster panels 2, 4, 8 (the library's),
# 16 and 32: float64 tests, then the library's choice over each panel's
# four kernels timed alternately with cuBLAS / cuBLASLt GELU_BIAS at 4096^3
# and 8192^3, two rounds (the second in reverse order).
set -u
cd "$(dirname "$0")/.."
b=$PWD/gpu-bundle; out=${OUT:-/tmp/out}; mkdir -p $out
export LD_LIBRARY_PATH=$b/lib:${LD_LIBRARY_PATH:-}
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv,noheader; cat $b/COMMIT; date -u; } | tee $out/gpu.txt
mkdir -p /tmp/all && for r in 2 4 16 32; do cp $b/panels/r$r/*.cubin $b/panels/r$r/*.manifest.json /tmp/all/; done
python3 - <<'PY'
import json, glob
idx = None; kernels = []
for r in (2, 4, 16, 32):
    d = json.load(open(f"gpu-bundle/panels/r{r}/index.json"))
    idx = idx or d; kernels += d["kernels"]
idx["kernels"] = kernels
json.dump(idx, open("/tmp/all/index.json", "w"), indent=1)
PY
s=$SECONDS
TILE_KERNEL_DIR=/tmp/all timeout 120 $b/bin/tile-gpu-tests --gtest_filter='GemmGpu.SmallAndOddShapesAreExactToRounding:GemmGpu.PersistentBlocksWalkSeveralTiles:GemmGpu.ContractBoundaries' > $out/tests.log 2>&1
echo "tests rc=$? ($((SECONDS-s)) s)"; grep -E "^\[  (PASSED|FAILED)|Failure" $out/tests.log
: > $out/summary-panels.md
echo '{"runs": [' > $out/bench-panels.json; first=1
for order in "2 4 8 16 32" "32 16 8 4 2"; do
  for r in $order; do
    TILE_KERNEL_DIR=$b/panels/r$r timeout 60 $b/bin/tile-bench-gemm --benchmark_filter='^(library_(f16_f16|bf16_bf16)|epilogue_library_gelu_tanh_.*|control_.*)/(4096x4096x4096|8192x8192x8192)/' --benchmark_out=/tmp/p.json --benchmark_out_format=json > /tmp/p.log 2>&1
    echo "panel $r rc=$?"
    [ $first = 1 ] || echo ',' >> $out/bench-panels.json; first=0
    echo "{\"panel\": $r, \"result\": " >> $out/bench-panels.json; cat /tmp/p.json >> $out/bench-panels.json; echo '}' >> $out/bench-panels.json
    { echo "## panel $r"; echo; scripts/gpu/hopper-gemm.sh summarize /tmp/p.json; echo; } >> $out/summary-panels.md
  done
done
echo ']}' >> $out/bench-panels.json
python3 - $out/bench-panels.json <<'PY'
import json, sys
rows = {}
for run in json.load(open(sys.argv[1]))["runs"]:
    for b in run["result"]["benchmarks"]:
        if b.get("aggregate_name") == "median" and "over_peer" in b:
            n, p = b["name"].split("/")[:2]
            rows.setdefault((p, n), {}).setdefault(run["panel"], []).append(1 / b["over_peer"])
for (p, n), by in sorted(rows.items()):
    print(f"{p} {n:34s} " + "  ".join(f"r{r}: " + "/".join(f"{x:.3f}" for x in v) for r, v in sorted(by.items())))
PY
