// tile.kernels = [5]: an entry that is not a #tile.launch.
// A gpu-level input (tile-translate takes any stage): the manifest must come
// from a checked description of the kernel, never be copied unchecked.
// ROBUST: expect=error require='tile.kernels\[0\]: expected a #tile.launch description, but got 5' tile-translate %s --emit=manifest -o %t/out.json
// ROBUST: expect=error require='tile.kernels\[0\]: expected a #tile.launch description, but got 5' tile-translate %s --emit=cubin -o %t/out.cubin --manifest-out=%t/out.json
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [5]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
