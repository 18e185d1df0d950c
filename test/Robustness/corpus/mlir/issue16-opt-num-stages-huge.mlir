// Hang (> 20 s; killed): tile-pipeline builds a prologue of num_stages - 1 copy groups
// and an S-stage shared tile without an upper bound on S. Found by fuzz_ir.py
// (seed 21, case45: the one_stage kernel of test/Dialect/Tile/pipeline.mlir with
// 2147483647 stages). 1000 stages on the attention or GEMM examples also time out;
// 100 stages "succeed" with 800 KiB of shared memory in the manifest.
// RUN: tile-opt %s --tile-to-nvvm          (also -tile-pipeline alone, tile-translate --emit=ptx)
//
// Robustness suite (test/Robustness/robustness.py): the default commands
// and these (expect=error: the tool must refuse the input).
// ROBUST: expect=error tile-opt %s --tile-pipeline
// ROBUST: expect=error tile-opt %s --tile-to-nvvm -o %t/out.mlir ;; tile-translate %s --emit=ptx -o %t/out.ptx --manifest-out=%t/out.json
tile.kernel @one_stage(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %s = tile.alloc_shared : !tile.buffer<32xf32, shared>
  scf.for %i = %c0 to %c4 step %c1 {
    tile.copy %A[%i] to %s : !tile.buffer<?xf32, global> to !tile.buffer<32xf32, shared>
  } {tile.num_stages = 2147483647 : i64}
}
