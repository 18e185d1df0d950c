// tile-translate --emit=sass: the cubin that ptxas makes of the kernel,
// disassembled by cuobjdump (the Debian toolkit on the development machine
// lacks it, so there this test is UNSUPPORTED; sass.mlir checks the error).
//
// REQUIRES: ptxas, cuobjdump
// RUN: tile-translate %S/../Examples/vector-add.mlir --emit=sass --cuda-toolkit=%cuda_toolkit | FileCheck %s

// CHECK: Function : vector_add
// CHECK: LDG.E.128
// CHECK: STG.E.128
// CHECK: EXIT
