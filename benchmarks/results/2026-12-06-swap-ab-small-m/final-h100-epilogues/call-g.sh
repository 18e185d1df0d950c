#!/usr/bin/env bash
# Session 39 call G (commit fd9533a): the 16 swap_ab kernels with an
# epilogue. Float64 tests (odd and small shapes, contract boundaries,
# sampled large shapes), compute-sanitizer on two, the library's choice
# test; then one round of the library's choice at 16x8192x8192 timed
# alternately with cuBLAS and cuBLASLt GELU_BIAS.
set -u
cd "$(dirname "$0")/.."
b=$PWD/gpu-bundle; out=${OUT:-/tmp/out}; mkdir -p $out
export LD_LIBRARY_PATH=$b/lib:${LD_LIBRARY_PATH:-}
tests=$b/bin/tile-gpu-tests
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv,noheader; cat $b/COMMIT; date -u; } | tee $out/gpu.txt
{
s=$SECONDS
TILE_KERNEL_DIR=$b/smallm2/swapab-new timeout 100 $tests --gtest_filter='GemmGpu.SmallAndOddShapesAreExactToRounding:GemmGpu.ContractBoundaries:GemmGpu.LargeShapesSampled'
echo "tests swapab epilogues rc=$? ($((SECONDS-s)) s)"
TILE_KERNEL_DIR=$b/kernels timeout 60 $tests --gtest_filter='GemmGpu.LibraryChoiceFallsBackWithTheReason'
echo "choice test rc=$?"
for tool in memcheck racecheck synccheck; do
  TILE_KERNEL_DIR=$b/smallm2/swapab-epi timeout 40 compute-sanitizer --tool $tool --error-exitcode 9 $tests --gtest_filter='GemmGpu.SmallAndOddShapesAreExactToRounding'
  echo "$tool rc=$?"
done
} > $out/tests.log 2>&1
grep -E "rc=|^\[  (PASSED|FAILED|SKIPPED)|Failure|SUMMARY" $out/tests.log
grep -E "16x512x256" $out/tests.log | grep -E "NN (bias|none)" | head -10
TILE_KERNEL_DIR=$b/kernels timeout 40 $b/bin/tile-bench-gemm --benchmark_filter='^(library_[^/]*|control_[^/]*|epilogue_library_.*)/16x8192x8192/' --benchmark_out=$out/bench-16rows.json --benchmark_out_format=json > /tmp/b.log 2>&1
echo "bench rc=$?"
scripts/gpu/hopper-gemm.sh summarize $out/bench-16rows.json | tee $out/summary-16rows.md | grep -E "16x8192|GELU|Pairing" | cut -c1-220
