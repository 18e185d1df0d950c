// The named pipelines: stage 1 (--tile-to-gpu), stage 2
// (--tile-gpu-to-nvvm) and both at once (--tile-to-nvvm), on a 2-D kernel that
// stages a 64x64 tile through shared memory and a fragment; then its PTX.
//
// RUN: tile-opt %s --tile-to-gpu | FileCheck %s --check-prefix=GPU
// RUN: tile-opt %s --tile-to-gpu | tile-opt --tile-gpu-to-nvvm="chip=sm_80" | FileCheck %s --check-prefixes=NVVM,SM80
// RUN: tile-opt %s --tile-to-nvvm | FileCheck %s --check-prefixes=NVVM,SM90
// RUN: tile-opt %s --tile-to-nvvm="chip=sm_86 features=+ptx75 O=1" | FileCheck %s --check-prefix=OPTIONS
// Stage 1's output of a pipelined GEMM parses again (its cp.async groups
// print with their number, which ends the op's empty token list):
// RUN: tile-kernels --kernel=gemm --block-m=128 --block-n=128 --block-k=32 --num-threads=128 --stages=3 --emit=mlir | tile-opt --tile-to-gpu | tile-opt --tile-gpu-to-nvvm | FileCheck %s --check-prefix=STAGED
// STAGED: nvvm.cp.async.commit.group
// STAGED: nvvm.mma.sync
// RUN: tile-translate %s --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx

// Stage 1: layouts assigned, tile ops lowered to a gpu.func, cleaned up; no
// target yet.
// GPU: module attributes {gpu.container_module}
// GPU-NEXT: gpu.module @tile_kernels attributes {tile.kernels = [#tile.launch<name = "scale_2d", block = [256, 1, 1], grid = [#tile.grid_rule<ceildiv "A"[0] by 64>, #tile.grid_rule<ceildiv "A"[1] by 64>], dynamic_shared_memory = 16384,
// libdevice math flushes f32 denormals (exp2f -> ex2.approx.ftz).
// GPU-NEXT: llvm.module_flags [#llvm.mlir.module_flag<override, "nvvm-reflect-ftz", 1 : i32>]
// GPU-LABEL: gpu.func @scale_2d(
// GPU-SAME: %{{.*}}: memref<f32, #gpu.address_space<global>>, %{{.*}}: memref<f32, #gpu.address_space<global>>, %{{.*}}: f32,
// GPU-SAME: %{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index) kernel
// GPU-SAME: attributes {known_block_size = array<i32: 256, 1, 1>}
// GPU: gpu.dynamic_shared_memory
// GPU: memref.view {{.*}} to memref<64x64xf32, #gpu.address_space<workgroup>>
// GPU: memref.alloca() : memref<16xf32>
// GPU: vector.load {{.*}} {alignment = 16 : i64} : memref<?x?xf32, strided<[?, 1]>, #gpu.address_space<global>>, vector<4xf32>
// GPU: gpu.barrier
// GPU: arith.mulf
// The shared tile is only read from here on: no barrier after the read.
// GPU-NOT: gpu.barrier
// GPU: vector.store {{.*}} {alignment = 16 : i64} : memref<?x?xf32, strided<[?, 1]>, #gpu.address_space<global>>, vector<4xf32>
// GPU: gpu.return
// GPU-NOT: tile.
// GPU-NOT: nvvm

// Stage 2: the NVVM target is attached and the module is LLVM/NVVM only.
// NVVM: module attributes {gpu.container_module}
// SM80-NEXT: gpu.module @tile_kernels [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">] attributes {tile.kernels = [#tile.launch<name = "scale_2d", block = [256, 1, 1], grid = [#tile.grid_rule<ceildiv "A"[0] by 64>, #tile.grid_rule<ceildiv "A"[1] by 64>], dynamic_shared_memory = 16384,
// SM90-NEXT: gpu.module @tile_kernels [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">] attributes {tile.kernels = [#tile.launch<name = "scale_2d", block = [256, 1, 1], grid = [#tile.grid_rule<ceildiv "A"[0] by 64>, #tile.grid_rule<ceildiv "A"[1] by 64>], dynamic_shared_memory = 16384,
// NVVM: llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// NVVM-LABEL: llvm.func @scale_2d(
// NVVM-SAME: %{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: f32, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64)
// NVVM-SAME: attributes {gpu.kernel, gpu.known_block_size = array<i32: 256, 1, 1>, nvvm.kernel, nvvm.maxntid = array<i32: 256, 1, 1>}
// NVVM-NOT: gpu.func
// NVVM-NOT: memref.
// NVVM-NOT: scf.
// NVVM: nvvm.read.ptx.sreg.tid.x
// NVVM: llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// NVVM: llvm.store {{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
// NVVM: nvvm.barrier0
// NVVM: llvm.fmul
// NVVM-NOT: nvvm.barrier0
// NVVM: llvm.store {{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
// NVVM-NOT: memref.
// NVVM-NOT: scf.
// NVVM-NOT: vector.load
// NVVM-NOT: tile.

// Pipeline options reach the target attribute.
// OPTIONS: gpu.module @tile_kernels [#nvvm.target<O = 1, chip = "sm_86", features = "+ptx75">]
// OPTIONS: llvm.func @scale_2d(

// PTX for sm_90: pointer parameters, then alpha and the four sizes; 128-bit
// global and shared accesses; one barrier; no local memory.
// PTX: .target sm_90
// PTX: .visible .entry scale_2d(
// PTX-NEXT: .param .u64 .ptr .global .align {{[0-9]+}} scale_2d_param_0,
// PTX-NEXT: .param .u64 .ptr .global .align {{[0-9]+}} scale_2d_param_1,
// PTX-NEXT: .param .f32 scale_2d_param_2,
// PTX-COUNT-4: .param .u64 scale_2d_param_{{[3-6]}}
// PTX: .maxntid 256, 1, 1
// PTX-NOT: .local
// PTX: .shared .align 16 .b8 __dynamic_shmem__0;
// PTX: ld.global.v4.b32
// PTX: st.shared.v4.b32
// PTX: bar.sync 0;
// PTX: ld.shared
// PTX-NOT: bar.sync
// PTX: st.global.v4.b32
// PTX-NOT: .local

tile.kernel @scale_2d(%A: !tile.buffer<?x?xf32, global>,
                      %B: !tile.buffer<?x?xf32, global>, %alpha: f32)
    grid(%bx, %by) = [ceildiv(%A[0], 64), ceildiv(%A[1], 64)] threads(256) {
  %c64 = arith.constant 64 : index
  %row = arith.muli %bx, %c64 : index
  %col = arith.muli %by, %c64 : index
  %s = tile.alloc_shared : !tile.buffer<64x64xf32, shared>
  %f = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  tile.copy %A[%row, %col] to %s : !tile.buffer<?x?xf32, global> to !tile.buffer<64x64xf32, shared>
  tile.parallel (%i, %j) in [64, 64] {
    %x = tile.load %s[%i, %j] : !tile.buffer<64x64xf32, shared>
    %y = arith.mulf %x, %alpha : f32
    tile.store %y, %f[%i, %j] : !tile.buffer<64x64xf32, fragment>
  }
  tile.copy %f to %B[%row, %col] : !tile.buffer<64x64xf32, fragment> to !tile.buffer<?x?xf32, global>
}
