// Silently accepted: `prefetched` with no tile.gemm_prefetch before it. The lowering
// reads the first K step's operands from register arrays (memref.alloca of
// vector<4x2xf16> / vector<2x2xf16>) that nothing ever stored to: uninitialized
// registers feed the MMAs (tile-opt --tile-to-gpu: six memref.load of %alloca_3 / %alloca_4, no memref.store).
// A gemm_prefetch with {transpose_b} followed by a gemm without it is accepted too.
// RUN: tile-opt %s --tile-to-gpu
//
// Robustness suite (test/Robustness/robustness.py): the default commands
// and these (expect=error: the tool must refuse the input).
// ROBUST: expect=error tile-opt %s --tile-to-nvvm -o %t/out.mlir ;; tile-translate %s --emit=ptx -o %t/out.ptx --manifest-out=%t/out.json
tile.kernel @k(%A: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf32, global>) grid(%bx) = [1] threads(128) {
  %c0 = arith.constant 0 : index
  %As = tile.alloc_shared : !tile.buffer<64x32xf16, shared>
  %Bs = tile.alloc_shared : !tile.buffer<32x64xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  tile.clear %acc : !tile.buffer<64x64xf32, fragment>
  tile.copy %A[%c0, %c0] to %As : !tile.buffer<?x?xf16, global> to !tile.buffer<64x32xf16, shared>
  tile.copy %A[%c0, %c0] to %Bs : !tile.buffer<?x?xf16, global> to !tile.buffer<32x64xf16, shared>
  tile.gemm %As, %Bs, %acc prefetched : !tile.buffer<64x32xf16, shared>, !tile.buffer<32x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
  tile.copy %acc to %C[%c0, %c0] : !tile.buffer<64x64xf32, fragment> to !tile.buffer<?x?xf32, global>
}
