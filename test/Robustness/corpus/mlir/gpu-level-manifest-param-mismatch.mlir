// tile.kernels whose parameters disagree with the kernel's signature (one f64 buffer, the function takes a pointer and an index): a runtime that trusts it packs the wrong arguments.
// A gpu-level input (tile-translate takes any stage): the manifest must come
// from a checked description of the kernel, never be copied unchecked.
// ROBUST: expect=error tile-translate %s --emit=manifest -o %t/out.json
// ROBUST: expect=error tile-translate %s --emit=cubin -o %t/out.cubin --manifest-out=%t/out.json
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = [{block = [32, 1, 1], dynamic_shared_memory = 0 : i64, grid = [{dim = 0 : i64, divisor = 32 : i64, kind = "ceildiv", param = "A"}], name = "k", params = [{dtype = "f64", kind = "buffer", name = "A", shape = [16]}, {dtype = "f64", kind = "buffer", name = "B", shape = [16]}, {dtype = "f64", kind = "buffer", name = "C", shape = [16]}]}]} {
    gpu.func @k(%arg0: memref<f32, #gpu.address_space<global>>, %arg1: index) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
  }
}
