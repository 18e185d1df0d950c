// -tile-mark-grid-constants (MarkGridConstants.cpp), on gpu.modules as
// convert-gpu-to-nvvm leaves them: each llvm.func argument that the
// kernel's #tile.launch lists as a #tile.tensor_map_param becomes a
// 128-byte, 64-byte aligned grid constant (byval, align, nvvm.grid_constant)
// and the zero-size dynamic shared memory of such a module an external
// global aligned to 1024 bytes. Other arguments, other globals, modules
// without tensor maps and modules without launch descriptions stay as they
// are; a second run changes nothing.
//
// RUN: tile-opt %s -split-input-file --tile-mark-grid-constants | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-mark-grid-constants --tile-mark-grid-constants | FileCheck %s

// Two tensor maps after a buffer, a dim and a scalar parameter.
// CHECK-LABEL: gpu.module @tma
// CHECK-NEXT: llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// Not the dynamic shared memory: a static shared array, a global one.
// CHECK-NEXT: llvm.mlir.global internal @scratch() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<16 x f32>
// CHECK-NEXT: llvm.mlir.global internal @zeros() {addr_space = 1 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK-NEXT: llvm.func @k(%arg0: !llvm.ptr<1> {llvm.noalias}, %arg1: f32, %arg2: i64,
// CHECK-SAME: %arg3: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
// CHECK-SAME: %arg4: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant})
// CHECK-SAME: attributes {gpu.kernel, nvvm.kernel}
module attributes {gpu.container_module} {
  gpu.module @tma attributes {tile.kernels = [#tile.launch<name = "k", block = [256, 1, 1], grid = [#tile.grid_rule<1>], dynamic_shared_memory = 49152,
      params = [#tile.buffer_param<name = "A", dtype = f16, shape = [?, 64], access = read>,
                #tile.scalar_param<name = "alpha", type = f32>,
                #tile.dim_param<name = "A.dim0", buffer = "A", dim = 0>,
                #tile.tensor_map_param<name = "A.tma0", buffer = "A", box = [128, 64], swizzle = 128>,
                #tile.tensor_map_param<name = "A.tma1", buffer = "A", box = [64, 64], swizzle = 128>]>]} {
    llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
    llvm.mlir.global internal @scratch() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<16 x f32>
    llvm.mlir.global internal @zeros() {addr_space = 1 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
    llvm.func @k(%arg0: !llvm.ptr<1> {llvm.noalias}, %arg1: f32, %arg2: i64, %arg3: !llvm.ptr, %arg4: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
}

// -----

// Two kernels, one with a tensor map: only its argument is marked; the
// module's dynamic shared memory, which both use, is aligned.
// CHECK-LABEL: gpu.module @mixed
// CHECK-NEXT: llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 1024 : i64}
// CHECK-NEXT: llvm.func @plain(%arg0: !llvm.ptr<1>, %arg1: !llvm.ptr<1>) attributes
// CHECK: llvm.func @tma(%arg0: !llvm.ptr<1>, %arg1: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}) attributes
module attributes {gpu.container_module} {
  gpu.module @mixed attributes {tile.kernels = [
      #tile.launch<name = "plain", block = [128, 1, 1], grid = [#tile.grid_rule<1>], dynamic_shared_memory = 0,
        params = [#tile.buffer_param<name = "X", dtype = f32, shape = [64], access = read>,
                  #tile.buffer_param<name = "Y", dtype = f32, shape = [64], access = write>]>,
      #tile.launch<name = "tma", block = [256, 1, 1], grid = [#tile.grid_rule<1>], dynamic_shared_memory = 16384,
        params = [#tile.buffer_param<name = "B", dtype = bf16, shape = [64, 64], access = read>,
                  #tile.tensor_map_param<name = "B.tma0", buffer = "B", box = [64, 64], swizzle = 128>]>]} {
    llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
    llvm.func @plain(%arg0: !llvm.ptr<1>, %arg1: !llvm.ptr<1>) attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
    llvm.func @tma(%arg0: !llvm.ptr<1>, %arg1: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
}

// -----

// Without tensor maps nothing changes (the pass runs on every module).
// CHECK-LABEL: gpu.module @no_tma
// CHECK-NEXT: llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK-NEXT: llvm.func @k(%arg0: !llvm.ptr<1>, %arg1: i64) attributes
// CHECK-NOT: nvvm.grid_constant
module attributes {gpu.container_module} {
  gpu.module @no_tma attributes {tile.kernels = [#tile.launch<name = "k", block = [32, 1, 1], grid = [#tile.grid_rule<1>], dynamic_shared_memory = 0,
      params = [#tile.buffer_param<name = "A", dtype = f32, shape = [?], access = read>,
                #tile.dim_param<name = "A.dim0", buffer = "A", dim = 0>]>]} {
    llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
    llvm.func @k(%arg0: !llvm.ptr<1>, %arg1: i64) attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
}

// -----

// Without a launch description the arguments are not known to be tensor
// maps: nothing changes.
// CHECK-LABEL: gpu.module @no_launch
// CHECK-NEXT: llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK-NEXT: llvm.func @k(%arg0: !llvm.ptr<1>, %arg1: !llvm.ptr) attributes
// CHECK-NOT: nvvm.grid_constant
module attributes {gpu.container_module} {
  gpu.module @no_launch {
    llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
    llvm.func @k(%arg0: !llvm.ptr<1>, %arg1: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
}

// -----

// A description of a kernel the module does not define as an llvm.func
// (here still a gpu.func: the pass runs after convert-gpu-to-nvvm) and one
// that lists more parameters than its function has arguments are skipped,
// not a crash; the manifest's checks against the functions report them
// (test/Target/manifest-gpu-level-invalid.mlir).
// CHECK-LABEL: gpu.module @mismatch
// CHECK-NEXT: llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK-NEXT: gpu.func @not_lowered(%arg0: !llvm.ptr<1>, %arg1: !llvm.ptr) kernel
// CHECK: llvm.func @short(%arg0: !llvm.ptr<1>) attributes
// CHECK-NOT: nvvm.grid_constant
module attributes {gpu.container_module} {
  gpu.module @mismatch attributes {tile.kernels = [
      #tile.launch<name = "not_lowered", block = [256, 1, 1], grid = [#tile.grid_rule<1>], dynamic_shared_memory = 0,
        params = [#tile.buffer_param<name = "B", dtype = f16, shape = [64, 64], access = read>,
                  #tile.tensor_map_param<name = "B.tma0", buffer = "B", box = [64, 64], swizzle = 128>]>,
      #tile.launch<name = "short", block = [256, 1, 1], grid = [#tile.grid_rule<1>], dynamic_shared_memory = 0,
        params = [#tile.buffer_param<name = "B", dtype = f16, shape = [64, 64], access = read>,
                  #tile.tensor_map_param<name = "B.tma0", buffer = "B", box = [64, 64], swizzle = 128>]>]} {
    llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
    gpu.func @not_lowered(%arg0: !llvm.ptr<1>, %arg1: !llvm.ptr) kernel {
      gpu.return
    }
    llvm.func @short(%arg0: !llvm.ptr<1>) attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
}
