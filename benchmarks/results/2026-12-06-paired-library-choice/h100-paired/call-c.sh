#!/usr/bin/env bash
# Session 38 (2026-12-06), call C: what the library gives a user, each pick
# timed alternately with its peer (peer, work, work, peer), three rounds
# over the whole library: rt::chooseGemm's pick for each shape and type
# pair against cuBLAS (fused bias + GELU: cuBLASLt's GELU_BIAS of the same
# input type), the pairing's control (cuBLAS against itself), the runtime's
# choice test, tile-profile of the 128x256 leader at 4096^3 and at
# 4224x4096x4096 (528 tiles: four whole waves of 132). Then an experiment:
# the fused tanh GELU in 2x1 clusters (exp-cm2/: that kernel before the
# unclustered one, float64 tests, three paired rounds).
set -u
cd "$(dirname "$0")/.."
b=$PWD/gpu-bundle; out=${OUT:-/tmp/out}; mkdir -p $out
export LD_LIBRARY_PATH=$b/lib:${LD_LIBRARY_PATH:-}
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv,noheader; cat $b/COMMIT; date -u; } | tee $out/gpu.txt
: > $out/summary-library.md
for r in 1 2 3; do
  s=$SECONDS
  TILE_KERNEL_DIR=$b/kernels timeout 150 $b/bin/tile-bench-gemm --benchmark_filter='^(cublas_(f16|bf16)_(f32|f16|bf16)|library_[^/]*|epilogue_library_.*|epilogue_cublaslt_gelu_bias.*|control_.*)/' --benchmark_out=$out/bench-library-r$r.json --benchmark_out_format=json > /tmp/bench-r$r.log 2>&1
  echo "round $r rc=$? ($((SECONDS-s)) s)"
  { echo "## Round $r"; echo; scripts/gpu/hopper-gemm.sh summarize $out/bench-library-r$r.json; echo; } >> $out/summary-library.md
done
grep -E "paired|control" $out/summary-library.md | grep -E "4096x4096x4096|8192x8192x8192|control" | cut -c1-160
s=$SECONDS
TILE_KERNEL_DIR=$b/kernels timeout 120 $b/bin/tile-gpu-tests --gtest_filter='GemmGpu.LibraryChoiceFallsBackWithTheReason' > $out/tests.log 2>&1
echo "choice rc=$? ($((SECONDS-s)) s)"; tail -1 $out/tests.log
: > $out/profile.txt
for shape in 4096x4096x4096 4224x4096x4096; do
  timeout 60 $b/bin/tile-profile --kernels=$b/kernels --kernel='^gemm_f16_f16_128x256x64_t384_s4_r8_(bias_gelu_tanh_)?div8_ws_tma64_persistent$' --shape=$shape --runs=50 >> $out/profile.txt 2>&1
done
grep -E "gemm_" $out/profile.txt
# The experiment.
s=$SECONDS
TILE_KERNEL_DIR=$b/exp-cm2 timeout 120 $b/bin/tile-gpu-tests --gtest_filter='GemmGpu.SmallAndOddShapesAreExactToRounding:GemmGpu.PersistentBlocksWalkSeveralTiles:GemmGpu.ContractBoundaries:GemmGpu.LargeShapesSampled' > /tmp/exp-tests.log 2>&1
echo "exp tests rc=$? ($((SECONDS-s)) s)"; grep -E "^\[  (PASSED|FAILED)|Failure" /tmp/exp-tests.log
{ echo; echo "== experiment exp-cm2: GemmGpu"; cat /tmp/exp-tests.log; } >> $out/tests.log
echo "## Experiment: fused tanh GELU in 2x1 clusters (exp-cm2)" >> $out/summary-library.md
for r in 1 2 3; do
  TILE_KERNEL_DIR=$b/exp-cm2 timeout 60 $b/bin/tile-bench-gemm --benchmark_filter='^(epilogue_library_gelu_tanh_.*|epilogue_paired_.*)/' --benchmark_out=/tmp/exp-r$r.json --benchmark_out_format=json > /tmp/exp-r$r.log 2>&1
  echo "exp round $r rc=$?"
  { echo "### Round $r"; echo; scripts/gpu/hopper-gemm.sh summarize /tmp/exp-r$r.json; echo; } >> $out/summary-library.md
done
python3 -c "
import json,sys
json.dump({'rounds':[json.load(open(f'/tmp/exp-r{r}.json')) for r in (1,2,3)]}, open('$out/bench-exp-cm2.json','w'), indent=1)"
sed -n '/## Experiment/,$p' $out/summary-library.md | grep "^| [0-9]" | cut -c1-200
