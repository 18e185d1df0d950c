# Three interleaved rounds of this project's D=128 128x64 attention kernels
# and SDPA FLASH at D=128 (batch 4, 32 heads, sequence 2048-16384), to see
# whether the points below 100% of FLASH are systematic or run-to-run spread.
export LD_LIBRARY_PATH=$PWD/gpu-bundle/lib TILE_KERNEL_DIR=$PWD/gpu-bundle/kernels
d=benchmarks/results/2026-11-30-h200-d128-repeat
for round in 1 2 3; do
  gpu-bundle/bin/tile-bench-attention \
    --benchmark_filter='^attention_(causal_)?(f16|bf16)_d128_128x64_t128_s2/(2048|4096|8192|16384)/' \
    --benchmark_out=$OUT/tile-$round.json --benchmark_out_format=json > /dev/null 2>&1
  python3 $d/flash_d128.py > $OUT/flash-$round.json 2>/dev/null
done
python3 $d/compare.py $OUT
