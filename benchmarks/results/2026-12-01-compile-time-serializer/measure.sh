#!/usr/bin/env bash
# The library's compile times (tile IR -> cubin in process, one kernel at a
# time, `tile-kernels --out-dir`), twice, with a fixed ptxas run before,
# between and after (the machine's speed varies by about 40% over a day).
# Per kernel: total and the three phases (MLIR lowering, LLVM -> PTX,
# ptxas). From the repository root after scripts/build.sh.
set -euo pipefail
b=build/bin; t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
$b/tile-kernels --kernel=gemm --in-dtype=f16 --block-k=64 --stages=3 \
  --block-m=128 --block-n=128 --num-threads=128 --out-dtype=f32 \
  --emit=ptx -o "$t/probe.ptx"
probe() {
  /usr/bin/time -f "machine probe (ptxas -O3 on the generic 128x128 GEMM PTX): %e s" \
    /usr/local/cuda/bin/ptxas -arch=sm_90 -O3 "$t/probe.ptx" -o "$t/probe.cubin"
}
for round in 1 2; do
  probe
  $b/tile-kernels --out-dir="$t/lib$round" | grep "^compile time"
  python3 - "$t/lib$round/index.json" <<'PY'
import json, sys
kernels = json.load(open(sys.argv[1]))["kernels"]
kernels.sort(key=lambda k: -k["compile_ms"])
total = {p: sum(k["compile_phases_ms"][p] for k in kernels) for p in ("lower", "llvm", "ptxas")}
print("  all kernels, s: mlir %.1f  llvm %.1f  ptxas %.1f" % tuple(total[p] / 1e3 for p in ("lower", "llvm", "ptxas")))
for k in kernels[:8]:
    p = k["compile_phases_ms"]
    print("  %6.0f ms (mlir %3.0f, llvm %3.0f, ptxas %3.0f)  %s" % (k["compile_ms"], p["lower"], p["llvm"], p["ptxas"], k["name"]))
PY
done
probe
