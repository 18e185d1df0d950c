// tile-tune-run, the GPU side of the autotuner (runtime only), fed a search
// folder that tile-tune did not write or that was cut short: every broken
// input is refused before any GPU work, with the file and what is wrong,
// and exit status 2 (`not` fails on a signal: an uncaught exception's abort
// fails these tests). Runs on the CPU.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: not tile-tune-run %t --shape=128x128x128 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: tile-tune-run: no {{.*}}/tune.json (run tile-tune --out-dir={{.*}})
//
// A truncated tune.json, one that is not an object or not a search, a field
// of the wrong type, a generator or types it cannot run.
// RUN: echo '{"generator": ' > %t/tune.json
// RUN: not tile-tune-run %t --shape=128x128x128 2>&1 | FileCheck %s --check-prefix=TRUNCATED
// TRUNCATED: tile-tune-run: {{.*}}/tune.json is not a tile-tune search: [json.exception.parse_error.101] parse error at line 2, column 1: syntax error while parsing value - unexpected end of input
// RUN: echo '[1, 2]' > %t/tune.json
// RUN: not tile-tune-run %t --shape=128x128x128 2>&1 | FileCheck %s --check-prefix=NOTSEARCH
// RUN: echo '{}' > %t/tune.json
// RUN: not tile-tune-run %t --shape=128x128x128 2>&1 | FileCheck %s --check-prefix=NOTSEARCH
// NOTSEARCH: tile-tune-run: {{.*}}/tune.json is not a tile-tune search: expected an object with "format": "tile-tune-search"
// RUN: echo '{"format": "tile-tune-search", "generator": 5}' > %t/tune.json
// RUN: not tile-tune-run %t --shape=128x128x128 2>&1 | FileCheck %s --check-prefix=GENTYPE
// GENTYPE: tile-tune-run: {{.*}}/tune.json is not a tile-tune search: expected a string "generator"
// RUN: echo '{"format": "tile-tune-search", "generator": "softmax", "dtypes": "f16->f16", "toolchain": "t"}' > %t/tune.json
// RUN: not tile-tune-run %t --shape=128x128x128 2>&1 | FileCheck %s --check-prefix=GENERATOR
// GENERATOR: tile-tune-run: {{.*}}/tune.json is not a tile-tune search: generator 'softmax': tile-tune-run times GEMM searches only
// RUN: echo '{"format": "tile-tune-search", "generator": "gemm", "dtypes": "f16", "toolchain": "t"}' > %t/tune.json
// RUN: not tile-tune-run %t --shape=128x128x128 2>&1 | FileCheck %s --check-prefix=DTYPES
// DTYPES: tile-tune-run: {{.*}}/tune.json is not a tile-tune search: dtypes 'f16': expected IN->OUT, IN f16 or bf16, OUT f32, f16 or bf16
// RUN: echo '{"format": "tile-tune-search", "generator": "gemm", "dtypes": "f16->f32", "toolchain": "t", "layout": "xn"}' > %t/tune.json
// RUN: not tile-tune-run %t --shape=128x128x128 2>&1 | FileCheck %s --check-prefix=LAYOUT
// LAYOUT: tile-tune-run: {{.*}}/tune.json is not a tile-tune search: expected "layout" to be "nn", "nt", "tn" or "tt", but got "xn"
//
// A good tune.json with a missing, truncated or odd index.json.
// RUN: echo '{"format": "tile-tune-search", "generator": "gemm", "dtypes": "f16->f32", "toolchain": "t"}' > %t/tune.json
// RUN: not tile-tune-run %t --shape=128x128x128 2>&1 | FileCheck %s --check-prefix=NOINDEX
// NOINDEX: tile-tune-run: no {{.*}}/index.json
// RUN: echo '{"kernels": [' > %t/index.json
// RUN: not tile-tune-run %t --shape=128x128x128 2>&1 | FileCheck %s --check-prefix=INDEXCUT
// INDEXCUT: tile-tune-run: {{.*}}/index.json: not a kernel index: [json.exception.parse_error.101] parse error
// RUN: echo '{"kernels": 7}' > %t/index.json
// RUN: not tile-tune-run %t --shape=128x128x128 2>&1 | FileCheck %s --check-prefix=INDEXKERNELS
// INDEXKERNELS: tile-tune-run: {{.*}}/index.json: not a kernel index: expected an object with a "kernels" array
// RUN: echo '{"kernels": [{"name": "k", "generator": "gemm", "config": {}, "cubin": 1, "manifest": "k.json"}]}' > %t/index.json
// RUN: not tile-tune-run %t --shape=128x128x128 2>&1 | FileCheck %s --check-prefix=INDEXFIELD
// INDEXFIELD: tile-tune-run: {{.*}}/index.json: not a kernel index: kernel #0: expected a string "cubin"
// RUN: echo '{"kernels": [{"name": "k", "generator": "gemm", "config": [], "cubin": "k.cubin", "manifest": "k.json"}]}' > %t/index.json
// RUN: not tile-tune-run %t --shape=128x128x128 2>&1 | FileCheck %s --check-prefix=INDEXCONFIG
// INDEXCONFIG: tile-tune-run: {{.*}}/index.json: not a kernel index: kernel #0: expected an object "config"
// RUN: echo '{"kernels": []}' > %t/index.json
// RUN: not tile-tune-run %t --shape=128x128x128 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: tile-tune-run: no candidates in
// Deeply nested JSON (nlohmann's parser does not recurse; the error names
// the first field that is wrong).
// RUN: %python -c "print('{\"format\": \"tile-tune-search\", \"generator\": ' + '[' * 100000 + ']' * 100000 + '}')" > %t/tune.json
// RUN: not tile-tune-run %t --shape=128x128x128 2>&1 | FileCheck %s --check-prefix=GENTYPE
//
// Flags: a shape that is not MxNxK of positive sizes, or whose matrices
// would not be allocated, and --runs that is not a count.
// RUN: not tile-tune-run %t --shape=128x128 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not tile-tune-run %t --shape=1x1x1junk 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not tile-tune-run %t --shape=0x1x1 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not tile-tune-run %t --shape=99999999999999999999x1x1 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: tile-tune-run: expected --shape=MxNxK with M, N and K from 1 to 1048576, but got
// SHAPE: usage: tile-tune-run DIR --shape=MxNxK
// RUN: not tile-tune-run %t --shape=1048576x1048576x1 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: tile-tune-run: --shape=1048576x1048576x1 has a matrix of 1099511627776 elements, at most 4294967296 are allocated
// RUN: not tile-tune-run %t --shape=8x8x8 --runs=0 2>&1 | FileCheck %s --check-prefix=RUNS
// RUN: not tile-tune-run %t --shape=8x8x8 --runs=ten 2>&1 | FileCheck %s --check-prefix=RUNS
// RUNS: tile-tune-run: expected --runs from 1 to 10000, but got
// RUN: not tile-tune-run %t --shape=8x8x8 --frobnicate 2>&1 | FileCheck %s --check-prefix=FLAG
// FLAG: tile-tune-run: unexpected argument '--frobnicate'
//
// A good search on a machine without a CUDA driver (forced here with
// TILE_RUNTIME_LIBCUDA, so that the test says the same on a GPU machine):
// nothing is timed, which it says with exit status 2; --quiet is accepted.
// Progress lines (Progress.h, runtime/test/ProgressTest.cpp) start only
// once candidates run on a GPU.
// RUN: echo '{"format": "tile-tune-search", "generator": "gemm", "dtypes": "f16->f32", "toolchain": "t"}' > %t/tune.json
// RUN: echo '{"kernels": [{"name": "k", "generator": "gemm", "config": {}, "cubin": "k.cubin", "manifest": "k.json"}]}' > %t/index.json
// RUN: env TILE_RUNTIME_LIBCUDA=%t/no-libcuda.so not tile-tune-run %t --shape=128x128x128 --quiet > %t.nodriver.out 2> %t.nodriver.err
// RUN: FileCheck %s --check-prefix=NODRIVER < %t.nodriver.out
// RUN: count 0 < %t.nodriver.err
// RUN: env TILE_RUNTIME_LIBCUDA=%t/no-libcuda.so not tile-tune-run %t --shape=128x128x128 2>&1 | FileCheck %s --check-prefix=NODRIVER
// NODRIVER: SKIPPED: no CUDA GPU (no CUDA driver: cannot load {{.*}}no-libcuda.so{{.*}}): 1 candidates not timed
// NODRIVER-NOT: [1/1]
