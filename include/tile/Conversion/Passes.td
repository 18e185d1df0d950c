//===- Passes.td - Tile conversion passes ------------------*- tablegen -*-===//
//
// Passes that lower the tile dialect to other dialects.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_PASSES_TD
#define TILE_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTileToGPU : Pass<"convert-tile-to-gpu", "ModuleOp"> {
  let summary = "lower tile kernels to gpu.func kernels over scf, vector, "
                "memref and arith";
  let description = [{
    Turns every `tile.kernel` into a `gpu.func` kernel inside one
    `gpu.module @tile_kernels`, and records what the runtime needs to launch
    it (parameters, grid, block, dynamic shared memory, launch contract) as
    a `#tile.launch` attribute in the module's `tile.kernels` array, which
    `tile-translate --emit=manifest` writes as JSON.

    - A global buffer parameter becomes a pointer (`memref<f32,
      #gpu.address_space<global>>`, bare-pointer convention) plus one
      `index` parameter per dynamic dimension; the kernel rebuilds the
      tensor with `memref.reinterpret_cast`.
    - `tile.alloc_shared` becomes a `memref.view` into
      `gpu.dynamic_shared_memory`; `tile.alloc_fragment` a private
      `memref.alloca` of the thread's elements (promoted to registers by
      LLVM, since every access has a constant index).
    - `tile.copy`, `tile.fill` and `tile.parallel` are unrolled per thread
      following the fragment layout (`#tile.row_major` or `#tile.mma`).
    - `tile.gemm` becomes `nvgpu.ldmatrix` + `nvgpu.mma.sync` (m16n8k16)
      per warp, on the accumulator's registers.
    - A `gpu.barrier` follows every tile op that writes a shared tile, and
      every op that reads one that is written again later (in program order
      or in an enclosing loop). Global accesses use one
      `vector.load`/`vector.store` with 16-byte alignment when the chunk is
      inside the tensor and aligned, and masked scalar accesses otherwise.

    Fragments must have layouts (`tile-assign-layouts`).

    Before:

    ```mlir
    tile.kernel @k(%A: !tile.buffer<?xf32, global>) grid(%bx) = [ceildiv(%A[0], 1024)] threads(256) {
      %a = tile.alloc_fragment : !tile.buffer<1024xf32, fragment, #tile.row_major<vec = 4>>
      ...
    }
    ```

    After:

    ```mlir
    gpu.module @tile_kernels attributes {tile.kernels = [#tile.launch<name = "k", block = [256, 1, 1],
        grid = [#tile.grid_rule<ceildiv "A"[0] by 1024>], dynamic_shared_memory = 0,
        params = [#tile.buffer_param<name = "A", dtype = f32, shape = [?], access = readwrite>,
                  #tile.dim_param<name = "A.dim0", buffer = "A", dim = 0>]>]} {
      gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index) kernel
          attributes {known_block_size = array<i32: 256, 1, 1>} {
        ...
      }
    }
    ```
  }];
  let options = [
    Option<"flushDenormals", "flush-denormals", "bool", /*default=*/"true",
           "libdevice f32 math (exp2, erf, tanh, ...) flushes denormals to "
           "zero (the nvvm-reflect-ftz module flag): ex2.approx.ftz instead "
           "of the four-instruction IEEE form">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect", "::mlir::nvgpu::NVGPUDialect",
    "::mlir::NVVM::NVVMDialect", "::mlir::LLVM::LLVMDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def TileApproximateMath : Pass<"tile-approximate-math"> {
  let summary = "lower math ops marked fastmath<afn> to the hardware's "
                "approximations";
  let description = [{
    Runs on a `gpu.module` before `convert-gpu-to-nvvm`, which would call
    libdevice for these ops whatever their fast-math flags say. A scalar
    f32 `math.tanh` with `fastmath<afn>` (or `fast`) becomes `llvm.intr.tanh`
    marked `afn`, which the NVPTX back end emits as one `tanh.approx.f32`
    (one MUFU operation; relative error at most 2^-10.987 by the PTX ISA)
    where libdevice's `tanhf` takes about 35 instructions. The frontend asks
    for it where the result is rounded to 16 bits anyway
    (`fe::approximateTanh`, the tanh GELU of f16 and bf16 outputs). Other
    types and ops without `afn` are left to `convert-gpu-to-nvvm`.

    Before:

    ```mlir
    %y = math.tanh %x fastmath<afn> : f32
    ```

    After:

    ```mlir
    %y = llvm.intr.tanh(%x) {fastmathFlags = #llvm.fastmath<afn>} : (f32) -> f32
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def TileMarkGridConstants : Pass<"tile-mark-grid-constants", "ModuleOp"> {
  let summary = "make tensor-map parameters 128-byte grid constants and "
                "align their kernels' shared memory to 1024 bytes";
  let description = [{
    Runs after `convert-gpu-to-nvvm`. Each `llvm.func` argument that the
    kernel's launch description (`#tile.launch` in the gpu.module's
    `tile.kernels`) lists as a `#tile.tensor_map_param` (a TMA copy's
    `CUtensorMap`) becomes `{llvm.byval = !llvm.array<128 x i8>,
    llvm.align = 64, nvvm.grid_constant}`: the PTX parameter `.param .align
    64 .b8 p[128]` that the runtime fills with the encoded map and that TMA
    reads in place (a `gpu.func` cannot carry these attributes). In a
    `gpu.module` with such a kernel, the dynamic shared memory becomes an
    external global aligned to 1024 bytes (`.extern .shared .align 1024`),
    the period of the 128-byte swizzle that `#tile.nvmma` tiles and wgmma
    descriptors rely on. Other modules are left unchanged.

    Before:

    ```mlir
    llvm.func @k(%arg0: !llvm.ptr<1>, %arg3: !llvm.ptr) ...
    ```

    After:

    ```mlir
    llvm.func @k(%arg0: !llvm.ptr<1>, %arg3: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}) ...
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

#endif // TILE_CONVERSION_PASSES_TD
