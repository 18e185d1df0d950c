#!/usr/bin/env bash
# Issue 18's closing run on an H200, in two calls, from the repository root
# with the bundle of `scripts/gpu/run-gpu.sh prepare` carried (slimmed: no
# .mlir/.ptx, no walkthrough):
#
#   benchmarks/results/2026-12-06-h200-closing/call.sh speed
#     1. scripts/gpu/hopper-gemm.sh library 3: the library's choice paired
#        with cuBLAS / cuBLASLt GELU_BIAS, three rounds (bench-library-r*.json,
#        summary-library.md);
#     2. rt::chooseGemm over the whole library (choice.txt);
#     3. compute-sanitizer memcheck / racecheck / synccheck on one f16
#        kernel of each sm_90a family, odd shapes (sanitizer.txt);
#     4. GemmGpu on all 114 sm_90a (`_ws`) kernels except the large
#        sampled shapes, then the large sampled shapes on the f16 ones
#        (tests-f16.txt).
#   benchmarks/results/2026-12-06-h200-closing/call.sh bf16
#     5. the large sampled shapes on the bf16 sm_90a kernels (tests-bf16.txt).
#   benchmarks/results/2026-12-06-h200-closing/call.sh final
#     after the first call showed 64x8192x8192 below the bar: the library
#     with the 64x64 tiles; 1-2 again, GemmGpu and the sanitizers on the new
#     kernels, 5 (tests.txt), then the 64-row tiles tile-tune compiled
#     (gpu-bundle/cand64) paired with cuBLAS at 48 and 64 rows, while time
#     is left (sweep.json, sweep.md). LARGE_UNTIL (480) and SWEEP_UNTIL
#     (560), seconds into the call, end those two parts; 0 skips them.
#
# Each call first checks the card and stops (exit 3) on anything but an
# H200: this run is the one the issue asks for on that card. ANY_HOPPER=1
# lets `final` run on an H100 too (its files then say which card ran them;
# its ratios are the H100's, not the H200's); there the search is skipped
# (an H100 ran it, h100-check/) and the bf16 large shapes get until 560 s,
# unless SWEEP_UNTIL / LARGE_UNTIL say otherwise.
set -u
root=$PWD; b=$root/gpu-bundle; out=${OUT:-/tmp/out}; mkdir -p "$out"
export LD_LIBRARY_PATH=$b/lib:${LD_LIBRARY_PATH:-}
part=${1:-}
case "$part" in speed|bf16|final|check) ;;
  *) echo "usage: $0 speed|bf16|final|check" >&2; exit 2 ;; esac
gpu=$(nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv,noheader)
{ echo "$gpu"; echo "bundle commit $(cat "$b/COMMIT")"; date -u; } | tee "$out/gpu-$part.txt"
# (check: the new kernels' tests and the 64-row search, on any card.)
if [ "$part" = final ] && [ "${ANY_HOPPER:-0}" = 1 ] && [[ $gpu == *H100* ]]; then
  : "${SWEEP_UNTIL:=0}" "${LARGE_UNTIL:=560}"
elif [ "$part" != check ] && [[ $gpu != *H200* ]]; then
  echo "not an H200: nothing run"; exit 3
fi
subset() { python3 scripts/gpu/kernel-subset.py "$1" "$b/kernels" "$2" > /dev/null; }
# The per-kernel lines, the verdicts and every failure of a GemmGpu log.
digest() { grep -E '^\[ +(OK|FAILED|SKIPPED|PASSED) |Failure|Expected|Which is|relative error|^gemm_' "$1"; }
# The large sampled shapes on the bf16 sm_90a kernels, for at most $1
# seconds; the verdict and the digest go to file $2.
large_bf16() {
  subset /tmp/ws-bf16 '^gemm_bf16_.*_ws'
  TILE_KERNEL_DIR=/tmp/ws-bf16 timeout "$1" "$b/bin/tile-gpu-tests" \
    --gtest_filter='GemmGpu.LargeShapesSampled' > /tmp/t.log 2>&1
  local rc=$?
  echo "== bf16 large rc=$rc kernels=$(grep -c '"name"' /tmp/ws-bf16/index.json)" | tee -a "$2"
  digest /tmp/t.log >> "$2"
  grep -E '^\[  (PASSED|FAILED)' /tmp/t.log
}

if [ "$part" = final ] || [ "$part" = check ]; then
  # After the first call: the library with the 64x64 tiles for C of at most
  # 64 rows. 1. the library's choice paired with its peers, three rounds;
  t=$out/tests.txt; : > "$t"
  if [ "$part" = final ]; then
  OUT=$out timeout 240 scripts/gpu/hopper-gemm.sh library 3 > /tmp/lib.log 2>&1
  echo "library rc=$?"; grep -E "^\| (64|16)x8192x8192" "$out/summary-library.md" | head -8
  fi
  # 2. the choice over the whole library (the chosen kernels' lines);
  TILE_KERNEL_DIR=$b/kernels timeout 60 "$b/bin/tile-gpu-tests" \
    --gtest_filter='GemmGpu.LibraryChoiceFallsBackWithTheReason' > /tmp/c.log 2>&1
  echo "== choice over the whole library rc=$?" | tee -a "$t"
  grep -E "chose|^\[ +(OK|FAILED|PASSED|SKIPPED) |Failure" /tmp/c.log >> "$t"
  # 3. GemmGpu on the four new kernels, every test; sanitizers on the f16
  # ones;
  subset /tmp/new '_64x64x64_t256_s8_div8_ws$'
  TILE_KERNEL_DIR=/tmp/new timeout 150 "$b/bin/tile-gpu-tests" \
    --gtest_filter='GemmGpu.*:-GemmGpu.LibraryChoice*' > /tmp/t.log 2>&1
  echo "== the 64x64 s8 kernels, GemmGpu rc=$? kernels=$(grep -c '"name"' /tmp/new/index.json)" | tee -a "$t"
  digest /tmp/t.log >> "$t"
  subset /tmp/new16 '^gemm_f16_.*_64x64x64_t256_s8_div8_ws$'
  for tool in memcheck racecheck synccheck; do
    TILE_KERNEL_DIR=/tmp/new16 timeout 100 compute-sanitizer --tool $tool "$b/bin/tile-gpu-tests" \
      --gtest_filter='GemmGpu.SmallAndOddShapesAreExactToRounding' > /tmp/s.log 2>&1
    echo "$tool 64x64 f16 rc=$?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|\[  PASSED|\[  FAILED|SKIPPED' /tmp/s.log | tr '\n' ' ')" | tee -a "$t"
  done
  # 4. the large sampled shapes on the bf16 sm_90a kernels (final only),
  # until LARGE_UNTIL seconds into the call;
  if [ "$part" = final ]; then
    # (the time left is read once: `timeout 0` would mean no limit.)
    large_until=${LARGE_UNTIL:-480}; left=$((large_until - SECONDS))
    if [ $left -le 0 ]; then
      echo "== bf16 large not run: LARGE_UNTIL=$large_until s reached" | tee -a "$t"
    else
      large_bf16 $left "$t"
    fi
  fi
  # 5. the 64-row tiles searched (gpu-bundle/cand64, tile-tune), each
  # alone as the library's choice, paired with cuBLAS, until SWEEP_UNTIL
  # seconds into the call (no sweep files where none ran);
  for cand in $(python3 -c "import json; print(' '.join(sorted({e['name'].split('_', 3)[3] for e in json.load(open('$b/cand64/index.json'))['kernels']})))"); do
    [ $SECONDS -ge ${SWEEP_UNTIL:-560} ] && { echo "sweep stopped before $cand"; break; }
    python3 scripts/gpu/kernel-subset.py /tmp/cand "$b/cand64" "_$cand\$" > /dev/null
    TILE_KERNEL_DIR=/tmp/cand timeout 60 "$b/bin/tile-bench-gemm" \
      --shapes=48x8192x8192,64x8192x8192,64x4096x8192,64x28672x8192 \
      --benchmark_filter='^(library_|control_)' \
      --benchmark_out=/tmp/sweep-$cand.json --benchmark_out_format=json > /tmp/sw.log 2>&1 || echo "$cand rc=$?"
  done
  ls /tmp/sweep-*.json > /dev/null 2>&1 || exit 0
  python3 - "$out" <<'PY'
import glob, json, sys
rows = []
for f in sorted(glob.glob("/tmp/sweep-*.json")):
    cand = f[len("/tmp/sweep-"):-len(".json")]
    for b in json.load(open(f))["benchmarks"]:
        if b.get("aggregate_name") == "median" and "over_peer" in b:
            rows.append({"candidate": cand, "benchmark": b["name"].split("/")[0],
                         "shape": b["name"].split("/")[1], "ratio": 1 / b["over_peer"],
                         "peer_us": b["peer_us"], "us": b["real_time"],
                         "kernel": b.get("label", "")})
json.dump(rows, open(sys.argv[1] + "/sweep.json", "w"), indent=1)
shapes = sorted({r["shape"] for r in rows})
with open(sys.argv[1] + "/sweep.md", "w") as md:
    md.write("| candidate | types | " + " | ".join(shapes) + " |\n|" + "---|" * (2 + len(shapes)) + "\n")
    for key in sorted({(r["candidate"], r["benchmark"]) for r in rows}):
        cells = [f'{r["ratio"]:.3f}x ({r["us"]:.1f} us)' for s in shapes for r in rows
                 if (r["candidate"], r["benchmark"], r["shape"]) == (*key, s)]
        md.write(f"| {key[0]} | {key[1]} | " + " | ".join(cells) + " |\n")
print(open(sys.argv[1] + "/sweep.md").read())
PY
  exit 0
fi

if [ "$part" = bf16 ]; then
  large_bf16 $((590 - SECONDS)) "$out/tests-bf16.txt"
  exit 0
fi

OUT=$out timeout 240 scripts/gpu/hopper-gemm.sh library 3 > /tmp/lib.log 2>&1
echo "library rc=$?"; grep -E "4096x4096x4096|8192x8192x8192" "$out/summary-library.md" | head -12

TILE_KERNEL_DIR=$b/kernels timeout 60 "$b/bin/tile-gpu-tests" \
  --gtest_filter='GemmGpu.LibraryChoiceFallsBackWithTheReason' > "$out/choice.txt" 2>&1
echo "choice rc=$?"

subset /tmp/san '^gemm_f16_(f16_128x256x64_t384_s4_r8_div8_ws_tma64_persistent_streamk|f16_128x256x64_t384_s4_r8_div8_ws_tma64_persistent_cm2|f16_128x128x64_t256_s5_r8_div8_ws_tma64_persistent_pingpong|f16_16x64x64_t256_s8_bias_gelu_div8_ws_swapab|f32_128x256x64_t384_s4_div8_ws_sk4|f16_128x256x64_t384_s4_r8_tt_div8_ws|f16_128x256x64_t384_s3_r8_div8_ws_tma|f16_128x256x64_t384_s4_r8_bias_gelu_tanh_div8_ws_tma64_persistent|f32_256x128x64_t640_s4_r8_div8_ws_tma16_persistent)$'
echo "sanitized kernels: $(grep -o '"name": *"[^"]*"' /tmp/san/index.json | cut -d'"' -f4 | tr '\n' ' ')" > "$out/sanitizer.txt"
for tool in memcheck racecheck synccheck; do
  TILE_KERNEL_DIR=/tmp/san timeout 150 compute-sanitizer --tool $tool "$b/bin/tile-gpu-tests" \
    --gtest_filter='GemmGpu.SmallAndOddShapesAreExactToRounding:GemmGpu.PersistentBlocksWalkSeveralTiles' > /tmp/s.log 2>&1
  echo "$tool rc=$?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|\[  PASSED|\[  FAILED|SKIPPED' /tmp/s.log | tr '\n' ' ')" | tee -a "$out/sanitizer.txt"
done

subset /tmp/ws '_ws'
subset /tmp/ws-f16 '^gemm_f16_.*_ws'
TILE_KERNEL_DIR=/tmp/ws timeout 120 "$b/bin/tile-gpu-tests" \
  --gtest_filter='GemmGpu.*:-GemmGpu.LargeShapesSampled:GemmGpu.LibraryChoice*' > /tmp/t.log 2>&1
echo "all sm_90a kernels, all but the large shapes rc=$? kernels=$(grep -c '"name"' /tmp/ws/index.json)" | tee "$out/tests-f16.txt"
digest /tmp/t.log >> "$out/tests-f16.txt"
left=$((585 - SECONDS))
TILE_KERNEL_DIR=/tmp/ws-f16 timeout $left "$b/bin/tile-gpu-tests" \
  --gtest_filter='GemmGpu.LargeShapesSampled' > /tmp/t.log 2>&1
echo "f16 large rc=$? (timeout $left s) kernels=$(grep -c '"name"' /tmp/ws-f16/index.json)" | tee -a "$out/tests-f16.txt"
digest /tmp/t.log >> "$out/tests-f16.txt"
grep -E '^\[  (PASSED|FAILED)' /tmp/t.log
