// tile-tune, the compile side of the autotuner: the GEMM space, pruning
// before compiling (threads, shared memory, the accumulator's registers,
// the generator's verifier), each with its reason; compiling the rest in
// parallel into a kernel directory with tune.json.
//
// RUN: tile-tune --dry-run | FileCheck %s --check-prefix=SPACE
// SPACE: gemm: 216 configurations, 48 pruned before compiling, 168 to compile (sm_90 (compute-capability table); shared memory per block 227 KiB)
// SPACE: pruned gemm_f16_f32_128x256x32_t128_s2: needs at least 256 registers per thread (its accumulator), a thread has 255
// SPACE: pruned gemm_f16_f32_256x256x64_t256_s4: needs 256 KiB of shared memory, sm_90 (compute-capability table) allows 227 KiB per block
//
// A smaller budget, a thread count the tile cannot be spread over, and a
// chip with less shared memory.
// RUN: tile-tune --dry-run --block-m=128 --block-n=128 --block-k=64 --stages=2,4 --num-threads=96,128 --raster-panel=0 --max-shared-kib=100 | FileCheck %s --check-prefix=PRUNE
// PRUNE: gemm: 4 configurations, 3 pruned before compiling, 1 to compile (sm_90 (--max-shared-kib); shared memory per block 100 KiB)
// PRUNE-DAG: pruned gemm_f16_f32_128x128x64_t96_s2: 'tile.alloc_fragment' op expected the fragment's 16384 elements to be a multiple of the kernel's 96 threads
// PRUNE-DAG: pruned gemm_f16_f32_128x128x64_t128_s4: needs 128 KiB of shared memory, sm_90 (--max-shared-kib) allows 100 KiB per block
// PRUNE-DAG: pruned gemm_f16_f32_128x128x64_t96_s4: needs 128 KiB
// RUN: tile-tune --dry-run --chip=sm_86 --block-m=128 --block-n=128 --block-k=64 --stages=4 --num-threads=128 --raster-panel=0 | FileCheck %s --check-prefix=SM86
// SM86: shared memory per block 99 KiB
// SM86: pruned gemm_f16_f32_128x128x64_t128_s4: needs 128 KiB
// SM86-SAME: allows 99 KiB
//
// Compile two candidates (bf16 in, f16 out) on two threads.
// RUN: rm -rf %t && tile-tune --in-dtype=bf16 --out-dtype=f16 --block-m=128 --block-n=128 --block-k=32 --stages=3 --num-threads=128,256 --raster-panel=0 --jobs=2 --out-dir=%t | FileCheck %s --check-prefix=COMPILE
// COMPILE: candidate{{ +}}regs{{ +}}spill{{ +}}smem KiB{{ +}}compile ms{{ +}}status
// COMPILE-DAG: gemm_bf16_f16_128x128x32_t128_s3{{ +}}{{[0-9]+}}{{ +}}{{[0-9]+}}{{ +}}48{{ +}}{{[0-9.]+}}  ok
// COMPILE-DAG: gemm_bf16_f16_128x128x32_t256_s3{{ +}}{{[0-9]+}}{{ +}}{{[0-9]+}}{{ +}}48{{ +}}{{[0-9.]+}}  ok
// COMPILE: 2 candidates compiled into
// RUN: FileCheck %s --check-prefix=INDEX < %t/index.json
// INDEX: "format": "tile-kernel-index"
// INDEX: "cubin": "gemm_bf16_f16_128x128x32_t{{128|256}}_s3.cubin"
// RUN: FileCheck %s --check-prefix=TUNE < %t/tune.json
// TUNE: "candidates": [
// TUNE: "pruned": []
// TUNE: "format": "tile-tune-search"
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
