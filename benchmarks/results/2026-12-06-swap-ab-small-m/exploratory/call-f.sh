#!/usr/bin/env bash
# Session 39 call F: the raster panel of the 128x256 persistent leaders
# (plain with 16-bit and f32 C, fused tanh GELU): 8 (the library's) against
# 16 and 32, each set alone in a kernel folder so that the library's choice
# is it (folders: kernel-subset.py of the library, and of the library
# built with PANEL=16 / PANEL=32 in place of the 8 of the banded
# variants in tools/tile-kernels/tile-kernels.cpp), timed alternately with cuBLAS / cuBLASLt GELU_BIAS, two rounds
# (the second in reverse order).
set -u
cd "$(dirname "$0")/.."
b=$PWD/gpu-bundle; out=${OUT:-/tmp/out}; mkdir -p $out
export LD_LIBRARY_PATH=$b/lib:${LD_LIBRARY_PATH:-}
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv,noheader; cat $b/COMMIT; date -u; } | tee $out/gpu.txt
echo '{"runs": [' > $out/bench-panels.json; first=1
for order in "p8 p16 p32" "p32 p16 p8"; do
  for c in $order; do
    TILE_KERNEL_DIR=$b/panels/$c timeout 60 $b/bin/tile-bench-gemm --benchmark_filter='^(library_[^/]*|epilogue_library_gelu_tanh_.*|control_.*)/(4096x4096x4096|8192x8192x8192|8192x8192x28672)/' --benchmark_out=/tmp/s.json --benchmark_out_format=json > /tmp/s.log 2>&1
    echo "$c rc=$?"
    [ $first = 1 ] || echo ',' >> $out/bench-panels.json; first=0
    echo "{\"candidate\": \"$c\", \"result\": " >> $out/bench-panels.json; cat /tmp/s.json >> $out/bench-panels.json; echo '}' >> $out/bench-panels.json
  done
done
echo ']}' >> $out/bench-panels.json
python3 - $out/bench-panels.json <<'PY' | tee $out/compare-panels.md
import json, sys
rows = {}; labels = {}
for run in json.load(open(sys.argv[1]))["runs"]:
    for b in run["result"]["benchmarks"]:
        if b.get("aggregate_name") == "median" and "over_peer" in b:
            n, p = b["name"].split("/")[:2]
            rows.setdefault((p, n), {}).setdefault(run["candidate"], []).append(1 / b["over_peer"])
            labels[(p, n, run["candidate"])] = b.get("label", "")
cands = ["p8", "p16", "p32"]
print("| shape | benchmark | " + " | ".join(cands) + " | p16 choice |\n|---|---|" + "---|" * (len(cands) + 1))
for (p, n), by in rows.items():
    print(f"| {p} | {n} | " + " | ".join("/".join(f"{x:.3f}" for x in by.get(t, [])) for t in cands) + f" | {labels.get((p, n, 'p16'), '')} |")
PY
