#!/usr/bin/env bash
# Session 39 call E (final): the library's choice timed alternately with
# cuBLAS / cuBLASLt, three rounds (scripts/gpu/hopper-gemm.sh library);
# float64 tests and compute-sanitizer of the swap_ab kernels; the library's
# choice test over the whole library.
set -u
cd "$(dirname "$0")/.."
b=$PWD/gpu-bundle; out=${OUT:-/tmp/out}; mkdir -p $out
export LD_LIBRARY_PATH=$b/lib:${LD_LIBRARY_PATH:-}
tests=$b/bin/tile-gpu-tests
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv,noheader; cat $b/COMMIT; date -u; } | tee $out/gpu.txt
s=$SECONDS
OUT=$out timeout 220 scripts/gpu/hopper-gemm.sh library 3 > $out/library.log 2>&1
echo "library rc=$? ($((SECONDS-s)) s)"
{
s=$SECONDS
TILE_KERNEL_DIR=$b/smallm2/swapab timeout 120 $tests --gtest_filter='GemmGpu.*'
echo "tests swapab rc=$? ($((SECONDS-s)) s)"
TILE_KERNEL_DIR=$b/kernels timeout 90 $tests --gtest_filter='GemmGpu.LibraryChoiceFallsBackWithTheReason'
echo "choice test rc=$?"
for tool in memcheck racecheck synccheck; do
  TILE_KERNEL_DIR=$b/smallm2/swapab-f16 timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 $tests --gtest_filter='GemmGpu.SmallAndOddShapesAreExactToRounding'
  echo "$tool rc=$?"
done
} > $out/tests.log 2>&1
grep -E "rc=|^\[  (PASSED|FAILED|SKIPPED)|Failure|SUMMARY" $out/tests.log
