#!/usr/bin/env bash
# Session 37 (2026-12-06), H200: why ping-pong 128x128 is slower: tile shape or schedule.
set -u
cd "$(dirname "$0")/.."
b=$PWD/gpu-bundle; out=${OUT:-/tmp/out}; mkdir -p $out
export LD_LIBRARY_PATH=$b/lib:${LD_LIBRARY_PATH:-}
log=$out/run.log; : > $log
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv,noheader; cat $b/COMMIT; date -u; } | tee $out/gpu.txt
python3 scripts/gpu/kernel-subset.py /tmp/exp $b/kernels '^gemm_f16_(f16|f32)_(64x256x64_t256_s[45]|128x128x64_t384_s5|128x128x64_t256_s4).*_persistent(_pingpong)?$' > /dev/null; ls /tmp/exp | grep -c cubin
python3 scripts/gpu/kernel-subset.py /tmp/tanh $b/kernels '^gemm_(f16_f16|bf16_bf16)_.*_bias_gelu_tanh' > /dev/null; ls /tmp/tanh | grep -c cubin
s=$SECONDS
TILE_KERNEL_DIR=/tmp/tanh timeout 150 $b/bin/tile-gpu-tests --gtest_filter='GemmGpu.SmallAndOddShapesAreExactToRounding:GemmGpu.ContractBoundaries:GemmGpu.LargeShapesSampled:LibraryGpu.GemmWithAFusedEpilogue' > $out/tests-tanh.log 2>&1
echo "tanh tests rc=$? ($((SECONDS-s)) s)"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED  \]|Failure|gelu_tanh.*relative error" $out/tests-tanh.log | head -40
s=$SECONDS
TILE_KERNEL_DIR=/tmp/exp timeout 100 $b/bin/tile-gpu-tests --gtest_filter='GemmGpu.SmallAndOddShapesAreExactToRounding:GemmGpu.PersistentBlocksWalkSeveralTiles:GemmGpu.ContractBoundaries' > $out/tests.log 2>&1
echo "tests rc=$? ($((SECONDS-s)) s)"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED  \]|Failure" $out/tests.log | head
V='(128x256x64_t384_s4|128x128x64_t256_s[45]|64x256x64_t256_s[45]|128x128x64_t384_s5)_r8'
s=$SECONDS
TILE_KERNEL_DIR=$b/kernels timeout 150 $b/bin/tile-bench-gemm --benchmark_filter="^epilogue_(paired_(f16_f16|bf16_bf16)_${V}_bias_gelu(_tanh)?_div8_ws_tma64_persistent(_pingpong)?|cublaslt_gelu_bias)/" --benchmark_out=$out/bench-epilogue.json --benchmark_out_format=json >> $log 2>&1
echo "epilogue bench rc=$? ($((SECONDS-s)) s)"
scripts/gpu/hopper-gemm.sh summarize $out/bench-epilogue.json | tail -n +3 | grep -v '^$'
s=$SECONDS
TILE_KERNEL_DIR=$b/kernels timeout 150 $b/bin/tile-bench-gemm --benchmark_filter="^(cublas_f16_(f32|f16)|gemm_f16_(f16|f32)_${V}_div8_ws_tma(32|64)_persistent(_pingpong)?)/(4096x4096x4096|8192x8192x8192)/" --benchmark_out=$out/bench-plain.json --benchmark_out_format=json >> $log 2>&1
echo "plain bench rc=$? ($((SECONDS-s)) s)"
python3 - $out/bench-plain.json <<'PY'
import json, sys
rows = {}
for b in json.load(open(sys.argv[1]))["benchmarks"]:
    if b.get("aggregate_name") != "median" or "TFLOP/s" not in b: continue
    name, p = b["name"].split("/")[:2]
    rows.setdefault(p, {})[name] = b["TFLOP/s"] / 1e12
for p, r in rows.items():
    for n, t in sorted(r.items()):
        if n.startswith("gemm_"):
            base = r.get("cublas_" + "_".join(n.split("_")[1:3]))
            print(f"| {p} | {n} | {t:.0f} | {t/base:.3f}x |" if base else f"| {p} | {n} | {t:.0f} | - |")
PY
s=$SECONDS
for k in 128x128x64_t256_s5_r8_div8_ws_tma64_persistent_pingpong 128x256x64_t384_s4_r8_div8_ws_tma64_persistent 64x256x64_t256_s4_r8_div8_ws_tma64_persistent_pingpong; do
  TILE_KERNEL_DIR=$b/kernels timeout 60 ncu -k regex:gemm_ --launch-skip 3 --launch-count 1 --section SpeedOfLight --section WarpStateStats --section SchedulerStats --metrics sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_tensor_op_gmma.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio \
    $b/bin/tile-bench-gemm --benchmark_filter="^gemm_f16_f16_$k/4096x4096x4096/" >> $out/ncu.txt 2>&1
  echo "ncu $k rc=$?"
done
echo "ncu ($((SECONDS-s)) s)"
grep -E "==PROF==|gemm_f16|Duration|gmma_cycles_active|Compute \(SM\) Throughput|Memory Throughput|Stall|Issued Warp|No Eligible|Warp Cycles Per Issued|barrier" $out/ncu.txt | head -80
