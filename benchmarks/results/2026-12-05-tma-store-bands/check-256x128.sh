#!/usr/bin/env bash
# Exploratory 2: the library's new order on the GPU; 256x128 t640 sm_90a candidates (4 compute
# warpgroups: cuBLAS's tile at 4000x3000x4096) against float64 and timed beside the 128x256 leaders.
set -u
cd "$(dirname "$0")/../../.."  # the repository root
bundle=$PWD/gpu-bundle
out=${OUT:-$PWD/gpu-results}
mkdir -p "$out"
export LD_LIBRARY_PATH="$bundle/lib:${LD_LIBRARY_PATH:-}"
export TILE_COOKBOOK_KERNEL_DIR=$bundle/cookbook-kernels
bench=$bundle/bin/tile-bench-gemm
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv | tee "$out/gpu.txt"
merged=/tmp/k-exp
rm -rf $merged $merged-only && mkdir -p $merged
python3 - $merged "$bundle/kernels" "$bundle"/exp/* <<'PY'
import json, os, re, sys
out, lib, exps = sys.argv[1], sys.argv[2], sys.argv[3:]
keep = re.compile(r'^gemm_(f16|bf16)_(f16|bf16|f32)_128x256x64_t384_s4_r8_div8_ws(_persistent|_tma(64|32)_persistent)?$')
entries = []
def add(d, e):
    for key in ("cubin", "manifest", "ptx"):
        if key in e and not os.path.exists(os.path.join(out, e[key])):
            os.symlink(os.path.join(d, e[key]), os.path.join(out, e[key]))
    entries.append(e)
base = json.load(open(os.path.join(lib, "index.json")))
for e in base["kernels"]:
    if keep.search(e["name"]): add(lib, e)
for d in exps:
    for e in json.load(open(os.path.join(d, "index.json")))["kernels"]: add(d, e)
base["kernels"] = entries
json.dump(base, open(os.path.join(out, "index.json"), "w"), indent=1)
only = out + "-only"
os.makedirs(only, exist_ok=True)
for e in entries:
    if "t640" in e["name"]:
        for key in ("cubin", "manifest", "ptx"):
            if key in e and not os.path.exists(os.path.join(only, e[key])):
                os.symlink(os.path.realpath(os.path.join(out, e[key])), os.path.join(only, e[key]))
json.dump(dict(base, kernels=[e for e in entries if "t640" in e["name"]]), open(os.path.join(only, "index.json"), "w"), indent=1)
print(len(entries), "variants:", " ".join(e["name"] for e in entries))
PY
start=$(date +%s)
TILE_KERNEL_DIR=$merged-only timeout 100 "$bundle/bin/tile-gpu-tests" --gtest_filter='GemmGpu.SmallAndOddShapesAreExactToRounding:GemmGpu.LargeShapesSampled' \
  --gtest_output=json:"$out/exp-tests.json" > "$out/exp-tests.log" 2>&1
echo "exp tests rc=$? $(( $(date +%s) - start )) s"; grep -E "^\[ +(OK|FAILED)|PASSED|FAILED" "$out/exp-tests.log" | tail -6
for s in racecheck; do
  TILE_KERNEL_DIR=$merged-only timeout 40 compute-sanitizer --tool $s "$bundle/bin/tile-gpu-tests" --gtest_filter='GemmGpu.SmallAndOddShapesAreExactToRounding' > /tmp/san-$s.log 2>&1
  echo "$s rc=$?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|\[  PASSED|\[  FAILED' /tmp/san-$s.log | tr '\n' ' ')"; cat /tmp/san-$s.log >> "$out/exp-sanitizer.log"
done
start=$(date +%s)
TILE_KERNEL_DIR=$merged timeout 110 "$bench" --benchmark_filter='^(cublas_(f16|bf16)_(f16|bf16|f32)|gemm_[^/]*)/(4096x4096x4096|4000x3000x4096|8192x8192x8192)/' \
  --benchmark_out="$out/bench-exp.json" --benchmark_out_format=json > "$out/bench-exp.log" 2>&1
echo "bench rc=$? $(( $(date +%s) - start )) s"
