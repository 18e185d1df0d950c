// tile-tune, the compile side of the autotuner: the GEMM space, pruning
// before compiling (threads, shared memory, the accumulator's registers,
// the generator's verifier), each with its reason; compiling the rest in
// parallel into a kernel directory with tune.json.
//
// RUN: tile-tune --dry-run | FileCheck %s --check-prefix=SPACE
// SPACE: gemm: 216 configurations, 48 pruned before compiling, 168 to compile (sm_90 (compute-capability table); shared memory per block 227 KiB)
// SPACE: pruned gemm_f16_f32_128x256x32_t128_s2_div8: gemm: needs at least 256 registers per thread (its 128x256 f32 accumulator over 128 threads), a thread has 255
// SPACE: pruned gemm_f16_f32_256x256x64_t256_s4_div8: needs 256 KiB of shared memory, sm_90 (compute-capability table) allows 227 KiB per block
//
// A smaller budget, a thread count the tile cannot be spread over, and a
// chip with less shared memory.
// RUN: tile-tune --dry-run --block-m=128 --block-n=128 --block-k=64 --stages=2,4 --num-threads=96,128 --raster-panel=0 --max-shared-kib=100 | FileCheck %s --check-prefix=PRUNE
// PRUNE: gemm: 4 configurations, 3 pruned before compiling, 1 to compile (sm_90 (--max-shared-kib); shared memory per block 100 KiB)
// PRUNE-DAG: pruned gemm_f16_f32_128x128x64_t96_s2_div8: 'tile.alloc_fragment' op expected the fragment's 16384 elements to be a multiple of the kernel's 96 threads
// PRUNE-DAG: pruned gemm_f16_f32_128x128x64_t128_s4_div8: needs 128 KiB of shared memory, sm_90 (--max-shared-kib) allows 100 KiB per block
// PRUNE-DAG: pruned gemm_f16_f32_128x128x64_t96_s4_div8: needs 128 KiB
// RUN: tile-tune --dry-run --chip=sm_86 --block-m=128 --block-n=128 --block-k=64 --stages=4 --num-threads=128 --raster-panel=0 | FileCheck %s --check-prefix=SM86
// SM86: shared memory per block 99 KiB
// SM86: pruned gemm_f16_f32_128x128x64_t128_s4_div8: needs 128 KiB
// SM86-SAME: allows 99 KiB
//
// --warp-specialized adds the sm_90a form of each tile shape (its threads
// follow from block_m), compiled for sm_90a and listed so in index.json.
// RUN: rm -rf %t.ws
// RUN: tile-tune --out-dir=%t.ws --warp-specialized --block-m=128 --block-n=256 --block-k=64 --stages=4 --num-threads=256 --raster-panel=8 | FileCheck %s --check-prefix=WS
// WS: gemm: 2 configurations, 0 pruned before compiling, 2 to compile
// WS-DAG: gemm_f16_f32_128x256x64_t256_s4_r8_div8 {{.*}} ok
// WS-DAG: gemm_f16_f32_128x256x64_t384_s4_r8_div8_ws 168 0 192 {{.*}} ok
// RUN: FileCheck %s --check-prefix=WSINDEX < %t.ws/index.json
// WSINDEX: "chip": "sm_90a"
// WSINDEX: "name": "gemm_f16_f32_128x256x64_t384_s4_r8_div8_ws"
// 64-row sm_90a tiles (one compute warpgroup, no setmaxnreg) compile at the
// registers they need; ptxas refused them (C7508) while they had one.
// RUN: rm -rf %t.ws64
// RUN: tile-tune --out-dir=%t.ws64 --warp-specialized --block-m=64 --block-n=64,128 --block-k=64 --stages=6 --num-threads=256 --raster-panel=0 | FileCheck %s --check-prefix=WS64
// WS64: gemm: 4 configurations, 0 pruned before compiling, 4 to compile
// WS64-DAG: gemm_f16_f32_64x64x64_t256_s6_div8_ws {{[0-9]+}} 0 96 {{.*}} ok
// WS64-DAG: gemm_f16_f32_64x128x64_t256_s6_div8_ws {{[0-9]+}} 0 144 {{.*}} ok
//
// The limits of the GPU itself: `tile-device-info --json` run on it (here a
// GPU with 100 KiB of shared memory per block), and the errors.
// RUN: rm -rf %t.dev && mkdir -p %t.dev
// RUN: echo '{"format": "tile-device-info", "version": 1, "driver": "13.0", "devices": [{"name": "Small GPU", "chip": "sm_90", "shared_memory_per_block_optin": 102400, "registers_per_block": 65536, "max_threads_per_block": 1024}]}' > %t.dev/small.json
// RUN: tile-tune --dry-run --device=%t.dev/small.json --block-m=128 --block-n=128 --block-k=64 --stages=2,4 --num-threads=128 --raster-panel=0 | FileCheck %s --check-prefix=DEVICE
// DEVICE: gemm: 2 configurations, 1 pruned before compiling, 1 to compile (Small GPU; shared memory per block 100 KiB)
// DEVICE: pruned gemm_f16_f32_128x128x64_t128_s4_div8: needs 128 KiB of shared memory, Small GPU allows 100 KiB per block
// The H200's own description (benchmarks/devices/, from the GPU machine).
// RUN: tile-tune --dry-run --device=%S/../../benchmarks/devices/nvidia-h200.json --block-m=256 --block-n=128 --block-k=64 --stages=4,6 --num-threads=256 --raster-panel=0 | FileCheck %s --check-prefix=H200
// H200: gemm: 2 configurations, 1 pruned before compiling, 1 to compile (NVIDIA H200; shared memory per block 227 KiB)
// H200: pruned gemm_f16_f32_256x128x64_t256_s6_div8: needs 288 KiB of shared memory, NVIDIA H200 allows 227 KiB per block
// RUN: not tile-tune --dry-run --device=%t.dev/small.json --chip=sm_80 2>&1 | FileCheck %s --check-prefix=DEVCHIP
// DEVCHIP: tile-tune: --chip=sm_80 but {{.*}}small.json describes a sm_90 GPU (Small GPU)
// RUN: echo '{"format": "tile-device-info", "version": 1, "driver": "", "devices": [], "no_gpu_reason": "no CUDA driver"}' > %t.dev/none.json
// RUN: not tile-tune --dry-run --device=%t.dev/none.json 2>&1 | FileCheck %s --check-prefix=DEVNONE
// DEVNONE: tile-tune: {{.*}}none.json: lists no device (no CUDA driver)
// RUN: not tile-tune --dry-run --device=%s 2>&1 | FileCheck %s --check-prefix=DEVBAD
// DEVBAD: tile-tune: {{.*}}tile-tune.mlir: not JSON:
//
// Compile two candidates (bf16 in, f16 out) on two threads; --quiet leaves
// standard error empty and standard output as it is.
// RUN: rm -rf %t && tile-tune --in-dtype=bf16 --out-dtype=f16 --block-m=128 --block-n=128 --block-k=32 --stages=3 --num-threads=128,256 --raster-panel=0 --jobs=2 --out-dir=%t --quiet 2> %t.quiet.err | FileCheck %s --check-prefix=COMPILE
// RUN: count 0 < %t.quiet.err
// COMPILE: candidate{{ +}}regs{{ +}}spill{{ +}}smem KiB{{ +}}compile ms{{ +}}status
// COMPILE-DAG: gemm_bf16_f16_128x128x32_t128_s3_div8{{ +}}{{[0-9]+}}{{ +}}{{[0-9]+}}{{ +}}48{{ +}}{{[0-9.]+}}  ok
// COMPILE-DAG: gemm_bf16_f16_128x128x32_t256_s3_div8{{ +}}{{[0-9]+}}{{ +}}{{[0-9]+}}{{ +}}48{{ +}}{{[0-9.]+}}  ok
// COMPILE: 2 candidates compiled into
// RUN: FileCheck %s --check-prefix=INDEX < %t/index.json
// INDEX: "format": "tile-kernel-index"
// INDEX: "cubin": "gemm_bf16_f16_128x128x32_t{{128|256}}_s3_div8.cubin"
// RUN: FileCheck %s --check-prefix=TUNE < %t/tune.json
// TUNE: "candidates": [
// TUNE: "pruned": []
// TUNE: "format": "tile-tune-search"
//
// Progress: one line per candidate on standard error as the compiler is
// done with it (k of n, elapsed time, compile time, registers and spills),
// pruned ones too: here a GPU whose block holds 32768 registers, which the
// 256-thread candidate's 172 exceed. One thread: candidates in order.
// RUN: rm -rf %t.prog && echo '{"format": "tile-device-info", "version": 1, "driver": "13.0", "devices": [{"name": "Small GPU", "chip": "sm_90", "shared_memory_per_block_optin": 102400, "registers_per_block": 32768, "max_threads_per_block": 1024}]}' > %t.regs.json
// RUN: tile-tune --device=%t.regs.json --in-dtype=bf16 --out-dtype=f16 --block-m=128 --block-n=128 --block-k=32 --stages=3 --num-threads=128,256 --raster-panel=0 --jobs=1 --out-dir=%t.prog > %t.prog.out 2> %t.prog.err
// RUN: FileCheck %s --check-prefix=PROGRESS --match-full-lines < %t.prog.err
// RUN: count 4 < %t.prog.err
// PROGRESS: tile-tune: compiling 2 candidates on 1 thread (0 pruned before compiling)
// PROGRESS-NEXT: [1/2] {{[0-9]+\.[0-9]s}} gemm_bf16_f16_128x128x32_t128_s3_div8: compiled in {{[0-9]+\.[0-9]}} ms, {{[0-9]+}} registers, 0 spill bytes; ok
// PROGRESS-NEXT: [2/2] {{[0-9]+\.[0-9]s}} gemm_bf16_f16_128x128x32_t256_s3_div8: compiled in {{[0-9]+\.[0-9]}} ms, [[REGS:[0-9]+]] registers, 0 spill bytes; pruned: [[REGS]] registers x 256 threads exceed the 32768 registers of a block
// PROGRESS-NEXT: tile-tune: done compiling after {{[0-9]+\.[0-9]s}}: 1 ok, 1 pruned after compiling, 0 did not compile (of 2)
// RUN: FileCheck %s --check-prefix=PROGRESSOUT < %t.prog.out
// PROGRESSOUT: gemm: 2 configurations, 0 pruned before compiling, 2 to compile (Small GPU; shared memory per block 100 KiB)
// PROGRESSOUT-NEXT: candidate{{ +}}regs
// PROGRESSOUT-NEXT: gemm_bf16_f16_128x128x32_t128_s3_div8 {{.*}} ok
// PROGRESSOUT-NEXT: gemm_bf16_f16_128x128x32_t256_s3_div8 {{.*}} registers x 256 threads exceed the 32768 registers of a block
// PROGRESSOUT-NEXT: 1 candidates compiled into
//
// Divisibility promises are an axis of the space: 8 (the default) and 1
// (any shape) give two kernels per configuration.
// RUN: tile-tune --dry-run --block-m=128 --block-n=128 --block-k=64 --stages=3 --num-threads=128 --raster-panel=0 --divisibility=1,8 | FileCheck %s --check-prefix=DIV
// DIV: gemm: 2 configurations, 0 pruned before compiling, 2 to compile
//
// Split-K slices are an axis too (with the sm_90a form: 2 x 2 kernels); they
// add into an f32 C, so an f16 output prunes them with the reason.
// RUN: tile-tune --dry-run --warp-specialized --block-m=128 --block-n=128 --block-k=64 --stages=4 --num-threads=256 --raster-panel=0 --split-k=1,2 | FileCheck %s --check-prefix=SPLITK
// SPLITK: gemm: 4 configurations, 0 pruned before compiling, 4 to compile
// RUN: tile-tune --dry-run --out-dtype=f16 --block-m=128 --block-n=128 --block-k=64 --stages=3 --num-threads=128 --raster-panel=0 --split-k=2 | FileCheck %s --check-prefix=SPLITKF16
// SPLITKF16: pruned gemm_f16_f16_128x128x64_t128_s3_div8_sk2: gemm: split_k > 1 adds partial sums into C with f32 atomics: expected out_dtype f32 and no epilogue, but got out_dtype f16 and epilogue none
//
// The persistent form (--persistent) of each warp-specialized candidate
// without split-K: 1 mma.sync + 1 + 1 persistent here.
// RUN: tile-tune --dry-run --warp-specialized --persistent --block-m=128 --block-n=256 --block-k=64 --stages=4 --num-threads=256 --raster-panel=8 | FileCheck %s --check-prefix=PERSISTENT
// PERSISTENT: gemm: 3 configurations, 0 pruned before compiling, 3 to compile
//
// The TMA-store epilogue (--tma-store) of each warp-specialized candidate
// without split-K, persistent or not: 1 mma.sync + 2 x 2 here.
// RUN: tile-tune --dry-run --warp-specialized --persistent --tma-store --out-dtype=f16 --block-m=128 --block-n=256 --block-k=64 --stages=3 --num-threads=256 --raster-panel=8 | FileCheck %s --check-prefix=TMASTORE
// TMASTORE: gemm: 5 configurations, 0 pruned before compiling, 5 to compile
// With band widths (--tma-store-columns, 0 the whole tile), each TMA-store
// candidate once per width: 1 mma.sync + 1 without TMA store + 2 in bands
// here (the whole 128x256 tile does not fit beside 4 stages).
// RUN: tile-tune --dry-run --warp-specialized --tma-store --tma-store-columns=32,64 --out-dtype=f16 --block-m=128 --block-n=256 --block-k=64 --stages=4 --num-threads=256 --raster-panel=8 | FileCheck %s --check-prefix=BANDS
// BANDS: gemm: 4 configurations, 0 pruned before compiling, 4 to compile
// --stream-k adds the stream-K form of each persistent candidate (one
// compute set, no cluster): the persistent 128x256 one, beside the mma.sync
// and the non-persistent wgmma ones (the mma.sync one at 384 threads is
// pruned).
// RUN: tile-tune --dry-run --warp-specialized --persistent --block-m=128 --block-n=256 --block-k=64 --stages=4 --num-threads=384 --raster-panel=8 | FileCheck %s --check-prefix=NOSTREAMK
// NOSTREAMK: gemm: 3 configurations, 1 pruned before compiling, 2 to compile
// RUN: tile-tune --dry-run --warp-specialized --persistent --stream-k --block-m=128 --block-n=256 --block-k=64 --stages=4 --num-threads=384 --raster-panel=8 | FileCheck %s --check-prefix=STREAMK
// STREAMK: gemm: 4 configurations, 1 pruned before compiling, 3 to compile
// STREAMK-NOT: _streamk

// The swap_ab form (--swap-ab) of each warp-specialized NN candidate that
// is not persistent: 2 mma.sync + 2 + 2 persistent + 2 swapped here, the
// 16-row tile only swapped (a compute warpgroup per 64 of block_n).
// RUN: tile-tune --dry-run --warp-specialized --swap-ab --persistent --block-m=16,64 --block-n=64 --block-k=64 --stages=8 --num-threads=256 --raster-panel=0 | FileCheck %s --check-prefix=SWAPAB
// SWAPAB: gemm: 8 configurations, 2 pruned before compiling, 6 to compile
// SWAPAB-DAG: pruned gemm_f16_f32_16x64x64_t128_s8_div8_ws: gemm: warp_specialized expects block_m a multiple of 64
// SWAPAB-DAG: pruned gemm_f16_f32_16x64x64_t128_s8_div8_ws_persistent:
// SWAPAB-NOT: _swapab
// Cluster sizes along M (--cluster-m, 1 for none) multiply the persistent
// candidates alone: 1 mma.sync + 1 + 2 persistent (`_cm2` once).
// RUN: tile-tune --dry-run --warp-specialized --persistent --cluster-m=1,2 --block-m=128 --block-n=256 --block-k=64 --stages=4 --num-threads=256 --raster-panel=8 | FileCheck %s --check-prefix=CLUSTER
// CLUSTER: gemm: 4 configurations, 0 pruned before compiling, 4 to compile
// Compute sets (--consumers, 1 cooperative, 2 ping-pong) multiply the
// persistent candidates without a cluster: 1 mma.sync + 2 (TMA store or
// not) + 2 x 2 persistent here; a ping-pong tile that one warpgroup cannot
// hold is pruned with the generator's reason.
// RUN: tile-tune --dry-run --warp-specialized --persistent --consumers=1,2 --tma-store --tma-store-columns=64 --out-dtype=f16 --block-m=128 --block-n=128 --block-k=64 --stages=5 --num-threads=256 --raster-panel=8 | FileCheck %s --check-prefix=PINGPONG
// PINGPONG: gemm: 7 configurations, 0 pruned before compiling, 7 to compile
// RUN: tile-tune --dry-run --warp-specialized --persistent --consumers=2 --block-m=128 --block-n=256 --block-k=64 --stages=4 --num-threads=256 --raster-panel=8 | FileCheck %s --check-prefix=PINGPONGWIDE
// PINGPONGWIDE: gemm: 3 configurations, 1 pruned before compiling, 2 to compile
// PINGPONGWIDE: pruned gemm_f16_f32_128x256x64_t256_s4_r8_div8_ws_persistent_pingpong: gemm: warp_specialized expects block_m a multiple of 64 with threads = 256 and block_m x block_n at most 16384 (consumers > 1: one warpgroup holds a tile, 128 f32 accumulator values a thread), block_n a multiple of 64 up to 256 and block_k a multiple of 64, but got 128x256 x 64 over 256 threads
//
// The operand layout is the problem's, not an axis: --transpose-a and
// --transpose-b give every candidate it (names `_tn`, both forms), and
// tune.json records it for tile-tune-run's inputs and its cache key.
// RUN: rm -rf %t.tn && tile-tune --out-dir=%t.tn --warp-specialized --transpose-a --block-m=128 --block-n=256 --block-k=64 --stages=4 --num-threads=256 --raster-panel=8 | FileCheck %s --check-prefix=TN
// TN-DAG: gemm_f16_f32_128x256x64_t256_s4_r8_tn_div8{{ +}}{{[0-9]+}}
// TN-DAG: gemm_f16_f32_128x256x64_t384_s4_r8_tn_div8_ws{{ +}}{{[0-9]+}}{{ +}}0{{ +}}
// TN: 2 candidates compiled into
// RUN: FileCheck %s --check-prefix=TNSEARCH < %t.tn/tune.json
// TNSEARCH: "layout": "tn"
//
// A deliberately wrong candidate (an NT kernel recorded as NN) for the GPU
// side to reject.
// RUN: tile-tune --dry-run --block-m=128 --block-n=128 --block-k=64 --stages=3 --num-threads=128 --raster-panel=0 --add-wrong-candidate | FileCheck %s --check-prefix=WRONG
// WRONG: gemm: 2 configurations, 0 pruned before compiling, 2 to compile
//
// RUN: not tile-tune --kernel=softmax --dry-run 2>&1 | FileCheck %s --check-prefix=NOSPACE
// NOSPACE: tile-tune: no configuration space for 'softmax' yet (gemm has one)
// RUN: not tile-tune --chip=sm_75 --dry-run 2>&1 | FileCheck %s --check-prefix=NOCHIP
// NOCHIP: tile-tune: no limits known for chip 'sm_75' (sm_80, sm_86, sm_89, sm_90)
//
// Values the generator does not support are pruned with its reason (the
// GEMM's validate(), as tile-kernels reports it): nothing crashes, and no
// kernel named with a '-' reaches the compiler.
// RUN: tile-tune --dry-run --divisibility=0 --block-m=128 --block-n=128 --block-k=64 --stages=3 --num-threads=128 --raster-panel=0 | FileCheck %s --check-prefix=DIV0
// DIV0: gemm: 1 configurations, 1 pruned before compiling, 0 to compile
// DIV0: pruned gemm_f16_f32_128x128x64_t128_s3: gemm: divisibility must be at least 1 (1: any shape; the promised row multiple), but got 0
// RUN: rm -rf %t.limits && tile-tune --block-m=128 --block-n=128 --block-k=0,32 --stages=3 --num-threads=128 --raster-panel=-1,0 --jobs=1 --out-dir=%t.limits 2>&1 | FileCheck %s --check-prefix=LIMITS
// LIMITS: gemm: 4 configurations, 3 pruned before compiling, 1 to compile
// LIMITS-DAG: pruned gemm_f16_f32_128x128x0_t128_s3_r-1_div8: gemm: block_k must be at least 16 (the K of one m16n8k16 MMA), but got 0
// LIMITS-DAG: pruned gemm_f16_f32_128x128x0_t128_s3_div8: gemm: block_k must be at least 16
// LIMITS-DAG: pruned gemm_f16_f32_128x128x32_t128_s3_r-1_div8: gemm: raster_panel must be from 0 to 65535 (0: off; grid rows per panel, and a grid has at most 65535), but got -1
// LIMITS: gemm_f16_f32_128x128x32_t128_s3_div8 {{.*}} ok
// LIMITS: 1 candidates compiled into
// RUN: not ls %t.limits/gemm_f16_f32_128x128x32_t128_s3_r-1_div8.ptx
//
// The types hold for every candidate: a type the GEMM does not take is an
// error at once.
// RUN: not tile-tune --dry-run --out-dtype=i8 2>&1 | FileCheck %s --check-prefix=BADOUT
// BADOUT: tile-tune: gemm: out_dtype must be one of f32, f16, bf16, but got 'i8'
// RUN: not tile-tune --dry-run --in-dtype=f32 2>&1 | FileCheck %s --check-prefix=BADIN
// BADIN: tile-tune: gemm: in_dtype must be one of f16, bf16, but got 'f32'
// RUN: not tile-tune --dry-run --max-shared-kib=-1 2>&1 | FileCheck %s --check-prefix=BADSHARED
// BADSHARED: tile-tune: expected --max-shared-kib from 1 to 1048576 (0: the chip's table), but got -1
//
// A toolkit whose ptxas does not run stops before compiling; one that
// cannot compile says why for every candidate, and the first reason when
// none survives; an --out-dir that is a file fails before compiling.
// RUN: rm -rf %t.tk %t.none && not tile-tune --block-m=128 --block-n=128 --block-k=32 --stages=3 --num-threads=128 --raster-panel=0 --cuda-toolkit=%t.tk --out-dir=%t.none 2>&1 | FileCheck %s --check-prefix=NOPTXAS
// NOPTXAS: tile-tune: cannot run {{.*}}.tk/bin/ptxas --version (the CUDA toolkit of --cuda-toolkit): no candidate could be compiled to a cubin
// NOPTXAS-NOT: compiled
// RUN: mkdir -p %t.tk/bin && cp %S/Inputs/stub-ptxas.sh %t.tk/bin/ptxas
// RUN: not tile-tune --block-m=128 --block-n=128 --block-k=32 --stages=3 --num-threads=128 --raster-panel=0 --jobs=1 --cuda-toolkit=%t.tk --out-dir=%t.none > %t.stub.out 2> %t.stub.err
// RUN: FileCheck %s --check-prefix=STUB < %t.stub.out
// RUN: FileCheck %s --check-prefix=STUBERR < %t.stub.err
// STUB: gemm_f16_f32_128x128x32_t128_s3_div8{{ +}}-{{ +}}-{{ +}}48{{ +}}-{{ +}}does not compile: {{.+}}
// STUB: 0 candidates compiled into
// STUBERR: [1/1] {{.*}}s gemm_f16_f32_128x128x32_t128_s3_div8: does not compile: {{.+}}
// STUBERR: tile-tune: done compiling after {{.*}}: 0 ok, 0 pruned after compiling, 1 did not compile (of 1)
// STUBERR: tile-tune: no candidate survived; the first that did not compile: gemm_f16_f32_128x128x32_t128_s3_div8: does not compile: {{.+}}
// RUN: echo "a file" > %t.file
// RUN: not tile-tune --block-m=128 --block-n=128 --block-k=32 --stages=3 --num-threads=128 --raster-panel=0 --out-dir=%t.file 2>&1 | FileCheck %s --check-prefix=OUTFILE
// OUTFILE: tile-tune: cannot create {{.*}}.file: it exists and is not a folder
// OUTFILE-NOT: compiled
//
// A --device file nested deeper than tile-device-info writes is refused
// before parsing (llvm::json's parser recurses once per level), and so are
// limits that are not positive counts.
// RUN: %python -c "print('{\"x\": ' + '[' * 100000 + ']' * 100000 + '}')" > %t.dev/deep.json
// RUN: not tile-tune --dry-run --device=%t.dev/deep.json 2>&1 | FileCheck %s --check-prefix=DEEP
// DEEP: tile-tune: {{.*}}deep.json: not the output of tile-device-info --json: its arrays and objects nest 100001 deep, at most 64 are read
// RUN: not tile-tune --dry-run --device=/dev/zero 2>&1 | FileCheck %s --check-prefix=DEVZERO
// DEVZERO: tile-tune: /dev/zero: not the output of tile-device-info --json: longer than 1048576 bytes
// RUN: not tile-tune --dry-run --device=%t.dev/missing.json 2>&1 | FileCheck %s --check-prefix=DEVMISSING
// DEVMISSING: tile-tune: {{.*}}missing.json: No such file or directory
// RUN: echo '{"format": "tile-device-info", "version": 1, "driver": "13.0", "devices": [{"name": "Odd GPU", "chip": "sm_90", "shared_memory_per_block_optin": -1, "registers_per_block": 65536, "max_threads_per_block": 1024}]}' > %t.dev/negative.json
// RUN: not tile-tune --dry-run --device=%t.dev/negative.json 2>&1 | FileCheck %s --check-prefix=DEVNEG
// DEVNEG: tile-tune: {{.*}}negative.json: its first device has shared_memory_per_block_optin = -1, expected a positive count
//
// Standard output on a full disk is an error, not LLVM's abort.
// RUN: not tile-tune --dry-run 2>&1 > /dev/full | FileCheck %s --check-prefix=FULLOUT
// FULLOUT: tile-tune: cannot write standard output: No space left on device
