// SIGFPE in mlir::tile::BufferType::verify while parsing the type.
// #tile.mma<warps = [2^28, 16]>: MmaLayoutAttr::verify computes warpsM * warpsN in
// unsigned (2^32 wraps to 0, so "1 to 32 warps" passes); BufferType::verify then
// computes shape[0] % (16 * warpsM) with 16 * 2^28 = 2^32 -> 0: division by zero.
// RUN: tile-opt %s        (same for --tile-to-nvvm, tile-translate --emit=ptx)
//
// Robustness suite (test/Robustness/robustness.py): the default commands
// and these (expect=error: the tool must refuse the input).
// ROBUST: expect=error tile-opt %s
// ROBUST: expect=error tile-opt %s --tile-to-nvvm -o %t/out.mlir ;; tile-translate %s --emit=ptx -o %t/out.ptx --manifest-out=%t/out.json
tile.kernel @k(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(128) {
  %acc = tile.alloc_fragment : !tile.buffer<32x32xf32, fragment, #tile.mma<warps = [268435456, 16]>>
}
