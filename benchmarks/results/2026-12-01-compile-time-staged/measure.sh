#!/usr/bin/env bash
# Compile time (tile IR -> cubin, one process per kernel, nothing else
# running) of the fused bias + GELU GEMMs with the unrolled and the staged
# epilogue, and of the heaviest attention kernel, three interleaved rounds;
# a fixed ptxas run before, between and after tells how fast the machine is
# at the time (its speed varies by about 40% over a day). Then every
# library kernel's compile_ms (`tile-kernels --out-dir`, two at a time).
# From the repository root after scripts/build.sh.
set -euo pipefail
here=$(dirname "$0")
b=build/bin; t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
gemm="--kernel=gemm --in-dtype=f16 --block-k=64 --stages=3 --divisibility=8"
$b/tile-kernels $gemm --block-m=128 --block-n=128 --num-threads=128 \
  --out-dtype=f32 --divisibility=1 --emit=ptx -o "$t/probe.ptx"
probe() {
  /usr/bin/time -f "machine probe (ptxas -O3 on the 5002-line generic GEMM PTX): %e s" \
    /usr/local/cuda/bin/ptxas -arch=sm_90 -O3 "$t/probe.ptx" -o "$t/probe.cubin"
}
probe
small="--block-m=128 --block-n=128 --num-threads=128"
large="--block-m=256 --block-n=128 --num-threads=256 --raster-panel=8"
configs=(
  "a 128x128 t128 GEMM f16->f16|$gemm $small --out-dtype=f16"
  "b 128x128 t128 + bias + GELU, unrolled|$gemm $small --out-dtype=f16 --epilogue=bias_gelu"
  "c 128x128 t128 + bias + GELU, staged|$gemm $small --out-dtype=f16 --epilogue=bias_gelu --staged-epilogue"
  "d 256x128 t256 + bias + GELU, unrolled|$gemm $large --out-dtype=f16 --epilogue=bias_gelu"
  "e 256x128 t256 + bias + GELU, staged|$gemm $large --out-dtype=f16 --epilogue=bias_gelu --staged-epilogue"
  "f attention causal f16 d128 128x64|--kernel=attention --causal --head-dim=128 --block-m=128 --block-n=64 --num-threads=128 --dtype=f16 --stages=2"
)
for round in 1 2 3; do
  for entry in "${configs[@]}"; do
    label=${entry%%|*}; args=${entry#*|}
    /usr/bin/time -f "%e s  $label" $b/tile-kernels $args --emit=cubin -o "$t/k.cubin"
  done
  if [ $round = 2 ]; then probe; fi
done 2>&1 | sort -k3 -s | awk '{print "  " $0}'
probe
$b/tile-kernels --out-dir="$t/lib" > /dev/null
echo -n "library: "
python3 "$here/../2026-12-01-compile-time/library-summary.py" "$t/lib/index.json" > "$t/library.txt"
head -16 "$t/library.txt"
probe
