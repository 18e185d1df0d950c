#!/usr/bin/env bash
# Session 38 (2026-12-06), call B: what the library gives a user on the H200.
# Three rounds of tile-bench-gemm over the whole library: rt::chooseGemm's
# pick for each shape and type pair, launched alternately with cuBLAS (and,
# fused bias + GELU, with cuBLASLt's GELU_BIAS of the same input type), the
# runtime's choice test, and tile-profile of the 128x256 leader at 4096^3
# and at 4224x4096x4096 (528 tiles: four whole waves of 132).
set -u
cd "$(dirname "$0")/.."
b=$PWD/gpu-bundle; out=${OUT:-/tmp/out}; mkdir -p $out
export LD_LIBRARY_PATH=$b/lib:${LD_LIBRARY_PATH:-}
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv,noheader; cat $b/COMMIT; date -u; } | tee $out/gpu.txt
: > $out/summary-library.md
for r in 1 2 3; do
  s=$SECONDS
  TILE_KERNEL_DIR=$b/kernels timeout 150 $b/bin/tile-bench-gemm --benchmark_filter='^(cublas_(f16|bf16)_(f32|f16|bf16)|library_[^/]*|epilogue_library_.*|epilogue_cublaslt_gelu_bias.*)/' --benchmark_out=$out/bench-library-r$r.json --benchmark_out_format=json > /tmp/bench-r$r.log 2>&1
  echo "round $r rc=$? ($((SECONDS-s)) s)"
  { echo "## Round $r"; echo; scripts/gpu/hopper-gemm.sh summarize $out/bench-library-r$r.json; echo; } >> $out/summary-library.md
done
cat $out/summary-library.md
s=$SECONDS
TILE_KERNEL_DIR=$b/kernels timeout 120 $b/bin/tile-gpu-tests --gtest_filter='GemmGpu.LibraryChoiceFallsBackWithTheReason' > $out/choice.log 2>&1
echo "choice rc=$? ($((SECONDS-s)) s)"; tail -3 $out/choice.log
: > $out/profile.txt
for shape in 4096x4096x4096 4224x4096x4096; do
  TILE_KERNEL_DIR=$b/kernels timeout 60 $b/bin/tile-profile --kernels=$b/kernels --kernel='^gemm_f16_f16_128x256x64_t384_s4_r8_(bias_gelu_tanh_)?div8_ws_tma64_persistent$' --shape=$shape --runs=50 >> $out/profile.txt 2>&1
done
{ echo "== tanh.approx f16x2 / bf16x2 / f32 in SASS"; ptxas -arch=sm_90a $b/tanh-packed.ptx -o /tmp/t.cubin 2>&1 && cuobjdump -sass /tmp/t.cubin | grep -E "MUFU|HMUL|HFMA|PRMT|F2F"; } >> $out/profile.txt 2>&1
grep -E "TFLOP|gemm_|MUFU|==" $out/profile.txt | head -30
