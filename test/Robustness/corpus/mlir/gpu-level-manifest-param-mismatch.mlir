// tile.kernels whose parameters disagree with the kernel's signature (three f64 buffers, the function takes a pointer and an index): a runtime that trusts it packs the wrong arguments.
// A gpu-level input (tile-translate takes any stage): the manifest must come
// from a checked description of the kernel, never be copied unchecked.
// ROBUST: expect=error require='expected 2 parameters, one per argument of the kernel function, but got 3' tile-translate %s --emit=manifest -o %t/out.json
// ROBUST: expect=error require='expected 2 parameters, one per argument of the kernel function, but got 3' tile-translate %s --emit=cubin -o %t/out.cubin --manifest-out=%t/out.json
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [#tile.launch<name = "k", block = [32, 1, 1], grid = [#tile.grid_rule<ceildiv "A"[0] by 32>], dynamic_shared_memory = 0, params = [#tile.buffer_param<name = "A", dtype = f64, shape = [16], access = read>, #tile.buffer_param<name = "B", dtype = f64, shape = [16], access = read>, #tile.buffer_param<name = "C", dtype = f64, shape = [16], access = write>]>]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
