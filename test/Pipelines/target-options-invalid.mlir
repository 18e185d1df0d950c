// The target of --tile-to-nvvm / --tile-gpu-to-nvvm is checked before any
// pass is built: an unsupported or malformed chip, or features that are
// not a PTX version the chip has, fail tile-opt with the reason (no crash,
// no unlowered output with exit 0). The same check serves tile-translate
// (test/Target/target-invalid.mlir) and the frontend's compile().
//
// RUN: not tile-opt %s --tile-to-nvvm="chip=" 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: error: tile-to-nvvm: expected a target chip of sm_80 or newer (sm_80, sm_86, sm_87, sm_88, sm_89, sm_90[a], sm_100[a|f], {{.*}}), but got ''
// RUN: not tile-opt %s --tile-to-nvvm="chip=garbage" 2>&1 | FileCheck %s --check-prefix=GARBAGE
// GARBAGE: error: tile-to-nvvm: expected a target chip of sm_80 or newer ({{.*}}), but got 'garbage'
// RUN: not tile-opt %s --tile-to-nvvm="chip=sm_75" 2>&1 | FileCheck %s --check-prefix=OLD
// OLD: error: tile-to-nvvm: expected a target chip of sm_80 or newer ({{.*}}), but got 'sm_75', which lacks mma.sync m16n8k16 and cp.async (the lowering uses both)
// RUN: not tile-opt %s --tile-to-nvvm="chip=sm_100" 2>&1 | FileCheck %s --check-prefix=PTX
// PTX: error: tile-to-nvvm: expected PTX 8.6 or newer for sm_100 (features +ptx86), but got +ptx80 (PTX 8.0)
// Text that would break the pipeline's own syntax is not a feature:
// RUN: not tile-opt %s '--tile-to-nvvm=features=+ptx80}},foo{' 2>&1 | FileCheck %s --check-prefix=INJECT
// INJECT: error: tile-to-nvvm: expected target features '+ptxNN' (a PTX ISA version that LLVM knows, e.g. +ptx80) or none, but got '+ptx80}},foo{'
// RUN: not tile-opt %s --tile-to-nvvm="features=+ptx99" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: but got '+ptx99'
// RUN: tile-opt %s --tile-to-gpu | not tile-opt --tile-gpu-to-nvvm="chip=sm_70" 2>&1 | FileCheck %s --check-prefix=STAGE2
// STAGE2: error: tile-gpu-to-nvvm: expected a target chip of sm_80 or newer ({{.*}}), but got 'sm_70'
// Supported: sm_80 and newer, sm_90a, a newer chip with its PTX version.
// RUN: tile-opt %s --tile-to-nvvm="chip=sm_90a" | FileCheck %s --check-prefix=SM90A
// SM90A: #nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">
// RUN: tile-opt %s --tile-to-nvvm="chip=sm_120 features=+ptx87" | FileCheck %s --check-prefix=SM120
// SM120: #nvvm.target<O = 3, chip = "sm_120", features = "+ptx87">
// A write error is an error, not an abort:
// RUN: not tile-opt %s -o /dev/full 2>&1 | FileCheck %s --check-prefix=FULL
// FULL: tile-opt: cannot write '/dev/full': No space left on device

tile.kernel @k(%A: !tile.buffer<?xf32, global>) grid(%bx) = [ceildiv(%A[0], 128)] threads(128) {
  %c128 = arith.constant 128 : index
  %offset = arith.muli %bx, %c128 : index
  %a = tile.alloc_fragment : !tile.buffer<128xf32, fragment>
  tile.copy %A[%offset] to %a : !tile.buffer<?xf32, global> to !tile.buffer<128xf32, fragment>
  tile.copy %a to %A[%offset] : !tile.buffer<128xf32, fragment> to !tile.buffer<?xf32, global>
}
