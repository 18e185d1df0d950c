#!/usr/bin/env bash
# The README's main job: set up, build, compile the kernel library (tile IR
# -> PTX -> cubin + manifest) with a compile report, then run the kernels on
# the GPU when there is one (tests and benchmarks), or say clearly that there
# is none.
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh || exit 1
scripts/build.sh || exit 1
build=${TILE_BUILD_DIR:-build}
kernels=$build/kernels

echo "== compiling the kernel library into $kernels"
"$build/bin/tile-kernels" --out-dir="$kernels" || exit 1

echo "== GPU"
if ! "$build/bin/tile-device-info"; then
  echo "No GPU found: the kernels above were compiled to cubins; the GPU" \
       "sections (correctness and benchmarks) were skipped."
  exit 0
fi
status=0
TILE_KERNEL_DIR=$kernels "$build/bin/tile-gpu-tests" || status=1
for bench in tile-bench-vector-add tile-bench-gemm tile-bench-softmax; do
  [ -x "$build/bin/$bench" ] || continue
  TILE_KERNEL_DIR=$kernels "$build/bin/$bench" || status=1
done
exit $status
