// The vector-add example compiled to PTX for sm_90 and sm_80: 128-bit global
// loads and stores on the aligned fast path, masked scalar accesses for the
// tail, and no local memory (fragments live in registers). ptxas accepts both.

// RUN: tile-translate %S/../Examples/vector-add.mlir --emit=ptx --chip=sm_90 -o %t.sm90.ptx
// RUN: FileCheck %s --check-prefixes=CHECK,SM90 < %t.sm90.ptx
// RUN: tile-translate %S/../Examples/vector-add.mlir --emit=ptx --chip=sm_80 -o %t.sm80.ptx
// RUN: FileCheck %s --check-prefixes=CHECK,SM80 < %t.sm80.ptx
// RUN: %ptxas -arch=sm_90 %t.sm90.ptx -o %t.sm90.cubin
// RUN: %ptxas -arch=sm_80 %t.sm80.ptx -o %t.sm80.cubin
// REQUIRES: ptxas

// SM90: .target sm_90
// SM80: .target sm_80
// CHECK: .visible .entry vector_add(
// CHECK-COUNT-3: .param .u64 .ptr .global
// CHECK-COUNT-3: .param .u64 vector_add_param_
// CHECK-NOT: .local
// CHECK-DAG: ld.global.v4.b32
// CHECK-DAG: ld.global.b32
// CHECK-DAG: st.global.v4.b32
// CHECK-DAG: st.global.b32
// CHECK-NOT: .local
