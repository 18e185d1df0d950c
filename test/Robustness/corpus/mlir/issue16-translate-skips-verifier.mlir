// tile-opt and tile-translate disagree. tile-pipeline stages a #tile.swizzle tile into an
// alloc without the layout, so the tile.stage it creates fails its verifier:
//   tile-opt %s --tile-to-nvvm  -> error: 'tile.stage' op expected the result to be the
//                                  source without its leading (stage) dimension and with
//                                  its layout   (exit 1)
// tile-translate disables the verifier between passes (Target.cpp, pm.enableVerifier
// (false)) and verifies only the final NVVM module, so the same input gives PTX, exit 0.
// RUN: tile-translate %s --emit=ptx -o /dev/null
//
// Robustness suite (test/Robustness/robustness.py): the default commands
// and these (expect=error: the tool must refuse the input).
// ROBUST: tile-translate %s --emit=cubin -o %t/out.cubin
tile.kernel @k(%A: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf16, global>) grid(%bx) = [1] threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %S = tile.alloc_shared : !tile.buffer<64x64xf16, shared, #tile.swizzle>
  scf.for %kt = %c0 to %c4 step %c1 {
    tile.copy %A[%c0, %kt] to %S : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared, #tile.swizzle>
    tile.copy %S to %C[%kt, %c0] : !tile.buffer<64x64xf16, shared, #tile.swizzle> to !tile.buffer<?x?xf16, global>
  } {tile.num_stages = 3 : i64}
}
