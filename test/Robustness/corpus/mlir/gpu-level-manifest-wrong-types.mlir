// tile.kernels with a block, grid and params of the wrong types.
// A gpu-level input (tile-translate takes any stage): the manifest must come
// from a checked description of the kernel, never be copied unchecked.
// ROBUST: expect=error require="failed to parse Tile_LaunchAttr parameter 'block'" tile-translate %s --emit=manifest -o %t/out.json
// ROBUST: expect=error require="failed to parse Tile_LaunchAttr parameter 'block'" tile-translate %s --emit=cubin -o %t/out.cubin --manifest-out=%t/out.json
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [#tile.launch<name = "k", block = "x", grid = 3, dynamic_shared_memory = -1, params = 4>]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
