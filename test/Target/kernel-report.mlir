// tile-translate --emit=report: per kernel, the instructions that decide its
// speed counted in the PTX, ptxas's registers and spills, the dynamic shared
// memory, and warnings where a kernel did not get what its tile ops ask for.
//
// REQUIRES: ptxas
// RUN: tile-translate %s --emit=report --cuda-toolkit=%cuda_toolkit | FileCheck %s
// RUN: tile-translate %s --emit=report-json --cuda-toolkit=%cuda_toolkit | FileCheck %s --check-prefix=JSON
// RUN: tile-kernels --kernel=gemm --block-m=128 --block-n=128 --block-k=32 --num-threads=128 --stages=3 --emit=mlir | tile-translate --emit=report --cuda-toolkit=%cuda_toolkit | FileCheck %s --check-prefix=GEMM
// RUN: not tile-translate %s --emit=report --cuda-toolkit=/nonexistent 2>&1 | FileCheck %s --check-prefix=NOPTXAS

// CHECK: kernel{{ +}}regs{{ +}}spill{{ +}}smem_K{{ +}}mma{{ +}}ldmat{{ +}}cp.as{{ +}}bar{{ +}}ld.g v/s{{ +}}st.g v/s{{ +}}shfl{{ +}}ex2{{ +}}PTX B
// Four-element vectors: vector global loads and stores, no warning.
// CHECK-NEXT: vectorized{{ +}}{{[0-9]+}}{{ +}}0{{ +}}0.0{{ +}}0{{ +}}0{{ +}}0{{ +}}0{{ +}}{{[1-9][0-9]*}}/{{[0-9]+}}{{ +}}{{[1-9][0-9]*}}/{{[0-9]+}}
// One element per access: only scalar global accesses.
// CHECK-NEXT: scalar{{ +}}{{[0-9]+}}{{ +}}0{{ +}}0.0{{ +}}0{{ +}}0{{ +}}0{{ +}}0{{ +}}0/{{[1-9][0-9]*}}{{ +}}0/{{[1-9][0-9]*}}
// CHECK-NOT: warning: vectorized
// CHECK: warning: scalar: global tile.copy moves one element per access (no vector loads/stores, no cp.async)

// JSON: "kernels": [
// JSON: "global_vector_loads": {{[1-9]}}
// JSON: "name": "vectorized"
// JSON: "registers": {{[0-9]+}}
// JSON: "spill_stores": 0
// JSON: "warnings": []
// JSON: "name": "scalar"
// JSON: "warnings": [
// JSON-NEXT: "global tile.copy moves one element per access

// The pipelined gemm has MMAs, ldmatrix and cp.async; 3 stages x (128x32 +
// 32x128) f16 = 48 KB of shared memory; no spills, no warning.
// GEMM: gemm_f16_f32_128x128x32_t128_s3{{ +}}{{[0-9]+}}{{ +}}0{{ +}}48.0{{ +}}{{[1-9][0-9]*}}{{ +}}{{[1-9][0-9]*}}{{ +}}{{[1-9][0-9]*}}
// GEMM-NOT: warning

// NOPTXAS: tile-translate: expected a CUDA toolkit at '/nonexistent', but it does not exist (--cuda-toolkit)

tile.kernel @vectorized(%A: !tile.buffer<?xf32, global>,
                        %B: !tile.buffer<?xf32, global>)
    grid(%bx) = [ceildiv(%A[0], 1024)] threads(256) {
  %c1024 = arith.constant 1024 : index
  %offset = arith.muli %bx, %c1024 : index
  %a = tile.alloc_fragment : !tile.buffer<1024xf32, fragment>
  tile.copy %A[%offset] to %a : !tile.buffer<?xf32, global> to !tile.buffer<1024xf32, fragment>
  tile.copy %a to %B[%offset] : !tile.buffer<1024xf32, fragment> to !tile.buffer<?xf32, global>
}

tile.kernel @scalar(%A: !tile.buffer<?xf32, global>,
                    %B: !tile.buffer<?xf32, global>)
    grid(%bx) = [ceildiv(%A[0], 256)] threads(256) {
  %c256 = arith.constant 256 : index
  %offset = arith.muli %bx, %c256 : index
  %a = tile.alloc_fragment : !tile.buffer<256xf32, fragment, #tile.row_major<vec = 1>>
  tile.copy %A[%offset] to %a : !tile.buffer<?xf32, global> to !tile.buffer<256xf32, fragment, #tile.row_major<vec = 1>>
  tile.copy %a to %B[%offset] : !tile.buffer<256xf32, fragment, #tile.row_major<vec = 1>> to !tile.buffer<?xf32, global>
}
