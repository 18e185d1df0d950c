# compile_ms of every kernel in a kernel folder's index.json (what
# `tile-kernels --out-dir` and the main job write): median, how many are
# over 1 s, the slowest. Usage: python3 library-summary.py DIR/index.json
import json
import sys

kernels = sorted(json.load(open(sys.argv[1]))["kernels"],
                 key=lambda k: -k["compile_ms"])
ms = sorted(k["compile_ms"] for k in kernels)
print(f"{len(ms)} kernels, median {ms[len(ms) // 2]:.0f} ms, "
      f"{sum(m > 1000 for m in ms)} over 1 s, at most {ms[-1]:.0f} ms")
for k in kernels:
    print(f"  {k['compile_ms']:6.0f} ms  {k['name']}")
