// On sm_90a, ptxas' performance-loss lines (C75xx: serialized wgmma, an
// injected wgmma fence, an ignored setmaxnreg) fail the compilation, because
// the kernel silently lost what it was written for; --allow-performance-loss
// accepts them and the report lists them as warnings. The warp-specialized
// GEMMs below compile without any; a tile.print (an extern vprintf call)
// serializes the first one's wgmma (C7510). Its two compute warpgroups take
// the registers the producer gives up (setmaxnreg 40 / 232); the 64x64
// tile of @gemm_ws_one_group, one compute warpgroup, keeps the registers
// of its entry: ptxas would ignore a setmaxnreg there (C7508), since the
// kernel needs far fewer.
//
// RUN: tile-translate --emit=report --chip=sm_90a %s | FileCheck %s --check-prefix=CLEAN
// RUN: sed 's|// PRINT: ||' %s > %t.mlir
// RUN: not tile-translate --emit=report --chip=sm_90a %t.mlir 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: tile-translate --emit=report --chip=sm_90a --allow-performance-loss %t.mlir 2>&1 | FileCheck %s --check-prefix=ALLOWED
// RUN: not tile-translate --emit=ptx --chip=sm_90 %s 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: tile-translate --emit=ptx --chip=sm_90a %s | FileCheck %s --check-prefix=PTX
// REQUIRES: ptxas

// CHIP: error: 'tile.kernel' op is warp_specialized (TMA, wgmma, setmaxnreg), which needs the chip sm_90a, but the target is sm_90

// CLEAN: gemm_ws 168 0
// CLEAN: gemm_ws_one_group {{[0-9]+}} 0
// CLEAN-NOT: warning
// CLEAN-NOT: C75

// REFUSED: error: ptxas reports 1 performance loss(es) on sm_90a (allowed with --allow-performance-loss)
// REFUSED: note: (C7510) Potential Performance Loss: wgmma.mma_async instructions are serialized due to wgmma pipeline crossing function boundary at a function call in the function 'gemm_ws'

// PTX-LABEL: .entry gemm_ws(
// PTX: setmaxnreg.dec.sync.aligned.u32 40;
// PTX: setmaxnreg.inc.sync.aligned.u32 232;
// PTX-LABEL: .entry gemm_ws_one_group(
// PTX-NOT: setmaxnreg

// ALLOWED: warning: gemm_ws: ptxas: (C7510) Potential Performance Loss: wgmma.mma_async instructions are serialized

tile.kernel @gemm_ws(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf32, global>)
    grid(%bx, %by) = [ceildiv(%B[1], 256), ceildiv(%A[0], 128)] threads(384) warp_specialized
    divisible(%A[1] by 8, %B[1] by 8, %C[1] by 8)
    requires(%A[1] == %B[0], %C[0] == %A[0], %C[1] == %B[1]) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %row = arith.muli %by, %c128 : index
  %col = arith.muli %bx, %c256 : index
  %a = tile.alloc_shared : !tile.buffer<128x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x256xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<128x256xf32, fragment>
  tile.clear %acc : !tile.buffer<128x256xf32, fragment>
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %steps = arith.ceildivui %k, %c64 : index
  scf.for %i = %c0 to %steps step %c1 {
    %k0 = arith.muli %i, %c64 : index
    tile.copy %A[%row, %k0] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<128x64xf16, shared>
    tile.copy %B[%k0, %col] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x256xf16, shared>
    tile.gemm %a, %b, %acc : !tile.buffer<128x64xf16, shared>, !tile.buffer<64x256xf16, shared>, !tile.buffer<128x256xf32, fragment>
  } {tile.num_stages = 4 : i64}
  // PRINT: tile.print "bx" %bx thread(128) : index
  tile.copy %acc to %C[%row, %col] : !tile.buffer<128x256xf32, fragment> to !tile.buffer<?x?xf32, global>
}

tile.kernel @gemm_ws_one_group(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf32, global>)
    grid(%bx, %by) = [ceildiv(%B[1], 64), ceildiv(%A[0], 64)] threads(256) warp_specialized
    divisible(%A[1] by 8, %B[1] by 8, %C[1] by 8)
    requires(%A[1] == %B[0], %C[0] == %A[0], %C[1] == %B[1]) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %row = arith.muli %by, %c64 : index
  %col = arith.muli %bx, %c64 : index
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  tile.clear %acc : !tile.buffer<64x64xf32, fragment>
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %steps = arith.ceildivui %k, %c64 : index
  scf.for %i = %c0 to %steps step %c1 {
    %k0 = arith.muli %i, %c64 : index
    tile.copy %A[%row, %k0] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.copy %B[%k0, %col] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.gemm %a, %b, %acc : !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
  } {tile.num_stages = 8 : i64}
  tile.copy %acc to %C[%row, %col] : !tile.buffer<64x64xf32, fragment> to !tile.buffer<?x?xf32, global>
}
