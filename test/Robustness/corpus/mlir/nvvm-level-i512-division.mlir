// An i512 division in NVVM-level IR (LLVM legalizes it or refuses it).
// Besides the default commands (any clean end):
// ROBUST: tile-translate %s --emit=cubin -o %t/out.cubin
// ROBUST: tile-translate %s --emit=fatbin -o %t/out.fatbin
// ROBUST: tile-translate %s --emit=report -o %t/out.txt
module attributes {gpu.container_module} {
  gpu.module @tile_kernels [#nvvm.target<chip = "sm_90">] attributes {tile.kernels = [#tile.launch<name = "k", block = [32, 1, 1], grid = [#tile.grid_rule<1>], dynamic_shared_memory = 0, params = [#tile.buffer_param<name = "p", dtype = i8, shape = [64], access = readwrite>]>]} {
    llvm.func @k(%p: !llvm.ptr<1>) attributes {gpu.kernel, nvvm.kernel} {
      %0 = llvm.load %p : !llvm.ptr<1> -> i512
      %1 = llvm.udiv %0, %0 : i512
      llvm.store %1, %p : i512, !llvm.ptr<1>
      llvm.return
    }
  }
}
