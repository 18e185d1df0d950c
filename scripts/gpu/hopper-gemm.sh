#!/usr/bin/env bash
# The Hopper GEMM's GPU run, on the bundle of `scripts/gpu/run-gpu.sh
# prepare`: the sm_90a (`_ws`) GEMM variants and one mma.sync reference
# (128x256x64 t256 s3 r8), f32 and f16/bf16 outputs, with and without the
# TMA-store epilogue (`_tma`, in bands `_tma<columns>`), their GemmGpu tests against float64,
# the runtime's choice of variant over the whole library (choice.log),
# compute-sanitizer memcheck / racecheck / synccheck on the split-K,
# fused-epilogue, f16 TN, f16 persistent (stream-K too), f16 TMA-store and
# f16 cluster (`_cm2`) ones,
# and tile-bench-gemm against cuBLAS in the same process; the summary table
# (best variant per problem, ratio to cuBLAS; the fused bias + GELU ones
# against cuBLASLt's GELU_BIAS epilogue) last, with its charts beside it
# (benchmarks/plot.py: ratio to cuBLAS per shape, roofline; none, and a
# line saying why, without matplotlib), then the variant the runtime
# chooses over the whole library per shape against cuBLAS and cuBLASLt
# (bench-library.json, summary-library.md). $OUT: gemm-tests.json, run.log
# (the tests' and the benchmarks' output), choice.log, sanitizer.log,
# bench-gemm.json, summary.md, the two charts, bench-library.json and
# summary-library.md (10 files, all that $OUT brings back). Results of a run:
# benchmarks/results/2026-12-03-hopper-gemm-persistent.
#
#   scripts/gpu/run-gpu.sh prepare
#   scripts/gpu/hopper-gemm.sh run     # on the GPU machine (gpu-bundle/)
#   scripts/gpu/hopper-gemm.sh library [ROUNDS]  # there: only the library's
#       # choice against its peers, ROUNDS times (default 3; about 25 s a
#       # round): bench-library-r<N>.json and summary-library.md, all rounds
#       # (benchmarks/results/2026-12-06-swap-ab-small-m/final-h100).
set -uo pipefail
cd "$(dirname "$0")/../.."
bundle=$PWD/gpu-bundle
out=${OUT:-$PWD/gpu-results}
status=0

# A kernel directory holding the index entries whose names match a pattern
# (the files are links into the bundle).
subset() { python3 scripts/gpu/kernel-subset.py "$1" "$bundle/kernels" "$2"; }

run() {
  mkdir -p "$out"
  export LD_LIBRARY_PATH="$bundle/lib:${LD_LIBRARY_PATH:-}"
  local hopper=/tmp/tile-hopper-kernels splitk=/tmp/tile-splitk-kernels
  subset "$hopper" '^gemm_.*_ws(_tma[0-9]*)?(_sk[0-9]+|_persistent(_cm[0-9]+|_streamk)?)?$|^gemm_f16_f32_128x256x64_t256_s3_r8_div8$'
  subset "$splitk" '^gemm_.*(_sk[0-9]+|_bias_gelu.*_ws)$|^gemm_f16_f32_.*_tn_div8_ws$|^gemm_f16_f(16|32)_.*_persistent(_streamk)?$|^gemm_f16_.*_tma[0-9]*(_persistent)?$|^gemm_f16_.*_cm[0-9]+$'
  TILE_KERNEL_DIR=$hopper "$bundle/bin/tile-gpu-tests" --gtest_filter='GemmGpu.*' \
    --gtest_output=json:"$out/gemm-tests.json" > /tmp/gemm-tests.log 2>&1 ||
    status=1
  { echo "== GemmGpu tests"; cat /tmp/gemm-tests.log; } > "$out/run.log"
  tail -3 /tmp/gemm-tests.log
  # A test that skips (no variant found, no GPU) is no pass here.
  if grep -q '^\[  SKIPPED \]' /tmp/gemm-tests.log; then
    echo "GemmGpu tests skipped: the sm_90a variants did not run" >&2
    status=1
  fi
  # The runtime's choice over the whole library (sm_90a first, the
  # fallback and its reasons when a shape breaks TMA's promise), each
  # chosen variant checked against float64; the choices are in the log.
  TILE_KERNEL_DIR=$bundle/kernels "$bundle/bin/tile-gpu-tests" \
    --gtest_filter='GemmGpu.LibraryChoiceFallsBackWithTheReason' \
    > "$out/choice.log" 2>&1 || status=1
  grep -q '^\[  PASSED  \] 1 test' "$out/choice.log" || status=1
  tail -1 "$out/choice.log"
  : > "$out/sanitizer.log"
  for tool in memcheck racecheck synccheck; do
    TILE_KERNEL_DIR=$splitk timeout 300 compute-sanitizer --tool "$tool" \
      "$bundle/bin/tile-gpu-tests" \
      --gtest_filter='GemmGpu.SmallAndOddShapesAreExactToRounding' \
      > /tmp/sanitizer-$tool.log 2>&1 || status=1
    cat /tmp/sanitizer-$tool.log >> "$out/sanitizer.log"
    grep -q '^\[  SKIPPED \]' /tmp/sanitizer-$tool.log && status=1
    echo "$tool: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|\[  PASSED|\[  FAILED' /tmp/sanitizer-$tool.log | tr '\n' ' ')"
  done
  TILE_KERNEL_DIR=$hopper "$bundle/bin/tile-bench-gemm" \
    --benchmark_filter='^(cublas|gemm)_[^/]*/[0-9]|^epilogue_(paired_.*_ws.*|cublaslt)' \
    --benchmark_out="$out/bench-gemm.json" --benchmark_out_format=json \
    > /tmp/bench-gemm.log 2>&1 || status=1
  { echo "== tile-bench-gemm"; cat /tmp/bench-gemm.log; } >> "$out/run.log"
  summarize "$out/bench-gemm.json" | tee "$out/summary.md"
  # What a user gets: rt::chooseGemm's pick over the whole library for each
  # shape and type pair (NN; bias + GELU at 4096^3, 8192^3 and
  # 16x8192x8192), timed alternately with cuBLAS / cuBLASLt, and the
  # pairing's control (cuBLAS against itself).
  TILE_KERNEL_DIR=$bundle/kernels "$bundle/bin/tile-bench-gemm" \
    --benchmark_filter='^(cublas_(f16|bf16)_(f32|f16|bf16)|library_[^/]*|control_[^/]*)/|^epilogue_(library_.*|cublaslt_gelu_bias[^/]*)/' \
    --benchmark_out="$out/bench-library.json" --benchmark_out_format=json \
    > /tmp/bench-library.log 2>&1 || status=1
  { echo "== tile-bench-gemm (the library's choice)"; cat /tmp/bench-library.log; } >> "$out/run.log"
  summarize "$out/bench-library.json" | tee "$out/summary-library.md"
  # Charts beside the table, linked from it; without matplotlib plot.py
  # says so, which fails nothing (the table is the result).
  python3 benchmarks/plot.py "$out" --link-from "$out/summary.md" ||
    echo "charts: not drawn (above)"
  return $status
}

# The library's choice over the whole bundle, timed alternately with cuBLAS /
# cuBLASLt, with the pairing's control, $1 rounds.
library() {
  local rounds=${1:-3}
  mkdir -p "$out"
  export LD_LIBRARY_PATH="$bundle/lib:${LD_LIBRARY_PATH:-}"
  : > "$out/summary-library.md"
  for round in $(seq 1 "$rounds"); do
    TILE_KERNEL_DIR=$bundle/kernels "$bundle/bin/tile-bench-gemm" \
      --benchmark_filter='^(library_[^/]*|control_[^/]*|epilogue_library_.*)/' \
      --benchmark_out="$out/bench-library-r$round.json" \
      --benchmark_out_format=json > /tmp/bench-library.log 2>&1 || status=1
    if [ ! -s "$out/bench-library-r$round.json" ]; then
      echo "round $round: no report; tile-bench-gemm said:" >&2
      tail -3 /tmp/bench-library.log >&2
      return 1
    fi
    { echo "## Round $round"; echo; summarize "$out/bench-library-r$round.json"
      echo; } >> "$out/summary-library.md"
  done
  cat "$out/summary-library.md"
  return $status
}

# Per problem, input type and operand layout: cuBLAS, the mma.sync reference, the best
# sm_90a variant without and with split-K (TFLOP/s from the median, ratio to
# cuBLAS of the same call).
summarize() {
  python3 - "$1" <<'PY'
import json, re, sys
rows = {}
paired = {}  # (problem, types): the library's choice over cuBLAS, per pair
def tflops_of(problem, us):  # "MxNxK" done in `us` microseconds
    m, n, k = map(int, problem.split("x"))
    return 2 * m * n * k / us / 1e6
for b in json.load(open(sys.argv[1]))["benchmarks"]:
    if b.get("aggregate_name") != "median":
        continue
    name, problem = b["name"].split("/")[:2]
    m = re.match(r"cublas_(f16|bf16)_(f32|f16|bf16)(?:_(nt|tn|tt))?$", name) or \
        re.match(r"library_(f16|bf16)_(f32|f16|bf16)()$", name) or \
        re.match(r"gemm_(f16|bf16)_(f32|f16|bf16)_(?:.*_(nt|tn|tt)_)?", name)
    if not m or "_bias" in name:  # every epilogue variant (ConfigKeys.h)
        continue
    if "TFLOP/s" not in b:
        continue  # skipped (its reason is in the run's log)
    kind = ("cublas" if name.startswith("cublas") else
            "library" if name.startswith("library_") else
            "splitk" if "_sk" in name else
            "cluster" if "_cm" in name else
            "tma" if "_tma" in name else "ws" if name.endswith("_ws") else
            "persistent" if name.endswith("_persistent") else "mma")
    # A and B as stored: NN (A M x K, B K x N), NT (B N x K), TN (A K x M).
    layout = (m.group(3) or "nn").upper()
    row = rows.setdefault((problem, m.group(1) + " -> " + m.group(2), layout), {})
    tflops = b["TFLOP/s"] / 1e12
    if kind == "library" and "over_peer" in b:
        # Timed alternately with cuBLAS: its ratio is the pairs' median, and
        # cuBLAS's TFLOP/s that of its launches in the pairs.
        paired[(problem, m.group(1) + " -> " + m.group(2))] = (
            1 / b["over_peer"], tflops_of(problem, b["peer_us"]))
    if tflops > row.get(kind, (0, ""))[0]:
        # The library's choice is named by its label (rt::chooseGemm's pick).
        row[kind] = (tflops, b.get("label", name) if kind == "library" else name)
# "library's choice": what rt::chooseGemm runs for the launch (tile-bench-gemm's
# library_* runs, over the kernel folder of the run); the other columns are
# the best variant of each kind.
print("| M x N x K | in -> out | layout | cuBLAS | library's choice | mma.sync | sm_90a | persistent sm_90a | TMA-store sm_90a | 2x1 clusters sm_90a | split-K sm_90a | best variant | chosen variant |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for (problem, dtype, layout), row in rows.items():
    if len(row) == 1 and "cublas" in row:
        continue  # a layout no variant of this run has
    base = row.get("cublas", (0, ""))[0]
    if not base and (problem, dtype) in paired:
        base = paired[(problem, dtype)][1]  # no separate cuBLAS run
    cell = lambda k: (f"{row[k][0]:.0f} ({row[k][0] / base:.2f}x)"
                      if k in row and base else "-")
    # The library's choice timed alternately with cuBLAS: the pairs' ratio.
    library = (f"{row['library'][0]:.0f} ({paired[(problem, dtype)][0]:.2f}x paired)"
               if (problem, dtype) in paired else cell("library"))
    best = max((row[k] for k in ("mma", "ws", "persistent", "tma", "cluster", "splitk")
                if k in row), default=(0, "-"))
    chosen = f"`{row['library'][1]}`" if "library" in row else "-"
    print(f"| {problem} | {dtype} | {layout} | {base:.0f} | {library} | {cell('mma')} | {cell('ws')} | "
          f"{cell('persistent')} | {cell('tma')} | {cell('cluster')} | {cell('splitk')} | `{best[1]}` | {chosen} |")
# The pairing's control: cuBLAS timed alternately with itself.
controls = [(b["name"].split("/")[1], 1 / b["over_peer"], b["second_over_first"])
            for b in json.load(open(sys.argv[1]))["benchmarks"]
            if b.get("aggregate_name") == "median" and "over_peer" in b
            and b["name"].startswith("control_cublas_paired_with_itself")]
if controls:
    print()
    print("Pairing control, cuBLAS f16 -> f16 timed alternately with itself "
          "(ratio as above; second launch of a pair over the first), medians: " +
          ", ".join(f"{p} {r:.3f}; {o:.3f}" for p, r, o in controls))
# The fused epilogues (f16 -> f16, C = gelu(A B + bias)) against cuBLASLt's
# GELU_BIAS (which computes the tanh form: compare the `_gelu_tanh` rows
# like for like; benchmarks/results/2026-12-05-gelu-epilogue), and the same
# sm_90a GEMM without the epilogue (paired runs).
epilogue = {}
for b in json.load(open(sys.argv[1]))["benchmarks"]:
    if b.get("aggregate_name") != "median" or not b["name"].startswith("epilogue_"):
        continue
    name, problem = b["name"].split("/")[:2]
    us = b["real_time"] * {"us": 1, "ms": 1e3, "ns": 1e-3}[b["time_unit"]]
    epilogue.setdefault(problem, {})[name] = (us, tflops_of(problem, us),
                                              b.get("plain_us"), b.get("label"),
                                              b.get("peer_us"), b.get("over_peer"))
if epilogue:
    print()
    # "over plain": the fused kernel's time over its plain twin's, launched
    # alternately with it (what the epilogue adds to the GEMM).
    print("| M x N x K | cuBLASLt GELU_BIAS | fused sm_90a variant | TFLOP/s | ratio to cuBLASLt | plain GEMM us | over plain |")
    print("|---|---|---|---|---|---|---|")
    for problem, runs in epilogue.items():
        for name, (us, tflops, plain, label, peer_us, over_peer) in runs.items():
            if name.startswith("epilogue_paired_"):
                variant = f"`gemm_{name[16:]}`"
            elif name.startswith("epilogue_library_") and label:
                variant = f"library's choice: `{label}`"
            else:
                continue
            # cuBLASLt of the variant's input type (f16 only before
            # 2026-12-06); the library's choice was timed alternately with
            # it (peer_us, "paired").
            bf16 = "bf16" in name
            lt = runs.get("epilogue_cublaslt_gelu_bias" + ("_bf16" if bf16 else ""))
            if not lt and bf16:
                lt = runs.get("epilogue_cublaslt_gelu_bias")
            if peer_us:
                lt = (peer_us, tflops_of(problem, peer_us))
            ratio = (f"{1 / over_peer:.2f}x paired" if over_peer else
                     f"{lt[0] / us:.2f}x" if lt else "-")
            plain_us = f"{plain:.0f}" if plain else "-"
            over = f"{(us / plain - 1) * 100:+.1f}%" if plain else "-"
            peer = f"{lt[1]:.0f} TFLOP/s" if lt else "-"
            print(f"| {problem} | {peer} | {variant} | {tflops:.0f} | {ratio} | "
                  f"{plain_us} | {over} |")
PY
}

case "${1:-}" in
  run) run ;;
  library) library "${2:-3}" ;;
  summarize) summarize "${2:?usage: $0 summarize bench-gemm.json}" ;;
  *) echo "usage: $0 run | library [ROUNDS] | summarize bench-gemm.json" >&2
     exit 2 ;;
esac
