// tile-layernorm-example (python-free-frontend/examples/layernorm.cpp), the
// cookbook's LayerNorm written with the frontend: its four variants
// compiled into a kernel folder whose index.json lists them under the
// generator `layernorm` with their configurations, in the order
// KernelLibrary::call tries them (the 256-column tiles first); a report row
// per kernel without spills or warnings; and the f16 4 x 1024 kernel
// compiles to what the hand-written test/Examples/layernorm.mlir is checked
// for.
//
// REQUIRES: ptxas
// RUN: rm -rf %t && tile-layernorm-example --out-dir=%t | FileCheck %s
// RUN: FileCheck %s --check-prefix=INDEX < %t/index.json
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/layernorm_f32_4x256_t128.manifest.json
// RUN: FileCheck %s --check-prefix=IR < %t/layernorm_f16_4x1024_t256.mlir
// RUN: FileCheck %S/../Examples/layernorm.mlir --check-prefix=PTX < %t/layernorm_f16_4x1024_t256.ptx
// RUN: not tile-layernorm-example 2>&1 | FileCheck %s --check-prefix=NODIR
// RUN: touch %t.file && not tile-layernorm-example --out-dir=%t.file 2>&1 | FileCheck %s --check-prefix=NOTADIR

// CHECK: kernel{{ +}}regs{{ +}}spill{{ +}}smem_K{{ +}}mma{{ +}}ldmat{{ +}}cp.as{{ +}}bar{{ +}}ld.g v/s{{ +}}st.g v/s{{ +}}shfl
// CHECK-NEXT: layernorm_f16_4x256_t128{{ +}}{{[0-9]+}}{{ +}}0{{ +}}
// CHECK-NEXT: layernorm_f16_4x1024_t256{{ +}}{{[0-9]+}}{{ +}}0{{ +}}
// CHECK-NEXT: layernorm_f32_4x256_t128{{ +}}{{[0-9]+}}{{ +}}0{{ +}}
// CHECK-NEXT: layernorm_f32_4x1024_t256{{ +}}{{[0-9]+}}{{ +}}0{{ +}}
// CHECK-NOT: warning
// CHECK: wrote 4 layernorm kernels: {{.*}}/index.json

// INDEX: "format": "tile-kernel-index"
// INDEX: "config": {
// INDEX-NEXT: "block_n": 256,
// INDEX-NEXT: "dtype": "f16",
// INDEX-NEXT: "rows": 4,
// INDEX-NEXT: "threads": 128
// INDEX: "cubin": "layernorm_f16_4x256_t128.cubin",
// INDEX-NEXT: "generator": "layernorm",
// INDEX-NEXT: "manifest": "layernorm_f16_4x256_t128.manifest.json",
// INDEX-NEXT: "name": "layernorm_f16_4x256_t128",
// INDEX: "block_n": 1024,
// INDEX: "name": "layernorm_f16_4x1024_t256",
// INDEX: "dtype": "f32",
// INDEX: "name": "layernorm_f32_4x256_t128",
// INDEX: "name": "layernorm_f32_4x1024_t256",

// The parameters KernelLibrary::call takes by name, and the contract it
// checks before a launch.
// MANIFEST: "name": "layernorm_f32_4x256_t128",
// MANIFEST: "name": "X",
// MANIFEST: "name": "W",
// MANIFEST: "name": "B",
// MANIFEST: "access": "write",
// MANIFEST-NEXT: "dtype": "f32",
// MANIFEST-NEXT: "kind": "buffer",
// MANIFEST-NEXT: "name": "Y",
// MANIFEST: "kind": "scalar",
// MANIFEST-NEXT: "name": "eps",
// MANIFEST-NEXT: "type": "f32"
// MANIFEST: "requires": [
// MANIFEST: "param": "X"
// MANIFEST-NEXT: },
// MANIFEST-NEXT: "op": "<=",
// MANIFEST-NEXT: "value": 256

// IR: tile.kernel @layernorm_f16_4x1024_t256(%X: !tile.buffer<?x?xf16, global>, %W: !tile.buffer<?xf16, global>, %B: !tile.buffer<?xf16, global>, %Y: !tile.buffer<?x?xf16, global>, %eps: f32) grid(%bx) = [ceildiv(%X[0], 4)] threads(256) requires(%X[1] <= 1024, %W[0] == %X[1], %B[0] == %X[1], %Y[0] == %X[0], %Y[1] == %X[1])
// IR: tile.reduce sum
// IR: arith.select
// IR: tile.reduce sum
// IR: math.rsqrt
// IR: math.fma

// NODIR: must be specified at least once
// NOTADIR: tile-layernorm-example: cannot create {{.*}}.file: it exists and is not a folder
