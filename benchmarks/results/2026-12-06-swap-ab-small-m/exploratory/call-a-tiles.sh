#!/usr/bin/env bash
# Session 38 (2026-12-06), call E: 128x192 tiles against the 128x256
# leaders (persistent, TMA store in bands; plain f16/bf16/f32 C, fused erf
# and tanh GELU): float64 tests on the 128x192 kernels, then
# the library's choice over each set timed alternately with cuBLAS /
# cuBLASLt, two rounds (the second in reverse order).
set -u
cd "$(dirname "$0")/.."
b=$PWD/gpu-bundle; out=${OUT:-/tmp/out}; mkdir -p $out
export LD_LIBRARY_PATH=$b/lib:${LD_LIBRARY_PATH:-}
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv,noheader; cat $b/COMMIT; date -u; } | tee $out/gpu.txt
s=$SECONDS
TILE_KERNEL_DIR=$b/n192 timeout 70 $b/bin/tile-gpu-tests --gtest_filter='GemmGpu.SmallAndOddShapesAreExactToRounding:GemmGpu.PersistentBlocksWalkSeveralTiles:GemmGpu.ContractBoundaries:GemmGpu.LargeShapesSampled' > $out/tests.log 2>&1
echo "tests rc=$? ($((SECONDS-s)) s)"; grep -E "^\[  (PASSED|FAILED)|Failure" $out/tests.log
: > $out/summary-tiles.md
echo '{"runs": [' > $out/bench-tiles.json; first=1
for order in "256 192" "192 256"; do
  for t in $order; do
    TILE_KERNEL_DIR=$b/n$t timeout 40 $b/bin/tile-bench-gemm --benchmark_filter='^(library_[^/]*|epilogue_library_.*|control_.*)/(4096x4096x4096|8192x8192x8192|8192x8192x28672|4096x1024x8192|4000x3000x4096)/' --benchmark_out=/tmp/t.json --benchmark_out_format=json > /tmp/t.log 2>&1
    echo "tiles 128x$t rc=$?"
    [ $first = 1 ] || echo ',' >> $out/bench-tiles.json; first=0
    echo "{\"block_n\": $t, \"result\": " >> $out/bench-tiles.json; cat /tmp/t.json >> $out/bench-tiles.json; echo '}' >> $out/bench-tiles.json
    { echo "## 128x$t"; echo; scripts/gpu/hopper-gemm.sh summarize /tmp/t.json; echo; } >> $out/summary-tiles.md
  done
done
echo ']}' >> $out/bench-tiles.json
python3 - $out/bench-tiles.json <<'PY' | tee $out/compare.md
import json, sys
rows = {}
for run in json.load(open(sys.argv[1]))["runs"]:
    for b in run["result"]["benchmarks"]:
        if b.get("aggregate_name") == "median" and "over_peer" in b:
            n, p = b["name"].split("/")[:2]
            rows.setdefault((p, n), {}).setdefault(run["block_n"], []).append(1 / b["over_peer"])
print("| shape | benchmark | 128x256 | 128x192 |\n|---|---|---|---|")
for (p, n), by in rows.items():
    print(f"| {p} | {n} | " + " | ".join("/".join(f"{x:.3f}" for x in by.get(t, [])) for t in (256, 192)) + " |")
PY
