#!/usr/bin/env bash
# The README's main job: set up, build, then walk the whole workflow
# (tile-walkthrough): compile the kernel library (tile IR -> PTX -> cubin +
# manifest) with compile times and kernel reports, and with a GPU check and
# time every section (vector add, GEMM + autotune, fused epilogue, softmax,
# attention); without one, say so and mark the GPU steps skipped.
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh || exit 1
scripts/build.sh || exit 1
build=${TILE_BUILD_DIR:-build}

# The walkthrough: each section compiles its kernels and shows what they
# got, then (with a GPU) checks them against float64 and times them; a
# failing section does not stop the others. Summary table last; JSON report
# in $build/walkthrough.json.
"$build/bin/tile-device-info" || true
exec "$build/bin/tile-walkthrough" --kernels="$build/kernels" \
  --report="$build/walkthrough.json"
