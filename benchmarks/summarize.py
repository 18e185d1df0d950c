#!/usr/bin/env python3
"""Summarizes one GPU run of scripts/gpu/run-gpu.sh: GoogleTest JSON reports,
the Google Benchmark JSON of tile-bench-vector-add and the PyTorch peer.
Prints a short table and writes it as Markdown, with the run's charts
(benchmarks/plot.py) beside it and linked from it when matplotlib is there;
it says so when it is not."""
import argparse
import json
import os
import re

import plot


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as error:
        return {"error": str(error)}


def test_line(name, report):
    if "error" in report:
        return f"{name}: NO REPORT ({report['error']})", False
    tests = failures = skipped = 0
    for suite in report.get("testsuites", []):
        for case in suite.get("testsuite", []):
            tests += 1
            if case.get("failures"):
                failures += 1
            elif case.get("result") == "SKIPPED" or case.get("status") == "NOTRUN":
                skipped += 1
    passed = tests - failures - skipped
    # On the GPU machine a suite that only skipped proved nothing.
    good = failures == 0 and passed > 0
    status = "ok" if good else ("FAILED" if failures else "NOTHING RAN")
    return (f"{name}: {passed} passed, {failures} failed, {skipped} skipped "
            f"[{status}]"), good


def medians(bench, field, scale=1.0):
    """{problem: {benchmark: median of `field` / scale}} from a Google
    Benchmark report whose runs are named NAME/PROBLEM, and the runs that
    failed."""
    rows = {}
    failed = []
    for entry in bench.get("benchmarks", []):
        if entry.get("error_occurred"):
            failed.append(f"{entry['run_name']}: {entry.get('error_message')}")
            continue
        # Entries without the field (e.g. paired runs in a TFLOP/s table)
        # belong to another table.
        if entry.get("aggregate_name") != "median" or field not in entry:
            continue
        name, problem = entry["run_name"].split("/")[:2]
        rows.setdefault(problem, {})[name] = entry[field] / scale
    return rows, failed


def gemm_table(bench):
    """Best tile variant per problem and output type against cuBLAS."""
    rows, failed = medians(bench, "TFLOP/s", 1e12)
    if not rows:
        return ["", "no gemm benchmark results: " + str(bench.get("error", ""))]
    lines = ["", "GEMM, f32 accumulation, median of 20 (CUDA events); "
             "TFLOP/s = 2MNK/t",
             f"{'M x N x K':<16} {'in->out':<9} {'cuBLAS':>8} {'tile best':>10} "
             f"{'ratio':>7}  config"]
    for problem, results in rows.items():
        for inp, out in (("f16", "f32"), ("f16", "f16"), ("bf16", "f32"),
                         ("bf16", "bf16")):
            cublas = results.get(f"cublas_{inp}_{out}")
            # Plain GEMMs only: the name of every epilogue variant has
            # "_bias" (ConfigKeys.h asserts it of the epilogue table).
            tiles = {k: v for k, v in results.items()
                     if k.startswith(f"gemm_{inp}_{out}_")
                     and "_bias" not in k}
            if not cublas or not tiles:
                continue
            best = max(tiles, key=tiles.get)
            lines.append(f"{problem:<16} {inp + '->' + out:<9} {cublas:>8.1f} "
                         f"{tiles[best]:>10.1f} {tiles[best] / cublas:>6.1%}  "
                         f"{best}")
    for line in sorted(set(failed)):
        lines.append("FAILED " + line)
    return lines


def epilogue_table(bench):
    """The fused bias + GELU epilogue against the unfused ones and cuBLASLt."""
    times, _ = medians(bench, "real_time")
    paired_ratio, _ = medians(bench, "fused_over_plain")
    paired_plain, _ = medians(bench, "plain_us")
    lines = ["", "Bias + GELU epilogue, f16 in and out, median of 20 (us); "
             "fused = this project's GEMM with the epilogue in registers",
             f"{'M x N x K':<16} {'kernel':<44} {'time us':>9} {'vs (a)':>7}"]
    found = False
    for problem, results in times.items():
        plain = {k: v for k, v in results.items()
                 if k.startswith("gemm_f16_f16_") and "_bias" not in k}
        # Names may end in a divisibility promise (_div8).
        fused = {k: v for k, v in results.items()
                 if k.startswith("gemm_f16_f16_")
                 and re.search(r"_bias_gelu(_staged)?(_div\d+)?$", k)}
        fused_tanh = {k: v for k, v in results.items()
                      if k.startswith("gemm_f16_f16_")
                      and re.search(r"_bias_gelu_tanh(_staged)?(_div\d+)?$", k)}
        # (b): the fastest of this project's GEMMs followed by the kernel
        # (one per GEMM with a fused variant; older runs timed one GEMM
        # under the bare name, which the prefix also matches).
        b = min((v for k, v in results.items()
                 if k.startswith("epilogue_tile_gemm_then_bias_gelu")),
                default=None)
        unfused = [("(b) tile GEMM, then bias_gelu kernel", b),
                   ("(c) cuBLAS, then bias_gelu kernel",
                    results.get("epilogue_cublas_then_bias_gelu")),
                   ("(d) cuBLASLt GELU_BIAS (tanh form)",
                    results.get("epilogue_cublaslt_gelu_bias"))]
        if not plain or not fused or not any(t for _, t in unfused):
            continue
        found = True
        a = min(plain, key=plain.get)
        rows = [("(a) tile GEMM, no epilogue: " + a[5:], plain[a])]
        best = min(fused, key=fused.get)
        rows.append(("fused, erf: " + best[5:], fused[best]))
        if fused_tanh:
            best_tanh = min(fused_tanh, key=fused_tanh.get)
            rows.append(("fused, tanh: " + best_tanh[5:], fused_tanh[best_tanh]))
        rows += [(label, t) for label, t in unfused if t]
        for label, t in rows:
            lines.append(f"{problem:<16} {label[:44]:<44} {t:>9.1f} "
                         f"{t / plain[a]:>7.1%}")
        verdict = (f"fused (erf) costs {fused[best] / plain[a] - 1:+.1%} over "
                   f"(a) (goal <= +3%)")
        if b:
            verdict += (f", {'beats' if fused[best] < b else 'loses to'} (b) "
                        f"by {1 - fused[best] / b:.1%}")
        lines.append(f"{problem:<16} {verdict}")
        # Paired runs: each fused kernel and its own GEMM launched in turn.
        for name, ratio in paired_ratio.get(problem, {}).items():
            lines.append(
                f"{problem:<16} paired {name[16:]:<37} "
                f"{paired_plain[problem][name]:>7.1f} -> {results[name]:>7.1f} us "
                f"({ratio - 1:+.1%}, median of pairs)")
    return lines if found else []


def softmax_table(bench, torch):
    """Softmax GB/s against the copy and torch.softmax, per shape and type."""
    rows, _ = medians(bench, "GB/s", 1e9)
    if not rows:
        return ["", "no softmax benchmark results: " + str(bench.get("error", ""))]
    lines = ["", "Row softmax, median of 50 (CUDA events); GB/s counts bytes "
             "read + written",
             f"{'M x N':<12} {'type':<5} {'copy':>8} {'tile':>8} {'vs copy':>8} "
             f"{'torch':>8} {'vs torch':>9}  kernel"]
    for shape, results in rows.items():
        for dtype in ("f16", "f32"):
            copy = results.get(f"copy_{dtype}")
            tiles = {k: v for k, v in results.items()
                     if k.startswith((f"softmax_{dtype}_",
                                      f"softmax_online_{dtype}_"))}
            if not copy or not tiles:
                continue
            best = max(tiles, key=tiles.get)
            peer = torch.get(f"{dtype}/{shape}", {}).get("gbps")
            peer_text = (f"{peer:>8.1f} {tiles[best] / peer:>8.1%}" if peer
                         else f"{'-':>8} {'-':>9}")
            lines.append(f"{shape:<12} {dtype:<5} {copy:>8.1f} {tiles[best]:>8.1f} "
                         f"{tiles[best] / copy:>7.1%} {peer_text}  {best}")
    return lines


def attention_table(bench, torch):
    """Attention TFLOP/s, the fastest variant per (type, D, mode, sequence),
    against torch's SDPA FLASH and cuDNN backends on the same type."""
    rows, failed = medians(bench, "TFLOP/s", 1e12)
    if not rows:
        return ["", "no attention benchmark results: " + str(bench.get("error", ""))]
    lines = ["", "Attention forward, batch 4, 32 heads, median of 20 "
             "(CUDA events); TFLOP/s = 4 B H N^2 D / t, halved for causal",
             f"{'N':>6} {'type':<5} {'D':>4} {'mode':<7} {'tile':>7} {'FLASH':>7} "
             f"{'cuDNN':>7} {'vs FLASH':>9}  kernel"]
    for dtype in ("f16", "bf16"):
        for d in (64, 128):
            for mode in ("full", "causal"):
                prefix = ("attention_" + ("causal_" if mode == "causal" else "")
                          + dtype + f"_d{d}_")
                # The peer's f16 keys carry no type (earlier reports).
                peer_prefix = "" if dtype == "f16" else dtype + "/"
                for seq in sorted(rows, key=int):
                    tiles = {k: v for k, v in rows[seq].items()
                             if k.startswith(prefix) and not k.endswith("_lse")}
                    if not tiles:
                        continue
                    best = max(tiles, key=tiles.get)
                    peer = {name: torch.get(f"{name}/{peer_prefix}d{d}/{mode}/{seq}",
                                            {}).get("tflops")
                            for name in ("flash", "cudnn")}
                    text = {name: f"{v:>7.1f}" if v else f"{'-':>7}"
                            for name, v in peer.items()}
                    ratio = (f"{tiles[best] / peer['flash']:>9.1%}"
                             if peer["flash"] else f"{'-':>9}")
                    lines.append(f"{seq:>6} {dtype:<5} {d:>4} {mode:<7} "
                                 f"{tiles[best]:>7.1f} {text['flash']} "
                                 f"{text['cudnn']} {ratio}  {best}")
    for line in sorted(set(failed)):
        lines.append("FAILED " + line)
    return lines


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True, help="folder of the run")
    parser.add_argument("--markdown", required=True)
    parser.add_argument("--header", default="")
    parser.add_argument("--no-charts", action="store_true",
                        help="draw no charts (benchmarks/plot.py)")
    parser.add_argument("--tests-only", action="store_true",
                        help="a run without benchmarks (run-gpu.sh run tests): "
                        "summarize the tests; missing benchmarks are no failure")
    args = parser.parse_args()
    lines = [args.header] if args.header else []
    ok = True
    for name, file in [("runtime GPU tests", "runtime-tests.json"),
                       ("kernel GPU tests", "gpu-tests.json")]:
        line, good = test_line(name, load(os.path.join(args.out, file)))
        lines.append(line)
        ok &= good
    if args.tests_only:
        text = "\n".join(lines)
        print(text)
        with open(args.markdown, "w") as f:
            f.write("```\n" + text + "\n```\n")
        return 0 if ok else 1

    bench = load(os.path.join(args.out, "bench-vector-add.json"))
    rows = {}
    for entry in bench.get("benchmarks", []):
        if entry.get("error_occurred") or entry.get("aggregate_name") != "median":
            continue
        name = entry["run_name"].split("/")[0]
        rows[name] = (entry["real_time"], entry["GB/s"] / 1e9)
    peers = load(os.path.join(args.out, "torch.json"))
    torch = peers.get("vector_add", {})
    lines.append("")
    lines.append("Vector add, 2^28 float32, median of 50 launches "
                 "(CUDA events); GB/s counts bytes read + written")
    lines.append(f"{'kernel':<34} {'time us':>9} {'GB/s':>8} {'vs copy':>8}")
    copy = rows.get("copy_dtod")
    if copy is None:
        lines.append("no benchmark results: " + str(bench.get("error", "")))
        ok = False
    else:
        best = None
        for name, (us, gbps) in rows.items():
            ratio = gbps / copy[1]
            label = "cuMemcpyDtoDAsync" if name == "copy_dtod" else name
            lines.append(f"{label:<34} {us:>9.1f} {gbps:>8.1f} {ratio:>7.1%}")
            if name != "copy_dtod" and (best is None or gbps > best[1]):
                best = (name, gbps, ratio)
        for key in ("torch.add", "torch.copy_"):
            if key in torch:
                t = torch[key]
                lines.append(f"{key:<34} {t['median_ms'] * 1e3:>9.1f} "
                             f"{t['gbps']:>8.1f} {t['gbps'] / copy[1]:>7.1%}")
        if best:
            goal = "meets" if best[2] >= 0.95 else "misses"
            lines.append(f"best tile kernel: {best[0]} at {best[2]:.1%} of the "
                         f"copy ({goal} the 95% goal)")
    gemm = load(os.path.join(args.out, "bench-gemm.json"))
    lines += gemm_table(gemm)
    lines += epilogue_table(gemm)
    lines += softmax_table(load(os.path.join(args.out, "bench-softmax.json")),
                           peers.get("softmax", {}))
    lines += attention_table(load(os.path.join(args.out, "bench-attention.json")),
                             peers.get("attention", {}))
    text = "\n".join(lines)
    print(text)
    with open(args.markdown, "w") as f:
        f.write("```\n" + text + "\n```\n")
    if not args.no_charts:
        charts(args.out, args.markdown)
    return 0 if ok else 1


def charts(run, markdown):
    """Draws the run's charts beside the Markdown summary and links them from
    it. Without matplotlib it says so and draws nothing: no failure, the
    tables are the result."""
    folder = os.path.dirname(os.path.abspath(markdown))
    try:
        files, why = plot.draw(run, folder)
    except SystemExit as error:  # a device file without its roofs
        files, why = [], str(error)
    if why:
        print("charts: " + why)
    elif not files:
        print("charts: none (no benchmark report with a peer)")
    else:
        plot.append_links(markdown, files)
        print(f"charts: {len(files)} in {folder} (linked from "
              f"{os.path.basename(markdown)})")


if __name__ == "__main__":
    raise SystemExit(main())
