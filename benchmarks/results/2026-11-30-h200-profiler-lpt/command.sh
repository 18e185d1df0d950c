set -u
export LD_LIBRARY_PATH=$PWD/gpu-bundle/lib TILE_KERNEL_DIR=$PWD/gpu-bundle/kernels
scripts/gpu/run-gpu.sh run profile 2>&1 | tail -90
echo "== tests"
gpu-bundle/bin/tile-gpu-tests --gtest_filter='AttentionGpu.*:OccupancyGpu.*' > $OUT/tests.log 2>&1; echo "tests rc=$?"
grep -E "^\[  |Failure|Expected|Which is|driver allows" $OUT/tests.log | grep -v "RUN\|       OK" | tail -20
echo "== bench"
gpu-bundle/bin/tile-bench-attention --benchmark_out=$OUT/bench-attention.json --benchmark_out_format=json > $OUT/bench.log 2>&1
{ echo '{"attention": '; python3 benchmarks/peers/attention_torch.py 2>>$OUT/bench.log || echo '{}'; echo '}'; } > $OUT/torch.json
python3 benchmarks/summarize.py --out $OUT --markdown /tmp/s.md 2>&1 | sed -n '/Attention forward/,$p'
echo "== walkthrough"
scripts/gpu/run-gpu.sh run walkthrough > $OUT/walk.log 2>&1; echo "walk rc=$?"
grep -A12 "== summary" $OUT/walk.log
grep -B1 -A12 "profile:" $OUT/walk.log | head -80
