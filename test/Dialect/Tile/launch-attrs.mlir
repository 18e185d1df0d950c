// Round trip of the launch descriptions (#tile.launch and its parts) through
// the custom and the generic assembly formats, in the gpu.module's
// `tile.kernels` array where convert-tile-to-gpu writes them.
//
// RUN: tile-opt %s | tile-opt | FileCheck %s
// RUN: tile-opt %s --mlir-print-op-generic | tile-opt | FileCheck %s

// Buffers with dynamic and static sizes, a scalar, one dim parameter per
// dynamic size; a grid by ceildiv.
// CHECK-LABEL: gpu.module @vector_add
// CHECK-SAME: tile.kernels = [#tile.launch<name = "vector_add", block = [256, 1, 1],
// CHECK-SAME: grid = [#tile.grid_rule<ceildiv "A"[0] by 1024>], dynamic_shared_memory = 0,
// CHECK-SAME: params = [#tile.buffer_param<name = "A", dtype = f32, shape = [?], access = read>,
// CHECK-SAME: #tile.buffer_param<name = "C", dtype = bf16, shape = [?, 64], access = write>,
// CHECK-SAME: #tile.scalar_param<name = "alpha", type = f32>,
// CHECK-SAME: #tile.dim_param<name = "A.dim0", buffer = "A", dim = 0>,
// CHECK-SAME: #tile.dim_param<name = "C.dim0", buffer = "C", dim = 0>]>]
module attributes {gpu.container_module} {
  gpu.module @vector_add attributes {tile.kernels = [
    #tile.launch<name = "vector_add", block = [256, 1, 1],
                 grid = [#tile.grid_rule<ceildiv "A"[0] by 1024>],
                 dynamic_shared_memory = 0,
                 params = [#tile.buffer_param<name = "A", dtype = f32, shape = [?], access = read>,
                           #tile.buffer_param<name = "C", dtype = bf16, shape = [?, 64], access = write>,
                           #tile.scalar_param<name = "alpha", type = f32>,
                           #tile.dim_param<name = "A.dim0", buffer = "A", dim = 0>,
                           #tile.dim_param<name = "C.dim0", buffer = "C", dim = 0>]>]} {
  }
}

// Divisibility promises, a 3-D grid with a constant extent, every access and
// the launch contract: sizes against sizes and against constants (negative
// ones too), and a size that divides another. The fields may come in any
// order; they print in one.
// CHECK-LABEL: gpu.module @gemm
// CHECK-SAME: tile.kernels = [#tile.launch<name = "gemm", block = [128, 1, 1],
// CHECK-SAME: grid = [#tile.grid_rule<ceildiv "C"[1] by 128>, #tile.grid_rule<ceildiv "C"[0] by 128>, #tile.grid_rule<1>],
// CHECK-SAME: dynamic_shared_memory = 49152,
// CHECK-SAME: params = [#tile.buffer_param<name = "A", dtype = f16, shape = [?, ?], access = read, divisibility = [1, 8]>,
// CHECK-SAME: #tile.buffer_param<name = "B", dtype = i8, shape = [?, 32], access = readwrite>,
// CHECK-SAME: #tile.buffer_param<name = "C", dtype = f64, shape = [?, ?], access = write, divisibility = [1, 1]>,
// CHECK-SAME: #tile.scalar_param<name = "n", type = i64>, #tile.scalar_param<name = "m", type = i32>,
// CHECK-SAME: #tile.scalar_param<name = "x", type = f64>,
// CHECK-SAME: #tile.dim_param<name = "A.dim0", buffer = "A", dim = 0>,
// CHECK-SAME: #tile.dim_param<name = "A.dim1", buffer = "A", dim = 1>,
// CHECK-SAME: #tile.dim_param<name = "B.dim0", buffer = "B", dim = 0>,
// CHECK-SAME: #tile.dim_param<name = "C.dim0", buffer = "C", dim = 0>,
// CHECK-SAME: #tile.dim_param<name = "C.dim1", buffer = "C", dim = 1>],
// CHECK-SAME: contract = [#tile.size_relation<"A"[1] eq "B"[0]>, #tile.size_relation<"A"[0] le 4096>,
// CHECK-SAME: #tile.size_relation<"C"[1] ge -1>, #tile.size_relation<"A"[0] divides "C"[0]>]>]
module attributes {gpu.container_module} {
  gpu.module @gemm attributes {tile.kernels = [
    #tile.launch<contract = [#tile.size_relation<"A"[1] eq "B"[0]>,
                             #tile.size_relation<"A"[0] le 4096>,
                             #tile.size_relation<"C"[1] ge -1>,
                             #tile.size_relation<"A"[0] divides "C"[0]>],
                 name = "gemm", dynamic_shared_memory = 49152,
                 block = [128, 1, 1],
                 grid = [#tile.grid_rule<ceildiv "C"[1] by 128>,
                         #tile.grid_rule<ceildiv "C"[0] by 128>,
                         #tile.grid_rule<1>],
                 params = [#tile.buffer_param<name = "A", dtype = f16, shape = [?, ?], access = read, divisibility = [1, 8]>,
                           #tile.buffer_param<access = readwrite, shape = [?, 32], dtype = i8, name = "B">,
                           #tile.buffer_param<name = "C", dtype = f64, shape = [?, ?], access = write, divisibility = [1, 1]>,
                           #tile.scalar_param<name = "n", type = i64>,
                           #tile.scalar_param<name = "m", type = i32>,
                           #tile.scalar_param<name = "x", type = f64>,
                           #tile.dim_param<name = "A.dim0", buffer = "A", dim = 0>,
                           #tile.dim_param<name = "A.dim1", buffer = "A", dim = 1>,
                           #tile.dim_param<name = "B.dim0", buffer = "B", dim = 0>,
                           #tile.dim_param<name = "C.dim0", buffer = "C", dim = 0>,
                           #tile.dim_param<dim = 1, buffer = "C", name = "C.dim1">]>]} {
  }
}

// A kernel without parameters (params and contract, empty, do not print);
// two kernels in one module; names that need quoting.
// CHECK-LABEL: gpu.module @no_params
// CHECK-SAME: tile.kernels = [#tile.launch<name = "k", block = [32, 2, 4], grid = [#tile.grid_rule<65535>, #tile.grid_rule<2>], dynamic_shared_memory = 232448>,
// CHECK-SAME: #tile.launch<name = "k\22two\22", block = [1, 1, 1], grid = [#tile.grid_rule<1>], dynamic_shared_memory = 0, params = [#tile.buffer_param<name = "a b", dtype = i32, shape = [4, 0], access = read>]>]
module attributes {gpu.container_module} {
  gpu.module @no_params attributes {tile.kernels = [
    #tile.launch<name = "k", block = [32, 2, 4],
                 grid = [#tile.grid_rule<65535>, #tile.grid_rule<2>],
                 dynamic_shared_memory = 232448, params = [], contract = []>,
    #tile.launch<name = "k\"two\"", block = [1, 1, 1],
                 grid = [#tile.grid_rule<1>], dynamic_shared_memory = 0,
                 params = [#tile.buffer_param<name = "a b", dtype = i32, shape = [4, 0], access = read>]>]} {
  }
}

// A TMA kernel: after the dim parameters, one #tile.tensor_map_param per
// buffer and box its copies use (rank 1 to 5, each swizzle); the fields may
// come in any order.
// CHECK-LABEL: gpu.module @tma
// CHECK-SAME: params = [#tile.buffer_param<name = "A", dtype = f16, shape = [?, ?], access = read>,
// CHECK-SAME: #tile.buffer_param<name = "X", dtype = f32, shape = [4, 8, 16, 32, 64], access = read>,
// CHECK-SAME: #tile.dim_param<name = "A.dim0", buffer = "A", dim = 0>,
// CHECK-SAME: #tile.dim_param<name = "A.dim1", buffer = "A", dim = 1>,
// CHECK-SAME: #tile.tensor_map_param<name = "A.tma0", buffer = "A", box = [128, 64], swizzle = 128>,
// CHECK-SAME: #tile.tensor_map_param<name = "A.tma1", buffer = "A", box = [256, 1], swizzle = 0>,
// CHECK-SAME: #tile.tensor_map_param<name = "X.tma2", buffer = "X", box = [1, 2, 4, 16, 8], swizzle = 32>,
// CHECK-SAME: #tile.tensor_map_param<name = "X.tma3", buffer = "X", box = [4, 8, 16, 32, 16], swizzle = 64>]>]
module attributes {gpu.container_module} {
  gpu.module @tma attributes {tile.kernels = [
    #tile.launch<name = "tma", block = [384, 1, 1],
                 grid = [#tile.grid_rule<ceildiv "A"[0] by 128>],
                 dynamic_shared_memory = 196608,
                 params = [#tile.buffer_param<name = "A", dtype = f16, shape = [?, ?], access = read>,
                           #tile.buffer_param<name = "X", dtype = f32, shape = [4, 8, 16, 32, 64], access = read>,
                           #tile.dim_param<name = "A.dim0", buffer = "A", dim = 0>,
                           #tile.dim_param<name = "A.dim1", buffer = "A", dim = 1>,
                           #tile.tensor_map_param<name = "A.tma0", buffer = "A", box = [128, 64], swizzle = 128>,
                           #tile.tensor_map_param<swizzle = 0, box = [256, 1], buffer = "A", name = "A.tma1">,
                           #tile.tensor_map_param<name = "X.tma2", buffer = "X", box = [1, 2, 4, 16, 8], swizzle = 32>,
                           #tile.tensor_map_param<name = "X.tma3", buffer = "X", box = [4, 8, 16, 32, 16], swizzle = 64>]>]} {
  }
}

// A persistent kernel's launch: blocks per multiprocessor, printed only
// when not 0.
// CHECK-LABEL: gpu.module @persistent
// CHECK-SAME: #tile.launch<name = "persistent", block = [384, 1, 1], grid = [#tile.grid_rule<4>], dynamic_shared_memory = 0, persistent = 1>
module attributes {gpu.container_module} {
  gpu.module @persistent attributes {tile.kernels = [
    #tile.launch<name = "persistent", block = [384, 1, 1],
                 grid = [#tile.grid_rule<4>], dynamic_shared_memory = 0,
                 persistent = 1>]} {
  }
}

// -----

// A stream-K kernel's workspace: the last parameter, bytes per block.
// CHECK-LABEL: gpu.module @stream_k
// CHECK-SAME: #tile.workspace_param<name = "workspace", bytes_per_block = 131080>
gpu.module @stream_k attributes {tile.kernels = [
  #tile.launch<name = "k", block = [384, 1, 1],
               grid = [#tile.grid_rule<4>], dynamic_shared_memory = 0,
               params = [#tile.workspace_param<name = "workspace", bytes_per_block = 131080>],
               persistent = 1>]} {
  gpu.func @k(%workspace: !llvm.ptr<1>) kernel {
    gpu.return
  }
}
