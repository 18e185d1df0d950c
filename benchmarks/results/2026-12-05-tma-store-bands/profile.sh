#!/usr/bin/env bash
# Exploratory: which kernels cuBLAS runs, and ncu of the leading ones at 4096^3.
set -u
cd "$(dirname "$0")/../../.."  # the repository root
bundle=$PWD/gpu-bundle
out=${OUT:-$PWD/gpu-results}
mkdir -p "$out"
export LD_LIBRARY_PATH="$bundle/lib:${LD_LIBRARY_PATH:-}"
export TILE_KERNEL_DIR=$bundle/kernels
bench=$bundle/bin/tile-bench-gemm
start=$(date +%s)
timeout 150 ncu --clock-control none --metrics gpu__time_duration.sum,launch__grid_size,launch__cluster_dim_x,launch__cluster_dim_y,launch__registers_per_thread,launch__shared_mem_per_block \
  "$bench" --benchmark_filter='^cublas_[^/]*/(4096x4096x4096|4000x3000x4096|8192x8192x8192|64x8192x8192)/|^epilogue_cublaslt_gelu_bias/4096' > "$out/ncu-cublas-names.txt" 2>&1
echo "names rc=$? $(( $(date +%s) - start )) s"
grep -E '^  [a-zA-Z_].*\(|^ *launch__|^ *gpu__time' "$out/ncu-cublas-names.txt" | awk 'NR<=2000' | python3 -c '
import sys, collections
seen = collections.OrderedDict()
name = None
for line in sys.stdin:
    s = line.strip()
    if "(" in s and not s.startswith(("launch__","gpu__")):
        name = s.split("(")[0]
        seen.setdefault(name, [])
    elif name:
        seen[name].append(s)
for n, v in seen.items():
    print(n); print("   ", " | ".join(" ".join(x.split()) for x in v[:7]))
'
prof() {
  local label=$1 kregex=$2 filter=$3
  start=$(date +%s)
  timeout 120 ncu --clock-control none --set detailed --section WarpStateStats --section SchedulerStats \
    -k "regex:$kregex" --launch-skip 3 -c 1 "$bench" --benchmark_filter="$filter" > "$out/ncu-$label.txt" 2>&1
  echo "$label rc=$? $(( $(date +%s) - start )) s"
}
prof cublas-f16f16-4096 'sm90|cutlass|gemm' '^cublas_f16_f16/4096x4096x4096/'
prof tma64p-f16f16-4096 'tma64_persistent' '^gemm_f16_f16_128x256x64_t384_s4_r8_div8_ws_tma64_persistent/4096x4096x4096/'
prof cublas-f16f32-4096 'sm90|cutlass|gemm' '^cublas_f16_f32/4096x4096x4096/'
prof s4-f16f32-4096 'div8_ws$' '^gemm_f16_f32_128x256x64_t384_s4_r8_div8_ws/4096x4096x4096/'
