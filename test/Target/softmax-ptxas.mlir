// Introspection of the softmax kernels: the PTX of the one-pass and the
// online (two-pass) kernels has the butterfly shuffles and barriers of
// their reductions and exp2, and ptxas assembles them for sm_90 without
// spilling registers; f16 rows load 16 bytes at a time, and the staged
// online kernel streams its chunks with cp.async.

// RUN: tile-kernels --kernel=softmax --dtype=f16 --block-m=1 --block-n=8192 --num-threads=512 --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %ptxas -arch=sm_90 -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: tile-kernels --kernel=softmax --online --dtype=f32 --block-m=1 --block-n=4096 --num-threads=256 --emit=ptx -o %t.online.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.online.ptx
// RUN: %ptxas -arch=sm_90 -v %t.online.ptx -o %t.online.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: FileCheck %s --check-prefix=F16 < %t.ptx
// RUN: tile-kernels --kernel=softmax --online --stages=3 --dtype=f16 --block-m=1 --block-n=4096 --num-threads=256 --emit=ptx -o %t.staged.ptx
// RUN: FileCheck %s --check-prefixes=PTX,STAGED < %t.staged.ptx
// RUN: %ptxas -arch=sm_90 -v %t.staged.ptx -o %t.staged.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// REQUIRES: ptxas

// F16: ld.global.v4.b32
// F16: st.global.v4.b32

// STAGED: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, {{.*}};
// STAGED: cp.async.wait_group 1;
// STAGED: ld.shared.v4.b32

// PTX-DAG: shfl.sync.bfly.b32
// PTX-DAG: bar.sync
// PTX-DAG: ex2.approx
// PTX-NOT: .local

// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
