// tile.kernels in the dictionary form that came before #tile.launch: refused, not read by key.
// A gpu-level input (tile-translate takes any stage): the manifest must come
// from a checked description of the kernel, never be copied unchecked.
// ROBUST: expect=error require='expected a #tile.launch description, but got' tile-translate %s --emit=manifest -o %t/out.json
// ROBUST: expect=error require='expected a #tile.launch description, but got' tile-translate %s --emit=cubin -o %t/out.cubin --manifest-out=%t/out.json
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [{block = [32, 1, 1], dynamic_shared_memory = 0 : i64, grid = [{dim = 0 : i64, divisor = 32 : i64, kind = "ceildiv", param = "A"}], name = "k", params = [{dtype = "f32", kind = "buffer", name = "A", shape = [-1]}, {buffer = "A", dim = 0 : i64, kind = "dim", name = "A.dim0", type = "i64"}]}]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
