// The lowering of a ping-pong kernel (`consumers = 2`, -convert-tile-to-gpu
// after the passes before it): the block launches 384 threads (the launch
// description and known_block_size) while the body describes 256; thread t
// becomes t - 128 c for compute set c = max(t - 128, 0) / 128, so that
// every layout sees its set's threads numbered as the first set's; the
// roles' setmaxregister take 24 and 240 (128 x 24 + 256 x 240 = the
// 64,512 registers of 384 threads at 168); tile.consumer_index is c; and
// each set's compute-role barriers are named barrier 1 + c of its 128
// threads. tile-warp-specialize's part is pinned in warp-specialize.mlir.
//
// RUN: tile-opt %s --tile-assign-layouts --tile-warp-specialize --tile-fuse-stores --tile-plan-shared-memory --tile-insert-barriers --convert-tile-to-gpu | FileCheck %s

// CHECK: #tile.launch<name = "ping_pong", block = [384, 1, 1],
// CHECK: gpu.func @ping_pong(
// CHECK-SAME: known_block_size = array<i32: 384, 1, 1>
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[C128:.*]] = arith.constant 128 : index
// CHECK-NEXT: %[[OFF:.*]] = arith.subi %[[TID]], %[[C128]] : index
// CHECK-NEXT: %[[COMPUTE:.*]] = arith.maxsi %[[OFF]], %[[ZERO]] : index
// CHECK-NEXT: %[[SETSIZE:.*]] = arith.constant 128 : index
// CHECK-NEXT: %[[SET:.*]] = arith.divui %[[COMPUTE]], %[[SETSIZE]] : index
// CHECK-NEXT: %[[SETSIZE2:.*]] = arith.constant 128 : index
// CHECK-NEXT: %[[SHIFT:.*]] = arith.muli %[[SET]], %[[SETSIZE2]] : index
// CHECK-NEXT: %[[VTID:.*]] = arith.subi %[[TID]], %[[SHIFT]] : index
// CHECK-NEXT: %[[C32:.*]] = arith.constant 32 : index
// CHECK-NEXT: arith.divui %[[VTID]], %[[C32]] : index
// CHECK: nvvm.setmaxregister decrease 24
// CHECK: nvvm.setmaxregister increase 240
// CHECK: %[[N:.*]] = arith.constant 128 : i32
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[SET32:.*]] = arith.index_castui %[[SET]] : index to i32
// CHECK-NEXT: %[[ID:.*]] = arith.addi %[[ONE]], %[[SET32]] : i32
// CHECK-NEXT: nvvm.barrier id = %[[ID]] number_of_threads = %[[N]]
// CHECK-NOT: tile.consumer_index
tile.kernel @ping_pong(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf16, global>, %Bias: !tile.buffer<?xf16, global>)
    grid(%bx, %by) = [ceildiv(%B[1], 128), ceildiv(%A[0], 128)] threads(256) warp_specialized persistent attributes {consumers = 2 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %row = arith.muli %by, %c128 : index
  %col = arith.muli %bx, %c128 : index
  %a = tile.alloc_shared : !tile.buffer<128x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x128xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<128x128xf32, fragment>
  %cs = tile.alloc_shared : !tile.buffer<128x128xf16, shared>
  %bs = tile.alloc_shared : !tile.buffer<128xf16, shared>
  tile.clear %acc : !tile.buffer<128x128xf32, fragment>
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %n = arith.ceildivui %k, %c64 : index
  scf.for %i = %c0 to %n step %c1 {
    %k0 = arith.muli %i, %c64 : index
    tile.copy %A[%row, %k0] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<128x64xf16, shared>
    tile.copy %B[%k0, %col] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x128xf16, shared>
    tile.gemm %a, %b, %acc : !tile.buffer<128x64xf16, shared>, !tile.buffer<64x128xf16, shared>, !tile.buffer<128x128xf32, fragment>
  } {tile.num_stages = 4 : i64}
  tile.copy %Bias[%col] to %bs : !tile.buffer<?xf16, global> to !tile.buffer<128xf16, shared>
  tile.copy %acc to %cs : !tile.buffer<128x128xf32, fragment> to !tile.buffer<128x128xf16, shared>
  tile.copy %cs to %C[%row, %col] : !tile.buffer<128x128xf16, shared> to !tile.buffer<?x?xf16, global>
}
