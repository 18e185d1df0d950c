#!/usr/bin/env python3
"""Draws the charts of one GPU run: the Google Benchmark JSON that
scripts/gpu/run-gpu.sh and scripts/gpu/hopper-gemm.sh write
(bench-gemm.json, bench-attention.json, bench-softmax.json,
bench-vector-add.json) and the PyTorch peers (torch.json). Per kernel
family present in the folder, two charts (PNG, or SVG with --format svg):

  chart-FAMILY-ratio.png     our best variant against each peer the run has
                             (cuBLAS, cuBLASLt, PyTorch, SDPA FLASH / cuDNN,
                             the device-to-device copy), per shape: grouped
                             bars, a line at 1.0 (above it we are faster)
  chart-FAMILY-roofline.png  GEMM and attention: TFLOP/s against arithmetic
                             intensity from the shape, under the device's
                             compute and bandwidth roofs; softmax and vector
                             add (memory-bound): GB/s per shape under the
                             bandwidth roofs

The roofs come from --device (benchmarks/devices/nvidia-h200-peaks.json:
the datasheet's peaks and the ceilings tile-profile measured on the GPU);
each chart says so. matplotlib only (python3-matplotlib, scripts/setup.sh).

    benchmarks/plot.py benchmarks/results/2026-12-01-h200-reuse-3cc4f65
    benchmarks/plot.py RUN_DIR --out DIR --format svg --link-from SUMMARY.md
"""
import argparse
import io
import json
import math
import os
import re
import sys
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_DEVICE = os.path.join(HERE, "devices", "nvidia-h200-peaks.json")

# One colour per peer, the same in every chart (by how the series' name
# starts, after "vs "); other series take the palette's in turn.
PEER_COLORS = {"cuBLASLt": "#17becf", "torch.softmax": "#d62728",
               "torch.add": "#d62728", "SDPA FLASH": "#ff7f0e",
               "SDPA cuDNN": "#9467bd", "copy": "#7f7f7f",
               "cuMemcpyDtoDAsync": "#7f7f7f", "ours": "#2ca02c"}
OURS = "ours (best variant)"
PALETTE = ["#1f77b4", "#8c564b", "#e377c2", "#bcbd22", "#aec7e8", "#ff9896"]


# --- Reading the reports (no matplotlib needed) -----------------------------

def load(path):
    """The JSON in `path`, or None when the file is missing or unreadable."""
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def medians(bench):
    """[(kernel, problem, entry)] of the median entries of a Google Benchmark
    report whose runs are named KERNEL/PROBLEM/..., failed runs left out."""
    rows = []
    for entry in (bench or {}).get("benchmarks", []):
        if entry.get("error_occurred") or entry.get("aggregate_name") != "median":
            continue
        parts = entry["name"].split("/")
        rows.append((parts[0], parts[1] if len(parts) > 1 else "", entry))
    return rows


def microseconds(entry):
    scale = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}[entry.get("time_unit", "ns")]
    return entry["real_time"] * scale


def cube(problem):
    """'4096x4096x4096' -> '4096³'; other shapes as they are."""
    dims = problem.split("x")
    return dims[0] + "³" if len(dims) == 3 and len(set(dims)) == 1 else problem


ELEMENT_BYTES = {"f16": 2, "bf16": 2, "f32": 4}
LAYOUT = re.compile(r"_(nt|tn|tt)(?=_|$)")


def gemm_data(bench):
    """GEMM rows per (problem, in, out, layout): our best TFLOP/s with its
    kernel, cuBLAS's TFLOP/s; and the fused bias + GELU epilogue (f16) per
    problem: our fastest fused kernel's and cuBLASLt GELU_BIAS's times."""
    rows, epilogue = {}, {}
    for name, problem, entry in medians(bench):
        m = re.match(r"(cublas|gemm)_(f16|bf16)_(f32|f16|bf16)(_|$)", name)
        if m and "TFLOP/s" in entry and "_bias_gelu" not in name:
            layout = LAYOUT.search(name[len(m.group(0)) - 1:])
            key = (problem, m.group(2), m.group(3),
                   layout.group(1) if layout else "nn")
            row = rows.setdefault(key, {})
            tflops = entry["TFLOP/s"] / 1e12
            if m.group(1) == "cublas":
                row["cuBLAS"] = tflops
            elif tflops > row.get("ours", (0, ""))[0]:
                row["ours"] = (tflops, name)
        # The fused epilogue, f16 in and out like cuBLASLt's: paired runs
        # (epilogue_paired_*) and, in older reports, the fused GEMMs.
        fused = (name.startswith("epilogue_paired_f16_f16_")
                 or (name.startswith("gemm_f16_f16_") and "_bias_gelu" in name))
        if fused or name == "epilogue_cublaslt_gelu_bias":
            row = epilogue.setdefault(problem, {})
            us = microseconds(entry)
            if not fused:
                row["cuBLASLt GELU_BIAS"] = us
            elif us < row.get("ours", (math.inf, ""))[0]:
                row["ours"] = (us, name)
    rows = {k: v for k, v in rows.items() if "ours" in v}
    epilogue = {k: v for k, v in epilogue.items()
                if "ours" in v and "cuBLASLt GELU_BIAS" in v}
    return rows, epilogue


def gemm_intensity(problem, inp, out):
    """FLOP per byte of C = A B when A, B are read and C written once."""
    m, n, k = map(int, problem.split("x"))
    moved = (m * k + k * n) * ELEMENT_BYTES[inp] + m * n * ELEMENT_BYTES[out]
    return 2.0 * m * n * k / moved


def attention_data(bench, torch):
    """Per (dtype, D, mode, sequence): our best TFLOP/s and SDPA's FLASH and
    cuDNN backends' (batch 4, 32 heads; the _lse kernels left out)."""
    rows = {}
    for name, seq, entry in medians(bench):
        m = re.match(r"attention_(causal_)?(f16|bf16)_d(\d+)_", name)
        if not m or name.endswith("_lse") or "TFLOP/s" not in entry:
            continue
        key = (m.group(2), int(m.group(3)), "causal" if m.group(1) else "full",
               int(seq))
        tflops = entry["TFLOP/s"] / 1e12
        if tflops > rows.get(key, {}).get("ours", (0, ""))[0]:
            rows.setdefault(key, {})["ours"] = (tflops, name)
    peers = (torch or {}).get("attention", {})
    for (dtype, d, mode, seq), row in rows.items():
        # The peer's f16 keys carry no type (earlier reports).
        prefix = "" if dtype == "f16" else dtype + "/"
        for backend, label in (("flash", "SDPA FLASH"), ("cudnn", "SDPA cuDNN")):
            value = peers.get(f"{backend}/{prefix}d{d}/{mode}/{seq}", {})
            if value.get("tflops"):
                row[label] = value["tflops"]
    return rows


def attention_intensity(seq, mode):
    """FLOP per byte of attention forward: 4 B H N^2 D FLOP (halved for
    causal) over Q, K, V read and O written once (2-byte elements): N / 2,
    N / 4 for causal, whatever B, H and D."""
    return seq / (4.0 if mode == "causal" else 2.0)


def softmax_data(bench, torch):
    """Per (shape, dtype): our best GB/s, the copy's and torch.softmax's."""
    rows = {}
    for name, shape, entry in medians(bench):
        m = re.match(r"(copy|softmax|softmax_online)_(f16|f32)(_|$)", name)
        if not m or "GB/s" not in entry:
            continue
        row = rows.setdefault((shape, m.group(2)), {})
        gbs = entry["GB/s"] / 1e9
        if m.group(1) == "copy":
            row["copy"] = gbs
        elif gbs > row.get("ours", (0, ""))[0]:
            row["ours"] = (gbs, name)
    peers = (torch or {}).get("softmax", {})
    for (shape, dtype), row in rows.items():
        value = peers.get(f"{dtype}/{shape}", {})
        if value.get("gbps"):
            row["torch.softmax"] = value["gbps"]
    return {k: v for k, v in rows.items() if "ours" in v}


def vector_add_data(bench, torch):
    """Our best vector add's GB/s, cuMemcpyDtoDAsync's and torch.add's."""
    row = {}
    for name, _, entry in medians(bench):
        if "GB/s" not in entry:
            continue
        gbs = entry["GB/s"] / 1e9
        if name == "copy_dtod":
            row["cuMemcpyDtoDAsync"] = gbs
        elif name.startswith("vector_add_") and gbs > row.get("ours", (0, ""))[0]:
            row["ours"] = (gbs, name)
    peer = (torch or {}).get("torch.add", {}).get("gbps")
    if peer:
        row["torch.add"] = peer
    return row if "ours" in row else {}


def ratios(row, higher_is_better=True):
    """{peer: ours / peer} (times: peer / ours), so that > 1 means ours is
    faster."""
    ours = row["ours"][0]
    return {peer: (ours / v if higher_is_better else v / ours)
            for peer, v in row.items() if peer != "ours" and v}


def read_device(path):
    """The roofs: {"name", "datasheet": {...}, "measured": {...}}, each with
    "tensor_tflops", "memory_gbs" and "source"."""
    device = load(path)
    if not device or any(
            not isinstance(device.get(k), dict)
            or not {"tensor_tflops", "memory_gbs", "source"} <= set(device[k])
            for k in ("datasheet", "measured")):
        raise SystemExit(f"plot.py: {path}: expected \"datasheet\" and "
                         "\"measured\" roofs, each with tensor_tflops, "
                         "memory_gbs and source")
    device["path"] = os.path.abspath(path)
    return device


# --- Drawing ----------------------------------------------------------------

def import_pyplot():
    """matplotlib.pyplot with a file-only backend, or (None, why)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as pyplot
    except ImportError as error:
        return None, str(error)
    # SVG: text stays text (small files); no date or random ids, so the
    # same reports draw the same file.
    matplotlib.rcParams.update({"svg.fonttype": "none", "svg.hashsalt": "tile",
                                "font.size": 8, "font.family": "sans-serif",
                                "font.sans-serif": ["DejaVu Sans"]})
    return pyplot, ""


GEOMETRY = re.compile(r'(\s(?:d|transform|x|y|x1|x2|y1|y2|width|height|'
                      r'viewBox)=")([^"]*)"')


def compact_svg(svg):
    """matplotlib's SVG, smaller: coordinates to 0.1 pt, paths on one line,
    no metadata block. Text (the bars' values) is left as it is."""
    svg = re.sub(r"<metadata>.*?</metadata>\s*", "", svg, flags=re.S)
    return GEOMETRY.sub(
        lambda m: m.group(1) + re.sub(r"(\d+\.\d)\d+", r"\1",
                                      " ".join(m.group(2).split())) + '"',
        svg)


def compact_png(path):
    """A chart's PNG in 64 colours (about a quarter of the bytes; the
    results are kept in the repository), when Pillow is there (Debian's
    python3-matplotlib depends on it)."""
    try:
        from PIL import Image
    except ImportError:
        return
    with Image.open(path) as image:
        small = image.convert("RGB").quantize(colors=64)
    small.save(path, optimize=True)


def colours(series):
    """A colour per series name: the peer's own, else the palette's."""
    result, free = {}, iter(PALETTE * 4)
    for name in series:
        bare = name[3:] if name.startswith("vs ") else name
        known = [c for peer, c in PEER_COLORS.items() if bare.startswith(peer)]
        result[name] = known[0] if known else next(free)
    return result


class Charts:
    def __init__(self, pyplot, out, fmt, device):
        self.plt, self.out, self.fmt, self.device = pyplot, out, fmt, device
        self.written = []

    def save(self, figure, stem):
        path = os.path.join(self.out, f"chart-{stem}.{self.fmt}")
        if self.fmt == "png":
            figure.savefig(path, format="png", dpi=80, bbox_inches="tight")
            compact_png(path)
        else:
            text = io.StringIO()
            figure.savefig(text, format="svg", metadata={"Date": None},
                           bbox_inches="tight")
            with open(path, "w") as f:
                f.write(compact_svg(text.getvalue()))
        self.plt.close(figure)
        self.written.append(path)

    def note(self, figure, text, width_inches):
        """A note under the chart, wrapped to its width."""
        wrapped = textwrap.fill(text, width=int(width_inches * 19))
        figure.text(0.01, 0.0, wrapped, fontsize=6, ha="left", va="top")

    def roof_note(self):
        d, m = self.device["datasheet"], self.device["measured"]
        return (f"Roofs, dashed: {d['source']}; solid: {m['source']} "
                f"({os.path.relpath(self.device['path'], os.path.dirname(HERE))}).")

    def grouped_bars(self, ax, groups, colour, label_values, min_slots):
        """Bars per group (one per series it has), a gap between groups."""
        x, ticks, labels, seen = 0.0, [], [], set()
        for label, row in groups:
            start = x
            for name, value in row.items():
                bar = ax.bar(x, value, width=0.9, color=colour[name],
                             label=name if name not in seen else None)
                seen.add(name)
                if label_values:
                    ax.bar_label(bar, fmt="%.2f", fontsize=6, rotation=90,
                                 padding=2)
                x += 1
            ticks.append((start + x - 1) / 2)
            labels.append(label)
            x += 1
        ax.set_xticks(ticks)
        ax.set_xticklabels(labels, rotation=30, ha="right", fontsize=7)
        # A panel of few bars keeps the bars' width.
        ax.set_xlim(-1, max(x - 1, min_slots))

    def ratio_chart(self, stem, title, panels):
        """panels: [(panel title, [(group label, {series: ratio})])], where a
        series is a peer (and what sets it apart); bars above 1.0: ours is
        faster."""
        # A shape no peer ran (a layout cuBLAS was not timed in) has no bar.
        panels = [(t, [(label, r) for label, r in groups if r])
                  for t, groups in panels]
        panels = [p for p in panels if p[1]]
        if not panels:
            return
        names = []
        for _, groups in panels:
            for _, row in groups:
                names += [n for n in row if n not in names]
        colour = colours(names)
        slots = max(sum(len(r) + 1 for _, r in groups) for _, groups in panels)
        width = min(16, max(5, 0.2 * slots + 1.5))
        figure, axes = self.plt.subplots(len(panels), 1, squeeze=False,
                                         figsize=(width, 2.4 * len(panels) + 0.6))
        for ax, (panel, groups) in zip(axes[:, 0], panels):
            self.grouped_bars(ax, groups, colour, label_values=True,
                              min_slots=12 if len(panels) > 1 else 4)
            ax.axhline(1.0, color="black", linewidth=0.8, linestyle="--")
            top = max(max(r.values()) for _, r in groups)
            ax.set_ylim(0, max(1.25, top * 1.3))
            ax.set_ylabel("ours / peer")
            ax.set_title(panel, fontsize=8)
            ax.legend(fontsize=6, loc="upper left", ncol=4, frameon=False)
        figure.suptitle(title, fontsize=9)
        figure.tight_layout()
        self.note(figure, "Our best variant per shape against each peer timed in "
                  "the same run (higher: ours faster; the dashed line: as fast).",
                  width)
        self.save(figure, stem)

    def roofs(self, ax, lo, hi):
        d, m = self.device["datasheet"], self.device["measured"]
        grid = [lo * (hi / lo) ** (i / 200) for i in range(201)]
        for roof, style, who in ((d, "--", "datasheet"), (m, "-", "measured")):
            ax.plot(grid, [min(roof["tensor_tflops"], x * roof["memory_gbs"] / 1e3)
                           for x in grid], style, color="black", linewidth=0.9,
                    label=f"{who}: {roof['tensor_tflops']:.0f} TFLOP/s, "
                          f"{roof['memory_gbs']:.0f} GB/s")

    def roofline_chart(self, stem, title, series):
        """series: [(label, marker, colour, [(intensity, TFLOP/s, text)])]."""
        series = [s for s in series if s[3]]
        if not series:
            return
        d = self.device["datasheet"]
        xs = [p[0] for s in series for p in s[3]]
        ridge = d["tensor_tflops"] * 1e3 / d["memory_gbs"]
        lo, hi = min(min(xs), ridge) / 3, max(max(xs), ridge) * 3
        figure, ax = self.plt.subplots(figsize=(7, 4.2))
        self.roofs(ax, lo, hi)
        for label, marker, colour, points in series:
            ax.scatter([p[0] for p in points], [p[1] for p in points], s=18,
                       marker=marker, color=colour, label=label, zorder=3,
                       linewidths=1)
            for i, (x, y, text) in enumerate(points):
                if text:  # below and above in turn: neighbours overlap less
                    ax.annotate(text, (x, y), fontsize=5.5,
                                xytext=(4, -9 if i % 2 == 0 else 4),
                                textcoords="offset points")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlim(lo, hi)
        ax.set_xlabel("arithmetic intensity: FLOP per byte of DRAM traffic "
                      "(each operand read once, the result written once)")
        ax.set_ylabel("TFLOP/s")
        ax.legend(fontsize=6, loc="lower right", ncol=2)
        ax.set_title(title, fontsize=9)
        figure.tight_layout()
        self.note(figure, self.roof_note(), 7)
        self.save(figure, stem)

    def bandwidth_chart(self, stem, title, groups):
        """groups: [(label, {series: GB/s})] of a memory-bound family: bars
        under the bandwidth roofs."""
        if not groups:
            return
        d, m = self.device["datasheet"], self.device["measured"]
        names = []
        for _, row in groups:
            names += [n for n in row if n not in names]
        slots = sum(len(r) + 1 for _, r in groups)
        width = min(14, max(5, 0.25 * slots + 2))
        figure, ax = self.plt.subplots(figsize=(width, 3.2))
        self.grouped_bars(ax, groups, colours(names), label_values=False,
                          min_slots=4)
        for roof, style, who in ((d, "--", "datasheet"), (m, "-", "measured")):
            ax.axhline(roof["memory_gbs"], color="black", linestyle=style,
                       linewidth=0.9, label=f"{who}: {roof['memory_gbs']:.0f} GB/s")
        ax.set_ylim(0, d["memory_gbs"] * 1.25)
        ax.set_ylabel("GB/s (bytes read + written)")
        ax.legend(fontsize=6, loc="upper left", ncol=3, frameon=False)
        ax.set_title(title, fontsize=9)
        figure.tight_layout()
        self.note(figure, self.roof_note(), width)
        self.save(figure, stem)


def types(inp, out):
    return f"{inp}->{out}"


def draw_gemm(charts, bench):
    rows, epilogue = gemm_data(bench)
    if not rows and not epilogue:
        return
    groups = {}
    for (problem, inp, out, layout), row in rows.items():
        label = cube(problem) + ("" if layout == "nn" else " " + layout.upper())
        groups.setdefault(label, {}).update(
            {f"vs {peer} {types(inp, out)}": r for peer, r in ratios(row).items()})
    panels = [("TFLOP/s of our best variant / cuBLAS's, same types and operand "
               "layout (f32 accumulation)", list(groups.items()))]
    if epilogue:
        panels.append((
            "fused bias + GELU, f16 -> f16: cuBLASLt's time / our fastest fused "
            "kernel's",
            [(cube(p), {"vs " + k: v for k, v in
                        ratios(r, higher_is_better=False).items()})
             for p, r in epilogue.items()]))
    charts.ratio_chart("gemm-ratio", "GEMM: ours against cuBLAS", panels)
    points, labelled = {}, set()
    for (problem, inp, out, layout), row in rows.items():
        x = gemm_intensity(problem, inp, out)
        text = cube(problem) if problem not in labelled else ""
        labelled.add(problem)
        points.setdefault(("ours", types(inp, out)), []).append(
            (x, row["ours"][0], text))
        if "cuBLAS" in row:
            points.setdefault(("cuBLAS", types(inp, out)), []).append(
                (x, row["cuBLAS"], ""))
    # Colour: who; marker: the types.
    marker = dict(zip(sorted({t for _, t in points}), "os^Dv<>"))
    colour = {"ours": PEER_COLORS["ours"], "cuBLAS": PALETTE[0]}
    charts.roofline_chart(
        "gemm-roofline", "GEMM: achieved TFLOP/s, our best variant per shape, "
        "types and layout, and cuBLAS",
        [(f"{who} {t}", marker[t], colour[who], p)
         for (who, t), p in sorted(points.items(), key=lambda i: i[0][::-1])])


def draw_attention(charts, bench, torch):
    rows = attention_data(bench, torch)
    if not rows:
        return
    panels = {}
    for (dtype, d, mode, seq), row in sorted(rows.items()):
        panels.setdefault(f"{dtype}, D = {d} (batch 4 x 32 heads)", []).append(
            (f"{mode} {seq}", {"vs " + k: v for k, v in ratios(row).items()}))
    charts.ratio_chart("attention-ratio",
                       "Attention forward: TFLOP/s of our best variant / "
                       "PyTorch SDPA's backend", sorted(panels.items()))
    series = {}
    for (dtype, d, mode, seq), row in sorted(rows.items()):
        x = attention_intensity(seq, mode)
        for who in ("ours", "SDPA FLASH", "SDPA cuDNN"):
            if who in row:
                y = row[who][0] if who == "ours" else row[who]
                series.setdefault((who, mode), []).append((x, y, ""))
    colour = colours(["ours", "SDPA FLASH", "SDPA cuDNN"])
    charts.roofline_chart(
        "attention-roofline",
        "Attention forward: achieved TFLOP/s, f16 and bf16, D = 64 and 128 "
        "(intensity N/2; causal N/4)",
        [(f"{who} {mode}", "o" if mode == "full" else "^", colour[who], points)
         for (who, mode), points in sorted(series.items())])


def draw_softmax(charts, bench, torch):
    rows = softmax_data(bench, torch)
    if not rows:
        return
    panels = {}
    for (shape, dtype), row in rows.items():
        panels.setdefault(f"{dtype}, rows x columns", []).append(
            (shape, {"vs " + k: v for k, v in ratios(row).items()}))
    charts.ratio_chart("softmax-ratio",
                       "Row softmax: GB/s of our best variant / peer's "
                       "(torch.softmax; the copy of the same bytes)",
                       sorted(panels.items()))
    charts.bandwidth_chart(
        "softmax-roofline",
        "Row softmax (memory-bound): achieved GB/s under the bandwidth roofs",
        [(f"{shape} {dtype}", {(OURS if k == "ours" else k):
                               (v[0] if k == "ours" else v)
                               for k, v in row.items()})
         for (shape, dtype), row in rows.items()])


def draw_vector_add(charts, bench, torch):
    row = vector_add_data(bench, torch)
    if not row:
        return
    charts.ratio_chart("vector-add-ratio",
                       "Vector add: GB/s of our best variant / peer's",
                       [("2^28 float32", [("2^28 f32", {
                           "vs " + k: v for k, v in ratios(row).items()})])])
    charts.bandwidth_chart(
        "vector-add-roofline",
        "Vector add (memory-bound): achieved GB/s under the bandwidth roofs",
        [("2^28 f32", {(OURS if k == "ours" else k): (v[0] if k == "ours" else v)
                       for k, v in row.items()})])


def draw(run, out=None, fmt="png", device=DEFAULT_DEVICE):
    """Draws the charts of the run in folder `run` into `out` (default: the
    run's folder). Returns (files written, why none could be drawn)."""
    pyplot, why = import_pyplot()
    if pyplot is None:
        return [], (f"matplotlib is not importable by {sys.executable} "
                    f"({why}): no charts drawn; install python3-matplotlib "
                    "(scripts/setup.sh does; Debian's python3 sees it, a "
                    "pyenv or venv python3 needs `pip install matplotlib`)")
    charts = Charts(pyplot, out or run, fmt, read_device(device))
    torch = load(os.path.join(run, "torch.json")) or {}
    # Older runs kept the vector add's peer on its own.
    if "vector_add" not in torch:
        torch["vector_add"] = load(os.path.join(run, "torch-vector-add.json")) or {}
    draw_gemm(charts, load(os.path.join(run, "bench-gemm.json")))
    draw_attention(charts, load(os.path.join(run, "bench-attention.json")), torch)
    draw_softmax(charts, load(os.path.join(run, "bench-softmax.json")), torch)
    draw_vector_add(charts, load(os.path.join(run, "bench-vector-add.json")),
                    torch.get("vector_add"))
    return charts.written, ""


def markdown_links(files, relative_to):
    """Markdown image links to the charts, for a summary or a README."""
    return [f"![{os.path.basename(f)}]({os.path.relpath(f, relative_to)})"
            for f in files]


def append_links(markdown, files):
    """Appends a Charts section linking `files` to the Markdown file."""
    with open(markdown, "a") as f:
        f.write("\nCharts (benchmarks/plot.py):\n\n" + "\n".join(
            markdown_links(files, os.path.dirname(os.path.abspath(markdown))))
            + "\n")


def main():
    parser = argparse.ArgumentParser(
        description="Draw the charts of a GPU run's benchmark reports.")
    parser.add_argument("run", help="folder of the run (bench-*.json, torch.json)")
    parser.add_argument("--out", help="where to write the charts (default: "
                        "the run's folder)")
    parser.add_argument("--format", choices=("png", "svg"), default="png",
                        help="PNG at 80 dpi in 64 colours, or SVG with its "
                        "text as text (default: %(default)s)")
    parser.add_argument("--device", default=DEFAULT_DEVICE,
                        help="the roofs (default: %(default)s)")
    parser.add_argument("--link-from", metavar="MARKDOWN",
                        help="append image links to the charts drawn to this "
                        "Markdown file (a summary.md beside them)")
    args = parser.parse_args()
    if not os.path.isdir(args.run):
        print(f"plot.py: {args.run} is not a folder", file=sys.stderr)
        return 2
    if args.out:
        os.makedirs(args.out, exist_ok=True)
    files, why = draw(args.run, args.out, args.format, args.device)
    if why:
        print("plot.py: " + why, file=sys.stderr)
        return 3
    if not files:
        print(f"plot.py: no benchmark reports with peers in {args.run}: "
              "nothing drawn", file=sys.stderr)
        return 1
    for f in files:
        print(f"{f} ({os.path.getsize(f) / 1024:.0f} KiB)")
    if args.link_from:
        append_links(args.link_from, files)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
