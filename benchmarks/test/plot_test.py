#!/usr/bin/env python3
"""Runs benchmarks/plot.py and benchmarks/summarize.py on a small hand-made
run (benchmarks/test/plot-sample: made up for this test, not a measurement),
without a GPU.

  plot_test.py charts         the charts exist, are not empty and carry the
                              sample's ratios (an SVG keeps the bars' values
                              as text); PNG too; summarize.py draws them
                              beside its table and links them. Exit 77
                              (ctest: skipped) only when neither python3 nor
                              /usr/bin/python3 imports matplotlib.
  plot_test.py no-matplotlib  summarize.py with matplotlib hidden: it says
                              so, draws nothing and still writes its table.
"""
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BENCHMARKS = os.path.dirname(HERE)
SAMPLE = os.path.join(HERE, "plot-sample")
FAMILIES = ("gemm", "attention", "softmax", "vector-add")
# What the sample's numbers give (ours / peer, so that > 1 is faster):
# 427 / 700 TFLOP/s, 500 / 625 (TN), cuBLASLt 200 us / ours 232 us; 350 /
# 318.2 and 350 / 500; 3700 / 3900 and 3700 / 1060 GB/s; 4300 / 4200 and
# 4300 / 4400.
RATIOS = {"gemm": ["0.61", "0.80", "0.86"], "attention": ["1.10", "0.70"],
          "softmax": ["0.95", "3.49"], "vector-add": ["1.02", "0.98"]}
# The fastest mean (900 TFLOP/s: 1.29) is no median: it must not count.
NOT_RATIOS = {"gemm": ["1.29"]}

failures = []


def check(condition, what, detail=""):
    """Records `what`; on failure, with `detail` (a program's output)."""
    if not condition:
        failures.append(what)
    print(("ok   " if condition else "FAIL ") + what)
    if not condition and detail:
        print("     " + detail.strip().replace("\n", "\n     "))


def run(python, *args, env=None):
    result = subprocess.run([python, *args], capture_output=True, text=True,
                            env=env)
    return result.returncode, result.stdout + result.stderr


def plotting_python():
    """An interpreter that imports matplotlib: this one, or Debian's (which
    sees python3-matplotlib where a pyenv python3 does not)."""
    for python in dict.fromkeys([sys.executable, "/usr/bin/python3"]):
        if os.path.exists(python) and run(python, "-c", "import matplotlib")[0] == 0:
            return python
    return None


def test_charts(work):
    python = plotting_python()
    if python is None:
        print("SKIPPED: neither python3 nor /usr/bin/python3 imports "
              "matplotlib (apt-get install python3-matplotlib)")
        return 77
    print(f"drawing with {python}")
    plot = os.path.join(BENCHMARKS, "plot.py")
    svg = os.path.join(work, "svg")
    rc, output = run(python, plot, SAMPLE, "--out", svg, "--format", "svg")
    check(rc == 0, f"plot.py --format svg exits with 0 (got {rc})", output)
    for family in FAMILIES:
        for kind in ("ratio", "roofline"):
            path = os.path.join(svg, f"chart-{family}-{kind}.svg")
            exists = os.path.isfile(path) and os.path.getsize(path) > 0
            check(exists, f"{os.path.basename(path)} exists and is not empty")
            if not exists:
                continue
            text = open(path).read()
            if kind == "ratio":
                for value in RATIOS[family]:
                    check(f">{value}</text>" in text,
                          f"{os.path.basename(path)} shows the ratio {value}")
                for value in NOT_RATIOS.get(family, []):
                    check(f">{value}</text>" not in text,
                          f"{os.path.basename(path)} has no bar of {value} "
                          "(a mean, not a median)")
            else:
                check("datasheet: " in text and "measured: " in text
                      and "nvidia-h200-peaks.json" in text,
                      f"{os.path.basename(path)} draws both roofs and says "
                      "where they come from")
    png = os.path.join(work, "png")
    rc, output = run(python, plot, SAMPLE, "--out", png)
    check(rc == 0, f"plot.py (PNG) exits with 0 (got {rc})", output)
    for family in FAMILIES:
        for kind in ("ratio", "roofline"):
            path = os.path.join(png, f"chart-{family}-{kind}.png")
            is_png = os.path.isfile(path) and os.path.getsize(path) > 1000
            if is_png:
                with open(path, "rb") as f:
                    is_png = f.read(8) == b"\x89PNG\r\n\x1a\n"
            check(is_png, f"{os.path.basename(path)} is a PNG image")
    # summarize.py draws the charts beside its Markdown table and links them.
    folder = os.path.join(work, "run")
    shutil.copytree(SAMPLE, folder)
    markdown = os.path.join(folder, "summary.md")
    rc, output = run(python, os.path.join(BENCHMARKS, "summarize.py"),
                     "--out", folder, "--markdown", markdown)
    check(rc == 0, f"summarize.py exits with 0 (got {rc})", output)
    check("charts: 8 in" in output, "summarize.py says it drew 8 charts", output)
    summary = open(markdown).read() if os.path.isfile(markdown) else ""
    for family in FAMILIES:
        name = f"chart-{family}-ratio.png"
        check(f"![{name}]({name})" in summary and
              os.path.isfile(os.path.join(folder, name)),
              f"summary.md links {name}, which is beside it")
    # Nothing to draw, and roofs that are not roofs.
    rc, output = run(python, plot, os.path.join(work, "png"))
    check(rc == 1 and "nothing drawn" in output,
          "plot.py on a folder without reports says nothing was drawn", output)
    bad = os.path.join(work, "bad-device.json")
    with open(bad, "w") as f:
        f.write('{"datasheet": {"tensor_tflops": 1}}')
    rc, output = run(python, plot, SAMPLE, "--out", os.path.join(work, "bad"),
                     "--device", bad)
    check(rc != 0 and "expected \"datasheet\" and \"measured\" roofs" in output,
          "plot.py refuses a device file without both roofs", output)
    return 0


def test_without_matplotlib(work):
    # A matplotlib that cannot be imported, ahead of any installed one.
    hidden = os.path.join(work, "hidden", "matplotlib")
    os.makedirs(hidden)
    with open(os.path.join(hidden, "__init__.py"), "w") as f:
        f.write('raise ImportError("hidden by plot_test.py")\n')
    env = dict(os.environ, PYTHONPATH=os.path.dirname(hidden))
    folder = os.path.join(work, "run")
    shutil.copytree(SAMPLE, folder)
    markdown = os.path.join(folder, "summary.md")
    rc, output = run(sys.executable, os.path.join(BENCHMARKS, "summarize.py"),
                     "--out", folder, "--markdown", markdown, env=env)
    check(rc == 0, f"summarize.py exits with 0 (got {rc})", output)
    check("charts: matplotlib is not importable" in output
          and "hidden by plot_test.py" in output,
          "summarize.py says matplotlib is not importable, and why", output)
    check(os.path.isfile(markdown) and "Vector add" in open(markdown).read(),
          "summarize.py still writes its table")
    check(not [f for f in os.listdir(folder) if f.startswith("chart-")],
          "no chart is drawn")
    rc, output = run(sys.executable, os.path.join(BENCHMARKS, "plot.py"),
                     folder, env=env)
    check(rc == 3 and "matplotlib is not importable" in output,
          f"plot.py says so too, with exit status 3 (got {rc})", output)
    return 0


def main():
    tests = {"charts": test_charts, "no-matplotlib": test_without_matplotlib}
    if len(sys.argv) != 2 or sys.argv[1] not in tests:
        print(f"usage: {sys.argv[0]} {'|'.join(tests)}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="tile-plot-test-") as work:
        rc = tests[sys.argv[1]](work)
    if rc:
        return rc
    print(f"{len(failures)} failed" if failures else "all passed")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
