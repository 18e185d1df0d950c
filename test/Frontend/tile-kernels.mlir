// The C++ frontend's vector-add generator produces the kernel of
// test/Examples/vector-add.mlir (named after its configuration), and
// tile-kernels compiles it. The IR it prints parses and round-trips.

// RUN: tile-kernels --list | FileCheck %s --check-prefix=LIST
// LIST: vector_add
// LIST-NEXT: gemm
// LIST-NEXT: softmax
// LIST-NEXT: bias_gelu
// LIST-NEXT: gemm_softmax
// LIST-NEXT: attention
// LIST-NEXT: print_demo

// RUN: tile-kernels --kernel=vector_add --block-n=2048 --num-threads=128 --emit=mlir | tile-opt | FileCheck %s --check-prefix=IR
// IR-LABEL: tile.kernel @vector_add_f32_2048x128(%A: !tile.buffer<?xf32, global>, %B: !tile.buffer<?xf32, global>, %C: !tile.buffer<?xf32, global>) grid(%bx) = [ceildiv(%A[0], 2048)] threads(128)
// IR: tile.alloc_fragment : !tile.buffer<2048xf32, fragment>
// IR: tile.copy %A[{{.*}}] to {{.*}} : !tile.buffer<?xf32, global> to !tile.buffer<2048xf32, fragment>
// IR: tile.parallel ({{.*}}) in [2048]
// IR: arith.addf
// IR: tile.copy {{.*}} to %C[{{.*}}]

// RUN: tile-kernels --kernel=vector_add --dtype=f16 --block-n=2048 --emit=ptx | FileCheck %s --check-prefix=PTX
// PTX: .visible .entry vector_add_f16_2048x256(
// PTX: ld.global.v4.b32
// PTX: st.global.v4.b32

// RUN: tile-kernels --kernel=vector_add --emit=manifest | FileCheck %s --check-prefix=MANIFEST
// MANIFEST: "block": [
// MANIFEST-NEXT: 256,
// MANIFEST: "divisor": 1024

// RUN: not tile-kernels --kernel=vector_add --dtype=f8 2>&1 | FileCheck %s --check-prefix=BADTYPE
// BADTYPE: tile-kernels: vector_add: dtype must be one of f16, bf16, f32, f64, i32, i64, but got 'f8'

// RUN: not tile-kernels --kernel=nope 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: unknown kernel 'nope'

// RUN: tile-kernels --out-dir=%t.kernels | FileCheck %s --check-prefix=ALL
// RUN: FileCheck %s --check-prefix=INDEX < %t.kernels/index.json
// ALL: kernel compile ms mlir/llvm/ptxas
// ALL: vector_add_f32_1024x256 {{[0-9.]+}} {{[0-9]+/[0-9]+/[0-9]+}} {{.*}} no ok
// ALL: compile time (tile IR -> cubin, one kernel at a time): median {{[0-9]+}} ms, slowest {{[0-9]+}} ms ({{[a-z0-9_]+}}), {{[0-9]+}} of {{[0-9]+}} over 1 s
// ALL: all ok
// INDEX: "format": "tile-kernel-index"
// INDEX: "cubin": "vector_add_f32_1024x256.cubin"
// The library keeps its promises (docs/Coverage.md): a variant for any shape
// of every promised combination.
// RUN: tile-library coverage --kernel-dir=%t.kernels --check | FileCheck %s --check-prefix=COVERAGE
// COVERAGE: tile-library: each of the {{[0-9]+}} promised combinations has a variant for any shape in {{.*}}.kernels

// The GEMM with a fused bias + GELU epilogue: the bias slice goes to shared
// memory before the K loop, the epilogue runs on the accumulator in a
// tile.parallel after it (erf form; the tanh form uses math.tanh), one store.
// RUN: tile-kernels --kernel=gemm --block-m=128 --block-n=128 --block-k=32 --num-threads=128 --out-dtype=f16 --epilogue=bias_gelu --emit=mlir | tile-opt | FileCheck %s --check-prefix=EPI
// EPI-LABEL: tile.kernel @gemm_f16_f16_128x128x32_t128_s3_bias_gelu(%A: {{.*}}, %Bias: !tile.buffer<?xf16, global>)
// EPI: %[[BIAS:.*]] = tile.alloc_shared : !tile.buffer<128xf16, shared>
// EPI-NEXT: tile.copy %Bias[%{{.*}}] to %[[BIAS]]
// EPI: scf.for
// EPI: tile.gemm
// EPI: tile.parallel (%{{.*}}, %[[J:.*]]) in [128, 128]
// EPI: tile.load %[[BIAS]][%[[J]]]
// EPI: math.absf
// EPI: arith.divf {{.*}} fastmath<afn>
// EPI: math.exp2
// EPI: arith.select
// EPI: tile.store
// EPI: tile.copy %{{.*}} to %C[
// GELU without libdevice's erff / tanhf: erfc (Abramowitz & Stegun 7.1.26),
// one ex2.approx and one rcp.approx per element (fe::gelu). The tanh form
// to C's accuracy (fe::geluTanh): for 16-bit C, the hardware tanh (math.tanh
// fastmath<afn>, one tanh.approx.f32 per element and nothing else of the
// MUFU); for f32 C, the logistic form it equals, one ex2.approx and one
// rcp.approx.
// EPI-NOT: math.erf
// RUN: tile-kernels --kernel=gemm --block-m=128 --block-n=128 --block-k=32 --num-threads=128 --out-dtype=f16 --epilogue=bias_gelu_tanh --emit=mlir | FileCheck %s --check-prefix=EPITANH
// EPITANH: tile.parallel
// EPITANH-NOT: math.exp2
// EPITANH: math.tanh {{.*}} fastmath<afn> : f32
// EPITANH-NEXT: math.fma
// EPITANH-NOT: math.exp2
// RUN: tile-kernels --kernel=gemm --block-m=128 --block-n=128 --block-k=32 --num-threads=128 --out-dtype=f32 --epilogue=bias_gelu_tanh --emit=mlir | FileCheck %s --check-prefix=EPITANH32
// EPITANH32: tile.parallel
// EPITANH32-NOT: math.tanh
// EPITANH32: math.exp2
// EPITANH32: arith.divf {{.*}} fastmath<afn>
// EPITANH32-NOT: math.tanh
// RUN: tile-kernels --kernel=gemm --block-m=128 --block-n=128 --block-k=32 --num-threads=128 --out-dtype=f32 --epilogue=bias_gelu_tanh --emit=ptx | FileCheck %s --check-prefix=GELUPTX
// RUN: tile-kernels --kernel=gemm --block-m=128 --block-n=128 --block-k=32 --num-threads=128 --out-dtype=f16 --epilogue=bias_gelu --emit=ptx | FileCheck %s --check-prefix=GELUPTX
// GELUPTX-NOT: call
// GELUPTX-NOT: tanh.approx
// GELUPTX-COUNT-128: rcp.approx.f32
// GELUPTX-NOT: rcp.approx
// GELUPTX-NOT: tanh.approx
// RUN: tile-kernels --kernel=gemm --block-m=128 --block-n=128 --block-k=32 --num-threads=128 --out-dtype=f16 --epilogue=bias_gelu_tanh --emit=ptx | FileCheck %s --check-prefix=GELUTANHPTX
// RUN: tile-kernels --kernel=gemm --block-m=128 --block-n=128 --block-k=32 --num-threads=128 --in-dtype=bf16 --out-dtype=bf16 --epilogue=bias_gelu_tanh --emit=ptx | FileCheck %s --check-prefix=GELUTANHPTX
// GELUTANHPTX-NOT: call
// GELUTANHPTX-NOT: ex2.approx
// GELUTANHPTX-NOT: rcp.approx
// GELUTANHPTX-COUNT-128: tanh.approx.f32
// GELUTANHPTX-NOT: tanh.approx
// GELUTANHPTX-NOT: ex2.approx
// GELUTANHPTX-NOT: rcp.approx
// The bias alone: the add and nothing after it; bias + ReLU: the add, then
// max with 0 (arith.maximumf, PTX max.NaN.f32: a NaN stays NaN, as in
// torch.relu).
// RUN: tile-kernels --kernel=gemm --block-m=64 --block-n=64 --block-k=32 --num-threads=128 --epilogue=bias --emit=mlir | tile-opt | FileCheck %s --check-prefix=EPIBIAS
// EPIBIAS-LABEL: tile.kernel @gemm_f16_f32_64x64x32_t128_s3_bias(%A: {{.*}}, %Bias: !tile.buffer<?xf32, global>)
// EPIBIAS: tile.parallel (%{{.*}}, %[[J:.*]]) in [64, 64] {
// EPIBIAS-NEXT: %[[ACC:.*]] = tile.load %{{.*}}[%{{.*}}, %[[J]]] : !tile.buffer<64x64xf32, fragment>
// EPIBIAS-NEXT: %[[B:.*]] = tile.load %{{.*}}[%[[J]]] : !tile.buffer<64xf32, shared>
// EPIBIAS-NEXT: %[[X:.*]] = arith.addf %[[ACC]], %[[B]] : f32
// EPIBIAS-NEXT: tile.store %[[X]], %{{.*}}[%{{.*}}, %[[J]]]
// EPIBIAS-NEXT: }
// RUN: tile-kernels --kernel=gemm --block-m=64 --block-n=64 --block-k=32 --num-threads=128 --in-dtype=bf16 --out-dtype=bf16 --epilogue=bias_relu --emit=mlir | tile-opt | FileCheck %s --check-prefix=EPIRELU
// EPIRELU-LABEL: tile.kernel @gemm_bf16_bf16_64x64x32_t128_s3_bias_relu(%A: {{.*}}, %Bias: !tile.buffer<?xbf16, global>)
// EPIRELU: tile.parallel (%{{.*}}, %[[J:.*]]) in [64, 64] {
// EPIRELU: %[[B:.*]] = tile.load %{{.*}}[%[[J]]] : !tile.buffer<64xbf16, shared>
// EPIRELU-NEXT: %[[BF:.*]] = arith.extf %[[B]] : bf16 to f32
// EPIRELU-NEXT: %[[X:.*]] = arith.addf %{{.*}}, %[[BF]] : f32
// EPIRELU-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// EPIRELU-NEXT: %[[Y:.*]] = arith.maximumf %[[X]], %[[ZERO]] : f32
// EPIRELU-NEXT: tile.store %[[Y]]
// RUN: tile-kernels --kernel=gemm --block-m=64 --block-n=64 --block-k=32 --num-threads=128 --epilogue=bias_relu --emit=ptx | FileCheck %s --check-prefix=EPIRELUPTX
// EPIRELUPTX-COUNT-32: max.NaN.f32
// EPIRELUPTX-NOT: max.NaN.f32
// Warp-specialized (sm_90a): the compute warpgroups read the bias slice
// after the loop, then the same epilogue.
// RUN: tile-kernels --kernel=gemm --chip=sm_90a --warp-specialized --block-m=128 --block-n=256 --block-k=64 --num-threads=384 --stages=4 --raster-panel=8 --divisibility=8 --out-dtype=f16 --epilogue=bias_relu --emit=mlir | FileCheck %s --check-prefix=EPIRELUWS
// EPIRELUWS-LABEL: tile.kernel @gemm_f16_f16_128x256x64_t384_s4_r8_bias_relu_div8_ws(
// EPIRELUWS: scf.for
// EPIRELUWS: tile.copy %Bias[
// EPIRELUWS: tile.parallel
// EPIRELUWS: arith.addf
// EPIRELUWS: arith.maximumf
// C of few rows (`--swap-ab`, docs/Gemm.md "Few rows"): the block's tile of
// C^T = B^T A^T, B's tile the product's MN-major A, A's tile its K-major B,
// the bias indexed by the accumulator's row, C stored across through
// shared memory; one m64n16k16 wgmma per 16 of K, the epilogue's round
// trip behind the compute warpgroup's named barrier.
// RUN: tile-kernels --kernel=gemm --chip=sm_90a --warp-specialized --swap-ab --block-m=16 --block-n=64 --block-k=64 --num-threads=256 --stages=8 --divisibility=8 --out-dtype=f16 --epilogue=bias_relu --emit=mlir | FileCheck %s --check-prefix=SWAPAB
// SWAPAB-LABEL: tile.kernel @gemm_f16_f16_16x64x64_t256_s8_bias_relu_div8_ws_swapab(
// SWAPAB-SAME: grid(%bx, %by) = [ceildiv(%B[1], 64), ceildiv(%A[0], 16)] threads(256) warp_specialized
// SWAPAB: tile.gemm %{{.*}}, %{{.*}}, %{{.*}} {transpose_a, transpose_b} : !tile.buffer<64x64xf16, shared>, !tile.buffer<16x64xf16, shared>, !tile.buffer<64x16xf32, fragment>
// SWAPAB: tile.copy %Bias[
// SWAPAB: tile.parallel (%[[N:[a-z0-9_]+]], %{{.*}}) in [64, 16] {
// SWAPAB: tile.load %{{.*}}[%[[N]]] : !tile.buffer<64xf16, shared>
// SWAPAB: arith.maximumf
// SWAPAB: tile.parallel (%[[I:[a-z0-9_]+]], %[[J:[a-z0-9_]+]]) in [16, 64] rolled {
// SWAPAB-NEXT: tile.load %{{.*}}[%[[J]], %[[I]]] : !tile.buffer<64x16xf32, shared>
// SWAPAB: tile.copy %{{.*}} to %C[
// RUN: tile-kernels --kernel=gemm --chip=sm_90a --warp-specialized --swap-ab --block-m=16 --block-n=64 --block-k=64 --num-threads=256 --stages=8 --divisibility=8 --out-dtype=f16 --epilogue=bias_relu --emit=ptx | FileCheck %s --check-prefix=SWAPABPTX
// SWAPABPTX-NOT: m64n64k16
// SWAPABPTX: wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16
// SWAPABPTX: bar.sync {{[0-9]+}}, 128
// RUN: not tile-kernels --kernel=gemm --epilogue=relu 2>&1 | FileCheck %s --check-prefix=BADEPI
// BADEPI: tile-kernels: gemm: epilogue must be one of none, bias, bias_gelu, bias_gelu_tanh, bias_relu, but got 'relu'

// A GEMM that promises rows of multiples of 8 (`--divisibility=8`): the
// promise on A, B, C and the bias, `_div8` in the name, and in the manifest
// for the runtime to check; the cubin has no masked scalar global access.
// Its launch contract follows: K, M and N agree, one bias value per column.
// RUN: tile-kernels --kernel=gemm --block-m=128 --block-n=128 --block-k=32 --num-threads=128 --out-dtype=f16 --epilogue=bias_gelu --divisibility=8 --emit=mlir | tile-opt | FileCheck %s --check-prefix=DIV
// DIV: tile.kernel @gemm_f16_f16_128x128x32_t128_s3_bias_gelu_div8({{.*}}) grid({{.*}} threads(128) divisible(%A[1] by 8, %B[1] by 8, %C[1] by 8, %Bias[0] by 8) requires(%A[1] == %B[0], %C[0] == %A[0], %C[1] == %B[1], %Bias[0] == %C[1]) {
// RUN: tile-kernels --kernel=gemm --block-m=128 --block-n=128 --block-k=32 --num-threads=128 --out-dtype=f16 --divisibility=8 --emit=manifest | FileCheck %s --check-prefix=DIVMANIFEST
// DIVMANIFEST: "divisibility": [
// DIVMANIFEST-NEXT: 1,
// DIVMANIFEST-NEXT: 8
// RUN: tile-kernels --kernel=gemm --block-m=128 --block-n=128 --block-k=32 --num-threads=128 --out-dtype=f16 --divisibility=8 --emit=ptx | FileCheck %s --check-prefix=DIVPTX
// DIVPTX-NOT: {{ld|st}}.global.b16
// DIVPTX: mma.sync
// DIVPTX-NOT: {{ld|st}}.global.b16
// RUN: tile-kernels --kernel=gemm --block-m=128 --block-n=128 --block-k=32 --num-threads=128 --out-dtype=f16 --emit=ptx | FileCheck %s --check-prefix=ANYPTX
// ANYPTX: {{ld|st}}.global.b16
// RUN: not tile-kernels --kernel=gemm --divisibility=0 2>&1 | FileCheck %s --check-prefix=BADDIV
// BADDIV: tile-kernels: gemm: divisibility must be at least 1 (1: any shape; the promised row multiple), but got 0

// A persistent GEMM (`--persistent`, sm_90a): `persistent` on the kernel,
// `_persistent` in the name; only in the warp-specialized form.
// RUN: tile-kernels --kernel=gemm --chip=sm_90a --warp-specialized --persistent --block-m=128 --block-n=256 --block-k=64 --num-threads=384 --stages=4 --raster-panel=8 --divisibility=8 --emit=mlir | FileCheck %s --check-prefix=PERSISTENT
// PERSISTENT: tile.kernel @gemm_f16_f32_128x256x64_t384_s4_r8_div8_ws_persistent({{.*}} threads(384) warp_specialized persistent divisible(
// RUN: not tile-kernels --kernel=gemm --persistent 2>&1 | FileCheck %s --check-prefix=BADPERSISTENT
// BADPERSISTENT: tile-kernels: gemm: persistent walks C tiles in the warp-specialized pipeline: expected warp_specialized and split_k 1, but got warp_specialized false and split_k 1
// Clusters of tiles along M (`--cluster-m=2`, `_cm2`): the kernel's
// `cluster` over its grid (x: N, y: M); only with the persistent tile loop.
// RUN: tile-kernels --kernel=gemm --chip=sm_90a --warp-specialized --persistent --cluster-m=2 --block-m=128 --block-n=256 --block-k=64 --num-threads=384 --stages=4 --raster-panel=8 --divisibility=8 --emit=mlir | FileCheck %s --check-prefix=CLUSTER
// CLUSTER: tile.kernel @gemm_f16_f32_128x256x64_t384_s4_r8_div8_ws_persistent_cm2({{.*}} threads(384) warp_specialized persistent {{.*}} attributes {cluster = array<i64: 1, 2>, raster_panel = 8 : i64}
// RUN: not tile-kernels --kernel=gemm --chip=sm_90a --warp-specialized --cluster-m=2 --block-m=128 --block-n=256 --block-k=64 --num-threads=384 --stages=4 --divisibility=8 2>&1 | FileCheck %s --check-prefix=BADCLUSTER
// BADCLUSTER: tile-kernels: gemm: cluster_m > 1 keeps a cluster's blocks on neighbouring tiles through the persistent tile loop: expected persistent, but got cluster_m 2 without it
// Ping-pong (`--consumers=2`, `_pingpong`): the kernel's `consumers`, its
// body one compute set's (256 threads: one warpgroup holds the whole
// 128x128 accumulator), the block 384 threads (the manifest), the producer
// at 24 registers and each compute thread at 240, each set's epilogue
// barrier its own (named barrier 1 + c, a register), and each set's own
// bias slice and bands beside the 5 stages (5 x 32 KiB + 2 x (256 + 2 x
// 16 KiB), aligned, and the mbarriers). Only with the persistent tile loop, one
// warpgroup per tile.
// RUN: tile-kernels --kernel=gemm --chip=sm_90a --warp-specialized --persistent --consumers=2 --tma-store --tma-store-columns=64 --block-m=128 --block-n=128 --block-k=64 --num-threads=256 --stages=5 --raster-panel=8 --divisibility=8 --out-dtype=f16 --epilogue=bias_gelu --emit=mlir | FileCheck %s --check-prefix=PINGPONG
// PINGPONG: tile.kernel @gemm_f16_f16_128x128x64_t256_s5_r8_bias_gelu_div8_ws_tma64_persistent_pingpong({{.*}} threads(256) warp_specialized persistent {{.*}} attributes {consumers = 2 : i64, raster_panel = 8 : i64}
// RUN: tile-kernels --kernel=gemm --chip=sm_90a --warp-specialized --persistent --consumers=2 --tma-store --tma-store-columns=64 --block-m=128 --block-n=128 --block-k=64 --num-threads=256 --stages=5 --raster-panel=8 --divisibility=8 --out-dtype=f16 --epilogue=bias_gelu --emit=ptx | FileCheck %s --check-prefix=PINGPONGPTX
// PINGPONGPTX: .maxntid 384, 1, 1
// PINGPONGPTX: setmaxnreg.dec.sync.aligned.u32 24;
// PINGPONGPTX: setmaxnreg.inc.sync.aligned.u32 240;
// PINGPONGPTX: bar.sync %r{{[0-9]+}}, 128;
// RUN: tile-kernels --kernel=gemm --chip=sm_90a --warp-specialized --persistent --consumers=2 --tma-store --tma-store-columns=64 --block-m=128 --block-n=128 --block-k=64 --num-threads=256 --stages=5 --raster-panel=8 --divisibility=8 --out-dtype=f16 --epilogue=bias_gelu --emit=manifest | FileCheck %s --check-prefix=PINGPONGMANIFEST
// PINGPONGMANIFEST: "block": [
// PINGPONGMANIFEST-NEXT: 384,
// PINGPONGMANIFEST: "dynamic_shared_memory": 230400,
// RUN: not tile-kernels --kernel=gemm --chip=sm_90a --warp-specialized --consumers=2 --block-m=128 --block-n=128 --block-k=64 --num-threads=256 --stages=4 --divisibility=8 2>&1 | FileCheck %s --check-prefix=BADPINGPONG
// BADPINGPONG: tile-kernels: gemm: consumers > 1 takes turns over the tiles of the persistent tile loop: expected persistent and cluster_m 1, but got persistent false and cluster_m 1
// RUN: not tile-kernels --kernel=gemm --chip=sm_90a --warp-specialized --persistent --consumers=2 --block-m=128 --block-n=256 --block-k=64 --num-threads=256 --stages=4 --divisibility=8 2>&1 | FileCheck %s --check-prefix=PINGPONGTILE
// PINGPONGTILE: tile-kernels: gemm: warp_specialized expects block_m a multiple of 64 with threads = 256 and block_m x block_n at most 16384 (consumers > 1: one warpgroup holds a tile, 128 f32 accumulator values a thread), block_n a multiple of 64 up to 256 and block_k a multiple of 64, but got 128x256 x 64 over 256 threads

// The TMA-store epilogue (`--tma-store`, sm_90a): C is staged in a shared
// tile of the output type (`_tma` in the name), which tile-warp-specialize
// stores with TMA through one more tensor map (C's, box 128 x 64: one
// 128-byte panel of f16 columns); its bytes come beside the stages. Only in
// the warp-specialized form without split-K, and a tile that does not fit
// beside the stages is refused before compiling.
// RUN: tile-kernels --kernel=gemm --chip=sm_90a --warp-specialized --tma-store --persistent --block-m=128 --block-n=256 --block-k=64 --num-threads=384 --stages=3 --raster-panel=8 --divisibility=8 --out-dtype=f16 --emit=mlir | FileCheck %s --check-prefix=TMASTORE
// TMASTORE: tile.kernel @gemm_f16_f16_128x256x64_t384_s3_r8_div8_ws_tma_persistent(
// TMASTORE: %[[ST:.*]] = tile.alloc_shared : !tile.buffer<128x256xf16, shared>
// TMASTORE: tile.copy %{{.*}} to %[[ST]] :
// TMASTORE-NEXT: tile.copy %[[ST]] to %C[
// RUN: tile-kernels --kernel=gemm --chip=sm_90a --warp-specialized --tma-store --persistent --block-m=128 --block-n=256 --block-k=64 --num-threads=384 --stages=3 --raster-panel=8 --divisibility=8 --out-dtype=f16 --emit=manifest | FileCheck %s --check-prefix=TMASTOREMANIFEST
// TMASTOREMANIFEST: "dynamic_shared_memory": 213144
// TMASTOREMANIFEST: "name": "C.tma2"
// RUN: not tile-kernels --kernel=gemm --tma-store --block-m=128 --block-n=128 --block-k=32 --num-threads=128 2>&1 | FileCheck %s --check-prefix=BADTMASTORE
// BADTMASTORE: tile-kernels: gemm: tma_store stores C from the compute warpgroups of the warp-specialized pipeline: expected warp_specialized and split_k 1, but got warp_specialized false and split_k 1
// RUN: not tile-kernels --kernel=gemm --chip=sm_90a --warp-specialized --tma-store --block-m=128 --block-n=256 --block-k=64 --num-threads=384 --stages=4 --divisibility=8 2>&1 | FileCheck %s --check-prefix=TMASTORESMEM
// TMASTORESMEM: tile-kernels: gemm: needs at least 320 KiB of shared memory per block (4 stages of its 128x64 A and 64x256 B f16 tiles, and its 128x256 f32 tile for the TMA store)
//
// In bands (`--tma-store-columns`, `_tma<columns>`): two block_m x columns
// tiles staged in turn, each band a window of the accumulator, so 4 stages
// of the 128x256 tile fit beside them (224 KiB). The bands are proper
// divisors of block_n in whole 32-byte lines, and need --tma-store.
// RUN: tile-kernels --kernel=gemm --chip=sm_90a --warp-specialized --tma-store --tma-store-columns=64 --persistent --block-m=128 --block-n=256 --block-k=64 --num-threads=384 --stages=4 --raster-panel=8 --divisibility=8 --out-dtype=f16 --emit=mlir | FileCheck %s --check-prefix=BANDS
// BANDS: tile.kernel @gemm_f16_f16_128x256x64_t384_s4_r8_div8_ws_tma64_persistent(
// BANDS: tile.alloc_fragment : !tile.buffer<128x256xf32, fragment>
// BANDS-NEXT: %[[S0:.*]] = tile.alloc_shared : !tile.buffer<128x64xf16, shared>
// BANDS-NEXT: %[[S1:.*]] = tile.alloc_shared : !tile.buffer<128x64xf16, shared>
// BANDS: tile.copy %[[ACC:.*]][%{{.*}}, %{{.*}}] to %[[S0]] :
// BANDS: tile.copy %[[S0]] to %C[
// BANDS: tile.copy %[[ACC]][%{{.*}}, %{{.*}}] to %[[S1]] :
// BANDS: tile.copy %[[ACC]][%{{.*}}, %{{.*}}] to %[[S0]] :
// BANDS: tile.copy %[[ACC]][%{{.*}}, %{{.*}}] to %[[S1]] :
// BANDS-NOT: tile.copy %[[ACC]]
// RUN: tile-kernels --kernel=gemm --chip=sm_90a --warp-specialized --tma-store --tma-store-columns=64 --persistent --block-m=128 --block-n=256 --block-k=64 --num-threads=384 --stages=4 --raster-panel=8 --divisibility=8 --out-dtype=f16 --emit=manifest | FileCheck %s --check-prefix=BANDSMANIFEST
// BANDSMANIFEST: "dynamic_shared_memory": 229536
// BANDSMANIFEST: "name": "B.tma1"
// BANDSMANIFEST: "box": [
// BANDSMANIFEST-NEXT: 128,
// BANDSMANIFEST-NEXT: 64
// BANDSMANIFEST: "name": "C.tma2"
// RUN: not tile-kernels --kernel=gemm --chip=sm_90a --warp-specialized --tma-store --tma-store-columns=48 --block-m=128 --block-n=256 --block-k=64 --num-threads=384 --stages=4 --divisibility=8 --out-dtype=f16 2>&1 | FileCheck %s --check-prefix=BADBANDS
// BADBANDS: tile-kernels: gemm: tma_store_columns expects a proper divisor of block_n 256 that is a multiple of 16 (32 bytes of f16), but got 48
// RUN: not tile-kernels --kernel=gemm --chip=sm_90a --warp-specialized --tma-store-columns=64 --block-m=128 --block-n=256 --block-k=64 --num-threads=384 --stages=4 --divisibility=8 2>&1 | FileCheck %s --check-prefix=BANDSNOTMA
// BANDSNOTMA: tile-kernels: gemm: tma_store_columns stages the TMA store in bands: expected tma_store, but got tma_store false

// The staged epilogue (`--staged-epilogue`): the accumulator goes to a shared
// tile (the pipeline's freed stages: no more shared memory than without),
// the epilogue is a loop over its 16-byte chunks of C (eight f16 values,
// computed from the tile and stored straight to C), four chunks per
// iteration: 32 erf (one ex2.approx each) in the PTX instead of one per
// accumulator value (128).
// RUN: tile-kernels --kernel=gemm --block-m=128 --block-n=128 --block-k=64 --num-threads=128 --out-dtype=f16 --epilogue=bias_gelu --divisibility=8 --staged-epilogue --emit=mlir | FileCheck %s --check-prefix=STAGED
// STAGED: tile.kernel @gemm_f16_f16_128x128x64_t128_s3_bias_gelu_staged_div8(
// STAGED: %[[ST:.*]] = tile.alloc_shared : !tile.buffer<128x128xf32, shared>
// STAGED: tile.copy %{{.*}} to %[[ST]] : !tile.buffer<128x128xf32, fragment> to !tile.buffer<128x128xf32, shared>
// STAGED: tile.parallel ({{.*}}) in [128, 128] rolled
// STAGED: math.exp2
// STAGED: tile.copy %[[ST]] to %C[
// RUN: tile-kernels --kernel=gemm --block-m=128 --block-n=128 --block-k=64 --num-threads=128 --out-dtype=f16 --epilogue=bias_gelu --divisibility=8 --staged-epilogue --emit=ptx | FileCheck %s --check-prefix=STAGEDPTX
// STAGEDPTX-COUNT-32: ex2.approx
// STAGEDPTX-NOT: ex2.approx
// RUN: tile-kernels --kernel=gemm --block-m=128 --block-n=128 --block-k=64 --num-threads=128 --out-dtype=f16 --epilogue=bias_gelu --divisibility=8 --staged-epilogue --emit=manifest | FileCheck %s --check-prefix=STAGEDSMEM
// RUN: tile-kernels --kernel=gemm --block-m=128 --block-n=128 --block-k=64 --num-threads=128 --out-dtype=f16 --epilogue=bias_gelu --divisibility=8 --emit=manifest | FileCheck %s --check-prefix=STAGEDSMEM
// STAGEDSMEM: "dynamic_shared_memory": 98560

// The same epilogue as its own kernel, and its PTX (16-byte accesses).
// RUN: tile-kernels --kernel=bias_gelu --dtype=f16 --block-m=4 --block-n=1024 --emit=ptx | FileCheck %s --check-prefix=BG
// BG: .visible .entry bias_gelu_f16_4x1024_t256(
// BG: ld.global.v4
// BG: st.global.v4

// Row softmax: two reductions (max, sum) with shuffles in its PTX.
// RUN: tile-kernels --kernel=softmax --dtype=f16 --block-m=4 --block-n=1024 --num-threads=256 --emit=mlir | FileCheck %s --check-prefix=SOFTMAX
// SOFTMAX-LABEL: tile.kernel @softmax_f16_4x1024_t256(
// SOFTMAX: tile.reduce max
// SOFTMAX: math.exp2
// SOFTMAX: tile.reduce sum
// SOFTMAX: arith.divf
// RUN: tile-kernels --kernel=softmax --dtype=f16 --block-m=4 --block-n=1024 --num-threads=256 --emit=ptx | FileCheck %s --check-prefix=SOFTMAXPTX
// SOFTMAXPTX: shfl.sync.bfly.b32
// SOFTMAXPTX: bar.sync
// SOFTMAXPTX: ex2.approx

// Online softmax for rows of any length: a first pass over 4096-wide chunks
// with a running maximum and sum (an element loop over the row values
// alone), a second pass that writes.
// RUN: tile-kernels --kernel=softmax --online --dtype=f16 --block-m=1 --block-n=4096 --num-threads=256 --emit=mlir | tile-opt | FileCheck %s --check-prefix=ONLINE
// ONLINE-LABEL: tile.kernel @softmax_online_f16_1x4096_t256(
// ONLINE: tile.fill %[[MAX:.*]], %{{.*}} : !tile.buffer<1xf32, fragment>
// ONLINE: tile.fill %[[SUM:.*]], %{{.*}} : !tile.buffer<1xf32, fragment>
// ONLINE: scf.for
// ONLINE: tile.reduce max %{{.*}} into %[[CHUNK:.*]] dim(1)
// ONLINE: tile.parallel (%{{.*}}) in [1]
// ONLINE: tile.reduce sum %{{.*}} into %[[SUM]] dim(1) accumulate
// ONLINE: scf.for
// ONLINE: tile.copy %{{.*}} to %Y[

// Softmax of A x B^T: the scores stay in the MMA accumulator, which
// tile.reduce reduces in that layout (shuffles within the lane quad of a
// row, then shared memory across the 2 warps along N), no spills.
// RUN: tile-kernels --kernel=gemm_softmax --block-m=64 --block-n=64 --block-k=32 --num-threads=128 --emit=mlir | tile-opt --tile-assign-layouts | FileCheck %s --check-prefix=GEMMSOFTMAX
// GEMMSOFTMAX-LABEL: tile.kernel @gemm_softmax_f16_64x64x32_t128_s2(
// GEMMSOFTMAX: %[[S:.*]] = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment, #tile.mma<warps = [2, 2]>>
// GEMMSOFTMAX: tile.gemm
// GEMMSOFTMAX: tile.reduce max %[[S]] into %{{.*}} dim(1) : !tile.buffer<64x64xf32, fragment, #tile.mma<warps = [2, 2]>>, !tile.buffer<64xf32, fragment, #tile.slice<dim = 1, dim_size = 64, parent = #tile.mma<warps = [2, 2]>>>
// GEMMSOFTMAX: math.exp2
// GEMMSOFTMAX: tile.reduce sum %[[S]]
// RUN: tile-kernels --kernel=gemm_softmax --block-m=64 --block-n=64 --block-k=32 --num-threads=128 --emit=ptx | FileCheck %s --check-prefix=GEMMSOFTMAXPTX
// GEMMSOFTMAXPTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// GEMMSOFTMAXPTX: shfl.sync.bfly.b32 {{.*}}, 1, 31, -1;
// GEMMSOFTMAXPTX: shfl.sync.bfly.b32 {{.*}}, 2, 31, -1;
// GEMMSOFTMAXPTX: bar.sync
// GEMMSOFTMAXPTX: ex2.approx

// Times V: the probabilities, cast to f16 in registers, are the A operand
// of the second gemm; scores, probabilities and output take the MMA layout
// with one warp column.
// RUN: tile-kernels --kernel=gemm_softmax --block-m=64 --block-n=64 --block-k=32 --num-threads=128 --head-dim=64 --emit=mlir | tile-opt --tile-assign-layouts | FileCheck %s --check-prefix=PV
// PV-LABEL: tile.kernel @gemm_softmax_pv64_f16_64x64x32_t128_s2(
// PV: %[[S:.*]] = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment, #tile.mma<warps = [4, 1]>>
// PV: tile.reduce max %[[S]]
// PV: %[[P:.*]] = tile.alloc_fragment : !tile.buffer<64x64xf16, fragment, #tile.mma<warps = [4, 1]>>
// PV: %[[O:.*]] = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment, #tile.mma<warps = [4, 1]>>
// PV: tile.gemm %[[P]], %{{.*}}, %[[O]] : !tile.buffer<64x64xf16, fragment, #tile.mma<warps = [4, 1]>>

// FlashAttention forward: one (batch, head) view per block, K/V pipelined,
// S = Q K^T, online softmax in the MMA layout, O += P V with P in
// registers; causal: the key loop ends at the block's diagonal.
// RUN: tile-kernels --kernel=attention --dtype=f16 --block-m=64 --block-n=64 --num-threads=128 --causal --emit=mlir | tile-opt --tile-assign-layouts | FileCheck %s --check-prefix=ATTN
// ATTN-LABEL: tile.kernel @attention_causal_f16_d64_64x64_t128_s2(
// ATTN-SAME: grid(%[[BX:.*]], %{{.*}}, %{{.*}}) = [ceildiv(%Q[2], 64), %Q[1], %Q[0]]
// Heaviest causal blocks first: row = (ceildiv(seq, 64) - 1 - bx) * 64.
// ATTN: %[[SEQ:.*]] = tile.dim %Q[2]
// ATTN: %[[NB:.*]] = arith.ceildivui %[[SEQ]], %c64
// ATTN: %[[LASTB:.*]] = arith.subi %[[NB]], %c1
// ATTN: %[[QB:.*]] = arith.subi %[[LASTB]], %[[BX]]
// ATTN: arith.muli %[[QB]], %c64
// ATTN: tile.subview %Q[%{{.*}}, %{{.*}}] : !tile.buffer<?x?x?x64xf16, global> to !tile.buffer<?x64xf16, global>
// ATTN: arith.minsi
// ATTN: scf.for
// ATTN: tile.gemm %{{.*}}, %{{.*}}, %[[S:.*]] {clear_accum, transpose_b} : !tile.buffer<64x64xf16, shared, #tile.swizzle>, !tile.buffer<64x64xf16, shared, #tile.swizzle>, !tile.buffer<64x64xf32, fragment, #tile.mma<warps = [4, 1]>>
// Only blocks that hold hidden keys (past the end or the diagonal) mask.
// ATTN: %[[LAST:.*]] = arith.addi %{{.*}}, %c63
// ATTN: %[[HIDDEN:.*]] = arith.ori
// ATTN: scf.if %[[HIDDEN]] {
// ATTN: tile.parallel
// ATTN: tile.reduce max %[[S]]
// ATTN: tile.reduce sum %[[S]]
// ATTN: tile.gemm %{{.*}}, %{{.*}}, %{{.*}} : !tile.buffer<64x64xf16, fragment, #tile.mma<warps = [4, 1]>>, !tile.buffer<64x64xf16, shared, #tile.swizzle>, !tile.buffer<64x64xf32, fragment, #tile.mma<warps = [4, 1]>>
// RUN: tile-kernels --kernel=attention --dtype=bf16 --head-dim=128 --block-m=64 --block-n=64 --num-threads=128 --emit=ptx -o %t.attn.ptx
// RUN: FileCheck %s --check-prefix=ATTNPTX < %t.attn.ptx
// ATTNPTX-DAG: cp.async.cg.shared.global
// ATTNPTX-DAG: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// ATTNPTX-DAG: shfl.sync.bfly.b32
// ATTNPTX-DAG: fma.rn.ftz.f32
// ATTNPTX-DAG: ex2.approx.ftz.f32
// Q (the same tile every iteration) is read through a view rebased in the
// loop, so its ldmatrix addresses share a few bases with folded offsets.
// ATTNPTX-DAG: ldmatrix.sync.aligned.m8n8.x4.shared.b16 {{.*}}[%rd{{[0-9]+}}+128]
// ATTNPTX-NOT: ld.local
// RUN: tile-kernels --kernel=attention --dtype=f16 --head-dim=64 --block-m=64 --block-n=64 --num-threads=128 --emit=mlir | tile-opt --tile-to-gpu | FileCheck %s --check-prefix=ATTNGPU
// ATTNGPU: scf.for %[[J:.*]] = 
// ATTNGPU: %[[ZERO:.*]] = arith.shrui %[[J]], %c48
// Q is the first shared tile (byte offset 0, folded away).
// ATTNGPU: memref.view %{{.*}}[%[[ZERO]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64x64xf16, #gpu.address_space<workgroup>>
// ATTNGPU: nvgpu.ldmatrix

// Causal D=128: a thread skips the rescale of its accumulator when none of
// its row factors changed (the smallest is 1); D=64 and non-causal kernels
// always rescale (measured: the branch only pays for causal D=128).
// RUN: tile-kernels --kernel=attention --dtype=f16 --head-dim=128 --block-m=128 --block-n=64 --num-threads=128 --causal --emit=mlir | FileCheck %s --check-prefix=LAZY
// LAZY: tile.reduce sum
// LAZY: %[[SMALLEST:.*]] = tile.thread_reduce min %{{.*}} : !tile.buffer<128xf32, fragment> -> f32
// LAZY: %[[CHANGED:.*]] = arith.cmpf olt, %[[SMALLEST]], %{{.*}} : f32
// LAZY: scf.if %[[CHANGED]] {
// LAZY-NEXT: tile.parallel
// RUN: tile-kernels --kernel=attention --dtype=f16 --head-dim=64 --block-m=128 --block-n=64 --num-threads=128 --causal --emit=mlir | FileCheck %s --check-prefix=EAGER
// RUN: tile-kernels --kernel=attention --dtype=f16 --head-dim=128 --block-m=128 --block-n=64 --num-threads=128 --emit=mlir | FileCheck %s --check-prefix=EAGER
// EAGER-NOT: tile.thread_reduce

// With --lse, the log-sum-exp of each query row (m * scale + ln l) goes to
// LSE[batch, heads, seq] through the query head's view. The softmax scale
// is the f32 parameter after the tensors: the exponent's factor scale *
// log2(e) is computed from it once, and the LSE takes it as given.
// Grouped-query attention: K and V have Hkv heads, which divide Q's Hq
// (the contract); query head %by reads K/V head %by * Hkv / Hq, a quotient
// of compares and subtractions (no division, which would leave the
// uniform registers), and Q, O and LSE at %by.
// RUN: tile-kernels --kernel=attention --dtype=f16 --block-m=64 --block-n=64 --num-threads=128 --lse --emit=mlir | FileCheck %s --check-prefix=LSE
// LSE-LABEL: tile.kernel @attention_f16_d64_64x64_t128_s2_lse(
// LSE-SAME: %LSE: !tile.buffer<?x?x?xf32, global>, %scale: f32)
// LSE-SAME: requires(%K[0] == %Q[0], %V[0] == %Q[0], %O[0] == %Q[0], %O[1] == %Q[1], %V[1] == %K[1], %K[1] divides %Q[1], %V[2] == %K[2], %O[2] == %Q[2], %LSE[0] == %Q[0], %LSE[1] == %Q[1], %LSE[2] == %Q[2])
// LSE: %[[HQ:.*]] = tile.dim %Q[1]
// LSE: %[[HKV:.*]] = tile.dim %K[1]
// LSE: %[[N:[a-z0-9_]+]] = arith.muli %by, %[[HKV]] : index
// LSE-NOT: arith.divui
// LSE: %[[TOP:.*]] = arith.muli %[[HQ]], %c32768 : index
// LSE: arith.cmpi slt, %[[N]], %[[TOP]] : index
// LSE-NOT: arith.divui
// LSE: tile.subview %Q[%bz, %by] : !tile.buffer<?x?x?x64xf16, global> to !tile.buffer<?x64xf16, global>
// LSE-NEXT: tile.subview %K[%bz, %[[KVH:.*]]] : !tile.buffer<?x?x?x64xf16, global>
// LSE-NEXT: tile.subview %V[%bz, %[[KVH]]] : !tile.buffer<?x?x?x64xf16, global>
// LSE-NEXT: tile.subview %O[%bz, %by] : !tile.buffer<?x?x?x64xf16, global>
// LSE: %[[LOG2E:.*]] = arith.constant 1.44269502 : f32
// LSE-NEXT: %[[EXPSCALE:.*]] = arith.mulf %scale, %[[LOG2E]] : f32
// LSE: scf.for
// LSE: math.fma %{{.*}}, %[[EXPSCALE]], %{{.*}} : f32
// LSE: math.exp2
// LSE: %[[LOG:.*]] = math.log %{{.*}} : f32
// LSE: math.fma %{{.*}}, %scale, %[[LOG]] : f32
// LSE: %[[VIEW:.*]] = tile.subview %LSE[%bz, %by] : !tile.buffer<?x?x?xf32, global> to !tile.buffer<?xf32, global>
// LSE: tile.copy %{{.*}} to %[[VIEW]][%{{.*}}] : !tile.buffer<64xf32, fragment> to !tile.buffer<?xf32, global>
// The manifest: the scale after LSE, the K/V heads dividing Q's.
// RUN: tile-kernels --kernel=attention --dtype=bf16 --head-dim=128 --block-m=64 --block-n=64 --num-threads=128 --lse --emit=manifest | FileCheck %s --check-prefix=LSEMANIFEST
// LSEMANIFEST: "name": "LSE"
// LSEMANIFEST: "kind": "scalar",
// LSEMANIFEST-NEXT: "name": "scale",
// LSEMANIFEST-NEXT: "type": "f32"
// LSEMANIFEST: "kind": "dim",
// LSEMANIFEST: "requires": [
// LSEMANIFEST: "op": "divides",
// LSEMANIFEST-NEXT: "rhs": {
// LSEMANIFEST-NEXT: "dim": 1,
// LSEMANIFEST-NEXT: "param": "Q"

// Configurations the generators do not support are refused before any IR
// is built, with the field, the value, the limit and why (each generator's
// validate(), the one check that tile-kernels, tile-tune and the build
// functions share): no crash (block_k 0 divided by zero), no kernel name
// with a '-' (raster panel -1), no out-of-memory or endless compile (huge
// sizes and stages).
// RUN: not tile-kernels --kernel=gemm --block-k=0 --emit=ptx 2>&1 | FileCheck %s --check-prefix=LIMIT-BK0
// LIMIT-BK0: tile-kernels: gemm: block_k must be at least 16 (the K of one m16n8k16 MMA), but got 0
// RUN: not tile-kernels --kernel=gemm --raster-panel=-1 --emit=ptx 2>&1 | FileCheck %s --check-prefix=LIMIT-RASTER
// LIMIT-RASTER: tile-kernels: gemm: raster_panel must be from 0 to 65535 (0: off; grid rows per panel, and a grid has at most 65535), but got -1
// RUN: not tile-kernels --kernel=gemm --stages=100000 --emit=ptx 2>&1 | FileCheck %s --check-prefix=LIMIT-STAGES
// LIMIT-STAGES: tile-kernels: gemm: stages must be from 1 to 8 (1: synchronous copies; the K loop's cp.async pipeline depth), but got 100000
// RUN: not tile-kernels --kernel=gemm --block-m=100000 --block-n=128 --num-threads=128 --emit=ptx 2>&1 | FileCheck %s --check-prefix=LIMIT-BM
// LIMIT-BM: tile-kernels: gemm: needs at least 18774 KiB of shared memory per block (3 stages of its 100000x32 A and 32x128 B f16 tiles), but a block has at most 227 KiB on any supported chip (sm_90)
// RUN: not tile-kernels --kernel=gemm --block-k=4096 --block-n=128 --num-threads=128 --emit=ptx 2>&1 | FileCheck %s --check-prefix=LIMIT-BK
// LIMIT-BK: tile-kernels: gemm: needs at least 6144 KiB of shared memory per block (3 stages of its 128x4096 A and 4096x128 B f16 tiles)
// RUN: not tile-kernels --kernel=gemm --block-m=256 --block-n=256 --block-k=16 --num-threads=128 --stages=1 --emit=ptx 2>&1 | FileCheck %s --check-prefix=LIMIT-ACC
// LIMIT-ACC: tile-kernels: gemm: needs at least 512 registers per thread (its 256x256 f32 accumulator over 128 threads), a thread has 255
// RUN: not tile-kernels --kernel=gemm --out-dtype=i32 --emit=ptx 2>&1 | FileCheck %s --check-prefix=LIMIT-OUT
// LIMIT-OUT: tile-kernels: gemm: out_dtype must be one of f32, f16, bf16, but got 'i32'
// RUN: not tile-kernels --kernel=gemm --num-threads=2000 --emit=ptx 2>&1 | FileCheck %s --check-prefix=LIMIT-THREADS
// LIMIT-THREADS: tile-kernels: gemm: threads must be a multiple of 32 from 32 to 1024 (1 to 32 warps per block), but got 2000
// RUN: not tile-kernels --kernel=gemm_softmax --head-dim=-64 --emit=ptx 2>&1 | FileCheck %s --check-prefix=LIMIT-HD
// LIMIT-HD: tile-kernels: gemm_softmax: head_dim must be at least 8 (0: no V; else the N of one m16n8k16 MMA), but got -64
// RUN: not tile-kernels --kernel=softmax --online --stages=100000 --emit=ptx 2>&1 | FileCheck %s --check-prefix=LIMIT-SSTAGES
// LIMIT-SSTAGES: tile-kernels: softmax: stages must be from 1 to 8 (1: chunks straight from global memory; more: chunks through that many shared tiles), but got 100000
// RUN: not tile-kernels --kernel=softmax --stages=3 --emit=ptx 2>&1 | FileCheck %s --check-prefix=LIMIT-SNOTONLINE
// LIMIT-SNOTONLINE: tile-kernels: softmax: stages must be 1 without online (only the online softmax streams chunks through shared memory), but got 3
// RUN: not tile-kernels --kernel=softmax --block-m=1 --block-n=1048576 --num-threads=1024 --emit=ptx 2>&1 | FileCheck %s --check-prefix=LIMIT-ROW
// LIMIT-ROW: tile-kernels: softmax: needs at least 1024 registers per thread (its 1x1048576 f32 fragment over 1024 threads), a thread has 255
// RUN: not tile-kernels --kernel=vector_add --block-n=1099511627776 --emit=ptx 2>&1 | FileCheck %s --check-prefix=LIMIT-VA
// LIMIT-VA: tile-kernels: vector_add: needs at least 4294967296 registers per thread (each of its fragments of 1099511627776 f32 over 256 threads), a thread has 255
// RUN: not tile-kernels --kernel=attention --dtype=f16 --head-dim=256 --block-m=128 --block-n=128 --num-threads=128 --emit=ptx 2>&1 | FileCheck %s --check-prefix=LIMIT-ATTN
// LIMIT-ATTN: tile-kernels: attention: needs at least 320 KiB of shared memory per block (its 128x256 Q tile and 2 stages of 128x256 K and V tiles)
// RUN: not tile-kernels --kernel=bias_gelu --block-m=0 --emit=ptx 2>&1 | FileCheck %s --check-prefix=LIMIT-BG
// LIMIT-BG: tile-kernels: bias_gelu: block_m must be at least 1 (rows per block), but got 0

// Output that cannot be written is an error, not an abort: a full disk
// behind -o or behind standard output; an --out-dir that is a file fails
// before anything is compiled; a bad --emit before the kernel is built.
// RUN: not tile-kernels --kernel=vector_add --emit=ptx -o /dev/full 2>&1 | FileCheck %s --check-prefix=FULL
// FULL: tile-kernels: cannot write /dev/full: No space left on device
// RUN: not tile-kernels --list 2>&1 > /dev/full | FileCheck %s --check-prefix=FULLOUT
// FULLOUT: tile-kernels: cannot write standard output: No space left on device
// RUN: echo "a file" > %t.file
// RUN: not tile-kernels --out-dir=%t.file 2>&1 | FileCheck %s --check-prefix=OUTFILE
// OUTFILE-NOT: compile ms
// OUTFILE: tile-kernels: cannot create {{.*}}.file: it exists and is not a folder
// OUTFILE-NOT: compile ms
// RUN: not tile-kernels --kernel=vector_add --emit=sass 2>&1 | FileCheck %s --check-prefix=BADEMIT
// BADEMIT: tile-kernels: expected --emit=mlir, ptx, cubin or manifest, but got 'sass'
