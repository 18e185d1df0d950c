// Silently accepted, silently wrong: 2^32 x 2^32 = 2^64 elements wrap to 0 in int64, so
// "a multiple of the threads" holds and the lowering emits nothing for these ops: the
// kernel body is empty (tile-opt --tile-to-gpu shows only gpu.return), and a shared tile
// of 2^64 elements gets "dynamic_shared_memory": 0 in the manifest. tile.parallel
// extents [4294967296, 4294967296] over a shared tile likewise lower to no loop at all.
// RUN: tile-opt %s --tile-to-gpu ; tile-translate %s --emit=manifest -o -
//
// Robustness suite (test/Robustness/robustness.py): the default commands
// and these (expect=error: the tool must refuse the input).
// ROBUST: expect=error tile-opt %s --tile-to-nvvm -o %t/out.mlir ;; tile-translate %s --emit=ptx -o %t/out.ptx --manifest-out=%t/out.json
tile.kernel @k(%A: !tile.buffer<?x?xf32, global>) grid(%bx) = [1] threads(128) {
  %f = tile.alloc_fragment : !tile.buffer<4294967296x4294967296xf32, fragment>
  %s = tile.alloc_shared : !tile.buffer<4294967296x4294967296xf32, shared>
  %c = arith.constant 0 : index
  %z = arith.constant 0.0 : f32
  tile.copy %A[%c, %c] to %f : !tile.buffer<?x?xf32, global> to !tile.buffer<4294967296x4294967296xf32, fragment>
  tile.fill %s, %z : !tile.buffer<4294967296x4294967296xf32, shared>
  tile.copy %f to %A[%c, %c] : !tile.buffer<4294967296x4294967296xf32, fragment> to !tile.buffer<?x?xf32, global>
}
