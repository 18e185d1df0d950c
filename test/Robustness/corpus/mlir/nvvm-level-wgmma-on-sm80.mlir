// An NVVM-level kernel using wgmma with an sm_80 target.
// Besides the default commands (any clean end):
// ROBUST: tile-translate %s --emit=cubin -o %t/out.cubin
// ROBUST: tile-translate %s --emit=fatbin -o %t/out.fatbin
// ROBUST: tile-translate %s --emit=report -o %t/out.txt
module attributes {gpu.container_module} {
  gpu.module @tile_kernels [#nvvm.target<chip = "sm_80">] attributes {tile.kernels = [#tile.launch<name = "k", block = [32, 1, 1], grid = [#tile.grid_rule<1>], dynamic_shared_memory = 0>]} {
    llvm.func @k() attributes {gpu.kernel, nvvm.kernel} {
      nvvm.wgmma.fence.aligned
      llvm.return
    }
  }
}
