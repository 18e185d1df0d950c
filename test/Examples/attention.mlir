// FlashAttention forward, causal, f16, head_dim 64: one block per 64 query
// rows of one (batch, head); 64 keys per step, K and V through a 2-stage
// cp.async pipeline; the scores' online softmax in registers (MMA layout);
// O += P x V with the probabilities P as the register A operand; the
// softmax scale a kernel parameter, and K and V with heads that divide Q's
// (grouped-query attention). The same kernel as `tile-kernels
// --kernel=attention --causal` (docs/Attention.md), written by hand with
// names and simpler steps.
//
// RUN: tile-opt %s | tile-opt | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: tile-opt %s --tile-assign-layouts | FileCheck %s --check-prefix=LAYOUT
// RUN: tile-opt %s --tile-to-gpu | FileCheck %s --check-prefix=GPU
// RUN: tile-translate %s --emit=ptx | FileCheck %s --check-prefix=PTX

// ROUNDTRIP-LABEL: tile.kernel @attention_causal(
// ROUNDTRIP-SAME: %O: !tile.buffer<?x?x?x64xf16, global>, %scale: f32)
// ROUNDTRIP-SAME: requires(%K[0] == %Q[0], %V[0] == %Q[0], %O[0] == %Q[0], %O[1] == %Q[1], %V[1] == %K[1], %K[1] divides %Q[1], %V[2] == %K[2], %O[2] == %Q[2])
// ROUNDTRIP: %[[KVHEAD:.*]] = arith.divui
// ROUNDTRIP: tile.subview %Q[%bz, %by] : !tile.buffer<?x?x?x64xf16, global> to !tile.buffer<?x64xf16, global>
// ROUNDTRIP-NEXT: tile.subview %K[%bz, %[[KVHEAD]]] : !tile.buffer<?x?x?x64xf16, global> to !tile.buffer<?x64xf16, global>
// ROUNDTRIP: tile.gemm %{{.*}}, %{{.*}}, %{{.*}} : !tile.buffer<64x64xf16, fragment>, !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf32, fragment>

// Scores, probabilities and output: one warp column (each warp owns 16
// query rows); the row statistics are slices of that layout.
// LAYOUT: %[[S:.*]] = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment, #tile.mma<warps = [4, 1]>>
// LAYOUT: tile.alloc_fragment : !tile.buffer<64x64xf16, fragment, #tile.mma<warps = [4, 1]>>
// LAYOUT: tile.alloc_fragment : !tile.buffer<64x64xf32, fragment, #tile.mma<warps = [4, 1]>>
// LAYOUT: tile.alloc_fragment : !tile.buffer<64xf32, fragment, #tile.slice<dim = 1, dim_size = 64, parent = #tile.mma<warps = [4, 1]>>>

// The head views, the pipelined key loop (cp.async), ldmatrix for Q, K
// and V but not for P, and the row reductions as quad shuffles.
// GPU: memref.subview
// GPU: scf.for
// GPU: nvgpu.device_async_copy
// GPU: nvgpu.mma.sync
// GPU: gpu.shuffle xor
// GPU: nvgpu.mma.sync

// PTX: cp.async.cg.shared.global
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX: shfl.sync.bfly.b32
// PTX: ex2.approx
// PTX-NOT: .local

tile.kernel @attention_causal(%Q: !tile.buffer<?x?x?x64xf16, global>,
                              %K: !tile.buffer<?x?x?x64xf16, global>,
                              %V: !tile.buffer<?x?x?x64xf16, global>,
                              %O: !tile.buffer<?x?x?x64xf16, global>,
                              %scale: f32)
    grid(%bx, %by, %bz) = [ceildiv(%Q[2], 64), %Q[1], %Q[0]] threads(128)
    // The heads of K, V and O are indexed from Q's grid (tile.subview does
    // not check its leading indices): they have Q's batch, O Q's heads, and
    // K and V heads that divide Q's (query head h reads K/V head
    // h / (Hq / Hkv)); V has K's keys and O Q's queries.
    requires(%K[0] == %Q[0], %V[0] == %Q[0], %O[0] == %Q[0], %O[1] == %Q[1],
             %V[1] == %K[1], %K[1] divides %Q[1], %V[2] == %K[2],
             %O[2] == %Q[2]) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %minusInf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  // scale * log2(e): the scores go straight to the exp2 domain.
  %log2e = arith.constant 1.44269502 : f32
  %expScale = arith.mulf %scale, %log2e : f32
  %row = arith.muli %bx, %c64 : index

  // This (batch, head)'s S x 64 matrices: copies are masked at S. The K/V
  // head is h Hkv / Hq (the generator computes it without a division, which
  // would take registers from the loop; see Attention.cpp).
  %heads = tile.dim %Q[1] : !tile.buffer<?x?x?x64xf16, global>
  %kvHeads = tile.dim %K[1] : !tile.buffer<?x?x?x64xf16, global>
  %headTimesKv = arith.muli %by, %kvHeads : index
  %kvHead = arith.divui %headTimesKv, %heads : index
  %q = tile.subview %Q[%bz, %by] : !tile.buffer<?x?x?x64xf16, global> to !tile.buffer<?x64xf16, global>
  %k = tile.subview %K[%bz, %kvHead] : !tile.buffer<?x?x?x64xf16, global> to !tile.buffer<?x64xf16, global>
  %v = tile.subview %V[%bz, %kvHead] : !tile.buffer<?x?x?x64xf16, global> to !tile.buffer<?x64xf16, global>
  %o = tile.subview %O[%bz, %by] : !tile.buffer<?x?x?x64xf16, global> to !tile.buffer<?x64xf16, global>
  %keys = tile.dim %k[0] : !tile.buffer<?x64xf16, global>

  %Qs = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %Ks = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %Vs = tile.alloc_shared : !tile.buffer<64x64xf16, shared>
  %S = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  %P = tile.alloc_fragment : !tile.buffer<64x64xf16, fragment>
  %acc = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  %blockMax = tile.alloc_fragment : !tile.buffer<64xf32, fragment>
  %m = tile.alloc_fragment : !tile.buffer<64xf32, fragment>
  %l = tile.alloc_fragment : !tile.buffer<64xf32, fragment>
  %rescale = tile.alloc_fragment : !tile.buffer<64xf32, fragment>

  tile.copy %q[%row, %c0] to %Qs : !tile.buffer<?x64xf16, global> to !tile.buffer<64x64xf16, shared>
  tile.clear %acc : !tile.buffer<64x64xf32, fragment>
  tile.fill %m, %minusInf : !tile.buffer<64xf32, fragment>
  tile.fill %l, %zero : !tile.buffer<64xf32, fragment>

  // Causal: the key blocks end at this block's last query row.
  %allBlocks = arith.ceildivui %keys, %c64 : index
  %rowEnd = arith.addi %row, %c64 : index
  %diagonal = arith.ceildivui %rowEnd, %c64 : index
  %blocks = arith.minsi %allBlocks, %diagonal : index
  scf.for %j = %c0 to %blocks step %c1 {
    %col = arith.muli %j, %c64 : index
    tile.copy %k[%col, %c0] to %Ks : !tile.buffer<?x64xf16, global> to !tile.buffer<64x64xf16, shared>
    tile.copy %v[%col, %c0] to %Vs : !tile.buffer<?x64xf16, global> to !tile.buffer<64x64xf16, shared>
    // S = Q K^T, scaled; keys past the end or after the query: -inf.
    tile.gemm %Qs, %Ks, %S {clear_accum, transpose_b} : !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
    tile.parallel (%i, %jj) in [64, 64] {
      %key = arith.addi %col, %jj : index
      %query = arith.addi %row, %i : index
      %inside = arith.cmpi slt, %key, %keys : index
      %future = arith.cmpi slt, %query, %key : index
      %s = tile.load %S[%i, %jj] : !tile.buffer<64x64xf32, fragment>
      %scaled = arith.mulf %s, %expScale : f32
      %visible = arith.select %inside, %scaled, %minusInf : f32
      %masked = arith.select %future, %minusInf, %visible : f32
      tile.store %masked, %S[%i, %jj] : !tile.buffer<64x64xf32, fragment>
    }
    // m_new = max(m, block max); l and the output rows scale by
    // exp2(m - m_new), 1 while both are -inf.
    tile.reduce max %S into %blockMax dim(1) : !tile.buffer<64x64xf32, fragment>, !tile.buffer<64xf32, fragment>
    tile.parallel (%i) in [64] {
      %old = tile.load %m[%i] : !tile.buffer<64xf32, fragment>
      %bm = tile.load %blockMax[%i] : !tile.buffer<64xf32, fragment>
      %new = arith.maximumf %old, %bm : f32
      %delta = arith.subf %old, %new : f32
      %e = math.exp2 %delta : f32
      %grew = arith.cmpf olt, %old, %new : f32
      %factor = arith.select %grew, %e, %one : f32
      tile.store %factor, %rescale[%i] : !tile.buffer<64xf32, fragment>
      %sum = tile.load %l[%i] : !tile.buffer<64xf32, fragment>
      %scaledSum = arith.mulf %sum, %factor : f32
      tile.store %scaledSum, %l[%i] : !tile.buffer<64xf32, fragment>
      tile.store %new, %m[%i] : !tile.buffer<64xf32, fragment>
    }
    // P = exp2(S - m) (0 where S is -inf), in f32 for the sum and in f16
    // for the second gemm.
    tile.parallel (%i, %jj) in [64, 64] {
      %s = tile.load %S[%i, %jj] : !tile.buffer<64x64xf32, fragment>
      %rowMax = tile.load %m[%i] : !tile.buffer<64xf32, fragment>
      %shifted = arith.subf %s, %rowMax : f32
      %e = math.exp2 %shifted : f32
      %live = arith.cmpf olt, %minusInf, %s : f32
      %p = arith.select %live, %e, %zero : f32
      tile.store %p, %S[%i, %jj] : !tile.buffer<64x64xf32, fragment>
      %half = arith.truncf %p : f32 to f16
      tile.store %half, %P[%i, %jj] : !tile.buffer<64x64xf16, fragment>
    }
    tile.reduce sum %S into %l dim(1) accumulate : !tile.buffer<64x64xf32, fragment>, !tile.buffer<64xf32, fragment>
    tile.parallel (%i, %d) in [64, 64] {
      %factor = tile.load %rescale[%i] : !tile.buffer<64xf32, fragment>
      %a = tile.load %acc[%i, %d] : !tile.buffer<64x64xf32, fragment>
      %scaledAcc = arith.mulf %a, %factor : f32
      tile.store %scaledAcc, %acc[%i, %d] : !tile.buffer<64x64xf32, fragment>
    }
    // O += P V, P straight from registers.
    tile.gemm %P, %Vs, %acc : !tile.buffer<64x64xf16, fragment>, !tile.buffer<64x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
  } {tile.num_stages = 2 : i64}

  // O = acc / l, stored as f16 (rows past the sequence masked).
  tile.parallel (%i) in [64] {
    %sum = tile.load %l[%i] : !tile.buffer<64xf32, fragment>
    %inverse = arith.divf %one, %sum : f32
    %any = arith.cmpf olt, %zero, %sum : f32
    %safe = arith.select %any, %inverse, %zero : f32
    tile.store %safe, %l[%i] : !tile.buffer<64xf32, fragment>
  }
  tile.parallel (%i, %d) in [64, 64] {
    %inverse = tile.load %l[%i] : !tile.buffer<64xf32, fragment>
    %a = tile.load %acc[%i, %d] : !tile.buffer<64x64xf32, fragment>
    %out = arith.mulf %a, %inverse : f32
    tile.store %out, %acc[%i, %d] : !tile.buffer<64x64xf32, fragment>
  }
  tile.copy %acc to %o[%row, %c0] : !tile.buffer<64x64xf32, fragment> to !tile.buffer<?x64xf16, global>
}
