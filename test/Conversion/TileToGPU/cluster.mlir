// Thread-block clusters with TMA multicast, stage by stage, on a persistent
// warp-specialized GEMM whose clusters are pairs of tiles one above the
// other (`cluster = array<i64: 1, 2>`):
// - tile-warp-specialize marks B's copy `multicast` (its offsets do not
//   read %by) and not A's, counts one arrival per compute warp of each
//   block of the cluster on the `empty` barriers (2 x 4), and releases the
//   stages with cluster arrivals;
// - convert-tile-to-gpu gives the gpu.func its known_cluster_size (2, 1, 1),
//   meets the cluster after the mbarrier initialization and before the
//   return, walks cluster tiles (cluster id, number of clusters, the tiles
//   divided by 2 along y) and places the block by its rank in the cluster,
//   issues B's two 64-column panels one per block with a multicast mask of
//   both, and arrives on block r's barrier from lane r of each warp (mapa;
//   a CTA-scope release, as CUTLASS's: a cluster-scope one costs a MEMBAR
//   per stage);
// - the manifest's "persistent" entry gives the cluster, and the PTX
//   declares it (.reqnctapercluster) and uses the multicast and
//   cluster-scope forms.
//
// RUN: tile-opt %s --tile-assign-layouts --tile-warp-specialize | FileCheck %s --check-prefix=WS
// RUN: tile-opt %s --tile-to-gpu | FileCheck %s --check-prefix=GPU
// RUN: tile-translate %s --chip=sm_90a --emit=manifest | FileCheck %s --check-prefix=MANIFEST
// RUN: tile-translate %s --chip=sm_90a --emit=ptx | FileCheck %s --check-prefix=PTX

// WS-LABEL: tile.kernel @pairs
// WS: tile.mbarrier_init %{{.*}} count(1)
// WS: tile.mbarrier_init %{{.*}} count(8)
// WS: tile.warp_specialize
// WS: tile.copy async %A[{{.*}}] to %{{.*}} barrier({{.*}}) : !tile.buffer<?x?xf16, global>
// WS: tile.copy async %B[{{.*}}] to %{{.*}} barrier({{.*}}) multicast :
// WS: } compute {
// WS: tile.mbarrier_arrive %{{.*}}[%{{.*}}] cluster :
// WS: tile.mbarrier_arrive %{{.*}}[%{{.*}}] cluster :

// GPU-LABEL: gpu.func @pairs
// GPU-SAME: known_cluster_size = array<i32: 2, 1, 1>
// GPU: %[[MASK:.*]] = arith.constant 3 : i16
// GPU: nvvm.mbarrier.init
// GPU: nvvm.fence.mbarrier.init
// GPU-NEXT: nvvm.cluster.arrive
// GPU-NEXT: nvvm.cluster.wait
// GPU: gpu.cluster_id x
// GPU: gpu.cluster_dim x
// GPU: gpu.cluster_block_id x
// GPU: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank
// GPU: arith.cmpi eq, %[[RANK]], %{{.*}} : i32
// GPU: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}} multicast_mask = %[[MASK]]
// GPU: arith.cmpi eq, %[[RANK]], %{{.*}} : i32
// GPU: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}} multicast_mask = %[[MASK]]
// GPU: nvvm.mapa %{{.*}}, %{{.*}} : !llvm.ptr<3> -> !llvm.ptr<7>
// GPU: nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<7>
// GPU: nvvm.cluster.arrive
// GPU-NEXT: nvvm.cluster.wait
// GPU-NEXT: gpu.return

// MANIFEST: "persistent": {
// MANIFEST-NEXT: "blocks_per_sm": 1,
// MANIFEST-NEXT: "cluster": [
// MANIFEST-NEXT: 1,
// MANIFEST-NEXT: 2
// MANIFEST-NEXT: ]

// PTX: .explicitcluster
// PTX-NEXT: .reqnctapercluster 2, 1, 1
// PTX: barrier.cluster.arrive;
// PTX-NEXT: barrier.cluster.wait;
// PTX: mov.u32 {{.*}}, %clusterid.x;
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster
// PTX: mapa.shared::cluster.u64
// PTX: mbarrier.arrive.shared::cluster.b64

tile.kernel @pairs(%A: !tile.buffer<?x?xf16, global>, %B: !tile.buffer<?x?xf16, global>, %C: !tile.buffer<?x?xf32, global>)
    grid(%bx, %by) = [ceildiv(%B[1], 128), ceildiv(%A[0], 64)] threads(256) warp_specialized persistent divisible(%A[1] by 8, %B[1] by 8, %C[1] by 8) attributes {cluster = array<i64: 1, 2>, raster_panel = 8 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %row = arith.muli %by, %c64 : index
  %col = arith.muli %bx, %c128 : index
  %a = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<64x128xf16, shared>
  %acc = tile.alloc_fragment : !tile.buffer<64x128xf32, fragment>
  tile.clear %acc : !tile.buffer<64x128xf32, fragment>
  %k = tile.dim %A[1] : !tile.buffer<?x?xf16, global>
  %n = arith.ceildivui %k, %c64 : index
  scf.for %i = %c0 to %n step %c1 {
    %k0 = arith.muli %i, %c64 : index
    tile.copy %A[%row, %k0] to %a : !tile.buffer<?x?xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.copy %B[%k0, %col] to %b : !tile.buffer<?x?xf16, global> to !tile.buffer<64x128xf16, shared>
    tile.gemm %a, %b, %acc : !tile.buffer<64x64xf16, shared>, !tile.buffer<64x128xf16, shared>, !tile.buffer<64x128xf32, fragment>
  } {tile.num_stages = 2 : i64}
  tile.copy %acc to %C[%row, %col] : !tile.buffer<64x128xf32, fragment> to !tile.buffer<?x?xf32, global>
}
