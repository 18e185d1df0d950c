// tile-translate rejects what it cannot compile with an error and exit 1,
// never an abort: an unsupported or malformed --chip/--features (checked up
// front, by the pipelines' own check), the #nvvm.target of an NVVM-level
// input, symbol names PTX cannot spell in a gpu-level input, and an output
// it cannot write.
//
// RUN: split-file %s %t
// RUN: not tile-translate %t/kernel.mlir --chip= -o /dev/null 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: tile-translate: expected a target chip of sm_80 or newer ({{.*}}), but got ''
// RUN: not tile-translate %t/kernel.mlir --chip=garbage -o /dev/null 2>&1 | FileCheck %s --check-prefix=GARBAGE
// GARBAGE: tile-translate: expected a target chip of sm_80 or newer ({{.*}}), but got 'garbage'
// RUN: not tile-translate %t/kernel.mlir --chip=sm_75 -o /dev/null 2>&1 | FileCheck %s --check-prefix=OLD
// OLD: tile-translate: expected a target chip of sm_80 or newer ({{.*}}), but got 'sm_75', which lacks mma.sync m16n8k16 and cp.async
// RUN: not tile-translate %t/kernel.mlir --chip=sm_90 --features=+ptx60 -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOWPTX
// LOWPTX: tile-translate: expected PTX 7.8 or newer for sm_90 (features +ptx78), but got +ptx60 (PTX 6.0)
// RUN: not tile-translate %t/kernel.mlir --features=garbage -o /dev/null 2>&1 | FileCheck %s --check-prefix=FEATURES
// FEATURES: tile-translate: expected target features '+ptxNN' (a PTX ISA version that LLVM knows, e.g. +ptx80) or none, but got 'garbage'
// The same for each --emit (the check comes before the input is read):
// RUN: not tile-translate %t/kernel.mlir --chip=sm_75 --emit=manifest -o /dev/null 2>&1 | FileCheck %s --check-prefix=OLD
// RUN: not tile-translate %t/kernel.mlir --chip=sm_75 --emit=report -o /dev/null 2>&1 | FileCheck %s --check-prefix=OLD
// RUN: not tile-translate %t/kernel.mlir --emit=ptx -o /dev/full 2>&1 | FileCheck %s --check-prefix=FULL
// RUN: not tile-translate %t/kernel.mlir --emit=manifest -o /dev/full 2>&1 | FileCheck %s --check-prefix=FULL
// FULL: tile-translate: cannot write '/dev/full': No space left on device
// RUN: not tile-translate %t/target-garbage.mlir --emit=ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=NVVM-TARGET
// NVVM-TARGET: target-garbage.mlir:2:3: error: expected a target chip of sm_80 or newer ({{.*}}), but got 'garbage'
// RUN: not tile-translate %t/target-sm75.mlir --emit=ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=NVVM-OLD
// NVVM-OLD: target-sm75.mlir:2:3: error: expected a target chip of sm_80 or newer ({{.*}}), but got 'sm_75'
// RUN: not tile-translate %t/name-space.mlir --emit=ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=NAME
// NAME: name-space.mlir:3:5: error: expected a PTX identifier as the symbol name (a letter, '_' or '$', then letters, digits, '_' or '$'), but 'my kernel' has ' ' at position 2
// RUN: not tile-translate %t/name-empty.mlir --emit=ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=EMPTY-NAME
// EMPTY-NAME: name-empty.mlir:3:5: error: expected a PTX identifier as the symbol name ({{.*}}), but it is empty
// RUN: not tile-translate %t/name-digit.mlir --emit=ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=DIGIT-NAME
// DIGIT-NAME: but '1k' starts with a digit
// Valid names and targets still compile:
// RUN: tile-translate %t/name-ok.mlir --emit=ptx -o - | FileCheck %s --check-prefix=NAME-OK
// NAME-OK: .entry $k_1(

//--- kernel.mlir
tile.kernel @k(%A: !tile.buffer<?xf32, global>) grid(%bx) = [ceildiv(%A[0], 128)] threads(128) {
  %c128 = arith.constant 128 : index
  %offset = arith.muli %bx, %c128 : index
  %a = tile.alloc_fragment : !tile.buffer<128xf32, fragment>
  tile.copy %A[%offset] to %a : !tile.buffer<?xf32, global> to !tile.buffer<128xf32, fragment>
  tile.copy %a to %A[%offset] : !tile.buffer<128xf32, fragment> to !tile.buffer<?xf32, global>
}

//--- target-garbage.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels [#nvvm.target<chip = "garbage">] attributes {tile.kernels = []} {
  }
}

//--- target-sm75.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels [#nvvm.target<chip = "sm_75">] attributes {tile.kernels = []} {
  }
}

//--- name-space.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = []} {
    gpu.func @"my kernel"() kernel {
      gpu.return
    }
  }
}

//--- name-empty.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = []} {
    gpu.func @""() kernel {
      gpu.return
    }
  }
}

//--- name-digit.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = []} {
    gpu.func @"1k"() kernel {
      gpu.return
    }
  }
}

//--- name-ok.mlir
module attributes {gpu.container_module} {
  gpu.module @tile_kernels attributes {tile.kernels = []} {
    gpu.func @"$k_1"() kernel {
      gpu.return
    }
  }
}
