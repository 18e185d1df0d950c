// A gpu-level input (tile-translate takes any stage) brings its own
// 'tile.kernels' description; it is checked against the gpu.module before
// the manifest is written (--emit=manifest, or --manifest-out with a
// binary): each entry a dictionary of the fields the runtime reads with the
// types it accepts (unknown fields refused), naming a kernel function of the
// gpu.module compiled for its block, whose arguments match its parameters
// one to one (buffer: a pointer, dim: i64, scalar: its type). It was copied
// into the manifest unchecked. The errors are at the gpu.module.
//
// RUN: split-file %s %t
// RUN: tile-translate %t/valid.mlir --emit=manifest -o - | FileCheck %s --check-prefix=VALID
// VALID: "name": "k"
// VALID: "requires": [
// RUN: tile-translate %t/valid.mlir --emit=cubin -o %t/valid.cubin --manifest-out=%t/valid.json
// RUN: FileCheck %s --check-prefix=VALID < %t/valid.json
// RUN: not tile-translate %t/params-count.mlir --emit=cubin -o %t/out.cubin --manifest-out=%t/out.json 2>&1 | FileCheck %s --check-prefix=PARAMS-COUNT
// RUN: not test -e %t/out.json
// RUN: not tile-translate %t/not-array.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=NOT-ARRAY
// NOT-ARRAY: not-array.mlir:2:3: error: expected 'tile.kernels' to be an array of kernel descriptions, but got an attribute of another kind
// RUN: not tile-translate %t/not-dict.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=NOT-DICT
// NOT-DICT: not-dict.mlir:2:3: error: tile.kernels[0]: expected the description of a kernel to be a dictionary, but got 5 : i64
// RUN: not tile-translate %t/no-name.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=NO-NAME
// NO-NAME: no-name.mlir:2:3: error: tile.kernels[0]: expected the kernel to have a field 'name'
// RUN: not tile-translate %t/name-number.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=NAME-NUMBER
// NAME-NUMBER: name-number.mlir:2:3: error: tile.kernels[0]: expected the kernel's 'name' to be a string, but got 7 : i64
// RUN: not tile-translate %t/unknown-field.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=UNKNOWN-FIELD
// UNKNOWN-FIELD: unknown-field.mlir:2:3: error: tile.kernels[0] (kernel 'k'): unknown field 'dynamic_shared_mem' in the kernel (expected name, block, grid, dynamic_shared_memory, params, requires)
// RUN: not tile-translate %t/no-params.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=NO-PARAMS
// NO-PARAMS: no-params.mlir:2:3: error: tile.kernels[0] (kernel 'k'): expected the kernel to have a field 'params'
// RUN: not tile-translate %t/unknown-kernel.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=UNKNOWN-KERNEL
// UNKNOWN-KERNEL: unknown-kernel.mlir:2:3: error: tile.kernels[0] (kernel 'nope'): expected a kernel function 'nope' in the gpu.module, but there is none
// RUN: not tile-translate %t/not-a-kernel.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=NOT-A-KERNEL
// NOT-A-KERNEL: not-a-kernel.mlir:2:3: error: tile.kernels[0] (kernel 'helper'): expected a kernel function 'helper' in the gpu.module, but that symbol is not a kernel
// RUN: not tile-translate %t/second-entry.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=SECOND-ENTRY
// SECOND-ENTRY: second-entry.mlir:2:3: error: tile.kernels[1]: expected the description of a kernel to be a dictionary, but got 5 : i64
// RUN: not tile-translate %t/block-string.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=BLOCK-STRING
// BLOCK-STRING: block-string.mlir:2:3: error: tile.kernels[0] (kernel 'k'): expected the kernel's 'block' to be an array, but got "x"
// RUN: not tile-translate %t/block-four.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=BLOCK-FOUR
// BLOCK-FOUR: block-four.mlir:2:3: error: tile.kernels[0] (kernel 'k'): expected 1 to 3 block dimensions, but got 4
// RUN: not tile-translate %t/block-zero.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=BLOCK-ZERO
// BLOCK-ZERO: block-zero.mlir:2:3: error: tile.kernels[0] (kernel 'k'): expected block[0] in [1, 1024], but got 0
// RUN: not tile-translate %t/block-i32.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=BLOCK-I32
// BLOCK-I32: block-i32.mlir:2:3: error: tile.kernels[0] (kernel 'k'): expected block[0] to be an i64 integer, but got 32 : i32
// RUN: not tile-translate %t/block-mismatch.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=BLOCK-MISMATCH
// BLOCK-MISMATCH: block-mismatch.mlir:2:3: error: tile.kernels[0] (kernel 'k'): expected the block [64, 1, 1] to be the one the kernel function is compiled for, [32, 1, 1]
// RUN: not tile-translate %t/grid-number.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=GRID-NUMBER
// GRID-NUMBER: grid-number.mlir:2:3: error: tile.kernels[0] (kernel 'k'): expected the kernel's 'grid' to be an array, but got 3 : i64
// RUN: not tile-translate %t/grid-kind.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=GRID-KIND
// GRID-KIND: grid-kind.mlir:2:3: error: tile.kernels[0] (kernel 'k'): expected grid[0]'s kind to be one of const, ceildiv, but got 'floor'
// RUN: not tile-translate %t/grid-divisor.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=GRID-DIVISOR
// GRID-DIVISOR: grid-divisor.mlir:2:3: error: tile.kernels[0] (kernel 'k'): expected grid[0]'s 'divisor' in [1, 9223372036854775807], but got 0
// RUN: not tile-translate %t/shared-negative.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=SHARED-NEGATIVE
// SHARED-NEGATIVE: shared-negative.mlir:2:3: error: tile.kernels[0] (kernel 'k'): expected the kernel's 'dynamic_shared_memory' in [0, 4294967295], but got -1
// RUN: not tile-translate %t/params-count.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=PARAMS-COUNT
// PARAMS-COUNT: params-count.mlir:2:3: error: tile.kernels[0] (kernel 'k'): expected 3 parameters, one per argument of the kernel function, but got 2
// RUN: not tile-translate %t/param-not-dict.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=PARAM-NOT-DICT
// PARAM-NOT-DICT: param-not-dict.mlir:2:3: error: tile.kernels[0] (kernel 'k'): expected params[0] to be a dictionary, but got 4 : i64
// RUN: not tile-translate %t/param-kind.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=PARAM-KIND
// PARAM-KIND: param-kind.mlir:2:3: error: tile.kernels[0] (kernel 'k'): expected params[0]'s kind to be one of buffer, dim, scalar, but got 'tensor'
// RUN: not tile-translate %t/param-dtype.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=PARAM-DTYPE
// PARAM-DTYPE: param-dtype.mlir:2:3: error: tile.kernels[0] (kernel 'k'): expected params[0] ('A')'s dtype to be one of f16, bf16, f32, f64, i8, i16, i32, i64, but got 'f128'
// RUN: not tile-translate %t/param-shape.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=PARAM-SHAPE
// PARAM-SHAPE: param-shape.mlir:2:3: error: tile.kernels[0] (kernel 'k'): expected params[0] ('A')'s shape[0] in [-1, 9223372036854775807], but got -2
// RUN: not tile-translate %t/param-divisibility.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=PARAM-DIVISIBILITY
// PARAM-DIVISIBILITY: param-divisibility.mlir:2:3: error: tile.kernels[0] (kernel 'k'): expected params[0] ('A')'s divisibility to have 1 entries, one per dimension, but it has 2
// RUN: not tile-translate %t/param-access.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=PARAM-ACCESS
// PARAM-ACCESS: param-access.mlir:2:3: error: tile.kernels[0] (kernel 'k'): expected params[0] ('A')'s access to be one of read, write, readwrite, but got 'append'
// RUN: not tile-translate %t/param-field.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=PARAM-FIELD
// PARAM-FIELD: param-field.mlir:2:3: error: tile.kernels[0] (kernel 'k'): unknown field 'stride' in params[0] ('A') (expected name, kind, dtype, shape, divisibility, access)
// RUN: not tile-translate %t/dim-type.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=DIM-TYPE
// DIM-TYPE: dim-type.mlir:2:3: error: tile.kernels[0] (kernel 'k'): expected params[1] ('A.dim0')'s type to be one of i64, but got 'i32'
// RUN: not tile-translate %t/scalar-type.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=SCALAR-TYPE
// SCALAR-TYPE: scalar-type.mlir:2:3: error: tile.kernels[0] (kernel 'k'): expected params[2] ('s')'s type to be one of f32, f64, i32, i64, but got 'f16'
// RUN: not tile-translate %t/buffer-for-dim.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=BUFFER-FOR-DIM
// BUFFER-FOR-DIM: buffer-for-dim.mlir:2:3: error: tile.kernels[0] (kernel 'k'): expected argument 1 of the kernel function to be a pointer for params[1] ('B'), a buffer parameter, but it is 'i64'
// RUN: not tile-translate %t/dim-for-buffer.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=DIM-FOR-BUFFER
// DIM-FOR-BUFFER: dim-for-buffer.mlir:2:3: error: tile.kernels[0] (kernel 'k'): expected argument 0 of the kernel function to be an i64 for params[0] ('A.dim0'), a dim parameter, but it is '!llvm.ptr<1>'
// RUN: not tile-translate %t/scalar-mismatch.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=SCALAR-MISMATCH
// SCALAR-MISMATCH: scalar-mismatch.mlir:2:3: error: tile.kernels[0] (kernel 'k'): expected argument 2 of the kernel function to be an i32 for params[2] ('s'), a scalar parameter, but it is 'f32'
// RUN: not tile-translate %t/requires-op.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=REQUIRES-OP
// REQUIRES-OP: requires-op.mlir:2:3: error: tile.kernels[0] (kernel 'k'): expected requires[0]'s op to be one of ==, <=, >=, but got '<'
// RUN: not tile-translate %t/requires-both.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=REQUIRES-BOTH
// REQUIRES-BOTH: requires-both.mlir:2:3: error: tile.kernels[0] (kernel 'k'): expected requires[0] to have one of 'rhs' and 'value', but it has both
// RUN: not tile-translate %t/requires-lhs.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=REQUIRES-LHS
// REQUIRES-LHS: requires-lhs.mlir:2:3: error: tile.kernels[0] (kernel 'k'): expected requires[0]'s lhs to be a dictionary, but got "A"

//--- valid.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [{block = [32, 1, 1], dynamic_shared_memory = 0 : i64, grid = [{dim = 0 : i64, divisor = 32 : i64, kind = "ceildiv", param = "A"}], name = "k", params = [{access = "read", dtype = "f32", kind = "buffer", name = "A", shape = [-1]}, {buffer = "A", dim = 0 : i64, kind = "dim", name = "A.dim0", type = "i64"}, {kind = "scalar", name = "s", type = "f32"}], requires = [{lhs = {dim = 0 : i64, param = "A"}, op = "<=", value = 4096 : i64}]}]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
//--- not-array.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = 5} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
//--- not-dict.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [5]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
//--- no-name.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [{block = [32, 1, 1], dynamic_shared_memory = 0 : i64, grid = [{dim = 0 : i64, divisor = 32 : i64, kind = "ceildiv", param = "A"}], params = [{access = "read", dtype = "f32", kind = "buffer", name = "A", shape = [-1]}, {buffer = "A", dim = 0 : i64, kind = "dim", name = "A.dim0", type = "i64"}, {kind = "scalar", name = "s", type = "f32"}], requires = [{lhs = {dim = 0 : i64, param = "A"}, op = "<=", value = 4096 : i64}]}]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
//--- name-number.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [{block = [32, 1, 1], dynamic_shared_memory = 0 : i64, grid = [{dim = 0 : i64, divisor = 32 : i64, kind = "ceildiv", param = "A"}], name = 7, params = [{access = "read", dtype = "f32", kind = "buffer", name = "A", shape = [-1]}, {buffer = "A", dim = 0 : i64, kind = "dim", name = "A.dim0", type = "i64"}, {kind = "scalar", name = "s", type = "f32"}], requires = [{lhs = {dim = 0 : i64, param = "A"}, op = "<=", value = 4096 : i64}]}]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
//--- unknown-field.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [{block = [32, 1, 1], dynamic_shared_mem = 0 : i64, dynamic_shared_memory = 0 : i64, grid = [{dim = 0 : i64, divisor = 32 : i64, kind = "ceildiv", param = "A"}], name = "k", params = [{access = "read", dtype = "f32", kind = "buffer", name = "A", shape = [-1]}, {buffer = "A", dim = 0 : i64, kind = "dim", name = "A.dim0", type = "i64"}, {kind = "scalar", name = "s", type = "f32"}], requires = [{lhs = {dim = 0 : i64, param = "A"}, op = "<=", value = 4096 : i64}]}]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
//--- no-params.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [{block = [32, 1, 1], dynamic_shared_memory = 0 : i64, grid = [{dim = 0 : i64, divisor = 32 : i64, kind = "ceildiv", param = "A"}], name = "k", requires = [{lhs = {dim = 0 : i64, param = "A"}, op = "<=", value = 4096 : i64}]}]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
//--- unknown-kernel.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [{block = [32, 1, 1], dynamic_shared_memory = 0 : i64, grid = [{dim = 0 : i64, divisor = 32 : i64, kind = "ceildiv", param = "A"}], name = "nope", params = [{access = "read", dtype = "f32", kind = "buffer", name = "A", shape = [-1]}, {buffer = "A", dim = 0 : i64, kind = "dim", name = "A.dim0", type = "i64"}, {kind = "scalar", name = "s", type = "f32"}], requires = [{lhs = {dim = 0 : i64, param = "A"}, op = "<=", value = 4096 : i64}]}]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
//--- not-a-kernel.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [{block = [32, 1, 1], dynamic_shared_memory = 0 : i64, grid = [{dim = 0 : i64, divisor = 32 : i64, kind = "ceildiv", param = "A"}], name = "helper", params = [{access = "read", dtype = "f32", kind = "buffer", name = "A", shape = [-1]}, {buffer = "A", dim = 0 : i64, kind = "dim", name = "A.dim0", type = "i64"}, {kind = "scalar", name = "s", type = "f32"}], requires = [{lhs = {dim = 0 : i64, param = "A"}, op = "<=", value = 4096 : i64}]}]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
    gpu.func @helper() {
      gpu.return
    }
  }
}
//--- second-entry.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [{block = [32, 1, 1], dynamic_shared_memory = 0 : i64, grid = [{dim = 0 : i64, divisor = 32 : i64, kind = "ceildiv", param = "A"}], name = "k", params = [{access = "read", dtype = "f32", kind = "buffer", name = "A", shape = [-1]}, {buffer = "A", dim = 0 : i64, kind = "dim", name = "A.dim0", type = "i64"}, {kind = "scalar", name = "s", type = "f32"}], requires = [{lhs = {dim = 0 : i64, param = "A"}, op = "<=", value = 4096 : i64}]}, 5]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
//--- block-string.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [{block = "x", dynamic_shared_memory = 0 : i64, grid = [{dim = 0 : i64, divisor = 32 : i64, kind = "ceildiv", param = "A"}], name = "k", params = [{access = "read", dtype = "f32", kind = "buffer", name = "A", shape = [-1]}, {buffer = "A", dim = 0 : i64, kind = "dim", name = "A.dim0", type = "i64"}, {kind = "scalar", name = "s", type = "f32"}], requires = [{lhs = {dim = 0 : i64, param = "A"}, op = "<=", value = 4096 : i64}]}]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
//--- block-four.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [{block = [32, 1, 1, 1], dynamic_shared_memory = 0 : i64, grid = [{dim = 0 : i64, divisor = 32 : i64, kind = "ceildiv", param = "A"}], name = "k", params = [{access = "read", dtype = "f32", kind = "buffer", name = "A", shape = [-1]}, {buffer = "A", dim = 0 : i64, kind = "dim", name = "A.dim0", type = "i64"}, {kind = "scalar", name = "s", type = "f32"}], requires = [{lhs = {dim = 0 : i64, param = "A"}, op = "<=", value = 4096 : i64}]}]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
//--- block-zero.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [{block = [0, 1, 1], dynamic_shared_memory = 0 : i64, grid = [{dim = 0 : i64, divisor = 32 : i64, kind = "ceildiv", param = "A"}], name = "k", params = [{access = "read", dtype = "f32", kind = "buffer", name = "A", shape = [-1]}, {buffer = "A", dim = 0 : i64, kind = "dim", name = "A.dim0", type = "i64"}, {kind = "scalar", name = "s", type = "f32"}], requires = [{lhs = {dim = 0 : i64, param = "A"}, op = "<=", value = 4096 : i64}]}]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
//--- block-i32.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [{block = [32 : i32, 1, 1], dynamic_shared_memory = 0 : i64, grid = [{dim = 0 : i64, divisor = 32 : i64, kind = "ceildiv", param = "A"}], name = "k", params = [{access = "read", dtype = "f32", kind = "buffer", name = "A", shape = [-1]}, {buffer = "A", dim = 0 : i64, kind = "dim", name = "A.dim0", type = "i64"}, {kind = "scalar", name = "s", type = "f32"}], requires = [{lhs = {dim = 0 : i64, param = "A"}, op = "<=", value = 4096 : i64}]}]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
//--- block-mismatch.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [{block = [64, 1, 1], dynamic_shared_memory = 0 : i64, grid = [{dim = 0 : i64, divisor = 32 : i64, kind = "ceildiv", param = "A"}], name = "k", params = [{access = "read", dtype = "f32", kind = "buffer", name = "A", shape = [-1]}, {buffer = "A", dim = 0 : i64, kind = "dim", name = "A.dim0", type = "i64"}, {kind = "scalar", name = "s", type = "f32"}], requires = [{lhs = {dim = 0 : i64, param = "A"}, op = "<=", value = 4096 : i64}]}]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
//--- grid-number.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [{block = [32, 1, 1], dynamic_shared_memory = 0 : i64, grid = 3, name = "k", params = [{access = "read", dtype = "f32", kind = "buffer", name = "A", shape = [-1]}, {buffer = "A", dim = 0 : i64, kind = "dim", name = "A.dim0", type = "i64"}, {kind = "scalar", name = "s", type = "f32"}], requires = [{lhs = {dim = 0 : i64, param = "A"}, op = "<=", value = 4096 : i64}]}]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
//--- grid-kind.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [{block = [32, 1, 1], dynamic_shared_memory = 0 : i64, grid = [{kind = "floor", value = 1 : i64}], name = "k", params = [{access = "read", dtype = "f32", kind = "buffer", name = "A", shape = [-1]}, {buffer = "A", dim = 0 : i64, kind = "dim", name = "A.dim0", type = "i64"}, {kind = "scalar", name = "s", type = "f32"}], requires = [{lhs = {dim = 0 : i64, param = "A"}, op = "<=", value = 4096 : i64}]}]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
//--- grid-divisor.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [{block = [32, 1, 1], dynamic_shared_memory = 0 : i64, grid = [{dim = 0 : i64, divisor = 0 : i64, kind = "ceildiv", param = "A"}], name = "k", params = [{access = "read", dtype = "f32", kind = "buffer", name = "A", shape = [-1]}, {buffer = "A", dim = 0 : i64, kind = "dim", name = "A.dim0", type = "i64"}, {kind = "scalar", name = "s", type = "f32"}], requires = [{lhs = {dim = 0 : i64, param = "A"}, op = "<=", value = 4096 : i64}]}]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
//--- shared-negative.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [{block = [32, 1, 1], dynamic_shared_memory = -1 : i64, grid = [{dim = 0 : i64, divisor = 32 : i64, kind = "ceildiv", param = "A"}], name = "k", params = [{access = "read", dtype = "f32", kind = "buffer", name = "A", shape = [-1]}, {buffer = "A", dim = 0 : i64, kind = "dim", name = "A.dim0", type = "i64"}, {kind = "scalar", name = "s", type = "f32"}], requires = [{lhs = {dim = 0 : i64, param = "A"}, op = "<=", value = 4096 : i64}]}]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
//--- params-count.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [{block = [32, 1, 1], dynamic_shared_memory = 0 : i64, grid = [{dim = 0 : i64, divisor = 32 : i64, kind = "ceildiv", param = "A"}], name = "k", params = [{access = "read", dtype = "f32", kind = "buffer", name = "A", shape = [-1]}, {buffer = "A", dim = 0 : i64, kind = "dim", name = "A.dim0", type = "i64"}], requires = [{lhs = {dim = 0 : i64, param = "A"}, op = "<=", value = 4096 : i64}]}]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
//--- param-not-dict.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [{block = [32, 1, 1], dynamic_shared_memory = 0 : i64, grid = [{dim = 0 : i64, divisor = 32 : i64, kind = "ceildiv", param = "A"}], name = "k", params = [4, {buffer = "A", dim = 0 : i64, kind = "dim", name = "A.dim0", type = "i64"}, {kind = "scalar", name = "s", type = "f32"}], requires = [{lhs = {dim = 0 : i64, param = "A"}, op = "<=", value = 4096 : i64}]}]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
//--- param-kind.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [{block = [32, 1, 1], dynamic_shared_memory = 0 : i64, grid = [{dim = 0 : i64, divisor = 32 : i64, kind = "ceildiv", param = "A"}], name = "k", params = [{access = "read", dtype = "f32", kind = "tensor", name = "A", shape = [-1]}, {buffer = "A", dim = 0 : i64, kind = "dim", name = "A.dim0", type = "i64"}, {kind = "scalar", name = "s", type = "f32"}], requires = [{lhs = {dim = 0 : i64, param = "A"}, op = "<=", value = 4096 : i64}]}]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
//--- param-dtype.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [{block = [32, 1, 1], dynamic_shared_memory = 0 : i64, grid = [{dim = 0 : i64, divisor = 32 : i64, kind = "ceildiv", param = "A"}], name = "k", params = [{access = "read", dtype = "f128", kind = "buffer", name = "A", shape = [-1]}, {buffer = "A", dim = 0 : i64, kind = "dim", name = "A.dim0", type = "i64"}, {kind = "scalar", name = "s", type = "f32"}], requires = [{lhs = {dim = 0 : i64, param = "A"}, op = "<=", value = 4096 : i64}]}]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
//--- param-shape.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [{block = [32, 1, 1], dynamic_shared_memory = 0 : i64, grid = [{dim = 0 : i64, divisor = 32 : i64, kind = "ceildiv", param = "A"}], name = "k", params = [{access = "read", dtype = "f32", kind = "buffer", name = "A", shape = [-2]}, {buffer = "A", dim = 0 : i64, kind = "dim", name = "A.dim0", type = "i64"}, {kind = "scalar", name = "s", type = "f32"}], requires = [{lhs = {dim = 0 : i64, param = "A"}, op = "<=", value = 4096 : i64}]}]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
//--- param-divisibility.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [{block = [32, 1, 1], dynamic_shared_memory = 0 : i64, grid = [{dim = 0 : i64, divisor = 32 : i64, kind = "ceildiv", param = "A"}], name = "k", params = [{access = "read", dtype = "f32", divisibility = [8, 8], kind = "buffer", name = "A", shape = [-1]}, {buffer = "A", dim = 0 : i64, kind = "dim", name = "A.dim0", type = "i64"}, {kind = "scalar", name = "s", type = "f32"}], requires = [{lhs = {dim = 0 : i64, param = "A"}, op = "<=", value = 4096 : i64}]}]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
//--- param-access.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [{block = [32, 1, 1], dynamic_shared_memory = 0 : i64, grid = [{dim = 0 : i64, divisor = 32 : i64, kind = "ceildiv", param = "A"}], name = "k", params = [{access = "append", dtype = "f32", kind = "buffer", name = "A", shape = [-1]}, {buffer = "A", dim = 0 : i64, kind = "dim", name = "A.dim0", type = "i64"}, {kind = "scalar", name = "s", type = "f32"}], requires = [{lhs = {dim = 0 : i64, param = "A"}, op = "<=", value = 4096 : i64}]}]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
//--- param-field.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [{block = [32, 1, 1], dynamic_shared_memory = 0 : i64, grid = [{dim = 0 : i64, divisor = 32 : i64, kind = "ceildiv", param = "A"}], name = "k", params = [{access = "read", dtype = "f32", stride = 1 : i64, kind = "buffer", name = "A", shape = [-1]}, {buffer = "A", dim = 0 : i64, kind = "dim", name = "A.dim0", type = "i64"}, {kind = "scalar", name = "s", type = "f32"}], requires = [{lhs = {dim = 0 : i64, param = "A"}, op = "<=", value = 4096 : i64}]}]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
//--- dim-type.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [{block = [32, 1, 1], dynamic_shared_memory = 0 : i64, grid = [{dim = 0 : i64, divisor = 32 : i64, kind = "ceildiv", param = "A"}], name = "k", params = [{access = "read", dtype = "f32", kind = "buffer", name = "A", shape = [-1]}, {buffer = "A", dim = 0 : i64, kind = "dim", name = "A.dim0", type = "i32"}, {kind = "scalar", name = "s", type = "f32"}], requires = [{lhs = {dim = 0 : i64, param = "A"}, op = "<=", value = 4096 : i64}]}]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
//--- scalar-type.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [{block = [32, 1, 1], dynamic_shared_memory = 0 : i64, grid = [{dim = 0 : i64, divisor = 32 : i64, kind = "ceildiv", param = "A"}], name = "k", params = [{access = "read", dtype = "f32", kind = "buffer", name = "A", shape = [-1]}, {buffer = "A", dim = 0 : i64, kind = "dim", name = "A.dim0", type = "i64"}, {kind = "scalar", name = "s", type = "f16"}], requires = [{lhs = {dim = 0 : i64, param = "A"}, op = "<=", value = 4096 : i64}]}]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
//--- buffer-for-dim.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [{block = [32, 1, 1], dynamic_shared_memory = 0 : i64, grid = [{dim = 0 : i64, divisor = 32 : i64, kind = "ceildiv", param = "A"}], name = "k", params = [{access = "read", dtype = "f32", kind = "buffer", name = "A", shape = [-1]}, {access = "read", dtype = "f32", kind = "buffer", name = "B", shape = [-1]}, {kind = "scalar", name = "s", type = "f32"}], requires = [{lhs = {dim = 0 : i64, param = "A"}, op = "<=", value = 4096 : i64}]}]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
//--- dim-for-buffer.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [{block = [32, 1, 1], dynamic_shared_memory = 0 : i64, grid = [{dim = 0 : i64, divisor = 32 : i64, kind = "ceildiv", param = "A"}], name = "k", params = [{buffer = "A", dim = 0 : i64, kind = "dim", name = "A.dim0", type = "i64"}, {buffer = "A", dim = 0 : i64, kind = "dim", name = "A.dim0", type = "i64"}, {kind = "scalar", name = "s", type = "f32"}], requires = [{lhs = {dim = 0 : i64, param = "A"}, op = "<=", value = 4096 : i64}]}]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
//--- scalar-mismatch.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [{block = [32, 1, 1], dynamic_shared_memory = 0 : i64, grid = [{dim = 0 : i64, divisor = 32 : i64, kind = "ceildiv", param = "A"}], name = "k", params = [{access = "read", dtype = "f32", kind = "buffer", name = "A", shape = [-1]}, {buffer = "A", dim = 0 : i64, kind = "dim", name = "A.dim0", type = "i64"}, {kind = "scalar", name = "s", type = "i32"}], requires = [{lhs = {dim = 0 : i64, param = "A"}, op = "<=", value = 4096 : i64}]}]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
//--- requires-op.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [{block = [32, 1, 1], dynamic_shared_memory = 0 : i64, grid = [{dim = 0 : i64, divisor = 32 : i64, kind = "ceildiv", param = "A"}], name = "k", params = [{access = "read", dtype = "f32", kind = "buffer", name = "A", shape = [-1]}, {buffer = "A", dim = 0 : i64, kind = "dim", name = "A.dim0", type = "i64"}, {kind = "scalar", name = "s", type = "f32"}], requires = [{lhs = {dim = 0 : i64, param = "A"}, op = "<", value = 4096 : i64}]}]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
//--- requires-both.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [{block = [32, 1, 1], dynamic_shared_memory = 0 : i64, grid = [{dim = 0 : i64, divisor = 32 : i64, kind = "ceildiv", param = "A"}], name = "k", params = [{access = "read", dtype = "f32", kind = "buffer", name = "A", shape = [-1]}, {buffer = "A", dim = 0 : i64, kind = "dim", name = "A.dim0", type = "i64"}, {kind = "scalar", name = "s", type = "f32"}], requires = [{lhs = {dim = 0 : i64, param = "A"}, rhs = {dim = 0 : i64, param = "A"}, op = "<=", value = 4096 : i64}]}]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
//--- requires-lhs.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [{block = [32, 1, 1], dynamic_shared_memory = 0 : i64, grid = [{dim = 0 : i64, divisor = 32 : i64, kind = "ceildiv", param = "A"}], name = "k", params = [{access = "read", dtype = "f32", kind = "buffer", name = "A", shape = [-1]}, {buffer = "A", dim = 0 : i64, kind = "dim", name = "A.dim0", type = "i64"}, {kind = "scalar", name = "s", type = "f32"}], requires = [{lhs = "A", op = "<=", value = 4096 : i64}]}]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
