#!/usr/bin/env bash
# Where the GEMM's time goes: the default GEMM kernels next to copies of them
# without their global -> shared copies ("noload": the loop only runs
# ldmatrix + mma.sync on whatever shared memory holds), timed against
# cuBLAS, their SASS, and ncu's tensor-pipe, issue and shared-memory
# counters. Results of one run: benchmarks/results/2026-11-30-h200-diagnosis.
#
#   scripts/gpu/run-gpu.sh prepare && scripts/gpu/diagnose-gemm.sh prepare
#   scripts/gpu/diagnose-gemm.sh run      # on the GPU machine (gpu-bundle/)
set -euo pipefail
cd "$(dirname "$0")/../.."
bundle=$PWD/gpu-bundle
dir=$bundle/diagnosis
kernels="gemm_f16_f32_128x256x64_t256_s3_r8 gemm_f16_f32_128x128x64_t128_s3_r8"

prepare() {
  build=${TILE_BUILD_DIR:-$PWD/build}
  rm -rf "$dir" && mkdir -p "$dir"
  for name in $kernels; do
    cp "$bundle/kernels/$name".{mlir,cubin,manifest.json} "$dir/"
    # The same kernel without the copies of A and B (and so without a loop
    # to pipeline).
    sed -e "s/@$name(/@${name}_noload(/" -e '/tile.copy %[AB]\[/d' \
        -e 's/ {tile.num_stages = [0-9]* : i64}//' \
        "$dir/$name.mlir" > "$dir/${name}_noload.mlir"
    "$build/bin/tile-translate" --chip=sm_90 --emit=cubin \
      "$dir/${name}_noload.mlir" -o "$dir/${name}_noload.cubin" \
      --manifest-out="$dir/${name}_noload.manifest.json"
  done
  python3 - "$dir" "$bundle/kernels/index.json" $kernels <<'PY'
import json, sys
out, index, names = sys.argv[1], json.load(open(sys.argv[2])), sys.argv[3:]
entries = []
for entry in index["kernels"]:
    if entry["name"] in names:
        for suffix in ("", "_noload"):
            e = dict(entry, name=entry["name"] + suffix)
            e.update(cubin=e["name"] + ".cubin",
                     manifest=e["name"] + ".manifest.json")
            entries.append(e)
json.dump({"format": "tile-kernel-index", "kernels": entries},
          open(out + "/index.json", "w"), indent=1)
PY
  echo "diagnosis kernels ready in $dir"
}

run() {
  out=${OUT:-$PWD/gpu-results}
  mkdir -p "$out"
  export LD_LIBRARY_PATH="$bundle/lib:${LD_LIBRARY_PATH:-}"
  export TILE_KERNEL_DIR=$dir
  bench=$bundle/bin/tile-bench-gemm
  for name in $kernels; do
    cuobjdump -sass "$dir/$name.cubin" > "$out/$name.sass" || true
  done
  "$bench" --benchmark_filter='(cublas_f16_f32|gemm_)[^/]*/(4096x4096x4096|8192x8192x8192)' \
    | grep -E 'median|device'
  metrics=sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active
  metrics+=,smsp__issue_active.avg.pct_of_peak_sustained_active
  metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared.avg.pct_of_peak_sustained_elapsed
  metrics+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
  metrics+=,smsp__inst_executed.sum,smsp__cycles_active.avg
  for name in $kernels "${kernels%% *}_noload"; do
    timeout 200 ncu --clock-control none --metrics "$metrics" \
      --section WarpStateStats --section SpeedOfLight -k "regex:^$name\$" -c 1 \
      "$bench" --benchmark_filter="^$name/4096x4096x4096" \
      > "$out/ncu-$name.txt" 2>&1 || true
  done
}

case "${1:-}" in
  prepare) prepare ;;
  run) run ;;
  *) echo "usage: $0 prepare|run" >&2; exit 2 ;;
esac
