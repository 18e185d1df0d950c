#!/usr/bin/env bash
# Compile time of the slowest kernels, alone and by stage (2-core machine,
# nothing else running). From the repository root after scripts/build.sh.
set -euo pipefail
b=build/bin; t=$(mktemp -d)
gemm="--kernel=gemm --in-dtype=f16 --block-m=128 --block-n=128 --block-k=64 --stages=3 --num-threads=128"
for args in "$gemm --out-dtype=f32" "$gemm --out-dtype=f16 --epilogue=bias_gelu"; do
  echo "== tile-kernels $args"
  /usr/bin/time -f "whole compile, tile IR -> cubin (one process): %e s" \
    $b/tile-kernels $args --emit=cubin -o $t/k.cubin
  $b/tile-kernels $args --emit=mlir -o $t/k.mlir
  $b/tile-opt --tile-to-nvvm --mlir-timing $t/k.mlir -o $t/k.nvvm.mlir 2>&1 |
    grep -E "Total Execution Time" | sed 's/^ */MLIR lowering (tile-opt --tile-to-nvvm): /'
  /usr/bin/time -f "LLVM: NVVM IR -> PTX (tile-translate, incl. parsing): %e s" \
    $b/tile-translate $t/k.nvvm.mlir --emit=ptx -o $t/k.ptx
  /usr/bin/time -f "ptxas -O3: %e s" /usr/local/cuda/bin/ptxas -arch=sm_90 -O3 $t/k.ptx -o $t/k2.cubin
  echo "PTX lines: $(wc -l < $t/k.ptx)"
done
rm -rf "$t"
