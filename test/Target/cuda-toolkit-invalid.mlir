// tile-translate checks --cuda-toolkit before anything is built, for every
// --emit that serializes: libdevice (which the PTX links) for all of them,
// ptxas too for cubin, fatbin, sass and report. Upstream's serializer
// printed "error: CUDA path ... does not exist", went on and exited 0 with
// PTX whose math calls nothing defines. The manifest needs no toolkit.
//
// RUN: rm -rf %t && mkdir -p %t/empty %t/libdevice-only/nvvm/libdevice
// RUN: ln -s %cuda_toolkit/nvvm/libdevice/libdevice.10.bc %t/libdevice-only/nvvm/libdevice/libdevice.10.bc
// RUN: not tile-translate %s --emit=ptx --cuda-toolkit=/nonexistent -o %t/out.ptx 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not test -e %t/out.ptx
// RUN: not tile-translate %s --emit=cubin --cuda-toolkit=/nonexistent -o %t/out.cubin 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not tile-translate %s --emit=fatbin --cuda-toolkit=/nonexistent -o %t/out.fatbin 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not tile-translate %s --emit=sass --cuda-toolkit=/nonexistent -o %t/out.sass 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not tile-translate %s --emit=report --cuda-toolkit=/nonexistent -o %t/out.txt 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not tile-translate %s --emit=report-json --cuda-toolkit=/nonexistent -o %t/out.json 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: tile-translate: expected a CUDA toolkit at '/nonexistent', but it does not exist (--cuda-toolkit)
// MISSING-NOT: error
// RUN: not tile-translate %s --emit=ptx --cuda-toolkit= -o %t/out.ptx 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: tile-translate: expected the path of a CUDA toolkit, but got an empty one (--cuda-toolkit)
// RUN: not tile-translate %s --emit=ptx --cuda-toolkit=%s -o %t/out.ptx 2>&1 | FileCheck %s --check-prefix=FILE
// FILE: tile-translate: expected a CUDA toolkit at '{{.*}}cuda-toolkit-invalid.mlir', but it is not a directory (--cuda-toolkit)
// RUN: not tile-translate %s --emit=ptx --cuda-toolkit=%t/empty -o %t/out.ptx 2>&1 | FileCheck %s --check-prefix=NO-LIBDEVICE
// NO-LIBDEVICE: tile-translate: expected a CUDA toolkit at '{{.*}}/empty', but it has no libdevice ('{{.*}}/empty/nvvm/libdevice/libdevice.10.bc' is not a file), which the PTX links (--cuda-toolkit)
// With libdevice but no ptxas: PTX (exp2f from libdevice), no cubin.
// RUN: tile-translate %s --emit=ptx --cuda-toolkit=%t/libdevice-only -o - 2>&1 | FileCheck %s --check-prefix=PTX
// PTX-NOT: error
// PTX-NOT: .extern
// PTX: .entry exp_rows(
// RUN: not tile-translate %s --emit=cubin --cuda-toolkit=%t/libdevice-only -o %t/out.cubin 2>&1 | FileCheck %s --check-prefix=NO-PTXAS
// NO-PTXAS: tile-translate: expected a CUDA toolkit at '{{.*}}/libdevice-only', but it has no ptxas ('{{.*}}/libdevice-only/bin/ptxas' is not an executable), which makes the cubin (--cuda-toolkit)
// RUN: tile-translate %s --emit=manifest --cuda-toolkit=/nonexistent -o - | FileCheck %s --check-prefix=MANIFEST
// MANIFEST: "name": "exp_rows"

tile.kernel @exp_rows(%X: !tile.buffer<?xf32, global>) grid(%bx) = [ceildiv(%X[0], 128)] threads(128) {
  %c128 = arith.constant 128 : index
  %off = arith.muli %bx, %c128 : index
  %x = tile.alloc_fragment : !tile.buffer<128xf32, fragment>
  tile.copy %X[%off] to %x : !tile.buffer<?xf32, global> to !tile.buffer<128xf32, fragment>
  tile.parallel (%i) in [128] {
    %v = tile.load %x[%i] : !tile.buffer<128xf32, fragment>
    %e = math.exp2 %v : f32
    tile.store %e, %x[%i] : !tile.buffer<128xf32, fragment>
  }
  tile.copy %x to %X[%off] : !tile.buffer<128xf32, fragment> to !tile.buffer<?xf32, global>
}
