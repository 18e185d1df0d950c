#!/usr/bin/env bash
# Session 39 call B: ncu on (1) 16x8192x8192, ours (64x128 row tile) f16 and
# bf16 against cuBLAS; (2) 8192^3 plain against the fused tanh GELU (f16 C),
# with real clocks (--clock-control none) and locked ones (base). The
# bundle: scripts/gpu/run-gpu.sh prepare at 9b82a84.
set -u
cd "$(dirname "$0")/.."
b=$PWD/gpu-bundle; out=${OUT:-/tmp/out}; mkdir -p $out
export LD_LIBRARY_PATH=$b/lib:${LD_LIBRARY_PATH:-}
export TILE_KERNEL_DIR=$b/kernels
bench=$b/bin/tile-bench-gemm
m=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__cycles_elapsed.avg.per_second,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed_pipe_xu.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__cycles_active.avg,launch__grid_size
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv,noheader; cat $b/COMMIT; } > $out/ncu.txt
for cc in none base; do
 for f in 'gemm_f16_f32_64x128x64_t256_s6_div8_ws/16x8192x8192' 'gemm_bf16_f32_64x128x64_t256_s6_div8_ws/16x8192x8192' 'cublas_f16_f32/16x8192x8192' 'cublas_bf16_f32/16x8192x8192' \
          'gemm_f16_f16_128x256x64_t384_s4_r8_div8_ws_tma64_persistent/8192x8192x8192' 'gemm_f16_f16_128x256x64_t384_s4_r8_bias_gelu_tanh_div8_ws_tma64_persistent/8192x8192x8192' 'cublas_f16_f16/8192x8192x8192' 'epilogue_cublaslt_gelu_bias/8192x8192x8192'; do
  echo "### clock-control $cc: $f" >> $out/ncu.txt
  timeout 35 ncu --clock-control $cc --metrics $m --launch-skip 6 -c 2 "$bench" --benchmark_filter="^$f/" --benchmark_repetitions=1 --benchmark_min_time=0.01s 2>&1 | grep -E "^  [a-zA-Z_0-9]+.*\(|gpu__|dram__|sm__|smsp__|launch__|ERR|rror" >> $out/ncu.txt
 done
done
cat $out/ncu.txt | head -150
