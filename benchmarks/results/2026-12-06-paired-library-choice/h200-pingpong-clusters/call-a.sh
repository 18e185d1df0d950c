#!/usr/bin/env bash
# Session 38 (2026-12-06), call A: ping-pong with clusters of two (B
# multicast, experimental variants) and the erf GELU of one MUFU op
# (branch erf-16bit): float64 tests, paired fused-vs-plain benchmarks with
# cuBLASLt GELU_BIAS, plain against cuBLAS, sanitizers.
set -u
cd "$(dirname "$0")/.."
b=$PWD/gpu-bundle; out=${OUT:-/tmp/out}; mkdir -p $out
export LD_LIBRARY_PATH=$b/lib:${LD_LIBRARY_PATH:-}
budget=${1:-570}; t0=$SECONDS
left() { echo $(( budget - (SECONDS - t0) )); }
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv,noheader; cat $b/COMMIT; date -u; } | tee $out/gpu.txt
sub() { python3 scripts/gpu/kernel-subset.py "$1" $b/kernels "$2" > /dev/null; ls "$1" | grep -c cubin; }
echo "test kernels: $(sub /tmp/t '^gemm_(f16_f16|bf16_bf16)_.*_bias_gelu(_div8.*|_staged.*)?$|cm2_pingpong$|_s4_r8_(bias_gelu_tanh_)?div8_ws_tma64_persistent_pingpong$')"
echo "sanitizer kernels: $(sub /tmp/s '^gemm_f16_f16_128x128x64_t256_s4_r8_bias_gelu_tanh_div8_ws_tma64_persistent_cm2_pingpong$|^gemm_f16_f16_128x256x64_t384_s4_r8_bias_gelu_div8_ws_tma64_persistent$')"
s=$SECONDS
TILE_KERNEL_DIR=/tmp/t timeout 100 $b/bin/tile-gpu-tests --gtest_filter='GemmGpu.SmallAndOddShapesAreExactToRounding:GemmGpu.PersistentBlocksWalkSeveralTiles:GemmGpu.ContractBoundaries' > $out/tests.log 2>&1
echo "tests rc=$? ($((SECONDS-s)) s)"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[       OK|FAILED  \]|Failure" $out/tests.log | head -20
s=$SECONDS
TILE_KERNEL_DIR=$b/kernels timeout 130 $b/bin/tile-bench-gemm --benchmark_filter='^epilogue_(paired_(f16|bf16)_(f16|bf16)_(128x128x64_t256_s4_r8_bias_gelu_tanh_div8_ws_tma64_persistent(_cm2)?_pingpong|64x256x64_t256_s4_r8_bias_gelu_tanh_div8_ws_tma64_persistent_cm2_pingpong|128x256x64_t384_s4_r8_bias_gelu(_tanh)?_div8_ws_tma64_persistent)|cublaslt_gelu_bias)/' --benchmark_out=$out/bench-epilogue.json --benchmark_out_format=json > /tmp/bench-e.log 2>&1
echo "epilogue bench rc=$? ($((SECONDS-s)) s)"
scripts/gpu/hopper-gemm.sh summarize $out/bench-epilogue.json | tail -n +3 | grep -v '^$' > $out/summary-epilogue.md; cat $out/summary-epilogue.md
s=$SECONDS
TILE_KERNEL_DIR=$b/kernels timeout 160 $b/bin/tile-bench-gemm --benchmark_filter='^(cublas_(f16_f16|bf16_bf16|f16_f32)|gemm_(f16_f16|bf16_bf16)_(128x128x64_t256_s4_r8_div8_ws_tma64_persistent(_cm2)?_pingpong|64x256x64_t256_s4_r8_div8_ws_tma64_persistent_cm2_pingpong|128x256x64_t384_s4_r8_div8_ws_tma64_persistent(_cm2)?)|gemm_f16_f32_(128x128x64_t256_s4_r8_div8_ws_tma32_persistent_cm2_pingpong|128x256x64_t384_s4_r8_div8_ws_tma32_persistent(_cm2)?))/(4096x4096x4096|8192x8192x8192|8192x8192x28672|4000x3000x4096)/' --benchmark_out=$out/bench-plain.json --benchmark_out_format=json > /tmp/bench-p.log 2>&1
echo "plain bench rc=$? ($((SECONDS-s)) s)"
scripts/gpu/hopper-gemm.sh summarize $out/bench-plain.json > $out/summary-plain.md; cat $out/summary-plain.md
: > $out/sanitizer.log
for tool in memcheck racecheck synccheck; do
  s=$SECONDS
  TILE_KERNEL_DIR=/tmp/s timeout 50 compute-sanitizer --tool $tool $b/bin/tile-gpu-tests --gtest_filter='GemmGpu.SmallAndOddShapesAreExactToRounding' > /tmp/san-$tool.log 2>&1
  echo "$tool rc=$? ($((SECONDS-s)) s) $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|\[  PASSED|\[  FAILED|SKIPPED' /tmp/san-$tool.log | tr '\n' ' ')"
  cat /tmp/san-$tool.log >> $out/sanitizer.log
done
s=$SECONDS
TILE_KERNEL_DIR=/tmp/t timeout $(( $(left) - 5 )) $b/bin/tile-gpu-tests --gtest_filter='GemmGpu.LargeShapesSampled' > $out/tests-large.log 2>&1
echo "large rc=$? ($((SECONDS-s)) s) $(grep -c 'relative error' $out/tests-large.log) shapes checked"; grep -E "^\[  (PASSED|FAILED) |Failure" $out/tests-large.log | head
