// A gpu-level input (tile-translate takes any stage) brings its own
// 'tile.kernels' descriptions, an array of #tile.launch attributes. Their
// verifiers check each in itself when the input is parsed (every message:
// test/Dialect/Tile/launch-attrs-invalid.mlir; a few here, to show that
// tile-translate refuses them and writes nothing). Before the manifest is
// written (--emit=manifest, or --manifest-out with a binary) each entry is
// checked against the gpu.module: a #tile.launch, one per kernel, naming a
// kernel function of the gpu.module compiled for its block, whose arguments
// match its parameters one to one (buffer: a pointer, dim: i64, scalar: its
// type). The errors are at the gpu.module.
//
// RUN: split-file %s %t
// RUN: tile-translate %t/valid.mlir --emit=manifest -o - | FileCheck %s --check-prefix=VALID
// RUN: tile-translate %t/valid.mlir --emit=cubin -o %t/valid.cubin --manifest-out=%t/valid.json
// RUN: FileCheck %s --check-prefix=VALID < %t/valid.json
// VALID:      "kernels": [
// VALID-NEXT:   {
// VALID-NEXT:     "block": [
// VALID-NEXT:       32,
// VALID-NEXT:       1,
// VALID-NEXT:       1
// VALID-NEXT:     ],
// VALID-NEXT:     "dynamic_shared_memory": 0,
// VALID-NEXT:     "grid": [
// VALID-NEXT:       {
// VALID-NEXT:         "dim": 0,
// VALID-NEXT:         "divisor": 32,
// VALID-NEXT:         "kind": "ceildiv",
// VALID-NEXT:         "param": "A"
// VALID-NEXT:       }
// VALID-NEXT:     ],
// VALID-NEXT:     "name": "k",
// VALID-NEXT:     "params": [
// VALID-NEXT:       {
// VALID-NEXT:         "access": "read",
// VALID-NEXT:         "dtype": "f32",
// VALID-NEXT:         "kind": "buffer",
// VALID-NEXT:         "name": "A",
// VALID-NEXT:         "shape": [
// VALID-NEXT:           -1
// VALID-NEXT:         ]
// VALID-NEXT:       },
// VALID-NEXT:       {
// VALID-NEXT:         "buffer": "A",
// VALID-NEXT:         "dim": 0,
// VALID-NEXT:         "kind": "dim",
// VALID-NEXT:         "name": "A.dim0",
// VALID-NEXT:         "type": "i64"
// VALID-NEXT:       },
// VALID-NEXT:       {
// VALID-NEXT:         "kind": "scalar",
// VALID-NEXT:         "name": "s",
// VALID-NEXT:         "type": "f32"
// VALID-NEXT:       }
// VALID-NEXT:     ],
// VALID-NEXT:     "requires": [
// VALID-NEXT:       {
// VALID-NEXT:         "lhs": {
// VALID-NEXT:           "dim": 0,
// VALID-NEXT:           "param": "A"
// VALID-NEXT:         },
// VALID-NEXT:         "op": "<=",
// VALID-NEXT:         "value": 4096
// VALID-NEXT:       }
// VALID-NEXT:     ]
// VALID-NEXT:   }
// VALID-NEXT: ],
// RUN: not tile-translate %t/params-count.mlir --emit=cubin -o %t/out.cubin --manifest-out=%t/out.json 2>&1 | FileCheck %s --check-prefix=PARAMS-COUNT
// RUN: not test -e %t/out.json
// RUN: not tile-translate %t/params-count.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=PARAMS-COUNT
// PARAMS-COUNT: params-count.mlir:2:3: error: tile.kernels[0] (kernel 'k'): expected 3 parameters, one per argument of the kernel function, but got 2
// RUN: not tile-translate %t/not-array.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=NOT-ARRAY
// NOT-ARRAY: not-array.mlir:2:3: error: expected 'tile.kernels' to be an array of #tile.launch descriptions, but got an attribute of another kind
// RUN: not tile-translate %t/not-launch.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=NOT-LAUNCH
// NOT-LAUNCH: not-launch.mlir:2:3: error: tile.kernels[0]: expected a #tile.launch description, but got 5 : i64
// RUN: not tile-translate %t/dictionary.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=DICTIONARY
// DICTIONARY: dictionary.mlir:2:3: error: tile.kernels[0]: expected a #tile.launch description, but got {block = [32, 1, 1], name = "k"}
// RUN: not tile-translate %t/unknown-kernel.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=UNKNOWN-KERNEL
// UNKNOWN-KERNEL: unknown-kernel.mlir:2:3: error: tile.kernels[0] (kernel 'nope'): expected a kernel function 'nope' in the gpu.module, but there is none
// RUN: not tile-translate %t/not-a-kernel.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=NOT-A-KERNEL
// NOT-A-KERNEL: not-a-kernel.mlir:2:3: error: tile.kernels[0] (kernel 'helper'): expected a kernel function 'helper' in the gpu.module, but that symbol is not a kernel
// RUN: not tile-translate %t/second-entry.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=SECOND-ENTRY
// SECOND-ENTRY: second-entry.mlir:2:3: error: tile.kernels[1]: expected a #tile.launch description, but got 5 : i64
// RUN: not tile-translate %t/twice.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: twice.mlir:2:3: error: tile.kernels[1] (kernel 'k'): expected one description per kernel, but tile.kernels[0] describes it too
// RUN: not tile-translate %t/block-mismatch.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=BLOCK-MISMATCH
// BLOCK-MISMATCH: block-mismatch.mlir:2:3: error: tile.kernels[0] (kernel 'k'): expected the block [64, 1, 1] to be the one the kernel function is compiled for, [32, 1, 1]
// RUN: not tile-translate %t/buffer-for-dim.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=BUFFER-FOR-DIM
// BUFFER-FOR-DIM: buffer-for-dim.mlir:2:3: error: tile.kernels[0] (kernel 'k'): expected argument 1 of the kernel function to be a pointer for params[1] ('B'), a buffer parameter, but it is 'i64'
// RUN: not tile-translate %t/dim-for-buffer.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=DIM-FOR-BUFFER
// DIM-FOR-BUFFER: dim-for-buffer.mlir:2:3: error: tile.kernels[0] (kernel 'k'): expected argument 0 of the kernel function to be an i64 for params[0] ('A.dim0'), a dim parameter, but it is '!llvm.ptr<1>'
// RUN: not tile-translate %t/scalar-mismatch.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=SCALAR-MISMATCH
// SCALAR-MISMATCH: scalar-mismatch.mlir:2:3: error: tile.kernels[0] (kernel 'k'): expected argument 2 of the kernel function to be an i32 for params[2] ('s'), a scalar parameter, but it is 'f32'
// RUN: not tile-translate %t/shared-negative.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=SHARED-NEGATIVE
// SHARED-NEGATIVE: shared-negative.mlir:{{[0-9]+}}:{{[0-9]+}}: error: expected dynamic_shared_memory in [0, 232448], but got -1
// RUN: not tile-translate %t/grid-unknown-param.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=GRID-UNKNOWN-PARAM
// GRID-UNKNOWN-PARAM: grid-unknown-param.mlir:{{[0-9]+}}:{{[0-9]+}}: error: expected grid[0] to name a buffer parameter, but got 'Z'
// RUN: not tile-translate %t/unknown-field.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=UNKNOWN-FIELD
// UNKNOWN-FIELD: unknown-field.mlir:{{[0-9]+}}:{{[0-9]+}}: error: duplicate or unknown struct parameter name: dynamic_shared_mem
// RUN: not tile-translate %t/block-i32.mlir --emit=manifest -o %t/out.json 2>&1 | FileCheck %s --check-prefix=BLOCK-I32
// BLOCK-I32: block-i32.mlir:{{[0-9]+}}:{{[0-9]+}}: error: expected ']'
// RUN: not test -e %t/out.json

//--- valid.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [#tile.launch<name = "k", block = [32, 1, 1], grid = [#tile.grid_rule<ceildiv "A"[0] by 32>], dynamic_shared_memory = 0, params = [#tile.buffer_param<name = "A", dtype = f32, shape = [?], access = read>, #tile.dim_param<name = "A.dim0", buffer = "A", dim = 0>, #tile.scalar_param<name = "s", type = f32>], contract = [#tile.size_relation<"A"[0] le 4096>]>]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
//--- params-count.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [#tile.launch<name = "k", block = [32, 1, 1], grid = [#tile.grid_rule<ceildiv "A"[0] by 32>], dynamic_shared_memory = 0, params = [#tile.buffer_param<name = "A", dtype = f32, shape = [?], access = read>, #tile.dim_param<name = "A.dim0", buffer = "A", dim = 0>]>]} {
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
//--- not-launch.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [5]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
//--- dictionary.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [{block = [32, 1, 1], name = "k"}]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
//--- unknown-kernel.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [#tile.launch<name = "nope", block = [32, 1, 1], grid = [#tile.grid_rule<ceildiv "A"[0] by 32>], dynamic_shared_memory = 0, params = [#tile.buffer_param<name = "A", dtype = f32, shape = [?], access = read>, #tile.dim_param<name = "A.dim0", buffer = "A", dim = 0>, #tile.scalar_param<name = "s", type = f32>], contract = [#tile.size_relation<"A"[0] le 4096>]>]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
//--- not-a-kernel.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [#tile.launch<name = "helper", block = [32, 1, 1], grid = [#tile.grid_rule<1>], dynamic_shared_memory = 0, params = []>]} {
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
  gpu.module @tile_kernels attributes {tile.kernels = [#tile.launch<name = "k", block = [32, 1, 1], grid = [#tile.grid_rule<ceildiv "A"[0] by 32>], dynamic_shared_memory = 0, params = [#tile.buffer_param<name = "A", dtype = f32, shape = [?], access = read>, #tile.dim_param<name = "A.dim0", buffer = "A", dim = 0>, #tile.scalar_param<name = "s", type = f32>], contract = [#tile.size_relation<"A"[0] le 4096>]>, 5]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
//--- twice.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [#tile.launch<name = "k", block = [32, 1, 1], grid = [#tile.grid_rule<ceildiv "A"[0] by 32>], dynamic_shared_memory = 0, params = [#tile.buffer_param<name = "A", dtype = f32, shape = [?], access = read>, #tile.dim_param<name = "A.dim0", buffer = "A", dim = 0>, #tile.scalar_param<name = "s", type = f32>], contract = [#tile.size_relation<"A"[0] le 4096>]>, #tile.launch<name = "k", block = [32, 1, 1], grid = [#tile.grid_rule<ceildiv "A"[0] by 32>], dynamic_shared_memory = 0, params = [#tile.buffer_param<name = "A", dtype = f32, shape = [?], access = read>, #tile.dim_param<name = "A.dim0", buffer = "A", dim = 0>, #tile.scalar_param<name = "s", type = f32>], contract = [#tile.size_relation<"A"[0] le 4096>]>]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
//--- block-mismatch.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [#tile.launch<name = "k", block = [64, 1, 1], grid = [#tile.grid_rule<ceildiv "A"[0] by 32>], dynamic_shared_memory = 0, params = [#tile.buffer_param<name = "A", dtype = f32, shape = [?], access = read>, #tile.dim_param<name = "A.dim0", buffer = "A", dim = 0>, #tile.scalar_param<name = "s", type = f32>], contract = [#tile.size_relation<"A"[0] le 4096>]>]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
//--- buffer-for-dim.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [#tile.launch<name = "k", block = [32, 1, 1], grid = [#tile.grid_rule<ceildiv "A"[0] by 32>], dynamic_shared_memory = 0, params = [#tile.buffer_param<name = "A", dtype = f32, shape = [4], access = read>, #tile.buffer_param<name = "B", dtype = f32, shape = [4], access = read>, #tile.scalar_param<name = "s", type = f32>]>]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
//--- dim-for-buffer.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [#tile.launch<name = "k", block = [32, 1, 1], grid = [#tile.grid_rule<ceildiv "A"[0] by 32>], dynamic_shared_memory = 0, params = [#tile.dim_param<name = "A.dim0", buffer = "A", dim = 0>, #tile.buffer_param<name = "A", dtype = f32, shape = [?], access = read>, #tile.scalar_param<name = "s", type = f32>], contract = [#tile.size_relation<"A"[0] le 4096>]>]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
//--- scalar-mismatch.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [#tile.launch<name = "k", block = [32, 1, 1], grid = [#tile.grid_rule<ceildiv "A"[0] by 32>], dynamic_shared_memory = 0, params = [#tile.buffer_param<name = "A", dtype = f32, shape = [?], access = read>, #tile.dim_param<name = "A.dim0", buffer = "A", dim = 0>, #tile.scalar_param<name = "s", type = i32>], contract = [#tile.size_relation<"A"[0] le 4096>]>]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
//--- shared-negative.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [#tile.launch<name = "k", block = [32, 1, 1], grid = [#tile.grid_rule<ceildiv "A"[0] by 32>], dynamic_shared_memory = -1, params = [#tile.buffer_param<name = "A", dtype = f32, shape = [?], access = read>, #tile.dim_param<name = "A.dim0", buffer = "A", dim = 0>, #tile.scalar_param<name = "s", type = f32>], contract = [#tile.size_relation<"A"[0] le 4096>]>]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
//--- grid-unknown-param.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [#tile.launch<name = "k", block = [32, 1, 1], grid = [#tile.grid_rule<ceildiv "Z"[0] by 32>], dynamic_shared_memory = 0, params = [#tile.buffer_param<name = "A", dtype = f32, shape = [?], access = read>, #tile.dim_param<name = "A.dim0", buffer = "A", dim = 0>, #tile.scalar_param<name = "s", type = f32>], contract = [#tile.size_relation<"A"[0] le 4096>]>]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
//--- unknown-field.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [#tile.launch<name = "k", block = [32, 1, 1], grid = [#tile.grid_rule<ceildiv "A"[0] by 32>], dynamic_shared_mem = 0, params = [#tile.buffer_param<name = "A", dtype = f32, shape = [?], access = read>, #tile.dim_param<name = "A.dim0", buffer = "A", dim = 0>, #tile.scalar_param<name = "s", type = f32>], contract = [#tile.size_relation<"A"[0] le 4096>]>]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
//--- block-i32.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [#tile.launch<name = "k", block = [32 : i32, 1, 1], grid = [#tile.grid_rule<ceildiv "A"[0] by 32>], dynamic_shared_memory = 0, params = [#tile.buffer_param<name = "A", dtype = f32, shape = [?], access = read>, #tile.dim_param<name = "A.dim0", buffer = "A", dim = 0>, #tile.scalar_param<name = "s", type = f32>], contract = [#tile.size_relation<"A"[0] le 4096>]>]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index, %arg2: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
