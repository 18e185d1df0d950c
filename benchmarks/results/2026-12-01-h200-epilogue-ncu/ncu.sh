#!/usr/bin/env bash
# Why the staged epilogue costs more than the unrolled one with 256 threads:
# Nsight Compute on one launch (4096^3) of the plain, unrolled-fused and
# staged-fused GEMMs of both 256-thread tiles, then CUDA-event times of the
# same kernels (tile-profile, 3 interleaved rounds). Run from the repository
# root on the GPU machine with gpu-bundle/ carried.
set -u
b=gpu-bundle
export LD_LIBRARY_PATH=$b/lib:${LD_LIBRARY_PATH:-}
export TILE_KERNEL_DIR=$b/kernels
out=${OUT:-gpu-results}; mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
kernels=(
  gemm_f16_f16_256x128x64_t256_s3_r8_div8
  gemm_f16_f16_256x128x64_t256_s3_r8_bias_gelu_div8
  gemm_f16_f16_256x128x64_t256_s3_r8_bias_gelu_staged_div8
  gemm_f16_f16_128x256x64_t256_s3_r8_div8
  gemm_f16_f16_128x256x64_t256_s3_r8_bias_gelu_div8
  gemm_f16_f16_128x256x64_t256_s3_r8_bias_gelu_staged_div8
)
for k in "${kernels[@]}"; do
  ncu --clock-control none -k "regex:^$k\$" --launch-skip 3 --launch-count 1 \
    --section SpeedOfLight --section ComputeWorkloadAnalysis \
    --section MemoryWorkloadAnalysis_Tables --section WarpStateStats \
    --section SchedulerStats --section InstructionStats --section SourceCounters \
    --metrics smsp__inst_executed.sum,smsp__inst_executed_pipe_lsu.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__cycles_active.avg,sm__cycles_elapsed.max \
    $b/bin/tile-profile --no-ceilings --runs=2 --warmup=2 --kernel="^$k\$" \
    --shape=4096x4096x4096 > "$out/ncu-$k.txt" 2>&1
  echo "== $k: $(grep -E 'Duration|smsp__inst_executed.sum |bank_conflicts' "$out/ncu-$k.txt" | tr -s ' ' | tr '\n' ';')"
done
for round in 1 2 3; do
  $b/bin/tile-profile --no-ceilings --runs=30 \
    --kernel='^gemm_f16_f16_(256x128|128x256)x64_t256_s3_r8(_bias_gelu(_staged)?)?_div8$' \
    --shape=4096x4096x4096 2>&1 | grep -E "^gemm_" | tee -a "$out/times.txt"
done
