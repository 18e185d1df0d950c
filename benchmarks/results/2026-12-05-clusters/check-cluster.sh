#!/usr/bin/env bash
# Session check (2026-12-05, stop 33): 2x1 thread-block clusters with TMA
# multicast of B (`_cm2`) on the H200 -- GemmGpu over every _cm2 variant,
# compute-sanitizer on the f16 128x256 ones, and speed against their
# un-clustered twins and cuBLAS/cuBLASLt in the same process.
set -u
cd "$(dirname "$0")/.."  # the repository root when run from gpu-bundle/ (copy it there)
bundle=$PWD/gpu-bundle
out=${OUT:-$PWD/gpu-results}
mkdir -p "$out"
export LD_LIBRARY_PATH="$bundle/lib:${LD_LIBRARY_PATH:-}"
subset() { python3 scripts/gpu/kernel-subset.py "$1" "$bundle/kernels" "$2"; }
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv | tee "$out/gpu.txt"
cm2=/tmp/k-cm2; f16cm2=/tmp/k-f16cm2; bench=/tmp/k-bench
subset $cm2 '_cm2$'
subset $f16cm2 '^gemm_f16_(f16|f32)_128x256x64_.*_cm2$'
subset $bench '^gemm_(f16|bf16)_(f16|bf16|f32)_128x256x64_t384_s4_r8_div8_ws_tma(64|32)_persistent(_cm2)?$|^gemm_(f16|bf16)_(f16|bf16)_256x128x64_t640_s4_r8_div8_ws_tma32_persistent(_cm2)?$|^gemm_(f16|bf16)_(f16|bf16)_128x256x64_t384_s4_r8_bias_gelu_div8_ws(_tma64|_persistent|_persistent_cm2)$'
step=${1:-all}
# SASS: what the cluster arrival compiles to (a cluster-scope release was a
# MEMBAR in front of every stage's release).
for k in gemm_f16_f16_128x256x64_t384_s4_r8_div8_ws_tma64_persistent_cm2 gemm_f16_f16_128x256x64_t384_s4_r8_div8_ws_tma64_persistent; do
  cuobjdump -sass "$bundle/kernels/$k.cubin" > /tmp/$k.sass 2>&1
  echo "$k: MEMBAR $(grep -c MEMBAR /tmp/$k.sass), SYNCS.ARRIVE $(grep -c 'SYNCS.ARRIVE' /tmp/$k.sass)"
  grep -E "MEMBAR|SYNCS.ARRIVE" /tmp/$k.sass | sed 's/^ *//' | sort | uniq -c | head -8
done | tee "$out/sass.txt"
if [ "$step" != bench ]; then
start=$(date +%s)
TILE_KERNEL_DIR=$cm2 timeout 130 "$bundle/bin/tile-gpu-tests" --gtest_filter='GemmGpu.*' \
  --gtest_output=json:"$out/gemm-tests.json" > "$out/gemm-tests.log" 2>&1
echo "GemmGpu rc=$? ($(( $(date +%s) - start )) s)"; grep -E "FAILED|Failure|error" "$out/gemm-tests.log" | head -20; tail -4 "$out/gemm-tests.log"
: > "$out/sanitizer.log"
for tool in memcheck racecheck synccheck; do
  start=$(date +%s)
  TILE_KERNEL_DIR=$f16cm2 timeout 50 compute-sanitizer --tool "$tool" \
    "$bundle/bin/tile-gpu-tests" --gtest_filter='GemmGpu.SmallAndOddShapesAreExactToRounding' \
    > /tmp/san-$tool.log 2>&1
  echo "$tool rc=$? ($(( $(date +%s) - start )) s): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|\[  PASSED|\[  FAILED|SKIPPED' /tmp/san-$tool.log | tr '\n' ' ')"
  cat /tmp/san-$tool.log >> "$out/sanitizer.log"
done
fi
if [ "$step" != tests ]; then
start=$(date +%s)
TILE_KERNEL_DIR=$bench timeout ${BENCH_TIMEOUT:-300} "$bundle/bin/tile-bench-gemm" \
  --benchmark_filter="${BENCH_FILTER:-^(cublas|gemm)_[^/]*/(4096x4096x4096|8192x8192x8192|4096x1024x8192|4000x3000x4096|8192x8192x28672)/|^epilogue_(paired_.*_ws.*|cublaslt_gelu_bias)/}" \
  --benchmark_out="$out/bench-gemm.json" --benchmark_out_format=json > "$out/bench.log" 2>&1
echo "bench rc=$? ($(( $(date +%s) - start )) s)"
python3 - "$out/bench-gemm.json" <<'PY'
import json, sys, collections
rows = collections.defaultdict(dict)
for b in json.load(open(sys.argv[1]))["benchmarks"]:
    if b.get("aggregate_name") != "median":
        continue
    name, problem = b["name"].split("/")[:2]
    rows[problem][name] = b.get("TFLOP/s", 0) / 1e12 if "TFLOP/s" in b else b["real_time"]
for problem, r in rows.items():
    print("==", problem)
    for name, v in sorted(r.items()):
        print(f"  {v:9.1f}  {name}")
PY
fi
