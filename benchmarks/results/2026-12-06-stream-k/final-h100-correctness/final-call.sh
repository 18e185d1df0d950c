#!/usr/bin/env bash
# Stop 40's final run (issue 18, stream-K in the library); copy it into
# gpu-bundle/ and run it there. On the bundle of
# `scripts/gpu/run-gpu.sh prepare` (slimmed: no .mlir/.ptx, no
# walkthrough), from gpu-bundle/:
#   1. GemmGpu on the six `_streamk` kernels: the stream-K chunks test,
#      persistent walks, small/odd shapes, contract boundaries, misuses,
#      large shapes sampled; then the library's choice over the whole
#      library (LibraryChoiceFallsBackWithTheReason);
#   2. compute-sanitizer memcheck / racecheck / synccheck on the two f16
#      ones (persistent walks: 2176^2 x 136, 21 tiles in 3 chunks), and
#      memcheck on the stream-K test;
#   3. scripts/gpu/hopper-gemm.sh library 3: the library's choice paired
#      with cuBLAS / cuBLASLt GELU_BIAS, three rounds.
set -u
cd "$(dirname "$0")"
b=$PWD; out=${OUT:-/tmp/out}; mkdir -p $out
export LD_LIBRARY_PATH=$b/lib:${LD_LIBRARY_PATH:-}
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv,noheader; cat $b/COMMIT; date -u; } | tee $out/gpu.txt
python3 ../scripts/gpu/kernel-subset.py /tmp/sk $b/kernels '_streamk$'
python3 ../scripts/gpu/kernel-subset.py /tmp/sk2 $b/kernels '^gemm_f16_f16_.*_streamk$'
TILE_KERNEL_DIR=/tmp/sk timeout 400 $b/bin/tile-gpu-tests --gtest_filter='GemmGpu.*:-GemmGpu.LibraryChoice*' > /tmp/t.log 2>&1; echo "streamk tests rc=$?"
TILE_KERNEL_DIR=$b/kernels timeout 300 $b/bin/tile-gpu-tests --gtest_filter='GemmGpu.LibraryChoiceFallsBackWithTheReason' > /tmp/c.log 2>&1; echo "choice rc=$?"
{ grep -E "^\[ +(OK|FAILED|SKIPPED|PASSED) |Failure|Expected|relative error" /tmp/t.log; grep -E "^\[ +(OK|FAILED|PASSED) |Failure|chose .*streamk" /tmp/c.log | head -40; } > $out/tests.txt
grep -E "^\[  (PASSED|FAILED)|Failure" /tmp/t.log /tmp/c.log | head
: > $out/sanitizer.txt
for tool in memcheck racecheck synccheck; do
  TILE_KERNEL_DIR=/tmp/sk2 timeout 200 compute-sanitizer --tool $tool $b/bin/tile-gpu-tests --gtest_filter='GemmGpu.PersistentBlocksWalkSeveralTiles' > /tmp/s.log 2>&1
  echo "$tool persistent walks rc=$?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|\[  PASSED|\[  FAILED|SKIPPED' /tmp/s.log | tr '\n' ' ')" | tee -a $out/sanitizer.txt
done
TILE_KERNEL_DIR=/tmp/sk2 timeout 300 compute-sanitizer --tool memcheck $b/bin/tile-gpu-tests --gtest_filter='GemmGpu.StreamK*' > /tmp/s.log 2>&1
echo "memcheck stream-K chunks rc=$?: $(grep -E 'ERROR SUMMARY|\[  PASSED|\[  FAILED|SKIPPED' /tmp/s.log | tr '\n' ' ')" | tee -a $out/sanitizer.txt
cd .. && OUT=$out scripts/gpu/hopper-gemm.sh library 3 > /tmp/lib.log 2>&1; echo "library rc=$?"
tail -60 $out/summary-library.md
