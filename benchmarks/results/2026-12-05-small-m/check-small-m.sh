#!/usr/bin/env bash
# Session 34: the library's small-M variants (64x128 sm_90a tiles, no split
# of K) -- GemmGpu against float64, compute-sanitizer, the runtime's choice
# over the whole library, and tile-bench-gemm against cuBLAS in one process.
set -u
cd "$(dirname "$0")/.."
bundle=$PWD/gpu-bundle
out=${OUT:-$PWD/gpu-results}
mkdir -p "$out"
export LD_LIBRARY_PATH="$bundle/lib:${LD_LIBRARY_PATH:-}"
subset() { python3 scripts/gpu/kernel-subset.py "$1" "$bundle/kernels" "$2"; }
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv | tee "$out/gpu.txt"
small=/tmp/k-small; f16small=/tmp/k-f16small; bench=/tmp/k-bench
subset $small '_64x(128|256)x64_t256_'
subset $f16small '^gemm_f16_(f16|f32)_64x128x64_t256_s6_div8_ws$'
subset $bench '_64x128x64_t256_s6_div8_ws$|_sk[0-9]$|^gemm_(f16|bf16)_(f32|f16|bf16)_128x256x64_t384_s4_r8_div8_ws_tma(64|32)_persistent$|^gemm_(f16|bf16)_f32_128x128x64_t384_s4_r8_div8_ws$'
start=$(date +%s)
TILE_KERNEL_DIR=$small timeout 120 "$bundle/bin/tile-gpu-tests" --gtest_filter='GemmGpu.*' \
  --gtest_output=json:"$out/gemm-tests.json" > "$out/gemm-tests.log" 2>&1
echo "GemmGpu rc=$? ($(( $(date +%s) - start )) s)"; grep -E "FAILED|Failure" "$out/gemm-tests.log" | head; tail -2 "$out/gemm-tests.log"
grep -E "relative error" "$out/gemm-tests.log" | awk '{print $1, $NF}' | sort -k2 -g | awk '{m[$1]=$2} END {for (k in m) print "max rel err", k, m[k]}'
: > "$out/sanitizer.log"
for tool in memcheck racecheck synccheck; do
  start=$(date +%s)
  TILE_KERNEL_DIR=$f16small timeout 60 compute-sanitizer --tool "$tool" \
    "$bundle/bin/tile-gpu-tests" --gtest_filter='GemmGpu.SmallAndOddShapesAreExactToRounding' \
    > /tmp/san-$tool.log 2>&1
  echo "$tool rc=$? ($(( $(date +%s) - start )) s): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|\[  PASSED|\[  FAILED|SKIPPED' /tmp/san-$tool.log | tr '\n' ' ')"
  cat /tmp/san-$tool.log >> "$out/sanitizer.log"
done
start=$(date +%s)
TILE_KERNEL_DIR=$bundle/kernels timeout 150 "$bundle/bin/tile-gpu-tests" \
  --gtest_filter='GemmGpu.LibraryChoiceFallsBackWithTheReason' > "$out/choice.log" 2>&1
echo "choice rc=$? ($(( $(date +%s) - start )) s)"; tail -1 "$out/choice.log"; grep -E "x512x256: chose" "$out/choice.log" | grep "^[a-z0-9]* -> [a-z0-9]* NN none 16x" 
start=$(date +%s)
TILE_KERNEL_DIR=$bench timeout 200 "$bundle/bin/tile-bench-gemm" \
  --benchmark_filter='^(cublas_(f16|bf16)_(f32|f16|bf16)|gemm_[^/]*)/(16|64)x8192x8192/' \
  --benchmark_out="$out/bench-gemm.json" --benchmark_out_format=json > "$out/bench.log" 2>&1
echo "bench rc=$? ($(( $(date +%s) - start )) s)"
bash scripts/gpu/hopper-gemm.sh summarize "$out/bench-gemm.json" > "$out/summary.md" 2>&1; cat "$out/summary.md"
