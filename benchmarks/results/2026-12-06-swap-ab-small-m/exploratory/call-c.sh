#!/usr/bin/env bash
# Session 39 call C: small M. Four row-tile candidates (64x64 wgmma, 8 and
# 6 stages; 64x64 mma.sync, 8 stages; the library's 64x128 wgmma, 6
# stages), each alone in a kernel folder so that the library's choice is
# it, timed alternately with cuBLAS at 16 and 64 x 8192 x 8192 (two
# rounds, the second in reverse order); ncu of each (f16 -> f32) at real
# and at base clocks; float64 tests of the 64x64 candidates. The folders
# (gpu-bundle/smallm/<candidate>): for each in/out pair, `tile-tune
# --kernel=gemm --chip=sm_90 --in-dtype=IN --out-dtype=OUT --block-m=64
# --block-n=64,128 --block-k=64 --stages=6,8 --num-threads=256
# --raster-panel=0 --divisibility=8 --split-k=1 --warp-specialized`, the
# candidate's four kernels gathered into one index.json (9b82a84).
set -u
cd "$(dirname "$0")/.."
b=$PWD/gpu-bundle; out=${OUT:-/tmp/out}; mkdir -p $out
export LD_LIBRARY_PATH=$b/lib:${LD_LIBRARY_PATH:-}
bench=$b/bin/tile-bench-gemm
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv,noheader; cat $b/COMMIT; date -u; } > $out/gpu.txt
cands="w128s6 w64s8 w64s6 m64s8"
echo '{"runs": [' > $out/bench-smallm.json; first=1
for order in "$cands" "$(echo $cands | tr ' ' '\n' | tac | tr '\n' ' ')"; do
  for c in $order; do
    TILE_KERNEL_DIR=$b/smallm/$c timeout 60 $bench --benchmark_filter='^(library_[^/]*|control_[^/]*)/(16x8192x8192|64x8192x8192)/' --benchmark_out=/tmp/s.json --benchmark_out_format=json > /tmp/s.log 2>&1
    echo "$c rc=$?"
    [ $first = 1 ] || echo ',' >> $out/bench-smallm.json; first=0
    echo "{\"candidate\": \"$c\", \"result\": " >> $out/bench-smallm.json; cat /tmp/s.json >> $out/bench-smallm.json; echo '}' >> $out/bench-smallm.json
  done
done
echo ']}' >> $out/bench-smallm.json
# (compare-smallm.md: 1 / over_peer of each median, per candidate and round,
# as call-f.sh prints its table.)
m=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__cycles_elapsed.avg.per_second,launch__grid_size
for cc in none base; do for c in $cands; do
  name=$(python3 -c "import json;print([e['name'] for e in json.load(open('$b/smallm/$c/index.json'))['kernels'] if '_f16_f32_' in e['name']][0])")
  for p in 16x8192x8192 64x8192x8192; do
    echo "### $cc $c $name $p" >> $out/ncu-smallm.txt
    TILE_KERNEL_DIR=$b/smallm/$c timeout 30 ncu --clock-control $cc --metrics $m --launch-skip 6 -c 2 $bench --benchmark_filter="^$name/$p/" 2>&1 | grep -E "gpu__|dram__|sm__|ERR|rror" >> $out/ncu-smallm.txt
  done
done; done
for c in w64s8 m64s8; do
  TILE_KERNEL_DIR=$b/smallm/$c timeout 90 $b/bin/tile-gpu-tests --gtest_filter='GemmGpu.SmallAndOddShapesAreExactToRounding:GemmGpu.ContractBoundaries:GemmGpu.LargeShapesSampled' > $out/tests-$c.log 2>&1
  echo "tests $c rc=$?"; grep -E "^\[  (PASSED|FAILED)|Failure" $out/tests-$c.log | head -5
done
