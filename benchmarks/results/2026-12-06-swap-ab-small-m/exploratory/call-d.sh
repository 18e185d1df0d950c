#!/usr/bin/env bash
# Session 39 call D: swap_ab tiles for C of few rows (16x64 and 32x64 tiles
# of C^T = B^T A^T), from the working tree that became 2de1548 (its
# kernels byte-identical to 2de1548's). Float64 tests of the 8 kernels,
# compute-sanitizer on two, the library's choice test over the whole
# library; then, timed alternately with cuBLAS, the whole library's choice
# (16 rows: the 16x64 swap_ab tile) against the 64x128 tile alone and the
# 32x64 swap_ab tile alone, at 16 and 64 x 8192 x 8192, two rounds (the
# second reversed); ncu of the 16x64 swap_ab f16 -> f32 kernel, the 64x128
# one and cuBLAS at real and base clocks. Folders (kernel-subset.py of the
# library): smallm2/swapab '_swapab$', smallm2/swapab-f16
# '^gemm_f16_(f32_16|f16_32)x64x64_t256_s8_div8_ws_swapab$', smallm2/w128s6
# '^gemm_(f16|bf16)_(f32|f16|bf16)_64x128x64_t256_s6_div8_ws$', smallm2/swap32
# '^gemm_(f16|bf16)_(f32|f16|bf16)_32x64x64_t256_s8_div8_ws_swapab$'.
set -u
cd "$(dirname "$0")/.."
b=$PWD/gpu-bundle; out=${OUT:-/tmp/out}; mkdir -p $out
export LD_LIBRARY_PATH=$b/lib:${LD_LIBRARY_PATH:-}
bench=$b/bin/tile-bench-gemm; tests=$b/bin/tile-gpu-tests
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv,noheader; cat $b/COMMIT; date -u; } | tee $out/gpu.txt
TILE_KERNEL_DIR=$b/smallm2/swapab timeout 120 $tests --gtest_filter='GemmGpu.*' > $out/tests-swapab.log 2>&1
echo "tests swapab rc=$?"
TILE_KERNEL_DIR=$b/kernels timeout 90 $tests --gtest_filter='GemmGpu.LibraryChoiceFallsBackWithTheReason' > $out/tests-choice.log 2>&1
echo "choice test rc=$?"
for tool in memcheck racecheck synccheck; do
  TILE_KERNEL_DIR=$b/smallm2/swapab-f16 timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 $tests --gtest_filter='GemmGpu.SmallAndOddShapesAreExactToRounding' > $out/sanitizer-$tool.log 2>&1
  echo "$tool rc=$?"
done
echo '{"runs": [' > $out/bench-swapab.json; first=1
for order in "library w128s6 swap32" "swap32 w128s6 library"; do
  for c in $order; do
    dir=$b/smallm2/$c; [ $c = library ] && dir=$b/kernels
    TILE_KERNEL_DIR=$dir timeout 60 $bench --benchmark_filter='^(library_[^/]*|control_[^/]*)/(16x8192x8192|64x8192x8192)/' --benchmark_out=/tmp/s.json --benchmark_out_format=json > /tmp/s.log 2>&1
    echo "$c rc=$?"
    [ $first = 1 ] || echo ',' >> $out/bench-swapab.json; first=0
    echo "{\"candidate\": \"$c\", \"result\": " >> $out/bench-swapab.json; cat /tmp/s.json >> $out/bench-swapab.json; echo '}' >> $out/bench-swapab.json
  done
done
echo ']}' >> $out/bench-swapab.json
# (compare-swapab.md: 1 / over_peer of each median, per candidate and round.)
m=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__cycles_elapsed.avg.per_second,launch__grid_size,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active
for cc in none base; do
  for f in gemm_f16_f32_16x64x64_t256_s8_div8_ws_swapab/16x8192x8192 gemm_f16_f32_64x128x64_t256_s6_div8_ws/16x8192x8192 cublas_f16_f32/16x8192x8192; do
    echo "### $cc $f" >> $out/ncu-swapab.txt
    TILE_KERNEL_DIR=$b/kernels timeout 40 ncu --clock-control $cc --metrics $m --launch-skip 6 -c 2 $bench --benchmark_filter="^$f/" 2>&1 | grep -E "gpu__|dram__|sm__|launch__|ERR|rror" >> $out/ncu-swapab.txt
  done
done
