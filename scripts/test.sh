#!/usr/bin/env bash
# The README's test command: set up, build, and run every test with ctest
# (lit + FileCheck suites, GoogleTest units; GPU tests skip visibly without
# a GPU).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
build=${TILE_BUILD_DIR:-build}
# GPU tests read the kernels that tile-kernels compiles.
"$build/bin/tile-kernels" --out-dir="$build/kernels" > /dev/null
ctest --test-dir "$build" --output-on-failure -j 2
