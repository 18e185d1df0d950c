#!/usr/bin/env python3
"""The large-shape checks of a GemmGpu digest (call.sh's tests*.txt): per
section (a `== ` line; the whole file where there is none), how many
`relative error` lines (shape checks) and the largest error per C type
(the second type in the kernel's name, gemm_<in>_<out>_...).

    errors.py FILE"""
import collections, re, sys
section, count = "(file)", collections.Counter()
worst = collections.defaultdict(dict)
for line in open(sys.argv[1]):
    if line.startswith("== "):
        section = line[3:].strip()
        continue
    m = re.match(r"gemm_[a-z0-9]+_([a-z0-9]+)_\S+ \S+: relative error (\S+)", line)
    if m:
        count[section] += 1
        c, e = m.group(1), float(m.group(2))
        worst[section][c] = max(worst[section].get(c, 0.0), e)
for s in count:
    print(f"{s}: {count[s]} shape checks; largest relative error "
          + ", ".join(f"{e:.2g} ({c} C)" for c, e in sorted(worst[s].items())))
