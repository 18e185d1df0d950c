// Introspection of the softmax kernels: the PTX of the one-pass and the
// online (two-pass) kernels has the butterfly shuffles and barriers of
// their reductions and exp2, and ptxas assembles both for sm_90 without
// spilling registers.

// RUN: tile-kernels --kernel=softmax --dtype=f16 --block-m=1 --block-n=8192 --num-threads=512 --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %ptxas -arch=sm_90 -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: tile-kernels --kernel=softmax --online --dtype=f32 --block-m=1 --block-n=4096 --num-threads=256 --emit=ptx -o %t.online.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.online.ptx
// RUN: %ptxas -arch=sm_90 -v %t.online.ptx -o %t.online.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// REQUIRES: ptxas

// PTX-DAG: shfl.sync.bfly.b32
// PTX-DAG: bar.sync
// PTX-DAG: ex2.approx
// PTX-NOT: .local

// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
