#!/usr/bin/env bash
# What was tried for compile time and not kept: ptxas options on the
# unrolled 256x128 bias + GELU kernel (time, registers, spills), and two
# MLIR/LLVM pipeline variants on the causal D 128 attention kernel (time
# and whether the PTX changes). Best of 3 wall times. From the repository
# root after scripts/build.sh.
set -euo pipefail
b=build/bin; t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
ptxas=/usr/local/cuda/bin/ptxas
best() { for i in 1 2 3; do /usr/bin/time -f %e "$@" 2>&1 >/dev/null | tail -1; done | sort -n | head -1; }
$b/tile-kernels --kernel=gemm --in-dtype=f16 --block-m=256 --block-n=128 --block-k=64 \
  --stages=3 --num-threads=256 --raster-panel=8 --out-dtype=f16 --epilogue=bias_gelu \
  --divisibility=8 --emit=ptx -o "$t/gelu.ptx"
echo "ptxas on the unrolled 256x128 bias + GELU kernel:"
for opt in "-O3" "-O3 -split-compile 2" "-Ofc=min" "-O2"; do
  usage=$($ptxas -arch=sm_90 $opt -v "$t/gelu.ptx" -o "$t/g.cubin" 2>&1 |
    grep -o 'Used [0-9]* registers\|[0-9]* bytes spill stores' | tr '\n' ' ')
  printf '  %-22s %5s s  %s\n' "$opt" "$(best $ptxas -arch=sm_90 $opt "$t/gelu.ptx" -o "$t/g.cubin")" "$usage"
done
$b/tile-kernels --kernel=attention --causal --head-dim=128 --block-m=128 --block-n=64 \
  --num-threads=128 --dtype=f16 --stages=2 --emit=mlir -o "$t/att.mlir"
$b/tile-opt --tile-to-gpu "$t/att.mlir" -o "$t/att.gpu.mlir"
lower="convert-nvgpu-to-nvvm,convert-nvvm-to-llvm,convert-scf-to-cf,expand-strided-metadata,lower-affine"
gpu="convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=1},canonicalize,cse"
echo "attention causal f16 D 128 (tile-opt stage 2 + tile-translate --emit=ptx):"
for variant in "as shipped|3|$lower,$gpu" "canonicalize,cse before gpu-to-nvvm|3|$lower,canonicalize,cse,$gpu" "LLVM O2|2|$lower,$gpu"; do
  IFS='|' read -r label o passes <<< "$variant"
  pipeline="builtin.module(nvvm-attach-target{chip=sm_90 features=+ptx80 O=$o},gpu.module($passes),reconcile-unrealized-casts)"
  opt=$(best $b/tile-opt --pass-pipeline="$pipeline" "$t/att.gpu.mlir" -o "$t/a.nvvm")
  $b/tile-opt --pass-pipeline="$pipeline" "$t/att.gpu.mlir" -o "$t/a.nvvm"
  tr=$(best $b/tile-translate "$t/a.nvvm" --emit=ptx -o "$t/a.ptx")
  $b/tile-translate "$t/a.nvvm" --emit=ptx -o "$t/a.ptx"
  printf '  %-38s opt %5s s  translate %5s s  PTX md5 %s\n' "$label" "$opt" "$tr" "$(md5sum < "$t/a.ptx" | cut -c1-8)"
done
