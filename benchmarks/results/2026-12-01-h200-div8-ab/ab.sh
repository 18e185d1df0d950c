#!/usr/bin/env bash
# ad hoc A/B: b5027b6 kernels (old, versioned) vs b4dff4d (_div8, ptxas -O3) vs the same PTX through ptxas -O2
b=gpu-bundle
export LD_LIBRARY_PATH=$b/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for round in 1 2; do
for d in kernels-old kernels kernels-o2; do
  echo "== round $round $d gemm 4096^3"
  TILE_KERNEL_DIR=$b/$d $b/bin/tile-profile --no-ceilings --runs=30 \
    --kernel='^gemm_f16_f(16|32)_(128x128x64_t128_s3|128x256x64_t256_s3_r8|256x128x64_t256_s3_r8)(_bias_gelu(_tanh)?)?(_div8)?$' \
    --shape=4096x4096x4096 2>&1 | grep -E "^gemm_|spill|local" | tee -a $OUT/$d-gemm.txt
  echo "== round $round $d attention 4x32x4096"
  TILE_KERNEL_DIR=$b/$d $b/bin/tile-profile --no-ceilings --runs=30 \
    --kernel='^attention_(causal_)?f16_d(64|128)_128x(64|128)_t128_s2$' \
    --shape=4x32x4096 2>&1 | grep -E "^attention_|local" | tee -a $OUT/$d-attention.txt
done
done
