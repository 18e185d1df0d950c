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
# cublas-kernels.txt: one row per benchmark (its kernel, launches, grid,
# cluster, registers, shared memory, median duration). This step ran
# afterwards on the development machine, on ncu-cublas-names.txt (7 MB, not
# kept); it is the same on either.
python3 - "$out/ncu-cublas-names.txt" > "$out/cublas-kernels.txt" <<'PY'
import re, statistics, sys
text = open(sys.argv[1]).read().splitlines()
bench = [m.group(1).split('/iterations')[0] for line in text
         if (m := re.match(r'^((cublas|epilogue)\S+)_median\s', line))]
runs, kern, info = [], None, {}
for line in text:
    m = re.match(r'^  (\S+) \((\d+), (\d+), (\d+)\)x\((\d+), 1, 1\)', line)
    if m:
        kern, info = m.group(1), {'grid': f"{m.group(2)}x{m.group(3)}x{m.group(4)}"}
        runs.append((kern, info))
        continue
    m = re.match(r'^\s+gpu__time_duration.sum\s+(\S+)\s+(\S+)$', line)
    if m and kern:
        info['us'] = float(m.group(2).replace(',', '')) * (1000 if m.group(1) == 'ms' else 1)
    m = re.match(r'^\s+(launch__\S+)\s+.*?(\S+)$', line)
    if m and kern:
        info[m.group(1)] = m.group(2)
groups = []
for k, i in runs:
    if groups and groups[-1][0] == k:
        groups[-1][2].append(i['us'])
    else:
        groups.append((k, i, [i['us']]))
print("# The cuBLAS / cuBLASLt kernels tile-bench-gemm runs on the H200 (2026-12-05, ncu --clock-control none,")
print("# one gpu__time_duration pass per launch; launches are serialized, so times are of the kernel alone).")
print("# One row per benchmark, in run order; kernel | launches | grid | cluster | registers | shared KB | median us")
for b, (k, i, t) in zip(bench, groups):
    print(f"{b} | {k} | {len(t)} | {i['grid']} | {i.get('launch__cluster_dim_x')}x{i.get('launch__cluster_dim_y')} | "
          f"{i.get('launch__registers_per_thread')} | {i.get('launch__shared_mem_per_block')} | {statistics.median(t):.1f}")
print(len(bench), len(groups))
PY
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
