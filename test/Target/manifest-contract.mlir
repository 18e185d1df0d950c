// The launch contract in the manifest: each kernel's `requires` relations,
// and what it does with each buffer ("access"), derived from the tile ops
// on the buffer and on its tile.subview views.
//
// RUN: tile-translate %s --emit=manifest | FileCheck %s

// CHECK-LABEL: "name": "heads"
// CHECK-NEXT: "params": [
// Q: copied from (through a view) only.
// CHECK-NEXT: {
// CHECK-NEXT: "access": "read",
// CHECK-NEXT: "dtype": "f16",
// CHECK-NEXT: "kind": "buffer",
// CHECK-NEXT: "name": "Q",
// O: copied to (through a view) only.
// CHECK: "access": "write",
// CHECK-NEXT: "dtype": "f16",
// CHECK-NEXT: "kind": "buffer",
// CHECK-NEXT: "name": "O",
// S: read, then written in place.
// CHECK: "access": "readwrite",
// CHECK-NEXT: "dtype": "f32",
// CHECK-NEXT: "kind": "buffer",
// CHECK-NEXT: "name": "S",
// N: only its size is used.
// CHECK: "access": "read",
// CHECK-NEXT: "dtype": "i32",
// CHECK-NEXT: "kind": "buffer",
// CHECK-NEXT: "name": "N",
// Scalars have no access.
// CHECK: "kind": "scalar",
// CHECK-NEXT: "name": "alpha",
// CHECK-NEXT: "type": "f32"
// CHECK: "name": "N.dim0",
// The relations in the order written: a size, then a constant on the right.
// CHECK: "requires": [
// CHECK-NEXT: {
// CHECK-NEXT: "lhs": {
// CHECK-NEXT: "dim": 0,
// CHECK-NEXT: "param": "O"
// CHECK-NEXT: },
// CHECK-NEXT: "op": "==",
// CHECK-NEXT: "rhs": {
// CHECK-NEXT: "dim": 0,
// CHECK-NEXT: "param": "Q"
// CHECK-NEXT: }
// CHECK-NEXT: },
// CHECK-NEXT: {
// CHECK-NEXT: "lhs": {
// CHECK-NEXT: "dim": 1,
// CHECK-NEXT: "param": "O"
// CHECK-NEXT: },
// CHECK-NEXT: "op": ">=",
// CHECK-NEXT: "rhs": {
// CHECK-NEXT: "dim": 1,
// CHECK-NEXT: "param": "Q"
// CHECK-NEXT: }
// CHECK-NEXT: },
// CHECK-NEXT: {
// CHECK-NEXT: "lhs": {
// CHECK-NEXT: "dim": 1,
// CHECK-NEXT: "param": "S"
// CHECK-NEXT: },
// CHECK-NEXT: "op": "<=",
// CHECK-NEXT: "value": 128
// CHECK-NEXT: },
// CHECK-NEXT: {
// CHECK-NEXT: "lhs": {
// CHECK-NEXT: "dim": 0,
// CHECK-NEXT: "param": "N"
// CHECK-NEXT: },
// CHECK-NEXT: "op": ">=",
// CHECK-NEXT: "value": 1
// CHECK-NEXT: }
// CHECK-NEXT: ]
tile.kernel @heads(%Q: !tile.buffer<?x?x64xf16, global>,
                   %O: !tile.buffer<?x?x64xf16, global>,
                   %S: !tile.buffer<?x?xf32, global>,
                   %N: !tile.buffer<?xi32, global>, %alpha: f32)
    grid(%bx, %by) = [ceildiv(%Q[1], 64), %Q[0]] threads(128)
    requires(%O[0] == %Q[0], %O[1] >= %Q[1], %S[1] <= 128, %N[0] >= 1) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %row = arith.muli %bx, %c64 : index
  %n = tile.dim %N[0] : !tile.buffer<?xi32, global>
  %q = tile.subview %Q[%by] : !tile.buffer<?x?x64xf16, global> to !tile.buffer<?x64xf16, global>
  %o = tile.subview %O[%by] : !tile.buffer<?x?x64xf16, global> to !tile.buffer<?x64xf16, global>
  %t = tile.alloc_fragment : !tile.buffer<64x64xf16, fragment>
  tile.copy %q[%row, %c0] to %t : !tile.buffer<?x64xf16, global> to !tile.buffer<64x64xf16, fragment>
  tile.copy %t to %o[%row, %c0] : !tile.buffer<64x64xf16, fragment> to !tile.buffer<?x64xf16, global>
  %s = tile.alloc_fragment : !tile.buffer<64x128xf32, fragment>
  tile.copy %S[%row, %c0] to %s : !tile.buffer<?x?xf32, global> to !tile.buffer<64x128xf32, fragment>
  tile.copy %s to %S[%row, %c0] : !tile.buffer<64x128xf32, fragment> to !tile.buffer<?x?xf32, global>
}

// Grouped-query heads: `divides` between two sizes, as the runtime reads
// it.
// CHECK-LABEL: "name": "grouped_heads"
// CHECK: "requires": [
// CHECK-NEXT: {
// CHECK-NEXT: "lhs": {
// CHECK-NEXT: "dim": 0,
// CHECK-NEXT: "param": "K"
// CHECK-NEXT: },
// CHECK-NEXT: "op": "divides",
// CHECK-NEXT: "rhs": {
// CHECK-NEXT: "dim": 0,
// CHECK-NEXT: "param": "Q"
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: ]
tile.kernel @grouped_heads(%Q: !tile.buffer<?x64xf32, global>,
                           %K: !tile.buffer<?x64xf32, global>)
    grid(%bx) = [%Q[0]] threads(64) requires(%K[0] divides %Q[0]) {
  %c0 = arith.constant 0 : index
  %t = tile.alloc_fragment : !tile.buffer<1x64xf32, fragment>
  tile.copy %K[%c0, %c0] to %t : !tile.buffer<?x64xf32, global> to !tile.buffer<1x64xf32, fragment>
  tile.copy %t to %Q[%bx, %c0] : !tile.buffer<1x64xf32, fragment> to !tile.buffer<?x64xf32, global>
}

// Without a contract there is no "requires" entry.
// CHECK-LABEL: "name": "no_contract"
// CHECK-NEXT: "params": [
// CHECK: "access": "write",
// CHECK-NOT: "requires"
// CHECK-NOT: "persistent"
// CHECK: "target": {
tile.kernel @no_contract(%A: !tile.buffer<?xf32, global>)
    grid(%bx) = [ceildiv(%A[0], 128)] threads(128) {
  %c0 = arith.constant 0 : index
  %f = tile.alloc_fragment : !tile.buffer<128xf32, fragment>
  %zero = arith.constant 0.0 : f32
  tile.fill %f, %zero : !tile.buffer<128xf32, fragment>
  tile.copy %f to %A[%c0] : !tile.buffer<128xf32, fragment> to !tile.buffer<?xf32, global>
}
