// tile-tune, the compile side of the autotuner: the GEMM space, pruning
// before compiling (threads, shared memory, the accumulator's registers,
// the generator's verifier), each with its reason; compiling the rest in
// parallel into a kernel directory with tune.json.
//
// RUN: tile-tune --dry-run | FileCheck %s --check-prefix=SPACE
// SPACE: gemm: 216 configurations, 48 pruned before compiling, 168 to compile (sm_90 (compute-capability table); shared memory per block 227 KiB)
// SPACE: pruned gemm_f16_f32_128x256x32_t128_s2_div8: needs at least 256 registers per thread (its accumulator), a thread has 255
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
// Compile two candidates (bf16 in, f16 out) on two threads.
// RUN: rm -rf %t && tile-tune --in-dtype=bf16 --out-dtype=f16 --block-m=128 --block-n=128 --block-k=32 --stages=3 --num-threads=128,256 --raster-panel=0 --jobs=2 --out-dir=%t | FileCheck %s --check-prefix=COMPILE
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
// Divisibility promises are an axis of the space: 8 (the default) and 1
// (any shape) give two kernels per configuration.
// RUN: tile-tune --dry-run --block-m=128 --block-n=128 --block-k=64 --stages=3 --num-threads=128 --raster-panel=0 --divisibility=1,8 | FileCheck %s --check-prefix=DIV
// DIV: gemm: 2 configurations, 0 pruned before compiling, 2 to compile
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
