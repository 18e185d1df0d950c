#!/usr/bin/env bash
# Compile time (tile IR -> cubin, one process per kernel, nothing else
# running) of the slowest kernels, with and without the divisibility
# promise, three interleaved rounds; a fixed ptxas run before and after
# tells how fast the machine is at the time (its speed varies by about 40%
# over a day). Then every library kernel's compile_ms (two at a time).
# From the repository root after scripts/build.sh.
set -euo pipefail
b=build/bin; t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
gemm="--kernel=gemm --in-dtype=f16 --block-m=128 --block-n=128 --block-k=64 --stages=3 --num-threads=128"
$b/tile-kernels $gemm --out-dtype=f32 --emit=ptx -o "$t/probe.ptx"
probe() {
  /usr/bin/time -f "machine probe (ptxas -O3 on the 5002-line generic GEMM PTX): %e s" \
    /usr/local/cuda/bin/ptxas -arch=sm_90 -O3 "$t/probe.ptx" -o "$t/probe.cubin"
}
probe
configs=(
  "gemm f16->f32, any shape|$gemm --out-dtype=f32"
  "gemm f16->f32, _div8|$gemm --out-dtype=f32 --divisibility=8"
  "gemm + bias + GELU (erf), any shape|$gemm --out-dtype=f16 --epilogue=bias_gelu"
  "gemm + bias + GELU (erf), _div8|$gemm --out-dtype=f16 --epilogue=bias_gelu --divisibility=8"
  "attention causal f16 d128 128x64|--kernel=attention --causal --head-dim=128 --block-m=128 --block-n=64 --num-threads=128 --dtype=f16 --stages=2"
)
for round in 1 2 3; do
  for entry in "${configs[@]}"; do
    label=${entry%%|*}; args=${entry#*|}
    /usr/bin/time -f "%e s  $label" $b/tile-kernels $args --emit=cubin -o "$t/k.cubin"
  done
done 2>&1 | sort -k3 -s | awk '{print "  " $0}'
probe
$b/tile-kernels --out-dir="$t/lib" > /dev/null
echo -n "library: "
python3 "$(dirname "$0")/library-summary.py" "$t/lib/index.json" | head -11
probe
