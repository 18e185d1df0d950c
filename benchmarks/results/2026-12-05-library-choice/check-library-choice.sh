#!/usr/bin/env bash
# Session 34, last call: what the library gives a user -- rt::chooseGemm's
# pick over the whole library at every benchmark shape (NN; bias + GELU at
# 4096^3 and 8192^3) -- and the leaders of each kind, with cuBLAS and
# cuBLASLt in the same process.
set -u
cd "$(dirname "$0")/.."
bundle=$PWD/gpu-bundle
out=${OUT:-$PWD/gpu-results}
mkdir -p "$out"
export LD_LIBRARY_PATH="$bundle/lib:${LD_LIBRARY_PATH:-}"
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv | tee "$out/gpu.txt"
start=$(date +%s)
TILE_KERNEL_DIR=$bundle/kernels timeout 150 "$bundle/bin/tile-gpu-tests" \
  --gtest_filter='GemmGpu.LibraryChoiceFallsBackWithTheReason' > "$out/choice.log" 2>&1
echo "choice rc=$? ($(( $(date +%s) - start )) s)"; tail -1 "$out/choice.log"
grep -E "NN none (16|256)x512x256: chose" "$out/choice.log"
start=$(date +%s)
TILE_KERNEL_DIR=$bundle/kernels timeout 400 "$bundle/bin/tile-bench-gemm" \
  --benchmark_filter='^(cublas_(f16|bf16)_(f32|f16|bf16)|library_[^/]*)/|^epilogue_(library_.*|cublaslt_gelu_bias)/|^gemm_(f16|bf16)_(f16|bf16|f32)_(128x256x64_t384_s4_r8_div8_ws_tma(64|32)_persistent(_cm2)?|64x128x64_t256_s6_div8_ws|128x256x64_t384_s4_r8_bias_gelu_div8_ws(_tma64|_persistent))/' \
  --benchmark_out="$out/bench-gemm.json" --benchmark_out_format=json > "$out/bench.log" 2>&1
echo "bench rc=$? ($(( $(date +%s) - start )) s)"; grep -iE "error|skipped" "$out/bench.log" | head -5
bash scripts/gpu/hopper-gemm.sh summarize "$out/bench-gemm.json" > "$out/summary.md" 2>&1; cat "$out/summary.md"
