#!/usr/bin/env bash
# Configures (once) and builds everything into ${TILE_BUILD_DIR:-build}.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${TILE_BUILD_DIR:-build}
cuda=${CUDA_HOME:-/usr/local/cuda}
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S . -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    -DCUDAToolkit_ROOT="$cuda"
fi
ninja -C "$build" -j "${TILE_JOBS:-2}"
