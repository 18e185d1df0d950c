// Sizes past every limit in a description: a block of 2^31 threads, 2^40 bytes of shared memory, a divisor of 2^63 - 1, a shape of 2^63 - 1.
// A gpu-level input (tile-translate takes any stage): the manifest must come
// from a checked description of the kernel, never be copied unchecked.
// ROBUST: expect=error require='expected block\[0\] in \[1, 1024\], but got 2147483648' tile-translate %s --emit=manifest -o %t/out.json
// ROBUST: expect=error require='expected block\[0\] in \[1, 1024\], but got 2147483648' tile-translate %s --emit=cubin -o %t/out.cubin --manifest-out=%t/out.json
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [#tile.launch<name = "k", block = [2147483648, 1, 1], grid = [#tile.grid_rule<ceildiv "A"[0] by 9223372036854775807>], dynamic_shared_memory = 1099511627776, params = [#tile.buffer_param<name = "A", dtype = f32, shape = [9223372036854775807], access = read>, #tile.scalar_param<name = "n", type = i64>]>]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
