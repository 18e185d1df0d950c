#!/usr/bin/env bash
# The 64-row tiles call.sh's search times (gpu-bundle/cand64): the sm_90a
# candidates of tile-tune for each type pair, in one kernel folder. Run
# here, from the repository root, after `scripts/gpu/run-gpu.sh prepare`.
set -eu
tmp=$(mktemp -d)
for pair in f16:f32 f16:f16 bf16:f32 bf16:bf16; do
  build/bin/tile-tune --kernel=gemm --chip=sm_90 --block-m=64 --block-n=64,128 \
    --block-k=64,128 --stages=4,6,8 --num-threads=256 --raster-panel=0 \
    --warp-specialized --in-dtype="${pair%:*}" --out-dtype="${pair#*:}" \
    --quiet --out-dir="$tmp/${pair/:/-}"
done
python3 - "$tmp" <<'PY'
import json, os, shutil, sys
out = "gpu-bundle/cand64"
shutil.rmtree(out, ignore_errors=True)
os.makedirs(out)
merged = None
for pair in ["f16-f32", "f16-f16", "bf16-f32", "bf16-bf16"]:
    folder = os.path.join(sys.argv[1], pair)
    index = json.load(open(os.path.join(folder, "index.json")))
    if merged is None:
        merged = dict(index, kernels=[])
    for entry in index["kernels"]:
        if "_ws" not in entry["name"]:  # the sm_90a candidates only
            continue
        for key in ("cubin", "manifest"):
            shutil.copy(os.path.join(folder, entry[key]), out)
        entry.pop("ptx", None)
        merged["kernels"].append(entry)
json.dump(merged, open(os.path.join(out, "index.json"), "w"), indent=1)
print(f"{out}: {len(merged['kernels'])} candidates")
PY
rm -rf "$tmp"
