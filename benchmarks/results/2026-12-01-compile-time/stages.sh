#!/usr/bin/env bash
# Where a kernel's compile time goes: MLIR lowering (tile-opt --tile-to-nvvm
# --mlir-timing, without printing), LLVM (tile-translate --emit=ptx minus
# parsing its input) and ptxas -O3, for the kernels that take longest; the
# machine probe of measure.sh before and after. From the repository root
# after scripts/build.sh.
set -euo pipefail
b=build/bin; t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
ptxas=/usr/local/cuda/bin/ptxas
gemm="--kernel=gemm --in-dtype=f16 --block-m=128 --block-n=128 --block-k=64 --stages=3 --num-threads=128"
$b/tile-kernels $gemm --out-dtype=f32 --emit=ptx -o "$t/probe.ptx"
secs() { /usr/bin/time -f %e "$@" 2>&1 >/dev/null | tail -1; }
minus() { awk -v a="$1" -v b="$2" 'BEGIN { print a - b }'; }
probe() { echo "machine probe: $(secs $ptxas -arch=sm_90 -O3 "$t/probe.ptx" -o "$t/p.cubin") s"; }
probe
printf '%-44s %7s %7s %7s %9s\n' kernel "MLIR s" "LLVM s" "ptxas s" "PTX lines"
while IFS='|' read -r label args; do
  $b/tile-kernels $args --emit=mlir -o "$t/k.mlir"
  timing=$($b/tile-opt --tile-to-nvvm --mlir-timing "$t/k.mlir" -o "$t/k.nvvm.mlir" 2>&1)
  total=$(echo "$timing" | awk '/Total Execution Time/ {print $4}')
  output=$(echo "$timing" | awk '/ Output$/ {print $1}')
  translate=$(secs $b/tile-translate "$t/k.nvvm.mlir" --emit=ptx -o "$t/k.ptx")
  parse=$(secs $b/tile-opt "$t/k.nvvm.mlir" -o /dev/null)
  ptx=$(secs $ptxas -arch=sm_90 -O3 "$t/k.ptx" -o "$t/k.cubin")
  printf '%-44s %7.2f %7.2f %7.2f %9d\n' "$label" "$(minus "$total" "$output")" \
    "$(minus "$translate" "$parse")" "$ptx" "$(wc -l < "$t/k.ptx")"
done <<EOF2
GEMM 128x128x64 f16 -> f32 _div8|$gemm --out-dtype=f32 --divisibility=8
same + bias + GELU (erf) _div8|$gemm --out-dtype=f16 --epilogue=bias_gelu --divisibility=8
attention causal f16 D 128, 128x64|--kernel=attention --causal --head-dim=128 --block-m=128 --block-n=64 --num-threads=128 --dtype=f16 --stages=2
EOF2
probe
