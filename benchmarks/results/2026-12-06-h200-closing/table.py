#!/usr/bin/env python3
"""The README's tables from paired runs of the library's choice
(scripts/gpu/hopper-gemm.sh library, or tile-bench-gemm --benchmark_filter=
'^(library_|control_)'): per shape and type pair, the range over the files
(rounds) of our time's inverse ratio to the peer's (1 / over_peer). Rows are
the shapes the files hold; the GELU table only where they hold its runs.
With --us, each cell is the range of our median time instead, with the
peer's in parentheses (microseconds).

    table.py [--us] FOLDER [GLOB]   (GLOB defaults to bench-library-r*.json)"""
import collections, glob, json, sys
args = [a for a in sys.argv[1:] if a != "--us"]
us = len(args) < len(sys.argv) - 1
r = collections.defaultdict(list)
ours, peer = collections.defaultdict(list), collections.defaultdict(list)
pattern = args[1] if len(args) > 1 else "bench-library-r*.json"
for path in sorted(glob.glob(args[0] + "/" + pattern)):
    for b in json.load(open(path))["benchmarks"]:
        if b.get("aggregate_name") != "median" or "over_peer" not in b:
            continue
        name, prob = b["name"].split("/")[:2]
        r[(name, prob)].append(1 / b["over_peer"])
        ours[(name, prob)].append(b["real_time"])
        peer[(name, prob)].append(b["peer_us"])
order = ["4096x4096x4096", "8192x8192x8192", "8192x8192x28672",
         "4096x1024x8192", "4000x3000x4096", "16x8192x8192", "64x8192x8192",
         "1024x1024x1024", "2048x2048x2048"]
present = {prob for _, prob in r}
shapes = [s for s in order if s in present] + sorted(present - set(order))
def span(v, digits, unit):
    lo, hi = f"{min(v):.{digits}f}", f"{max(v):.{digits}f}"
    return f"{lo}{unit}" if lo == hi else f"{lo}-{hi}{unit}"
def f(key):
    if not r[key]:
        return "-"
    if us:
        return f"{span(ours[key], 1, '')} ({span(peer[key], 1, '')})"
    return span(r[key], 3, "x")
print("| M x N x K | f16->f32 | f16->f16 | bf16->f32 | bf16->bf16 | control |")
print("|---|---|---|---|---|---|")
for s in shapes:
    cells = [f((f"library_{t}", s)) for t in
             ["f16_f32", "f16_f16", "bf16_f32", "bf16_bf16"]]
    control = f(("control_cublas_paired_with_itself_f16_f16", s))
    print(f"| {s} | " + " | ".join(cells) + f" | {control} |")
gelu = ["epilogue_library_gelu_tanh_f16", "epilogue_library_gelu_tanh_bf16",
        "epilogue_library_f16", "epilogue_library_bf16"]
gelu_shapes = [s for s in shapes if any(r[(n, s)] for n in gelu)]
if gelu_shapes:
    print()
    print("| | tanh f16 | tanh bf16 | erf f16 | erf bf16 |")
    print("|---|---|---|---|---|")
    for s in gelu_shapes:
        print(f"| {s} | " + " | ".join(f((n, s)) for n in gelu) + " |")
