// Introspection of the default GEMM (tile-kernels --kernel=gemm defaults to
// 128x128x32, 128 threads, 3 stages): its PTX has the tensor-core MMA,
// ldmatrix, 16-byte cp.async and barriers, and ptxas assembles it for sm_90
// without spilling registers.

// RUN: tile-kernels --kernel=gemm --block-m=128 --block-n=128 --block-k=32 --num-threads=128 --stages=3 --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %ptxas -arch=sm_90 -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// REQUIRES: ptxas

// PTX-DAG: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-DAG: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX-DAG: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// PTX-DAG: cp.async.cg.shared.global
// PTX-DAG: cp.async.wait_group
// PTX-DAG: bar.sync
// PTX-NOT: .local

// PTXAS: Compiling entry function 'gemm_f16_f32_128x128x32_t128_s3'
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
