// Introspection of the default GEMM (tile-kernels --kernel=gemm defaults to
// 128x128x32, 128 threads, 3 stages): its PTX has the tensor-core MMA,
// ldmatrix, 16-byte cp.async and barriers, and ptxas assembles it for sm_90
// without spilling registers.

// RUN: tile-kernels --kernel=gemm --block-m=128 --block-n=128 --block-k=32 --num-threads=128 --stages=3 --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: FileCheck %s --check-prefix=LOOP < %t.ptx
// RUN: %ptxas -arch=sm_90 -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// REQUIRES: ptxas

// PTX-DAG: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-DAG: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX-DAG: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// PTX-DAG: cp.async.cg.shared.global
// PTX-DAG: cp.async.wait_group
// PTX-DAG: bar.sync
// PTX-NOT: .local

// The steady state of the pipelined K loop is one basic block (no label or
// branch inside): the copies of the stage ahead are branch-free, so ptxas
// schedules them among the MMAs; the wait for the next stage sits before
// the last K step's MMAs, and the first K step of that stage is loaded
// behind it (prefetched across iterations).
// LOOP: cp.async.wait_group 1;
// LOOP-NEXT: bar.sync 0;
// LOOP: {{^\$L__BB[0-9_]+:}}
// LOOP-NOT: {{^\$L__BB|bra}}
// LOOP: cp.async.cg.shared.global
// LOOP-NOT: {{^\$L__BB|bra}}
// LOOP: cp.async.commit_group
// LOOP-NOT: {{^\$L__BB|bra}}
// LOOP: mma.sync.aligned.m16n8k16
// LOOP-NOT: {{^\$L__BB|bra}}
// LOOP: cp.async.wait_group 1;
// LOOP-NEXT: bar.sync 0;
// LOOP-NOT: {{^\$L__BB|bra}}
// LOOP: ldmatrix.sync
// LOOP-NOT: {{^\$L__BB|bra}}
// LOOP: mma.sync.aligned.m16n8k16
// LOOP: bra

// PTXAS: Compiling entry function 'gemm_f16_f32_128x128x32_t128_s3'
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
