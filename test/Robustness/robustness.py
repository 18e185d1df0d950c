#!/usr/bin/env python3
# ===- robustness.py - Hostile inputs for every tile tool ------------------===#
#
# The robustness suite (docs/Robustness.md). Three modes:
#
#   robustness.py corpus    --bin B --src S --work W   the cases of corpus/
#   robustness.py mutations --bin B --src S --work W --seed 16 --count 600
#   robustness.py valid     --bin B --src S --work W   library kernels and
#                                                      examples compile
#                                                      with no diagnostic
#
# Every case runs one tool under a time limit (--timeout) and an address-
# space limit (--memory-mib) and fails on a signal, a time-out, `LLVM ERROR`,
# an uncaught exception (`terminate called`), an assertion or sanitizer
# report, an exit status other than 0 or 1 (the drivers' 3 is a defect they
# found), a non-zero exit without a diagnostic, or exit 0 after printing an
# error. A case may ask for more (expect=error: the tool must refuse the
# input; expect=ok: it must accept it silently; forbid=/require= regular
# expressions on the output). A failure prints the tool, its command line,
# the reproducer (the input file, under --work for generated ones) and the
# last lines of output.
#
# ===-----------------------------------------------------------------------===#

import argparse
import concurrent.futures
import json
import os
import random
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")

# Tools the cases may name; resolved in --bin.
TOOLS = ["tile-opt", "tile-translate", "tile-kernels", "tile-tune",
         "tile-tune-run", "tile-robustness-manifest",
         "tile-robustness-frontend"]
# Exit statuses that are a clean end besides 0 and 1: tile-tune-run says
# "no GPU" / "no candidates" / usage with 2.
EXTRA_EXIT = {"tile-tune-run": {2}}

# Crash reports on stderr. (Only stderr is searched: tile-opt prints the IR
# it was given on stdout.)
CRASH_MARKERS = [
    ("LLVM ERROR", re.compile(r"LLVM ERROR")),
    ("uncaught exception", re.compile(r"terminate called")),
    ("assertion", re.compile(r"Assertion `.*' failed|Assertion failed")),
    ("unreachable", re.compile(r"UNREACHABLE executed")),
    ("crash report", re.compile(r"^Stack dump:|PLEASE submit a bug report",
                                re.M)),
    ("sanitizer", re.compile(r"ERROR: \w+Sanitizer|^\S+:\d+:\d+: runtime "
                             r"error: ", re.M)),
]
ERROR_LINE = re.compile(r"(^|\s)error:", re.M)


# ===-----------------------------------------------------------------------===#
# Cases
# ===-----------------------------------------------------------------------===#

class Case:
    def __init__(self, name, argv, source=None, expect="clean", forbid=None,
                 require=None, timeout=None, stdin=None, then=None,
                 env=None):
        self.name = name          # unique, for --filter and the report
        self.argv = argv          # [tool, args...] (tool not resolved yet)
        self.source = source      # the reproducer: the input file, if any
        self.expect = expect      # clean | error | ok
        self.forbid = forbid or []
        self.require = require or []
        self.timeout = timeout
        self.stdin = stdin
        self.then = then          # a second command (see run_case)
        self.env = env or {}      # extra environment variables

    def command(self, cfg, argv=None):
        argv = list(argv or self.argv)
        if argv[0] in TOOLS:
            argv[0] = os.path.join(cfg.bin, argv[0])
        return argv


OPTION = re.compile(r"^(expect|forbid|require|timeout|stdin|name|env)=(.*)$")


def parse_case_line(line, subst, default_name):
    """`[expect=..] [forbid=RE] [require=RE] [timeout=S] [stdin=F] [name=N]
    [env=VAR=VALUE] tool args... [;; tool args...]` with %-substitutions;
    shell quoting as in sh. With `;;` the second command must refuse what
    the first one refuses."""
    words = shlex.split(line)
    then = None
    if ";;" in words:
        at = words.index(";;")
        words, then = words[:at], words[at + 1:]
    opts = {"forbid": [], "require": [], "env": []}
    while words and OPTION.match(words[0]):
        key, value = OPTION.match(words[0]).groups()
        if key in ("forbid", "require", "env"):
            opts[key].append(value)
        else:
            opts[key] = value
        words.pop(0)
    if not words:
        raise ValueError("no command in case line: " + line)
    def sub(word):
        for key in sorted(subst, key=len, reverse=True):
            word = word.replace(key, subst[key])
        return word
    argv = [sub(w) for w in words]
    then = [sub(w) for w in then] if then else None
    for tool in [argv[0]] + ([then[0]] if then else []):
        if tool not in TOOLS:
            raise ValueError("unknown tool '%s' in case line: %s" % (tool,
                                                                     line))
    if opts.get("expect", "clean") not in ("clean", "error", "ok"):
        raise ValueError("expect= takes clean, error or ok: " + line)
    return Case(opts.get("name", default_name), argv,
                expect=opts.get("expect", "clean"),
                forbid=[sub(f) for f in opts["forbid"]],
                require=[sub(r) for r in opts["require"]],
                timeout=float(opts["timeout"]) if "timeout" in opts else None,
                stdin=sub(opts["stdin"]) if "stdin" in opts else None,
                then=then, env=dict(e.split("=", 1) for e in opts["env"]))


# Every corpus .mlir file goes through these (plus its own `// ROBUST:`
# lines; a line with the same command replaces the default's expectation).
MLIR_DEFAULTS = [
    "tile-opt %s",
    "tile-opt %s --tile-to-nvvm -o %t/out.mlir ;; "
    "tile-translate %s --emit=ptx -o %t/out.ptx --manifest-out=%t/out.json",
]
# Every corpus manifest goes through the runtime driver.
JSON_DEFAULTS = ["tile-robustness-manifest %s"]


# ===-----------------------------------------------------------------------===#
# Running one case
# ===-----------------------------------------------------------------------===#

class Result:
    def __init__(self, case, cmd, rc, elapsed, timed_out, out, err, tmp):
        self.case, self.cmd, self.rc = case, cmd, rc
        self.elapsed, self.timed_out = elapsed, timed_out
        self.out, self.err, self.tmp = out, err, tmp
        self.problems = []


def signal_name(number):
    try:
        return signal.Signals(number).name
    except ValueError:
        return "signal %d" % number


def execute(case, argv, tmp, cfg, tag):
    """Runs `argv` in `tmp` under the limits; a Result."""
    cmd = [a.replace("%t", tmp) for a in argv]
    timeout = case.timeout or cfg.timeout
    out_path = os.path.join(tmp, tag + "stdout")
    err_path = os.path.join(tmp, tag + "stderr")
    # The limits are set by sh before it execs the tool (preexec_fn is not
    # safe with worker threads): address space, no core files, and 1 GiB
    # per written file.
    limit = ("ulimit -v %d && ulimit -c 0 && ulimit -f 2097152 && "
             'exec "$@"' % (cfg.memory_mib * 1024))
    env = dict(os.environ)
    # Never the real driver: no GPU, same result on every machine.
    env["TILE_RUNTIME_LIBCUDA"] = "/nonexistent/libcuda.so.1"
    env.pop("TILE_KERNEL_DIR", None)
    # Crash reports without llvm-symbolizer: symbolizing can outlast the
    # time limit (rerun the reproducer by hand for a symbolized trace).
    if not cfg.symbolize:
        env["LLVM_DISABLE_SYMBOLIZATION"] = "1"
    env.update(case.env)
    stdin = open(case.stdin, "rb") if case.stdin else subprocess.DEVNULL
    start = time.monotonic()
    timed_out = False
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        proc = subprocess.Popen(["/bin/sh", "-c", limit, "sh"] + cmd,
                                stdin=stdin, stdout=out, stderr=err, cwd=tmp,
                                env=env, start_new_session=True)
        try:
            rc = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            os.killpg(proc.pid, signal.SIGKILL)  # the group this case made
            rc = proc.wait()
    if case.stdin:
        stdin.close()
    elapsed = time.monotonic() - start
    def tail(path, limit=1 << 20):
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(0, size - limit))
            return f.read().decode("utf-8", "replace")
    return Result(case, cmd, rc, elapsed, timed_out, tail(out_path),
                  tail(err_path), tmp)


def run_case(case, index, cfg):
    tmp = os.path.join(cfg.work, "run", "%04d" % index)
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    result = execute(case, case.command(cfg), tmp, cfg, "")
    classify(result, case.argv[0], case.expect, cfg)
    if case.then and not result.problems:
        # A pair: the second command must refuse what the first refused
        # (tile-translate what tile-opt's pipeline rejects).
        second = execute(case, case.command(cfg, case.then), tmp, cfg,
                         "then-")
        classify(second, case.then[0], case.expect, cfg)
        if result.rc != 0 and second.rc == 0:
            second.problems.append(
                "accepted (exit 0) what `%s` refuses (exit %d)" %
                (" ".join(case.argv[:1] + case.argv[2:]), result.rc))
        second.elapsed += result.elapsed
        result = second
    if not result.problems and not cfg.keep:
        shutil.rmtree(tmp, ignore_errors=True)
    return result


def classify(r, tool, expect, cfg):
    case, p = r.case, r.problems
    if r.timed_out:
        p.append("time-out after %.0f s" % r.elapsed)
        return
    if r.rc < 0:
        p.append("killed by %s" % signal_name(-r.rc))
    for what, marker in CRASH_MARKERS:
        if marker.search(r.err):
            p.append(what + " on stderr")
    allowed = {0, 1} | EXTRA_EXIT.get(tool, set())
    if r.rc >= 0 and r.rc not in allowed:
        p.append("exit status %d" % r.rc +
                 (" (the driver found a defect)" if r.rc == 3 and
                  tool.startswith("tile-robustness-") else ""))
    if r.rc > 0 and not (r.err.strip() or r.out.strip()):
        p.append("exit %d without a diagnostic" % r.rc)
    if r.rc == 0 and ERROR_LINE.search(r.err):
        p.append("exit 0 after reporting an error")
    if expect == "error" and r.rc == 0:
        p.append("accepted (exit 0), but this input must be refused")
    if expect == "ok":
        if r.rc != 0:
            p.append("refused (exit %d), but this input is valid" % r.rc)
        elif r.err.strip():
            p.append("accepted with diagnostics (stderr not empty), but a "
                     "valid input compiles silently")
    both = r.out + r.err
    for pattern in case.forbid:
        m = re.search(pattern, both, re.M)
        if m:
            p.append("output has %r (forbidden)" % m.group(0)[:80])
    for pattern in case.require:
        if not re.search(pattern, both, re.M):
            p.append("output lacks /%s/" % pattern)


def report(results, cfg, title, started):
    failed = [r for r in results if r.problems]
    for r in failed:
        print("FAIL %s: %s" % (r.case.name, "; ".join(r.problems)))
        print("  tool:       %s" % os.path.basename(r.cmd[0]))
        print("  command:    %s" % " ".join(shlex.quote(a) for a in r.cmd))
        if r.case.source:
            print("  reproducer: %s" % r.case.source)
        print("  exit: %s, %.1f s, expect=%s; output in %s" %
              ("time-out" if r.timed_out else r.rc, r.elapsed,
               r.case.expect, r.tmp))
        lines = (r.err.strip() or r.out.strip()).splitlines()
        for line in lines[-cfg.tail:]:
            print("    | " + line[:300])
    # Distinct symptoms: tool and the first problem, for the summary.
    kinds = {}
    for r in failed:
        key = "%s: %s" % (os.path.basename(r.cmd[0]),
                          re.sub(r"[\d.]+ s$", "N s", r.problems[0]))
        kinds[key] = kinds.get(key, 0) + 1
    wall = time.monotonic() - started
    print("%s: %d cases, %d passed, %d failed, %.0f s wall, %.0f s in the "
          "cases (%d jobs, %.0f s and %d MiB per case)" %
          (title, len(results), len(results) - len(failed), len(failed),
           wall, sum(r.elapsed for r in results), cfg.jobs, cfg.timeout,
           cfg.memory_mib))
    for key in sorted(kinds):
        print("  %4d x %s" % (kinds[key], key))
    # How deep the cases got: accepted (exit 0) or refused, per tool.
    ends = {}
    for r in results:
        tool = os.path.basename(r.cmd[0])
        e = ends.setdefault(tool, [0, 0, 0])
        e[0 if r.rc == 0 and not r.timed_out else 1 if r.rc == 1 else 2] += 1
    print("ends: " + ", ".join("%s %d accepted / %d refused / %d other" %
                               (t, *ends[t]) for t in sorted(ends)))
    slowest = sorted(results, key=lambda r: -r.elapsed)[:3]
    print("slowest: " + ", ".join("%s %.1f s" % (r.case.name, r.elapsed)
                                  for r in slowest))
    return 1 if failed else 0


def run_all(cases, cfg, title):
    started = time.monotonic()
    if cfg.filter:
        cases = [c for c in cases if re.search(cfg.filter, c.name)]
    if cfg.list:
        for c in cases:
            print("%s [%s]: %s%s" % (c.name, c.expect, " ".join(
                shlex.quote(a) for a in c.argv), " ;; " + " ".join(
                    shlex.quote(a) for a in c.then) if c.then else ""))
        return 0
    names = set()
    for c in cases:
        if c.name in names:
            raise SystemExit("duplicate case name " + c.name)
        names.add(c.name)
    with concurrent.futures.ThreadPoolExecutor(cfg.jobs) as pool:
        results = list(pool.map(lambda ic: run_case(ic[1], ic[0], cfg),
                                enumerate(cases)))
    return report(results, cfg, title, started)


# ===-----------------------------------------------------------------------===#
# Generated inputs (too big, or not text, to keep in the tree)
# ===-----------------------------------------------------------------------===#

def generate_inputs(gen):
    os.makedirs(gen, exist_ok=True)
    rng = random.Random(16)
    def write(name, data):
        path = os.path.join(gen, name)
        with open(path, "wb") as f:
            f.write(data if isinstance(data, bytes) else data.encode())
        return path
    deep = 100000
    # issue 16 #9: a manifest value 100000 arrays deep; more places.
    write("manifest-deep-version.json", '{"format": "tile-manifest", '
          '"version": ' + "[" * deep + "1" + "]" * deep + "}")
    write("manifest-deep-kernels.json", '{"format": "tile-manifest", '
          '"version": 1, "target": {"chip": "sm_90"}, "kernels": ' +
          "[" * deep + "]" * deep + "}")
    write("manifest-deep-object.json", '{"format": "tile-manifest", '
          '"version": 1, "kernels": [{"name": ' + '{"a": ' * deep + "1" +
          "}" * deep + "}]}")
    # tile-tune --device: 1000000 levels (issue 16, cli-commands.sh).
    write("device-deep.json", '{"x": ' + "[" * 1000000 + "]" * 1000000 + "}")
    write("garbage.bin", bytes(rng.randrange(256) for _ in range(65536)))
    write("nul.bin", b"\0" * 4096)
    write("utf16.mlir", "\ufefftile.kernel @k() grid(%bx) = [1] threads(32) "
          "{\n}\n".encode("utf-16"))
    # Deep nesting in the MLIR parser: attributes, types, regions, parens.
    # 10000 levels are enough to overflow the parser's stack (5000 parse).
    write("mlir-deep-array-attr.mlir", "tile.kernel @k() grid(%bx) = [1] "
          "threads(32) attributes {a = " + "[" * 10000 + "]" * 10000 +
          "} {\n}\n")
    write("mlir-deep-dict-attr.mlir", "tile.kernel @k() grid(%bx) = [1] "
          "threads(32) attributes {a = " + "{a = " * deep + "1" + "}" * deep +
          "} {\n}\n")
    write("mlir-deep-affine-map.mlir", "#m = affine_map<(d0) -> (" +
          "(" * deep + "d0" + ")" * deep + ")>\ntile.kernel @k() grid(%bx) = "
          "[1] threads(32) attributes {a = #m} {\n}\n")
    write("mlir-deep-parens.mlir", "%x = " + "(" * deep + "\n")
    # Recursion without deep brackets: the affine parser recurses per
    # operator and unary minus; aliases nest (and double) from shallow text.
    write("mlir-deep-affine-sum.mlir", "#m = affine_map<(d0) -> (" +
          " + ".join(["d0"] * deep) + ")>\ntile.kernel @k() grid(%bx) = "
          "[1] threads(32) attributes {a = #m} {\n}\n")
    write("mlir-deep-affine-neg.mlir", "#m = affine_map<(d0) -> (" +
          "-" * deep + "d0)>\ntile.kernel @k() grid(%bx) = "
          "[1] threads(32) attributes {a = #m} {\n}\n")
    write("mlir-deep-alias-chain.mlir", "#a0 = [1]\n" + "".join(
        "#a%d = [#a%d]\n" % (i, i - 1) for i in range(1, deep)) +
        "tile.kernel @k() grid(%%bx) = [1] threads(32) attributes "
        "{a = #a%d} {\n}\n" % (deep - 1))
    write("mlir-deep-type-alias-chain.mlir", "!t0 = tuple<i32>\n" + "".join(
        "!t%d = tuple<!t%d>\n" % (i, i - 1) for i in range(1, deep)) +
        "func.func private @f(!t%d)\n" % (deep - 1))
    write("mlir-alias-doubling.mlir", "#a0 = [1]\n" + "".join(
        "#a%d = [#a%d, #a%d]\n" % (i, i - 1, i - 1) for i in range(1, 41)) +
        "tile.kernel @k() grid(%bx) = [1] threads(32) attributes "
        "{a = #a40} {\n}\n")
    # Nested regions, each with a print: 3000 levels (past the limit), and
    # 1000 (at it: the kernel's body, 998 scf.if, the print's thread(0)),
    # which must compile (regions take the most stack per level).
    def regions(nest):
        return ("tile.kernel @k(%c: i32, %f: f32) grid(%bx) = [1] "
                "threads(32) {\n  %z = arith.constant 0 : i32\n"
                "  %b = arith.cmpi eq, %c, %z : i32\n" +
                "scf.if %b {\n  tile.print \"x\" %f thread(0) : f32\n" * nest +
                "}\n" * nest + "}\n")
    write("mlir-deep-regions.mlir", regions(3000))
    write("mlir-regions-at-limit.mlir", regions(998))
    par = []
    for i in range(200):
        par.append("tile.parallel (%%i%d) in [2] {" % i)
    par += ["}"] * 200
    write("mlir-nested-parallel.mlir",
          "tile.kernel @k() grid(%bx) = [1] threads(32) {\n" +
          "\n".join(par).replace("%%", "%") + "\n}\n")
    write("mlir-long-name.mlir", "tile.kernel @" + "k" * 1000000 +
          "(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) "
          "{\n}\n")
    write("mlir-many-kernels.mlir", "".join(
        "tile.kernel @k%d() grid(%%bx) = [1] threads(32) {\n}\n" % i
        for i in range(1000)))
    write("mlir-many-params.mlir", "tile.kernel @k(" + ", ".join(
        "%%A%d: !tile.buffer<?xf32, global>" % i for i in range(5000)) +
        ") grid(%bx) = [1] threads(32) {\n}\n")
    write("mlir-huge-label.mlir", "tile.kernel @k() grid(%bx) = [1] "
          "threads(32) {\n  %v = arith.constant 1.0 : f32\n  tile.print \"" +
          "%d" * 200000 + "\" %v thread(0) : f32\n}\n")
    # Big manifests: many kernels, parameters, relations; a long name.
    os.makedirs(os.path.join(gen, "manifest"), exist_ok=True)
    def manifest(name, kernels):
        write(os.path.join("manifest", name + ".json"), json.dumps(
            {"format": "tile-manifest", "version": 1,
             "target": {"chip": "sm_90"}, "kernels": kernels}))
    def kernel(name, params=(), requires=None):
        k = {"name": name, "block": [128, 1, 1], "dynamic_shared_memory": 0,
             "grid": [{"kind": "ceildiv", "param": "A", "dim": 0,
                       "divisor": 128}],
             "params": [{"name": "A", "kind": "buffer", "dtype": "f32",
                         "shape": [-1]},
                        {"name": "A.dim0", "kind": "dim", "buffer": "A",
                         "dim": 0, "type": "i64"}] + list(params)}
        if requires is not None:
            k["requires"] = requires
        return k
    manifest("many-kernels", [kernel("k%d" % i) for i in range(5000)])
    manifest("many-params", [kernel("k", [
        {"name": "s%d" % i, "kind": "scalar", "dtype": "f32"}
        for i in range(20000)])])
    manifest("many-requires", [kernel("k", requires=[
        {"lhs": {"param": "A", "dim": 0}, "op": "<=", "value": 1 << 40}
        for _ in range(20000)])])
    manifest("name-huge", [kernel("k" * 1000000)])
    # tile-tune-run folders: truncated and mistyped tune.json / index.json.
    def tune_dir(name, tune, index=None):
        d = os.path.join(gen, "tune-run", name)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "tune.json"), "w") as f:
            f.write(tune)
        if index is not None:
            with open(os.path.join(d, "index.json"), "w") as f:
                f.write(index)
    good_tune = ('{"format": "tile-tune-search", "generator": "gemm", '
                 '"dtypes": "f16->f32", "toolchain": "t", "candidates": [], '
                 '"version": 1}')
    tune_dir("truncated-tune", '{"generator": ')
    tune_dir("empty-object-tune", "{}")
    tune_dir("generator-number", '{"generator": 5}')
    tune_dir("tune-garbage", "\x00\xff garbage")
    tune_dir("tune-deep", '{"generator": ' + "[" * deep + "]" * deep + "}")
    tune_dir("no-index", good_tune)
    tune_dir("index-truncated", good_tune, '{"format": "tile-kernel-index", '
             '"kernels": [{"name": ')
    tune_dir("index-kernels-not-array", good_tune, '{"kernels": 7}')
    tune_dir("index-entry-missing-fields", good_tune,
             '{"kernels": [{"generator": "gemm"}]}')
    tune_dir("index-entry-wrong-types", good_tune,
             '{"kernels": [{"generator": "gemm", "name": 1, "config": 2, '
             '"cubin": [], "manifest": {}}]}')
    tune_dir("index-path-traversal", good_tune,
             '{"kernels": [{"generator": "gemm", "name": "x", "config": {}, '
             '"cubin": "../../../../../../etc/passwd", '
             '"manifest": "../../../../../../etc/passwd"}]}')
    tune_dir("dtypes-missing", '{"generator": "gemm", "toolchain": "t"}',
             '{"kernels": [{"generator": "gemm", "name": "x", "config": {}, '
             '"cubin": "x.cubin", "manifest": "x.json"}]}')
    return gen


def substitutions(cfg):
    return {"%corpus": CORPUS, "%gen": os.path.join(cfg.work, "gen"),
            "%src": cfg.src, "%examples": os.path.join(cfg.src, "test",
                                                       "Examples"),
            "%cuda": cfg.cuda_toolkit, "%work": cfg.work}


# ===-----------------------------------------------------------------------===#
# corpus
# ===-----------------------------------------------------------------------===#

def corpus_cases(cfg):
    subst = substitutions(cfg)
    cases = []
    def add(case):
        for i, c in enumerate(cases):
            if c.argv == case.argv and c.stdin == case.stdin and \
                    c.then == case.then:
                case.name = c.name
                cases[i] = case  # a file's own line replaces a default
                return
        cases.append(case)
    for kind, defaults, folder in (
            ("mlir", MLIR_DEFAULTS, os.path.join(CORPUS, "mlir")),
            ("manifest", JSON_DEFAULTS, os.path.join(CORPUS, "manifest")),
            ("manifest", JSON_DEFAULTS, os.path.join(cfg.work, "gen",
                                                     "manifest"))):
        exts = (".mlir",) if kind == "mlir" else (".json",)
        for name in sorted(os.listdir(folder)):
            if not name.endswith(exts):
                continue
            path = os.path.join(folder, name)
            s = dict(subst, **{"%s": path})
            own = []
            if kind == "mlir":
                with open(path, encoding="utf-8", errors="replace") as f:
                    for line in f:
                        m = re.match(r"\s*//\s*ROBUST:\s*(.*)$", line)
                        if m:
                            own.append(m.group(1))
            for i, line in enumerate(defaults + own):
                case = parse_case_line(line, s, "%s/%s#%d" % (kind, name, i))
                case.source = path
                # A manifest named bad-* must be refused by the parser.
                if kind == "manifest" and name.startswith("bad-"):
                    case.expect = "error"
                add(case)
    with open(os.path.join(CORPUS, "cases.txt")) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            case = parse_case_line(line, subst, "cases.txt:%d" % number)
            files = [a for a in case.argv[1:] if os.path.isfile(a)]
            case.source = case.stdin or (files[0] if files else None)
            cases.append(case)
    return cases


def cmd_corpus(cfg):
    generate_inputs(os.path.join(cfg.work, "gen"))
    return run_all(corpus_cases(cfg), cfg, "robustness corpus")


# ===-----------------------------------------------------------------------===#
# mutations
# ===-----------------------------------------------------------------------===#

HOSTILE_INTS = ["0", "-1", "1", "2", "3", "7", "31", "33", "255", "1023",
                "4096", "65536", "1048576", "2147483647", "2147483648",
                "4294967295", "4294967296", "9223372036854775807",
                "9223372036854775808", "-9223372036854775808",
                "18446744073709551616", "99999999999999999999999"]
ELEMENT_TYPES = ["f16", "bf16", "f32", "f64", "i1", "i8", "i16", "i32", "i64",
                 "index", "f8E4M3FN", "tf32", "complex<f32>", "vector<4xf32>",
                 "none"]
SCOPES = ["global", "shared", "fragment", "local", "register"]
LAYOUTS = ["#tile.row_major<vec = 4>", "#tile.row_major<vec = 0>",
           "#tile.row_major<vec = 3>", "#tile.mma<warps = [2, 2]>",
           "#tile.mma<warps = [4, 1]>", "#tile.mma<warps = [0, 4]>",
           "#tile.mma<warps = [65536, 65536]>", "#tile.swizzle",
           "#tile.slice<dim = 1, dim_size = 64, parent = #tile.row_major<vec = 4>>",
           "#tile.slice<dim = 7, dim_size = 64, parent = #tile.mma<warps = [2, 2]>>",
           "#tile.slice<dim = 1, dim_size = 9223372036854775807, parent = #tile.mma<warps = [2, 2]>>"]
KEYWORDS = ["async", "prefetched", "accumulate", "dim(0) accumulate",
            "{transpose_a}", "{transpose_b}", "{clear_accum}",
            "{transpose_a, transpose_b}", "prefetched {transpose_b}"]
PUNCT = list("{}()[]<>,:=%@#!\"?x*-+.") + ["->", "//", "\\", "\0", "\xff"]


def integer_value(old, rng):
    """A hostile value, or half the time a mild one (n +- 1, 2n, n / 2, a
    power of two) that keeps more kernels valid and reaches the lowering."""
    if rng.random() < 0.5:
        return rng.choice(HOSTILE_INTS)
    n = int(old)
    return str(rng.choice([2 * n, n // 2, 2 * n, n // 2, 4 * n, n + 1, n - 1,
                           3 * n, 2 ** rng.randint(0, 12)]))


def integer_positions(text):
    """Integer literals worth changing: standalone numbers and the sizes of
    shapes (4x1024xf32), not the digits of names (%c0, f32, sm_90)."""
    spots = []
    for m in re.finditer(r"\d+", text):
        i = m.start()
        prev = text[i - 1] if i else " "
        if prev in "%#@$_" or (prev.isalpha() and not (
                prev == "x" and i >= 2 and (text[i - 2].isdigit() or
                                            text[i - 2] == "?"))):
            continue
        if prev == "." or (m.end() < len(text) and text[m.end()] in "._"):
            continue
        if i >= 1 and text[i - 1] == "-":
            i -= 1
        spots.append((i, m.end()))
    return spots


BUFFER_TYPE = re.compile(r"!tile\.buffer<[^<>]*(?:<[^<>]*(?:<[^<>]*>[^<>]*)*>"
                         r"[^<>]*)*>")


def mutate_buffer_type(old, rng):
    """One change to a buffer type's text: a size, the element type, the
    memory scope or the layout."""
    kind = rng.choice(["size", "size", "size", "element", "scope", "layout",
                       "layout-int"])
    if kind == "size":
        sizes = list(re.finditer(r"(?<=[<x])(\d+|\?)(?=x)", old))
        if sizes:
            m = rng.choice(sizes)
            value = "?" if rng.random() < 0.1 else integer_value(
                m.group(0) if m.group(0) != "?" else "64", rng)
            return old[:m.start()] + value + old[m.end():]
    if kind == "element":
        m = re.search(r"x?(f16|bf16|f32|f64|i8|i16|i32|i64)(?=,)", old)
        if m:
            return old[:m.start(1)] + rng.choice(ELEMENT_TYPES) + \
                old[m.end(1):]
    if kind == "scope":
        m = re.search(r"\b(global|shared|fragment)\b", old)
        if m:
            return old[:m.start()] + rng.choice(SCOPES) + old[m.end():]
    if kind == "layout-int":
        ints = list(re.finditer(r"(?<=[= \[])\d+(?=[\],>])", old))
        if ints:
            m = rng.choice(ints)
            return old[:m.start()] + integer_value(m.group(0), rng) + \
                old[m.end():]
    m = re.match(r"(!tile\.buffer<[^,]*, \w+)(.*)>$", old)
    if m:
        layout = rng.choice(LAYOUTS + [""])
        return m.group(1) + (", " + layout if layout else "") + ">"
    return old


def scf_for_ends(text):
    """Where each scf.for's region ends (just after its closing brace)."""
    ends = []
    for m in re.finditer(r"scf\.for [^\n{]*\{", text):
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        if depth == 0:
            ends.append(i)
    return ends


def mutate_mlir(text, rng, others):
    ops = ["type-everywhere"] * 8 + ["int"] * 4 + [
        "line-delete", "line-duplicate", "line-swap", "token-delete",
        "token-duplicate", "type", "scope", "layout", "keyword", "keyword",
        "op-name", "truncate", "splice", "garbage", "num-stages",
        "num-stages", "kernel-clause", "kernel-clause"]
    op = rng.choice(ops)
    lines = text.split("\n")
    if op == "type-everywhere":
        # Every use of one buffer type changes together, so the module
        # still parses and the verifier and the lowering see the change.
        types = sorted(set(BUFFER_TYPE.findall(text)))
        if types:
            old = rng.choice(types)
            new = mutate_buffer_type(old, rng)
            if new != old:
                return text.replace(old, new), op
    if op == "int":
        spots = integer_positions(text)
        if spots:
            a, b = rng.choice(spots)
            return text[:a] + integer_value(text[a:b], rng) + text[b:], op
    if op in ("line-delete", "line-duplicate", "line-swap") and len(lines) > 2:
        i = rng.randrange(len(lines) - 1)
        if op == "line-delete":
            del lines[i]
        elif op == "line-duplicate":
            lines.insert(i, lines[i])
        else:
            lines[i], lines[i + 1] = lines[i + 1], lines[i]
        return "\n".join(lines), op
    if op in ("token-delete", "token-duplicate"):
        tokens = list(re.finditer(r"%[\w.$]+|@\"?[\w.$-]+\"?|!?[\w.#]+|"
                                  r"->|[{}()\[\]<>,:=]", text))
        if tokens:
            t = rng.choice(tokens)
            repl = "" if op == "token-delete" else t.group(0) + " " + t.group(0)
            return text[:t.start()] + repl + text[t.end():], op
    if op == "type":
        spots = list(re.finditer(r"(?<![\w.])(f16|bf16|f32|f64|i1|i8|i16|i32|"
                                 r"i64|index)(?![\w])", text))
        if spots:
            t = rng.choice(spots)
            return text[:t.start()] + rng.choice(ELEMENT_TYPES) + \
                text[t.end():], op
    if op == "scope":
        spots = list(re.finditer(r"\b(global|shared|fragment)\b", text))
        if spots:
            t = rng.choice(spots)
            return text[:t.start()] + rng.choice(SCOPES) + text[t.end():], op
    if op == "layout":
        spots = list(re.finditer(r", (fragment|shared)(, #tile\.[^>]*>+)?>",
                                 text))
        if spots:
            t = rng.choice(spots)
            layout = rng.choice(LAYOUTS + [""])
            new = ", " + t.group(1) + (", " + layout if layout else "") + ">"
            return text[:t.start()] + new + text[t.end():], op
    if op == "keyword":
        # Keywords where the grammar takes them, on ops that may not.
        choices = []
        for m in re.finditer(r"tile\.copy ", text):
            choices.append((m.end(), m.end(), "async "))
        for m in re.finditer(r"tile\.parallel \([^)]*\) in \[[^\]]*\]", text):
            choices.append((m.end(), m.end(), " rolled"))
        for m in re.finditer(r"(tile\.(gemm|gemm_prefetch|reduce) [^\n]*?)"
                             r"( \{[a-z_, ]*\})? : ", text):
            extra = rng.choice(KEYWORDS[1:4] + KEYWORDS[4:9])
            at = m.end(1)
            choices.append((at, m.end(3) if m.group(3) else at, " " + extra))
        if choices:
            a, b, word = rng.choice(choices)
            return text[:a] + word + text[b:], op
    if op == "op-name":
        names = sorted(set(re.findall(r"\btile\.[a-z_]+\b", text)))
        spots = list(re.finditer(r"\btile\.[a-z_]+\b", text))
        if spots and names:
            t = rng.choice(spots)
            return text[:t.start()] + rng.choice(names) + text[t.end():], op
    if op == "truncate" and len(text) > 10:
        return text[:rng.randrange(len(text))], op
    if op == "splice" and others:
        donor = rng.choice(others).split("\n")
        a = rng.randrange(len(donor))
        piece = donor[a:a + rng.randint(1, 6)]
        i = rng.randrange(len(lines))
        return "\n".join(lines[:i] + piece + lines[i:]), op
    if op == "garbage" and text:
        i = rng.randrange(len(text))
        junk = rng.choice(PUNCT) if rng.random() < 0.7 else "".join(
            chr(rng.randrange(1, 0x2FF)) for _ in range(rng.randint(1, 8)))
        return text[:i] + junk + text[i + rng.randint(0, 2):], op
    if op == "num-stages":
        loops = scf_for_ends(text)
        if loops:
            end = rng.choice(loops)
            m = re.match(r" \{tile\.num_stages = [^}]*\}", text[end:])
            attr = " {tile.num_stages = %s : i64}" % integer_value("3", rng)
            return text[:end] + attr + text[end + (m.end() if m else 0):], op
    if op == "kernel-clause":
        m = re.search(r"threads\(\d+\)", text)
        params = re.findall(r"(%\w+): !tile\.buffer<", text)
        if m and params:
            p, q = rng.choice(params), rng.choice(params)
            d, e = rng.randint(0, 3), rng.randint(0, 3)
            n = rng.choice(HOSTILE_INTS)
            clause = rng.choice([
                " divisible(%s[%d] by %s)" % (p, d, n),
                " requires(%s[%d] == %s[%d])" % (p, d, q, e),
                " requires(%s[%d] <= %s)" % (p, d, n),
                " requires(%s[%d] >= %s, %s[%d] == %s[%d])" % (p, d, n, q, e,
                                                               p, d),
                " attributes {raster_panel = %s}" % n])
            return text[:m.end()] + clause + text[m.end():], op
    # The chosen operator did not apply: change one integer, or truncate.
    spots = integer_positions(text)
    if spots:
        a, b = rng.choice(spots)
        return text[:a] + rng.choice(HOSTILE_INTS) + text[b:], "int"
    return text[:len(text) // 2], "truncate"


MLIR_COMMANDS = [  # (weight, command)
    (2, "tile-opt %s"),
    (2, "tile-opt %s --tile-to-gpu"),
    (2, "tile-opt %s --tile-to-nvvm"),
    (2, "tile-opt %s --tile-to-nvvm -o %t/out.mlir ;; "
        "tile-translate %s --emit=ptx -o %t/out.ptx "
        "--manifest-out=%t/out.json"),
    (1, "tile-opt %s --tile-pipeline"),
    (1, "tile-opt %s --tile-assign-layouts"),
    (1, "tile-opt %s --tile-assign-layouts --convert-tile-to-gpu"),
    (1, "tile-opt %s --tile-to-nvvm=chip=sm_80"),
    (3, "tile-translate %s --emit=ptx -o %t/out.ptx"),
    (1, "tile-translate %s --emit=cubin -o %t/out.cubin"),
    (1, "tile-translate %s --emit=fatbin -o %t/out.fatbin"),
    (2, "tile-translate %s --emit=manifest -o %t/out.json"),
    (1, "tile-translate %s --emit=report -o %t/out.txt"),
    (1, "tile-translate %s --emit=report-json -o %t/out.json"),
    (1, "tile-translate %s --emit=ptx --chip=sm_80 -o %t/out.ptx "
        "--manifest-out=%t/out.json"),
    (1, "tile-translate %s --emit=sass -o %t/out.sass"),
]


def weighted(rng, table):
    total = sum(w for w, _ in table)
    pick = rng.uniform(0, total)
    for w, item in table:
        pick -= w
        if pick <= 0:
            return item
    return table[-1][1]


def strip_comments(text):
    return "\n".join(l for l in text.split("\n")
                     if not l.lstrip().startswith("//"))


def generate(cfg, args):
    """tile-kernels ARGS for a seed; a failure is a note (the seed is
    missing), the corpus and the valid test catch what is wrong with it."""
    try:
        return subprocess.run([os.path.join(cfg.bin, "tile-kernels")] + args,
                              capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as e:
        return subprocess.CompletedProcess(args, 1, "", str(e))


def mlir_seeds(cfg):
    """The lit inputs split at `// -----`, the examples, and a few kernels
    from tile-kernels --emit=mlir; comments dropped (nothing a diagnostic
    echoes can then look like a crash report)."""
    seeds = []
    test = os.path.join(cfg.src, "test")
    for root, dirs, files in os.walk(test):
        dirs[:] = sorted(d for d in dirs if d != "Robustness")
        for name in sorted(files):
            if not name.endswith(".mlir"):
                continue
            path = os.path.join(root, name)
            with open(path, encoding="utf-8") as f:
                chunks = re.split(r"^// -----\s*$", f.read(), flags=re.M)
            for i, chunk in enumerate(chunks):
                if "expected-error" in chunk:
                    continue  # invalid by design; mutations of it, too
                chunk = strip_comments(chunk).strip()
                if "tile." in chunk or "gpu." in chunk:
                    seeds.append(("%s#%d" % (os.path.relpath(path, cfg.src),
                                             i), chunk + "\n"))
    generated = [
        ["--kernel=vector_add"],
        ["--kernel=gemm", "--block-m=64", "--block-n=64", "--block-k=32",
         "--num-threads=128"],
        ["--kernel=gemm", "--block-m=128", "--block-n=128", "--block-k=32",
         "--num-threads=128", "--divisibility=8", "--transpose-b"],
        ["--kernel=gemm", "--block-m=64", "--block-n=64", "--block-k=32",
         "--num-threads=128", "--out-dtype=f16", "--epilogue=bias_gelu",
         "--staged-epilogue"],
        ["--kernel=softmax", "--block-m=4", "--block-n=1024",
         "--num-threads=128"],
        ["--kernel=softmax", "--online", "--stages=2", "--block-m=1",
         "--block-n=2048", "--num-threads=128"],
        ["--kernel=gemm_softmax", "--block-m=64", "--block-n=64",
         "--block-k=32", "--num-threads=128"],
        ["--kernel=attention", "--block-m=64", "--block-n=64",
         "--num-threads=128", "--dtype=f16"],
        ["--kernel=bias_gelu", "--block-m=4", "--block-n=1024"],
        ["--kernel=print_demo"],
    ]
    for args in generated:
        proc = generate(cfg, args + ["--emit=mlir"])
        if proc.returncode == 0:
            seeds.append(("tile-kernels " + " ".join(args), proc.stdout))
        else:
            print("note: no seed from tile-kernels %s: %s" %
                  (" ".join(args), proc.stderr.strip()[:200]))
    return seeds


def manifest_seeds(cfg):
    seeds = []
    for args in (["--kernel=vector_add"],
                 ["--kernel=gemm", "--block-m=64", "--block-n=64",
                  "--block-k=32", "--num-threads=128", "--divisibility=8"],
                 ["--kernel=gemm", "--block-m=64", "--block-n=64",
                  "--block-k=32", "--num-threads=128", "--out-dtype=f16",
                  "--epilogue=bias_gelu"],
                 ["--kernel=softmax", "--block-m=4", "--block-n=1024",
                  "--num-threads=128"],
                 ["--kernel=attention", "--block-m=64", "--block-n=64",
                  "--num-threads=128", "--dtype=f16", "--lse"],
                 # sm_90a: tensor maps, a persistent grid and a stream-K
                 # workspace; clusters.
                 ["--kernel=gemm", "--chip=sm_90a", "--block-m=128",
                  "--block-n=256", "--block-k=64", "--num-threads=384",
                  "--stages=4", "--divisibility=8", "--warp-specialized",
                  "--persistent", "--stream-k", "--tma-store",
                  "--tma-store-columns=64", "--out-dtype=f16"],
                 ["--kernel=gemm", "--chip=sm_90a", "--block-m=128",
                  "--block-n=256", "--block-k=64", "--num-threads=384",
                  "--stages=4", "--divisibility=8", "--warp-specialized",
                  "--persistent", "--cluster-m=2"]):
        proc = generate(cfg, args + ["--emit=manifest"])
        if proc.returncode == 0:
            seeds.append(("tile-kernels " + " ".join(args), proc.stdout))
        else:
            print("note: no manifest from tile-kernels %s: %s" %
                  (" ".join(args), proc.stderr.strip()[:200]))
    return seeds


HOSTILE_JSON = ["0", "-1", "1", "2147483648", "4294967296",
                "9223372036854775807", "9223372036854775808",
                "-9223372036854775809", "18446744073709551616", "1e400",
                "-1e400", "1.5", "NaN", "Infinity", "\"\"", "\"garbage\"",
                "null", "true", "[]", "{}", "[[[[[[[[1]]]]]]]]",
                "\"\\u0000\"", "\"f16\"", "\"i64\"", "\"buffer\"", "\"dim\"",
                "\"scalar\"", "\"ceildiv\"", "\"const\"", "\"A\"", "\"==\"",
                "\"<\"", "\"readwrite\"", "[1024, 1024, 1024]",
                "[" + "[" * 2000 + "]" * 2000 + "]"]


def json_paths(node, path=()):
    yield path, node
    if isinstance(node, dict):
        for k in sorted(node):
            yield from json_paths(node[k], path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from json_paths(v, path + (i,))


PLACEHOLDER = "\"@@ROBUST@@\""


def mutate_manifest(text, rng):
    op = rng.choice(["number"] * 6 + ["value"] * 3 + [
        "delete", "duplicate", "rename", "rename", "truncate", "garbage"])
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError):  # deep nesting from an earlier step
        doc = None
    if doc is not None and op == "number":
        # A size, dim, divisor, block or shared-memory value: mild or hostile.
        numbers = [p for p, v in json_paths(doc) if p and isinstance(v, int)
                   and not isinstance(v, bool)]
        if numbers:
            path = rng.choice(numbers)
            parent = doc
            for key in path[:-1]:
                parent = parent[key]
            old = parent[path[-1]]
            parent[path[-1]] = "@@ROBUST@@"
            value = integer_value(str(abs(old)), rng) if rng.random() < 0.7 \
                else rng.choice(HOSTILE_JSON[:12])
            return json.dumps(doc, indent=1).replace(PLACEHOLDER, value), op
    if doc is not None and op in ("value", "delete", "duplicate", "rename",
                                  "number"):
        paths = [p for p, _ in json_paths(doc) if p]
        path = rng.choice(paths)
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        last = path[-1]
        if op == "value":
            parent[last] = "@@ROBUST@@"
            return json.dumps(doc, indent=1).replace(
                PLACEHOLDER, rng.choice(HOSTILE_JSON)), op
        if op == "delete":
            del parent[last]
            return json.dumps(doc, indent=1), op
        if op == "duplicate" and isinstance(parent, list):
            parent.insert(last, parent[last])
            return json.dumps(doc, indent=1), op
        # rename: a parameter or kernel name to another one's, or a
        # reference to a name that does not exist.
        names = [v for p, v in json_paths(doc) if p and p[-1] in
                 ("name", "param", "buffer") and isinstance(v, str)]
        spots = [p for p, v in json_paths(doc) if p and p[-1] in
                 ("name", "param", "buffer")]
        if names and spots:
            path = rng.choice(spots)
            parent = doc
            for key in path[:-1]:
                parent = parent[key]
            parent[path[-1]] = rng.choice(names + ["nope", ""])
            return json.dumps(doc, indent=1), "rename"
    if op == "truncate" or doc is None:
        return text[:rng.randrange(max(1, len(text)))], "truncate"
    i = rng.randrange(len(text))
    return text[:i] + rng.choice(PUNCT) + text[i + 1:], "garbage"


FRONTEND_DEFAULTS = {
    "vector_add": {"block_n": 1024, "threads": 256, "dtype": "f32"},
    "gemm": {"block_m": 64, "block_n": 64, "block_k": 32, "threads": 128,
             "out_dtype": "f32", "stages": 3, "raster_panel": 0,
             "transpose_b": 0, "in_dtype": "f16", "transpose_a": 0,
             "epilogue": "none", "divisibility": 1, "staged_epilogue": 0},
    "softmax": {"rows": 1, "block_n": 1024, "threads": 128, "dtype": "f16",
                "online": 0, "stages": 1},
    "gemm_softmax": {"block_m": 64, "block_n": 64, "block_k": 32,
                     "threads": 128, "stages": 2, "in_dtype": "f16",
                     "head_dim": 0},
    "attention": {"block_m": 64, "block_n": 64, "head_dim": 64,
                  "threads": 128, "stages": 2, "dtype": "f16", "causal": 0,
                  "lse": 0},
    "bias_gelu": {"block_m": 4, "block_n": 1024, "threads": 256,
                  "dtype": "f16", "tanh": 0},
    "print_demo": {"rows": 16, "cols": 8, "threads": 64},
}
FRONTEND_INTS = ["0", "-1", "1", "2", "3", "8", "17", "48", "100", "4096",
                 "65536", "2147483648", "4611686018427387904"]
FRONTEND_STRINGS = ["f16", "bf16", "f32", "f64", "i8", "i32", "", "garbage",
                    "bias_gelu", "bias_gelu_tanh"]
FRONTEND_OPTIONS = [("chip", ["sm_80", "sm_75", "", "garbage", "sm_100a"]),
                    ("features", ["+ptx70", "", "garbage"]),
                    ("opt", ["0", "99"])]


# Plausible values per field: a configuration drawn from these is one a
# user could ask for; the generator accepts it or refuses it with a reason,
# and what it accepts must compile (through ptxas) without a crash.
FRONTEND_PLAUSIBLE = {
    "vector_add": {"block_n": [32, 128, 256, 1024, 4096, 8192],
                   "threads": [32, 64, 128, 256, 512, 1024],
                   "dtype": ["f32", "f16", "bf16"]},
    "gemm": {"block_m": [16, 32, 64, 128, 256],
             "block_n": [8, 16, 32, 64, 128, 256],
             "block_k": [16, 32, 64, 128], "threads": [32, 64, 128, 256],
             "out_dtype": ["f32", "f16", "bf16"], "stages": [1, 2, 3, 4],
             "raster_panel": [0, 4, 8], "transpose_b": [0, 1],
             "in_dtype": ["f16", "bf16"], "transpose_a": [0, 1],
             "epilogue": ["none", "none", "bias_gelu", "bias_gelu_tanh"],
             "divisibility": [1, 8], "staged_epilogue": [0, 1]},
    "softmax": {"rows": [1, 2, 4], "block_n": [256, 1024, 2048, 4096],
                "threads": [32, 64, 128, 256, 512],
                "dtype": ["f16", "bf16", "f32"], "online": [0, 1],
                "stages": [1, 2, 3]},
    "gemm_softmax": {"block_m": [16, 32, 64, 128], "block_n": [32, 64, 128],
                     "block_k": [16, 32, 64], "threads": [64, 128, 256],
                     "stages": [1, 2, 3], "in_dtype": ["f16", "bf16"],
                     "head_dim": [0, 64, 128]},
    "attention": {"block_m": [16, 32, 64, 128], "block_n": [16, 32, 64, 128],
                  "head_dim": [32, 64, 128], "threads": [32, 64, 128, 256],
                  "stages": [1, 2, 3], "dtype": ["f16", "bf16"],
                  "causal": [0, 1], "lse": [0, 1]},
    "bias_gelu": {"block_m": [1, 2, 4, 8], "block_n": [256, 1024, 4096],
                  "threads": [64, 128, 256], "dtype": ["f16", "bf16", "f32"],
                  "tanh": [0, 1]},
    "print_demo": {"rows": [1, 4, 16, 32], "cols": [8, 16, 32],
                   "threads": [32, 64, 128]},
}


def elements_per_thread(generator, c):
    """The most tile elements one thread handles (what the lowering unrolls
    and compile time grows with)."""
    g = lambda k: int(c.get(k, 0))
    t = max(1, g("threads"))
    if generator == "gemm":
        work = g("block_m") * g("block_k") + g("block_k") * g("block_n") + \
            g("block_m") * g("block_n")
    elif generator == "attention":
        work = (g("block_m") + 2 * g("block_n")) * g("head_dim") + \
            g("block_m") * g("block_n")
    elif generator == "gemm_softmax":
        work = (g("block_m") + g("block_n")) * g("block_k") + \
            g("block_m") * g("block_n") + g("block_n") * g("head_dim")
    elif generator == "softmax":
        work = g("rows") * g("block_n")
    elif generator in ("vector_add", "bias_gelu"):
        work = max(1, g("block_m")) * g("block_n")
    else:
        work = g("rows") * g("cols")
    return work // t


def mutate_frontend(rng):
    if rng.random() < 0.5:
        # Plausible: at most 512 elements per thread, as the library's
        # kernels (the largest take about 1 s to compile; a 1-warp
        # 256x16x128 GEMM with a staged epilogue takes 9 s: slow, not hung).
        generator = rng.choice(sorted(FRONTEND_PLAUSIBLE))
        fields = FRONTEND_PLAUSIBLE[generator]
        for _ in range(100):
            config = {k: rng.choice(fields[k]) for k in sorted(fields)}
            if elements_per_thread(generator, config) <= 512:
                break
        return ["gen", generator] + ["%s=%s" % kv for kv in
                                     sorted(config.items())] + ["--cubin"]
    generator = rng.choice(sorted(FRONTEND_DEFAULTS))
    config = dict(FRONTEND_DEFAULTS[generator])
    for _ in range(rng.choice([1, 1, 2])):
        if rng.random() < 0.1:
            key, values = rng.choice(FRONTEND_OPTIONS)
            config[key] = rng.choice(values)
            continue
        key = rng.choice(sorted(config))
        value = config[key]
        if isinstance(value, int) and value in (0, 1) and key in (
                "transpose_a", "transpose_b", "staged_epilogue", "online",
                "causal", "lse", "tanh"):
            config[key] = 1 - value
        elif isinstance(value, int):
            config[key] = rng.choice(FRONTEND_INTS)
        else:
            config[key] = rng.choice(FRONTEND_STRINGS)
    args = ["gen", generator] + ["%s=%s" % kv for kv in sorted(config.items())]
    if rng.random() < 0.2:
        args.append("--cubin")
    return args


def cmd_mutations(cfg):
    started = time.monotonic()
    gen = os.path.join(cfg.work, "inputs")
    shutil.rmtree(gen, ignore_errors=True)
    os.makedirs(gen)
    mlir = mlir_seeds(cfg)
    manifests = manifest_seeds(cfg)
    has_sass = os.path.exists(os.path.join(cfg.cuda_toolkit, "bin",
                                           "cuobjdump")) or \
        shutil.which("cuobjdump")
    commands = [(w, c) for w, c in MLIR_COMMANDS
                if has_sass or "--emit=sass" not in c]
    print("seeds: %d MLIR inputs, %d manifests, %d generators; seed %d" %
          (len(mlir), len(manifests), len(FRONTEND_DEFAULTS), cfg.seed))
    # Shares of the run: 66% MLIR, 16% manifests, 18% frontend.
    n_manifest = cfg.count * 16 // 100
    n_frontend = cfg.count * 18 // 100
    n_mlir = cfg.count - n_manifest - n_frontend
    subst = substitutions(cfg)
    cases = []
    texts = [t for _, t in mlir]
    for i in range(n_mlir):
        rng = random.Random("%d:mlir:%d" % (cfg.seed, i))
        origin, text = rng.choice(mlir)
        applied = []
        for _ in range(rng.choice([1, 1, 1, 2, 2, 3])):
            text, op = mutate_mlir(text, rng, texts)
            applied.append(op)
        path = os.path.join(gen, "m%04d.mlir" % i)
        with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write("// mutation %d of %s: %s\n" % (i, origin,
                                                    ", ".join(applied)))
            f.write(text)
        line = weighted(rng, commands)
        case = parse_case_line(line, dict(subst, **{"%s": path}),
                               "mlir-%04d" % i)
        case.source = path
        cases.append(case)
    for i in range(n_manifest):
        rng = random.Random("%d:manifest:%d" % (cfg.seed, i))
        origin, text = rng.choice(manifests)
        applied = []
        for _ in range(rng.choice([1, 1, 2])):
            text, op = mutate_manifest(text, rng)
            applied.append(op)
        path = os.path.join(gen, "j%04d.json" % i)
        with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(text)
        launch = rng.choice(["all", "plausible", "zero", "huge", "negative"])
        case = Case("manifest-%04d" % i, ["tile-robustness-manifest", path,
                                          "--launch=" + launch], source=path)
        cases.append(case)
        with open(path + ".origin", "w") as f:
            f.write("mutation %d of %s: %s\n" % (i, origin,
                                                 ", ".join(applied)))
    for i in range(n_frontend):
        rng = random.Random("%d:frontend:%d" % (cfg.seed, i))
        cases.append(Case("frontend-%04d" % i, ["tile-robustness-frontend"] +
                          mutate_frontend(rng)))
    if cfg.only is not None:
        cases = [c for c in cases if c.name.endswith("-%04d" % cfg.only)]
    return run_all(cases, cfg, "robustness mutations (seed %d)" % cfg.seed)


# ===-----------------------------------------------------------------------===#
# valid: the library's kernels and the examples compile silently
# ===-----------------------------------------------------------------------===#

def cmd_valid(cfg):
    started = time.monotonic()
    kernels = os.path.join(cfg.work, "kernels")
    shutil.rmtree(kernels, ignore_errors=True)
    # 1. tile-kernels --out-dir: all ok, nothing on stderr.
    proc = subprocess.run([os.path.join(cfg.bin, "tile-kernels"),
                           "--out-dir=" + kernels], capture_output=True,
                          text=True, timeout=1200)
    failures = []
    if proc.returncode != 0 or proc.stderr.strip():
        failures.append("tile-kernels --out-dir=%s: exit %d, stderr:\n%s" %
                        (kernels, proc.returncode, proc.stderr.strip()))
    bad_rows = [l for l in proc.stdout.splitlines()
                if l.rstrip().endswith("FAILED")]
    if bad_rows:
        failures.append("tile-kernels reports failures:\n" +
                        "\n".join(bad_rows))
    print("tile-kernels --out-dir: exit %d, %d lines of stderr" %
          (proc.returncode, len(proc.stderr.splitlines())))
    if failures:
        for f in failures:
            print("FAIL " + f)
    cases = []
    try:
        with open(os.path.join(kernels, "index.json")) as f:
            index = json.load(f)
    except (OSError, ValueError) as e:
        print("FAIL no kernel index: %s" % e)
        return 1
    # 2. compile() of every library kernel's IR, cubin included: no
    # diagnostic, no ptxas warning.
    for entry in index["kernels"]:
        mlir = os.path.join(kernels, entry["name"] + ".mlir")
        cases.append(Case("kernel " + entry["name"],
                          ["tile-robustness-frontend", "compile-file", mlir,
                           "--cubin", "--chip=" + entry.get("chip", "sm_90"),
                           "--no-diagnostics"], source=mlir, expect="ok"))
    # 3. The examples through tile-opt and each tile-translate output, and
    # the frontend's compile().
    examples = os.path.join(cfg.src, "test", "Examples")
    for name in sorted(os.listdir(examples)):
        if not name.endswith(".mlir"):
            continue
        path = os.path.join(examples, name)
        for label, line in [
                ("tile-opt --tile-to-nvvm",
                 "tile-opt %s --tile-to-nvvm -o %t/out.mlir"),
                ("tile-translate --emit=ptx",
                 "tile-translate %s --emit=ptx -o %t/out.ptx"),
                ("tile-translate --emit=cubin",
                 "tile-translate %s --emit=cubin -o %t/out.cubin "
                 "--manifest-out=%t/out.json"),
                # The report's warnings (spills, local memory, a gemm
                # without tensor cores, unvectorized copies): none.
                ("tile-translate --emit=report-json",
                 "forbid='\"warnings\": \\[\\s*\"' "
                 "tile-translate %s --emit=report-json -o -"),
                ("compile()", "tile-robustness-frontend compile-file %s "
                 "--cubin --no-diagnostics")]:
            case = parse_case_line(line, {"%s": path},
                                   "example %s: %s" % (name, label))
            case.expect, case.source = "ok", path
            cases.append(case)
    status = run_all(cases, cfg, "valid kernels compile silently")
    print("wall time with tile-kernels: %.0f s" % (time.monotonic() - started))
    return 1 if failures else status


# ===-----------------------------------------------------------------------===#

def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("mode", choices=["corpus", "mutations", "valid"])
    parser.add_argument("--bin", required=True, help="folder of the tools")
    parser.add_argument("--src", required=True, help="repository root")
    parser.add_argument("--work", required=True, help="scratch folder "
                        "(reproducers and outputs of failed cases stay here)")
    parser.add_argument("--cuda-toolkit", default="/usr/local/cuda")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=10,
                        help="seconds per case (default 10; the slowest valid "
                        "case takes about 1 s)")
    parser.add_argument("--memory-mib", type=int, default=4096,
                        help="address-space limit per case (default 4096)")
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--count", type=int, default=600)
    parser.add_argument("--only", type=int, help="mutations: only case N")
    parser.add_argument("--filter", help="only cases whose name matches")
    parser.add_argument("--list", action="store_true",
                        help="list the cases, run nothing")
    parser.add_argument("--keep", action="store_true",
                        help="keep the output folders of passing cases")
    parser.add_argument("--symbolize", action="store_true",
                        help="symbolized stack traces in crash reports")
    parser.add_argument("--tail", type=int, default=12,
                        help="lines of output shown per failure")
    cfg = parser.parse_args()
    cfg.work = os.path.abspath(cfg.work)
    cfg.bin = os.path.abspath(cfg.bin)
    cfg.src = os.path.abspath(cfg.src)
    os.makedirs(cfg.work, exist_ok=True)
    shutil.rmtree(os.path.join(cfg.work, "run"), ignore_errors=True)
    for tool in TOOLS:
        if not os.path.exists(os.path.join(cfg.bin, tool)):
            print("FAIL missing tool %s in %s" % (tool, cfg.bin))
            return 1
    sys.stdout.reconfigure(line_buffering=True)
    return {"corpus": cmd_corpus, "mutations": cmd_mutations,
            "valid": cmd_valid}[cfg.mode](cfg)


if __name__ == "__main__":
    sys.exit(main())
