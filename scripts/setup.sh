#!/usr/bin/env bash
# Installs what the build and the tests need, on Debian 12 with the CUDA
# toolkit. Idempotent: installs only what is missing.
set -euo pipefail

cuda=${CUDA_HOME:-/usr/local/cuda}
if [ ! -x "$cuda/bin/ptxas" ] || [ ! -f "$cuda/include/cuda.h" ]; then
  echo "setup: the CUDA toolkit was not found at $cuda (need bin/ptxas and" \
       "include/cuda.h). Install CUDA 13 or set CUDA_HOME." >&2
  exit 1
fi

# python3-matplotlib: the benchmark charts (benchmarks/plot.py).
packages=(cmake ninja-build ccache g++ python3 python3-matplotlib
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
  libgtest-dev libbenchmark-dev nlohmann-json3-dev libdlpack-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  if ! DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"; then
    echo "setup: apt-get could not install ${missing[*]}" >&2
    exit 1
  fi
fi
for tool in /usr/lib/llvm-22/bin/mlir-tblgen /usr/lib/llvm-22/bin/lit \
            /usr/lib/llvm-22/bin/FileCheck; do
  [ -x "$tool" ] || { echo "setup: $tool is missing" >&2; exit 1; }
done
echo "setup: ok (LLVM/MLIR 22, CUDA at $cuda)"
