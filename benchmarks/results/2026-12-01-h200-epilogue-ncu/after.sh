#!/usr/bin/env bash
# After #tile.swizzle<staging> (library fused GEMMs staged only): the GPU
# tests, Nsight Compute's shared-memory bank conflicts of the staged
# 256-thread kernels, and CUDA-event times of the same kernels as ncu.sh
# (tile-profile, 3 interleaved rounds). Repository root, gpu-bundle/ carried.
set -u
b=gpu-bundle
export LD_LIBRARY_PATH=$b/lib:${LD_LIBRARY_PATH:-}
export TILE_KERNEL_DIR=$b/kernels
out=${OUT:-gpu-results}; mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
scripts/gpu/run-gpu.sh run tests > "$out/tests.txt" 2>&1
echo "tests rc=$? ; $(grep -E "passed|PASSED|FAILED|failed" "$out/tests.txt" | tail -12 | tr '\n' ';')"
for k in gemm_f16_f16_256x128x64_t256_s3_r8_bias_gelu_staged_div8 \
         gemm_f16_f16_128x256x64_t256_s3_r8_bias_gelu_staged_div8 \
         gemm_f16_f16_128x128x64_t128_s3_bias_gelu_staged_div8; do
  ncu --clock-control none -k "regex:^$k\$" --launch-skip 3 --launch-count 1 \
    --metrics smsp__inst_executed.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,gpu__time_duration.sum \
    $b/bin/tile-profile --no-ceilings --runs=2 --warmup=2 --kernel="^$k\$" \
    --shape=4096x4096x4096 > "$out/ncu-$k.txt" 2>&1
  echo "== $k: $(grep -E 'smsp__inst|bank_conflicts|wavefronts|duration' "$out/ncu-$k.txt" | tr -s ' ' | tr '\n' ';')"
done
for round in 1 2 3; do
  $b/bin/tile-profile --no-ceilings --runs=30 \
    --kernel='^gemm_f16_f16_((256x128|128x256)x64_t256_s3_r8|128x128x64_t128_s3)(_bias_gelu(_tanh)?_staged)?_div8$' \
    --shape=4096x4096x4096 2>&1 | grep -E "^gemm_" | tee -a "$out/times.txt"
  $b/bin/tile-profile --no-ceilings --runs=10 \
    --kernel='^gemm_f16_f16_((256x128|128x256)x64_t256_s3_r8|128x128x64_t128_s3)(_bias_gelu_staged)?_div8$' \
    --shape=8192x8192x8192 2>&1 | grep -E "^gemm_" | tee -a "$out/times-8192.txt"
done
