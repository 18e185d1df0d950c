// The 2-D kernel of tile-to-nvvm.mlir through ptxas: its PTX assembles for
// sm_90, --emit=cubin writes an ELF cubin plus the JSON kernel manifest, and
// --emit=fatbin a fat binary (fatbinary's magic 0xba55ed50) holding it.
//
// REQUIRES: ptxas
// RUN: tile-translate %S/tile-to-nvvm.mlir --emit=ptx -o %t.ptx
// RUN: %ptxas -arch=sm_90 %t.ptx -o %t.ptxas.cubin
// RUN: tile-translate %S/tile-to-nvvm.mlir --emit=cubin -o %t.cubin --manifest-out=%t.json
// RUN: FileCheck %s --check-prefix=CUBIN < %t.cubin
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.json
// RUN: tile-translate %S/tile-to-nvvm.mlir --emit=fatbin -o %t.fatbin
// RUN: FileCheck %s --check-prefix=FATBIN < %t.fatbin

// CUBIN: {{^}}{{.}}ELF

// FATBIN: {{^}}P{{.}}U{{.}}
// FATBIN: scale_2d

// MANIFEST: "binary": "{{.*}}.cubin",
// MANIFEST: "format": "tile-manifest",
// MANIFEST: "kernels": [
// MANIFEST: "block": [
// MANIFEST-NEXT: 256,
// MANIFEST-NEXT: 1,
// MANIFEST-NEXT: 1
// MANIFEST: "dynamic_shared_memory": 16384,
// MANIFEST: "grid": [
// MANIFEST-NEXT: {
// MANIFEST-NEXT: "dim": 0,
// MANIFEST-NEXT: "divisor": 64,
// MANIFEST-NEXT: "kind": "ceildiv",
// MANIFEST-NEXT: "param": "A"
// MANIFEST-NEXT: },
// MANIFEST-NEXT: {
// MANIFEST-NEXT: "dim": 1,
// MANIFEST: "name": "scale_2d",
// MANIFEST: "params": [
// MANIFEST: "kind": "buffer",
// MANIFEST-NEXT: "name": "A",
// MANIFEST: "kind": "buffer",
// MANIFEST-NEXT: "name": "B",
// MANIFEST: "kind": "scalar",
// MANIFEST-NEXT: "name": "alpha",
// MANIFEST-NEXT: "type": "f32"
// MANIFEST: "buffer": "A",
// MANIFEST-NEXT: "dim": 0,
// MANIFEST-NEXT: "kind": "dim",
// MANIFEST-NEXT: "name": "A.dim0",
// MANIFEST-NEXT: "type": "i64"
// MANIFEST: "buffer": "A",
// MANIFEST-NEXT: "dim": 1,
// MANIFEST-NEXT: "kind": "dim",
// MANIFEST-NEXT: "name": "A.dim1",
// MANIFEST: "buffer": "B",
// MANIFEST-NEXT: "dim": 0,
// MANIFEST-NEXT: "kind": "dim",
// MANIFEST-NEXT: "name": "B.dim0",
// MANIFEST: "buffer": "B",
// MANIFEST-NEXT: "dim": 1,
// MANIFEST-NEXT: "kind": "dim",
// MANIFEST-NEXT: "name": "B.dim1",
// MANIFEST: "target": {
// MANIFEST-NEXT: "chip": "sm_90",
// MANIFEST-NEXT: "features": "+ptx80"
// MANIFEST: "version": 1
