#!/usr/bin/env bash
# Issue 18's closing run on an H200, in two calls, from the repository root
# with the bundle of `scripts/gpu/run-gpu.sh prepare` carried (slimmed: no
# .mlir/.ptx, no walkthrough):
#
#   benchmarks/results/2026-12-06-h200-closing/call.sh speed
#     1. scripts/gpu/hopper-gemm.sh library 3: the library's choice paired
#        with cuBLAS / cuBLASLt GELU_BIAS, three rounds (bench-library-r*.json,
#        summary-library.md);
#     2. rt::chooseGemm over the whole library (choice.txt);
#     3. compute-sanitizer memcheck / racecheck / synccheck on one f16
#        kernel of each sm_90a family, odd shapes (sanitizer.txt);
#     4. GemmGpu on all 114 sm_90a (`_ws`) kernels except the large
#        sampled shapes, then the large sampled shapes on the f16 ones
#        (tests-f16.txt).
#   benchmarks/results/2026-12-06-h200-closing/call.sh bf16
#     5. the large sampled shapes on the bf16 sm_90a kernels (tests-bf16.txt).
#
# Each call first checks the card and stops (exit 3) on anything but an
# H200: this run is the one the issue asks for on that card.
set -u
root=$PWD; b=$root/gpu-bundle; out=${OUT:-/tmp/out}; mkdir -p "$out"
export LD_LIBRARY_PATH=$b/lib:${LD_LIBRARY_PATH:-}
part=${1:?speed or bf16}
gpu=$(nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv,noheader)
{ echo "$gpu"; echo "bundle commit $(cat "$b/COMMIT")"; date -u; } | tee "$out/gpu-$part.txt"
case "$gpu" in *H200*) ;; *) echo "not an H200: nothing run"; exit 3 ;; esac
subset() { python3 scripts/gpu/kernel-subset.py "$1" "$b/kernels" "$2" > /dev/null; }
# The per-kernel lines, the verdicts and every failure of a GemmGpu log.
digest() { grep -E '^\[ +(OK|FAILED|SKIPPED|PASSED) |Failure|Expected|Which is|relative error|^gemm_' "$1"; }

if [ "$part" = bf16 ]; then
  subset /tmp/ws-bf16 '^gemm_bf16_.*_ws'
  TILE_KERNEL_DIR=/tmp/ws-bf16 timeout 540 "$b/bin/tile-gpu-tests" \
    --gtest_filter='GemmGpu.LargeShapesSampled' > /tmp/t.log 2>&1
  echo "bf16 large rc=$? kernels=$(grep -c '"name"' /tmp/ws-bf16/index.json)" | tee "$out/tests-bf16.txt"
  digest /tmp/t.log >> "$out/tests-bf16.txt"
  grep -E '^\[  (PASSED|FAILED)' /tmp/t.log
  exit 0
fi

OUT=$out timeout 240 scripts/gpu/hopper-gemm.sh library 3 > /tmp/lib.log 2>&1
echo "library rc=$?"; grep -E "4096x4096x4096|8192x8192x8192" "$out/summary-library.md" | head -12

TILE_KERNEL_DIR=$b/kernels timeout 60 "$b/bin/tile-gpu-tests" \
  --gtest_filter='GemmGpu.LibraryChoiceFallsBackWithTheReason' > "$out/choice.txt" 2>&1
echo "choice rc=$?"

subset /tmp/san '^gemm_f16_(f16_128x256x64_t384_s4_r8_div8_ws_tma64_persistent_streamk|f16_128x256x64_t384_s4_r8_div8_ws_tma64_persistent_cm2|f16_128x128x64_t256_s5_r8_div8_ws_tma64_persistent_pingpong|f16_16x64x64_t256_s8_bias_gelu_div8_ws_swapab|f32_128x256x64_t384_s4_div8_ws_sk4|f16_128x256x64_t384_s4_r8_tt_div8_ws|f16_128x256x64_t384_s3_r8_div8_ws_tma|f16_128x256x64_t384_s4_r8_bias_gelu_tanh_div8_ws_tma64_persistent|f32_256x128x64_t640_s4_r8_div8_ws_tma16_persistent)$'
echo "sanitized kernels: $(grep -o '"name": *"[^"]*"' /tmp/san/index.json | cut -d'"' -f4 | tr '\n' ' ')" > "$out/sanitizer.txt"
for tool in memcheck racecheck synccheck; do
  TILE_KERNEL_DIR=/tmp/san timeout 150 compute-sanitizer --tool $tool "$b/bin/tile-gpu-tests" \
    --gtest_filter='GemmGpu.SmallAndOddShapesAreExactToRounding:GemmGpu.PersistentBlocksWalkSeveralTiles' > /tmp/s.log 2>&1
  echo "$tool rc=$?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|\[  PASSED|\[  FAILED|SKIPPED' /tmp/s.log | tr '\n' ' ')" | tee -a "$out/sanitizer.txt"
done

subset /tmp/ws '_ws'
subset /tmp/ws-f16 '^gemm_f16_.*_ws'
TILE_KERNEL_DIR=/tmp/ws timeout 120 "$b/bin/tile-gpu-tests" \
  --gtest_filter='GemmGpu.*:-GemmGpu.LargeShapesSampled:GemmGpu.LibraryChoice*' > /tmp/t.log 2>&1
echo "all sm_90a kernels, all but the large shapes rc=$? kernels=$(grep -c '"name"' /tmp/ws/index.json)" | tee "$out/tests-f16.txt"
digest /tmp/t.log >> "$out/tests-f16.txt"
left=$((585 - SECONDS))
TILE_KERNEL_DIR=/tmp/ws-f16 timeout $left "$b/bin/tile-gpu-tests" \
  --gtest_filter='GemmGpu.LargeShapesSampled' > /tmp/t.log 2>&1
echo "f16 large rc=$? (timeout $left s) kernels=$(grep -c '"name"' /tmp/ws-f16/index.json)" | tee -a "$out/tests-f16.txt"
digest /tmp/t.log >> "$out/tests-f16.txt"
grep -E '^\[  (PASSED|FAILED)' /tmp/t.log
