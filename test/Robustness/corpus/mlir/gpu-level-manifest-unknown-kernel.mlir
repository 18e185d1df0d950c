// tile.kernels naming a kernel that the module does not have.
// A gpu-level input (tile-translate takes any stage): the manifest must come
// from a checked description of the kernel, never be copied unchecked.
// ROBUST: expect=error require="expected a kernel function 'nope' in the gpu.module, but there is none" tile-translate %s --emit=manifest -o %t/out.json
// ROBUST: expect=error require="expected a kernel function 'nope' in the gpu.module, but there is none" tile-translate %s --emit=cubin -o %t/out.cubin --manifest-out=%t/out.json
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [#tile.launch<name = "nope", block = [32, 1, 1], grid = [#tile.grid_rule<ceildiv "A"[0] by 32>], dynamic_shared_memory = 0, params = [#tile.buffer_param<name = "A", dtype = f32, shape = [?], access = read>, #tile.dim_param<name = "A.dim0", buffer = "A", dim = 0>]>]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
