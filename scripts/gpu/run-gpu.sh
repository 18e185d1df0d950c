#!/usr/bin/env bash
# The one GPU script. Two steps, because the GPU machine has CUDA but no
# LLVM/MLIR:
#
#   scripts/gpu/run-gpu.sh prepare   # here: build, compile the kernels to
#                                    # cubins, bundle binaries in gpu-bundle/
#   scripts/gpu/run-gpu.sh run       # there (repo root, gpu-bundle/ carried):
#                                    # all GPU tests and benchmarks, a table last
#   scripts/gpu/run-gpu.sh run tests       # only the tests (and memcheck)
#   scripts/gpu/run-gpu.sh run benchmarks  # only the benchmarks and peers
#   scripts/gpu/run-gpu.sh run profile     # only the tile-profile steps
#   scripts/gpu/run-gpu.sh run walkthrough # only tile-walkthrough (the main
#                                          # job's runner; compile steps skip)
#
# `run` writes its reports to $OUT (or ./gpu-results) and exits non-zero when
# a test failed. Each step carries on after a failure so the others still
# report.
set -u
cd "$(dirname "$0")/../.."
root=$PWD
bundle=$root/gpu-bundle

prepare() {
  set -e
  build=${TILE_BUILD_DIR:-$root/build}
  if [ ! -f "$build/build.ninja" ]; then
    scripts/build.sh
  fi
  ninja -C "$build" tile-kernels tile-gpu-tests tile-gpu-test-kernels tile-bench-vector-add \
    tile-bench-gemm tile-bench-softmax tile-bench-attention tile_runtime_tests \
    tile-tune tile-tune-run tile-walkthrough tile-profile tile-device-info \
    tile-library-example tile-dlpack-gemm tile-layernorm-example
  rm -rf "$bundle"
  mkdir -p "$bundle/bin" "$bundle/lib"
  "$build/bin/tile-kernels" --out-dir="$bundle/kernels" --chip=sm_90
  # The GPU tests' own hand-written kernels (test/gpu/kernels).
  cp -r "$build/test-kernels" "$bundle/test-kernels"
  # The cookbook's layernorm kernels (docs/Cookbook.md), which the library
  # API's GPU test calls by generator name.
  "$build/bin/tile-layernorm-example" --out-dir="$bundle/cookbook-kernels" \
    --chip=sm_90
  # A short GEMM search for the autotuner's GPU side (with one deliberately
  # wrong candidate, which must be rejected).
  # (where tile-walkthrough's own search step would write it.)
  # Pruned against the H200's own limits (`tile-device-info --json` there).
  "$build/bin/tile-tune" --out-dir="$bundle/kernels/walkthrough/tune-gemm" \
    --device=benchmarks/devices/nvidia-h200.json \
    --block-m=128,256 --block-n=128,256 --block-k=64 --stages=3,4 \
    --num-threads=128,256 --raster-panel=8 --add-wrong-candidate
  # A search compiled for a larger shared-memory budget than the GPU has:
  # tile-tune-run must prune the 288 KiB candidate on the device.
  "$build/bin/tile-tune" --out-dir="$bundle/kernels/walkthrough/tune-over" \
    --chip=sm_90 --max-shared-kib=300 --block-m=256 --block-n=128 \
    --block-k=64 --stages=3,6 --num-threads=256 --raster-panel=8
  cp "$build/bin/tile-gpu-tests" "$build/bin/tile-bench-vector-add" \
    "$build/bin/tile-bench-gemm" "$build/bin/tile-bench-softmax" \
    "$build/bin/tile-bench-attention" "$build/bin/tile-tune-run" \
    "$build/bin/tile-walkthrough" "$build/bin/tile-profile" \
    "$build/bin/tile-device-info" "$build/bin/tile-library-example" \
    "$build/bin/tile_runtime_tests" "$bundle/bin/"
  # PyTorch tensors through DLPack: the C entry point and its script.
  cp "$build/test/gpu/libtile-dlpack-gemm.so" "$bundle/lib/"
  cp test/gpu/dlpack/torch-dlpack-test.py "$bundle/bin/"
  # Shared libraries the GPU machine lacks (Google Benchmark).
  for lib in $(ldd "$build/bin/tile-bench-vector-add" | awk '/benchmark/ {print $3}'); do
    cp -L "$lib" "$bundle/lib/"
  done
  git rev-parse --short HEAD > "$bundle/COMMIT" 2>/dev/null || echo unknown > "$bundle/COMMIT"
  du -sh "$bundle"
  echo "bundle ready: carry gpu-bundle and call: scripts/gpu/run-gpu.sh run"
}

run() {
  part=${1:-all}
  case "$part" in
    all | tests | benchmarks | profile) ;;
    walkthrough)
      LD_LIBRARY_PATH="$bundle/lib:${LD_LIBRARY_PATH:-}" \
        "$bundle/bin/tile-walkthrough" --kernels="$bundle/kernels" \
        --report="${OUT:-$root/gpu-results}/walkthrough.json"
      return $? ;;
    *) echo "usage: $0 run [all|tests|benchmarks|profile|walkthrough]" >&2; return 2 ;;
  esac
  out=${OUT:-$root/gpu-results}
  mkdir -p "$out"
  log=$out/run.log # every program's full output; $OUT keeps at most 8 files
  : > "$log"
  export LD_LIBRARY_PATH="$bundle/lib:${LD_LIBRARY_PATH:-}"
  export TILE_KERNEL_DIR="$bundle/kernels"
  export TILE_TEST_KERNEL_DIR="$bundle/test-kernels"
  export TILE_COOKBOOK_KERNEL_DIR="$bundle/cookbook-kernels"
  status=0
  gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)
  commit=$(cat "$bundle/COMMIT" 2>/dev/null || echo unknown)
  echo "== GPU: ${gpu:-none}, commit $commit, $(date -u +%Y-%m-%dT%H:%MZ)"

  step() { # step NAME COMMAND...: run, append to the log, show its last lines
    local name=$1 started=$SECONDS
    shift
    echo "== $name"
    echo "== $name: $*" >> "$log"
    "$@" > "$out/step.tmp" 2>&1 || status=1
    cat "$out/step.tmp" >> "$log"
    tail -"${show_lines:-4}" "$out/step.tmp"
    rm -f "$out/step.tmp"
    echo "   ($((SECONDS - started)) s)" | tee -a "$log"
  }
  # The GPU's limits as `tile-tune --device=FILE` reads them.
  show_lines=40 step "device" "$bundle/bin/tile-device-info" --json
  if [ "$part" = all ] || [ "$part" = profile ]; then
    # The profiler: time against this GPU's ceilings, resources, occupancy
    # and SASS instruction counts (cuobjdump is on this machine).
    show_lines=80 step "profile gemm 4096^3" "$bundle/bin/tile-profile" --sass \
      --kernel='^gemm_f16_f32_(128x128x64_t128|128x256x64_t256|256x128x64_t256)_s3_r8_div8$' \
      --shape=4096x4096x4096
    show_lines=80 step "profile attention 4x32x4096" "$bundle/bin/tile-profile" --sass \
      --kernel='^attention_(causal_)?(f16|bf16)_d(64|128)_128x(32|64|128)_t128_s2$' \
      --shape=4x32x4096
  fi
  [ "$part" = profile ] && return $status
  if [ "$part" != benchmarks ]; then
    step "runtime tests" "$bundle/bin/tile_runtime_tests" \
      --gtest_output=json:"$out/runtime-tests.json"
    step "kernel GPU tests (vector add, gemm, bias_gelu, softmax, gemm_softmax, attention, the library API, the cookbook's layernorm)" "$bundle/bin/tile-gpu-tests" \
      --gtest_output=json:"$out/gpu-tests.json"
    step "the README's library example" "$bundle/bin/tile-library-example" \
      "$bundle/kernels"
    step "PyTorch tensors through DLPack" python3 \
      "$bundle/bin/torch-dlpack-test.py" "$bundle/lib/libtile-dlpack-gemm.so" \
      "$bundle/kernels"
    if command -v compute-sanitizer > /dev/null; then
      step "compute-sanitizer memcheck" compute-sanitizer --tool memcheck \
        --error-exitcode 9 "$bundle/bin/tile-gpu-tests" \
        --gtest_filter='*EdgeLengths*:*SmallAndOdd*:*BiasGelu*:*GemmSoftmax*:AttentionGpu.MatchesFloat64:*ContractBoundaries*:*MisusesAreRefused*:CopyBoundsGpu.*:LayerNormGpu.*'
    fi
  fi
  if [ "$part" != tests ]; then
    step "vector-add benchmark" "$bundle/bin/tile-bench-vector-add" \
      --benchmark_out="$out/bench-vector-add.json" --benchmark_out_format=json
    step "gemm benchmark" "$bundle/bin/tile-bench-gemm" \
      --benchmark_out="$out/bench-gemm.json" --benchmark_out_format=json
    step "softmax benchmark" "$bundle/bin/tile-bench-softmax" \
      --benchmark_out="$out/bench-softmax.json" --benchmark_out_format=json
    step "attention benchmark" "$bundle/bin/tile-bench-attention" \
      --benchmark_out="$out/bench-attention.json" --benchmark_out_format=json
    # The autotuner: search, validate and cache; the second call must reuse
    # the cached winner without a search.
    rm -f "$bundle/tune-cache.json"
    step "autotune gemm 4096^3 (search)" "$bundle/bin/tile-tune-run" \
      "$bundle/kernels/walkthrough/tune-gemm" --shape=4096x4096x4096 \
      --cache="$bundle/tune-cache.json"
    step "autotune gemm 4096^3 (cached)" "$bundle/bin/tile-tune-run" \
      "$bundle/kernels/walkthrough/tune-gemm" --shape=4096x4096x4096 \
      --cache="$bundle/tune-cache.json"
    show_lines=6 step "autotune: a candidate over the GPU's shared memory" \
      "$bundle/bin/tile-tune-run" "$bundle/kernels/walkthrough/tune-over" \
      --shape=4096x4096x4096 --cache="$bundle/tune-cache.json"
    echo "== PyTorch peers"
    peers_started=$SECONDS
    # One file for both peers: $OUT brings back at most 8 files.
    {
      echo '{"vector_add": '
      python3 benchmarks/peers/vector_add_torch.py 2>> "$log" || echo '{}'
      echo ', "softmax": '
      python3 benchmarks/peers/softmax_torch.py 2>> "$log" || echo '{}'
      echo ', "attention": '
      python3 benchmarks/peers/attention_torch.py 2>> "$log" || echo '{}'
      echo '}'
    } > "$out/torch.json" || status=1
    echo "   ($((SECONDS - peers_started)) s)" | tee -a "$log"
  fi
  echo "== summary"
  # $OUT brings back at most 8 files: the summary (printed here) is
  # rebuilt from the reports with summarize.py, so it stays in the bundle.
  only_tests=()
  [ "$part" = tests ] && only_tests=(--tests-only) # no benchmarks to summarize
  python3 benchmarks/summarize.py --out "$out" --markdown "$bundle/summary.md" \
    --header "GPU: ${gpu:-none}; commit $commit; $(date -u +%Y-%m-%d)" \
    "${only_tests[@]}" || status=1
  return $status
}

case "${1:-}" in
  prepare) prepare ;;
  run) run "${2:-all}" ;;
  *) echo "usage: $0 prepare|run" >&2; exit 2 ;;
esac
