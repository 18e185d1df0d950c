// tile-translate --mlir-timing: the compile driver times each phase (parse,
// the lowering with each of its passes, LLVM to PTX, ptxas, the report or
// manifest) and prints the tree at exit; the output itself is unchanged.
//
// REQUIRES: ptxas
// RUN: tile-translate %s --emit=report --cuda-toolkit=%cuda_toolkit --mlir-timing -o %t.report 2>&1 | FileCheck %s
// RUN: tile-translate %s --emit=report --cuda-toolkit=%cuda_toolkit -o %t.plain
// RUN: diff %t.report %t.plain
// RUN: tile-translate %s --emit=manifest --mlir-timing -o /dev/null 2>&1 | FileCheck %s --check-prefix=MANIFEST

// CHECK: Execution time report
// CHECK: parse
// CHECK: lower to NVVM
// CHECK-NEXT: tile passes
// CHECK-NEXT: TilePipeline
// CHECK: ConvertTileToGPU
// CHECK: upstream passes
// CHECK: ConvertGpuOpsToNVVMOps
// CHECK: LLVM to PTX
// CHECK-NEXT: ptxas
// CHECK-NEXT: report

// The manifest alone: no serialization, so no LLVM or ptxas phase.
// MANIFEST: lower to NVVM
// MANIFEST-NOT: LLVM to PTX
// MANIFEST-NOT: ptxas
// MANIFEST: manifest

tile.kernel @scale(%A: !tile.buffer<?xf32, global>) grid(%bx) = [ceildiv(%A[0], 256)] threads(256) {
  %c256 = arith.constant 256 : index
  %offset = arith.muli %bx, %c256 : index
  %a = tile.alloc_fragment : !tile.buffer<256xf32, fragment>
  tile.copy %A[%offset] to %a : !tile.buffer<?xf32, global> to !tile.buffer<256xf32, fragment>
  tile.copy %a to %A[%offset] : !tile.buffer<256xf32, fragment> to !tile.buffer<?xf32, global>
}
