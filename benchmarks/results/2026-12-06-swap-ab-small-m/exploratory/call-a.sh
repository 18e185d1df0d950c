#!/usr/bin/env bash
# Session 39 (2026-12-06), call A: the paired library run (3 rounds), then
# stop 38's call E (128x192 against 128x256: tests, 2 rounds paired),
# ../../2026-12-06-paired-library-choice/not-run/call-e.sh copied into
# gpu-bundle/. The bundle: scripts/gpu/run-gpu.sh prepare at 9b82a84,
# plus n256/ (kernel-subset.py of the 128x256 persistent leaders,
# '^gemm_(f16|bf16)_(f16|f32|bf16)_128x256x64_t384_s4_r8(_bias_gelu(_tanh)?)?_div8_ws_tma(64|32)_persistent$')
# and n192/ (the library built with
# ../../2026-12-06-paired-library-choice/not-run/n192-experiment.patch,
# subset '_128x192x64_').
set -u
cd "$(dirname "$0")/.."
final=${OUT:-/tmp/out}
res=/tmp/res; rm -rf $res; mkdir -p $res/final $res/tiles
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv,noheader; cat gpu-bundle/COMMIT; date -u; } | tee $res/gpu.txt
s=$SECONDS
OUT=$res/final timeout 200 scripts/gpu/hopper-gemm.sh library 3 > $res/final/library.log 2>&1
echo "library rc=$? ($((SECONDS-s)) s)"
cp $res/final/summary-library.md $final/ 2>/dev/null
OUT=$res/tiles bash gpu-bundle/call-e.sh 2>&1 | tail -40
cp $res/tiles/compare.md $final/ 2>/dev/null
tar czf $final/results.tgz -C $res .
