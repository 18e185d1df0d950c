// The C++ frontend's vector-add generator produces the kernel of
// test/Examples/vector-add.mlir (named after its configuration), and
// tile-kernels compiles it. The IR it prints parses and round-trips.

// RUN: tile-kernels --list | FileCheck %s --check-prefix=LIST
// LIST: vector_add

// RUN: tile-kernels --kernel=vector_add --block-n=2048 --num-threads=128 --emit=mlir | tile-opt | FileCheck %s --check-prefix=IR
// IR-LABEL: tile.kernel @vector_add_f32_2048x128(%A: !tile.buffer<?xf32, global>, %B: !tile.buffer<?xf32, global>, %C: !tile.buffer<?xf32, global>) grid(%bx) = [ceildiv(%A[0], 2048)] threads(128)
// IR: tile.alloc_fragment : !tile.buffer<2048xf32, fragment>
// IR: tile.copy %A[{{.*}}] to {{.*}} : !tile.buffer<?xf32, global> to !tile.buffer<2048xf32, fragment>
// IR: tile.parallel ({{.*}}) in [2048]
// IR: arith.addf
// IR: tile.copy {{.*}} to %C[{{.*}}]

// RUN: tile-kernels --kernel=vector_add --dtype=f16 --block-n=2048 --emit=ptx | FileCheck %s --check-prefix=PTX
// PTX: .visible .entry vector_add_f16_2048x256(
// PTX: ld.global.v4.b32
// PTX: st.global.v4.b32

// RUN: tile-kernels --kernel=vector_add --emit=manifest | FileCheck %s --check-prefix=MANIFEST
// MANIFEST: "block": [
// MANIFEST-NEXT: 256,
// MANIFEST: "divisor": 1024

// RUN: not tile-kernels --kernel=vector_add --dtype=f8 2>&1 | FileCheck %s --check-prefix=BADTYPE
// BADTYPE: unknown element type 'f8'

// RUN: not tile-kernels --kernel=nope 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: unknown kernel 'nope'

// RUN: tile-kernels --out-dir=%t.kernels | FileCheck %s --check-prefix=ALL
// RUN: FileCheck %s --check-prefix=INDEX < %t.kernels/index.json
// ALL: kernel compile ms
// ALL: vector_add_f32_1024x256 {{.*}} no ok
// ALL: all ok
// INDEX: "format": "tile-kernel-index"
// INDEX: "cubin": "vector_add_f32_1024x256.cubin"
