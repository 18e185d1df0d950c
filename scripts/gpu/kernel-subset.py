#!/usr/bin/env python3
"""A kernel folder of the index entries whose names match a pattern.

    scripts/gpu/kernel-subset.py OUT KERNELS PATTERN

OUT (emptied first) gets an index.json with the entries of KERNELS/index.json
whose "name" matches the regular expression PATTERN (re.search), and links to
their cubin, manifest and PTX files: what TILE_KERNEL_DIR points the GPU
tests and benchmarks at to run a part of the library."""
import json
import os
import re
import shutil
import sys

if len(sys.argv) != 4:
    sys.exit(__doc__)
out, kernels, pattern = sys.argv[1], sys.argv[2], re.compile(sys.argv[3])
shutil.rmtree(out, ignore_errors=True)
os.makedirs(out)
with open(os.path.join(kernels, "index.json")) as f:
    index = json.load(f)
entries = [e for e in index["kernels"] if pattern.search(e["name"])]
for e in entries:
    for key in ("cubin", "manifest", "ptx"):
        if key in e:
            os.symlink(os.path.join(os.path.abspath(kernels), e[key]),
                       os.path.join(out, e[key]))
index["kernels"] = entries
with open(os.path.join(out, "index.json"), "w") as f:
    json.dump(index, f, indent=1)
print(f"{out}: {len(entries)} variants")
