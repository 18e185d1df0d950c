#!/usr/bin/env python3
"""The README's tables from a folder of bench-library-r*.json (paired runs
of scripts/gpu/hopper-gemm.sh library): per shape and type pair, the range
over the rounds of our time's inverse ratio to the peer's (1 / over_peer).

    table.py FOLDER"""
import collections, glob, json, sys
r = collections.defaultdict(list)
for path in sorted(glob.glob(sys.argv[1] + "/bench-library-r*.json")):
    for b in json.load(open(path))["benchmarks"]:
        if b.get("aggregate_name") != "median" or "over_peer" not in b:
            continue
        name, prob = b["name"].split("/")[:2]
        r[(name, prob)].append(1 / b["over_peer"])
shapes = ["4096x4096x4096", "8192x8192x8192", "8192x8192x28672",
          "4096x1024x8192", "4000x3000x4096", "16x8192x8192", "64x8192x8192",
          "1024x1024x1024", "2048x2048x2048"]
f = lambda v: f"{min(v):.3f}-{max(v):.3f}x" if len(set(v)) > 1 else f"{v[0]:.3f}x"
print("| M x N x K | f16->f32 | f16->f16 | bf16->f32 | bf16->bf16 | control |")
print("|---|---|---|---|---|---|")
for s in shapes:
    cells = [f(r[(f"library_{t}", s)]) for t in
             ["f16_f32", "f16_f16", "bf16_f32", "bf16_bf16"]]
    control = f(r[("control_cublas_paired_with_itself_f16_f16", s)])
    print(f"| {s} | " + " | ".join(cells) + f" | {control} |")
print()
print("| | tanh f16 | tanh bf16 | erf f16 | erf bf16 |")
print("|---|---|---|---|---|")
for s in ["4096x4096x4096", "8192x8192x8192", "16x8192x8192"]:
    cells = [f(r[(n, s)]) for n in
             ["epilogue_library_gelu_tanh_f16", "epilogue_library_gelu_tanh_bf16",
              "epilogue_library_f16", "epilogue_library_bf16"]]
    print(f"| {s} | " + " | ".join(cells) + " |")
