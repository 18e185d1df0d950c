#!/usr/bin/env bash
# Session 37 (2026-12-06), H200: the ping-pong GEMM (consumers = 2) on the GPU:
# correctness (float64), sanitizers, fused bias + GELU against the cooperative
# persistent twins and cuBLASLt GELU_BIAS, plain against cuBLAS.
set -u
cd "$(dirname "$0")/.."
b=$PWD/gpu-bundle; out=${OUT:-/tmp/out}; mkdir -p $out
export LD_LIBRARY_PATH=$b/lib:${LD_LIBRARY_PATH:-}
budget=${1:-560}; t0=$SECONDS
left() { echo $(( budget - (SECONDS - t0) )); }
log=$out/run.log; : > $log
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv,noheader; cat $b/COMMIT; date -u; } | tee $out/gpu.txt
sub() { python3 scripts/gpu/kernel-subset.py "$1" $b/kernels "$2" > /dev/null; ls "$1" | grep -c cubin; }
echo "ping-pong kernels: $(sub /tmp/pp '_pingpong$')"
echo "f16 gelu ping-pong: $(sub /tmp/ppgelu '^gemm_f16_f16_128x128x64_t256_s5_r8_bias_gelu_div8_ws_tma64_persistent_pingpong$|^gemm_f16_f32_128x128x64_t256_s5_r8_div8_ws_tma32_persistent_pingpong$')"
s=$SECONDS
TILE_KERNEL_DIR=/tmp/pp timeout 170 $b/bin/tile-gpu-tests --gtest_filter='GemmGpu.SmallAndOddShapesAreExactToRounding:GemmGpu.PersistentBlocksWalkSeveralTiles:GemmGpu.ContractBoundaries:GemmGpu.LargeShapesSampled:BiasGeluGpu.*' > $out/tests.log 2>&1
echo "tests rc=$? ($((SECONDS-s)) s)"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[       OK|FAILED  \]|Failure|relative error" $out/tests.log | head -30
: > $out/sanitizer.log
for tool in memcheck racecheck synccheck; do
  s=$SECONDS
  TILE_KERNEL_DIR=/tmp/ppgelu timeout 75 compute-sanitizer --tool $tool $b/bin/tile-gpu-tests --gtest_filter='GemmGpu.SmallAndOddShapesAreExactToRounding' > /tmp/san-$tool.log 2>&1
  echo "$tool rc=$? ($((SECONDS-s)) s) $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|\[  PASSED|\[  FAILED|SKIPPED' /tmp/san-$tool.log | tr '\n' ' ')"
  cat /tmp/san-$tool.log >> $out/sanitizer.log
done
s=$SECONDS
TILE_KERNEL_DIR=$b/kernels timeout $(( $(left) / 2 )) $b/bin/tile-bench-gemm --benchmark_filter='^epilogue_(paired_(f16|bf16)_(f16|bf16)_128x(128x64_t256_s5|256x64_t384_s4)_r8_bias_gelu(_tanh)?_div8_ws_tma64_persistent(_pingpong)?|cublaslt_gelu_bias)/' --benchmark_out=$out/bench-epilogue.json --benchmark_out_format=json >> $log 2>&1
echo "epilogue bench rc=$? ($((SECONDS-s)) s)"
scripts/gpu/hopper-gemm.sh summarize $out/bench-epilogue.json | tail -n +3 | grep -v '^$' > $out/summary-epilogue.md; cat $out/summary-epilogue.md
s=$SECONDS
TILE_KERNEL_DIR=$b/kernels timeout $(( $(left) - 10 )) $b/bin/tile-bench-gemm --benchmark_filter='^(cublas_(f16|bf16)_(f32|f16|bf16)|gemm_(f16|bf16)_(f16|bf16|f32)_128x(128x64_t256_s5_r8_div8_ws_tma(32|64)_persistent_pingpong|256x64_t384_s4_r8_div8_ws_tma(32|64)_persistent))/(4096x4096x4096|8192x8192x8192|8192x8192x28672|4000x3000x4096)$' --benchmark_out=$out/bench-plain.json --benchmark_out_format=json >> $log 2>&1
echo "plain bench rc=$? ($((SECONDS-s)) s)"
scripts/gpu/hopper-gemm.sh summarize $out/bench-plain.json > $out/summary-plain.md; cat $out/summary-plain.md
python3 - $out/bench-plain.json <<'PY' | tee -a $out/summary-plain.md
import json, sys
rows = {}
for b in json.load(open(sys.argv[1]))["benchmarks"]:
    if b.get("aggregate_name") != "median" or "TFLOP/s" not in b: continue
    name, p = b["name"].split("/")[:2]
    rows.setdefault(p, {})[name] = b["TFLOP/s"] / 1e12
print("\n| shape | variant | TFLOP/s | ratio to cuBLAS |\n|---|---|---|---|")
for p, r in rows.items():
    for n, t in sorted(r.items()):
        if n.startswith("gemm_"):
            ty = "_".join(n.split("_")[1:3])
            base = r.get("cublas_" + ty)
            print(f"| {p} | {n} | {t:.0f} | {t/base:.3f}x |" if base else f"| {p} | {n} | {t:.0f} | - |")
PY
