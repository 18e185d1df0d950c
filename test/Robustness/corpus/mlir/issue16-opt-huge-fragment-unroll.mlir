// Unbounded compile time / memory: nothing limits a tile's size, and the lowering
// unrolls per element. 1M f32 over 32 threads: > 20 s, and with a 2 GiB address-space
// limit "LLVM ERROR: out of memory" within 40 s. Same class: a 65536x65536 shared tile,
// a 1024x1024 GEMM accumulator, K = 4096 GEMM tiles, tile.parallel extents
// [2, 2, 4294967296, 8] (fuzz_ir.py seed 41 case829).
// RUN: tile-opt %s --tile-to-nvvm
//
// Robustness suite (test/Robustness/robustness.py): the default commands
// and these (expect=error: the tool must refuse the input).
// ROBUST: expect=error tile-opt %s --tile-to-nvvm -o %t/out.mlir ;; tile-translate %s --emit=ptx -o %t/out.ptx --manifest-out=%t/out.json
tile.kernel @k(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  %f = tile.alloc_fragment : !tile.buffer<1048576xf32, fragment>
  %c = arith.constant 0 : index
  tile.copy %A[%c] to %f : !tile.buffer<?xf32, global> to !tile.buffer<1048576xf32, fragment>
  tile.copy %f to %A[%c] : !tile.buffer<1048576xf32, fragment> to !tile.buffer<?xf32, global>
}
