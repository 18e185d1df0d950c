// --no-spills (the kernel library's rule for its sm_90a kernels, which
// tile-kernels --out-dir applies) fails a compilation in which ptxas
// spills registers. The kernel below is the persistent warp-specialized
// GEMM with the fused bias + GELU epilogue and the TMA store in 64-column
// bands, as `tile-kernels --kernel=gemm --chip=sm_90a --warp-specialized
// --persistent --tma-store --tma-store-columns=64 --epilogue=bias_gelu
// --block-m=128 --block-n=256 --block-k=64 --num-threads=384 --stages=4
// --raster-panel=8 --divisibility=8 --out-dtype=f16 --emit=mlir` writes it:
// its staging addresses, hoisted out of the tile loop, stay live beside
// the 128 accumulator registers and GELU's temporaries, and ptxas spills.
// Without the flag the report warns.
//
// RUN: not tile-translate --emit=cubin --no-spills --chip=sm_90a %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: tile-translate --emit=report --chip=sm_90a %s 2>&1 | FileCheck %s --check-prefix=WARNED
// REQUIRES: ptxas

// REFUSED: error: expected no register spills (refused with --no-spills), but ptxas spills {{[1-9][0-9]*}} bytes in 'gemm_f16_f16_128x256x64_t384_s4_r8_bias_gelu_div8_ws_tma64_persistent' at 168 registers
// WARNED: warning: gemm_f16_f16_128x256x64_t384_s4_r8_bias_gelu_div8_ws_tma64_persistent: register spills: {{[1-9][0-9]*}} bytes stored

module {
  tile.kernel @gemm_f16_f16_128x256x64_t384_s4_r8_bias_gelu_div8_ws_tma64_persistent(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf16, global>, %Bias: !tile.buffer<?xf16, global>) grid(%bx, %by) = [ceildiv(%B[1], 256), ceildiv(%A[0], 128)] threads(384) warp_specialized persistent divisible(%A[1] by 8, %B[1] by 8, %C[1] by 8, %Bias[0] by 8) requires(%A[1] == %B[0], %C[0] == %A[0], %C[1] == %B[1], %Bias[0] == %C[1]) attributes {raster_panel = 8 : i64} {
    %c128 = arith.constant 128 : index
    %0 = arith.muli %by, %c128 : index
    %c256 = arith.constant 256 : index
    %1 = arith.muli %bx, %c256 : index
    %2 = tile.alloc_shared : !tile.buffer<128x64xf16, shared>
    %3 = tile.alloc_shared : !tile.buffer<64x256xf16, shared>
    %4 = tile.alloc_fragment : !tile.buffer<128x256xf32, fragment>
    %5 = tile.alloc_shared : !tile.buffer<128x64xf16, shared>
    %6 = tile.alloc_shared : !tile.buffer<128x64xf16, shared>
    %7 = tile.alloc_shared : !tile.buffer<256xf16, shared>
    tile.clear %4 : !tile.buffer<128x256xf32, fragment>
    %8 = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
    %c64 = arith.constant 64 : index
    %9 = arith.ceildivui %8, %c64 : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %arg0 = %c0 to %9 step %c1 {
      %c64_11 = arith.constant 64 : index
      %14 = arith.muli %arg0, %c64_11 : index
      tile.copy %A[%0, %14] to %2 : !tile.buffer<?x?xf16, global> to !tile.buffer<128x64xf16, shared>
      tile.copy %B[%14, %1] to %3 : !tile.buffer<?x?xf16, global> to !tile.buffer<64x256xf16, shared>
      tile.gemm %2, %3, %4 : !tile.buffer<128x64xf16, shared>, !tile.buffer<64x256xf16, shared>, !tile.buffer<128x256xf32, fragment>
    } {tile.num_stages = 4 : i64}
    tile.copy %Bias[%1] to %7 : !tile.buffer<?xf16, global> to !tile.buffer<256xf16, shared>
    tile.parallel (%arg0, %arg1) in [128, 256] {
      %14 = tile.load %4[%arg0, %arg1] : !tile.buffer<128x256xf32, fragment>
      %15 = tile.load %7[%arg1] : !tile.buffer<256xf16, shared>
      %16 = arith.extf %15 : f16 to f32
      %17 = arith.addf %14, %16 : f32
      %cst = arith.constant 0.707106769 : f32
      %18 = arith.mulf %17, %cst : f32
      %19 = math.erf %18 : f32
      %cst_11 = arith.constant 1.000000e+00 : f32
      %20 = arith.addf %cst_11, %19 : f32
      %cst_12 = arith.constant 5.000000e-01 : f32
      %21 = arith.mulf %17, %cst_12 : f32
      %22 = arith.mulf %21, %20 : f32
      tile.store %22, %4[%arg0, %arg1] : !tile.buffer<128x256xf32, fragment>
    }
    %c0_0 = arith.constant 0 : index
    %c0_1 = arith.constant 0 : index
    tile.copy %4[%c0_0, %c0_1] to %5 : !tile.buffer<128x256xf32, fragment> to !tile.buffer<128x64xf16, shared>
    %c0_2 = arith.constant 0 : index
    %10 = arith.addi %1, %c0_2 : index
    tile.copy %5 to %C[%0, %10] : !tile.buffer<128x64xf16, shared> to !tile.buffer<?x?xf16, global>
    %c0_3 = arith.constant 0 : index
    %c64_4 = arith.constant 64 : index
    tile.copy %4[%c0_3, %c64_4] to %6 : !tile.buffer<128x256xf32, fragment> to !tile.buffer<128x64xf16, shared>
    %c64_5 = arith.constant 64 : index
    %11 = arith.addi %1, %c64_5 : index
    tile.copy %6 to %C[%0, %11] : !tile.buffer<128x64xf16, shared> to !tile.buffer<?x?xf16, global>
    %c0_6 = arith.constant 0 : index
    %c128_7 = arith.constant 128 : index
    tile.copy %4[%c0_6, %c128_7] to %5 : !tile.buffer<128x256xf32, fragment> to !tile.buffer<128x64xf16, shared>
    %c128_8 = arith.constant 128 : index
    %12 = arith.addi %1, %c128_8 : index
    tile.copy %5 to %C[%0, %12] : !tile.buffer<128x64xf16, shared> to !tile.buffer<?x?xf16, global>
    %c0_9 = arith.constant 0 : index
    %c192 = arith.constant 192 : index
    tile.copy %4[%c0_9, %c192] to %6 : !tile.buffer<128x256xf32, fragment> to !tile.buffer<128x64xf16, shared>
    %c192_10 = arith.constant 192 : index
    %13 = arith.addi %1, %c192_10 : index
    tile.copy %6 to %C[%0, %13] : !tile.buffer<128x64xf16, shared> to !tile.buffer<?x?xf16, global>
  }
}
