// LayerNorm over the rows of an M x N f16 tensor, written by hand:
//   Y[r, :] = (X[r, :] - mean_r) / sqrt(var_r + eps) * W + B
// with the mean and the (biased) variance over the N columns of row r, in
// f32. A block holds 4 whole rows of up to 1024 columns in registers; the
// walk through it is docs/Cookbook.md. The zero-fill point: the copy of X
// reads zeros past N, which is right for the sum of the mean but not for the
// variance, where a padded column's (0 - mean)^2 is mean^2: those columns
// are masked to 0 before the second reduction.
//
// REQUIRES: ptxas
// RUN: tile-opt %s | tile-opt | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: tile-opt %s --tile-assign-layouts | FileCheck %s --check-prefix=LAYOUT
// RUN: tile-translate %s --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %ptxas -arch=sm_90 -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: tile-translate %s --emit=report --cuda-toolkit=%cuda_toolkit | FileCheck %s --check-prefix=REPORT

// ROUNDTRIP-LABEL: tile.kernel @layernorm(
// ROUNDTRIP-SAME: %eps: f32)
// ROUNDTRIP-SAME: grid(%bx) = [ceildiv(%X[0], 4)] threads(256)
// ROUNDTRIP-SAME: requires(%X[1] <= 1024, %W[0] == %X[1], %B[0] == %X[1], %Y[0] == %X[0], %Y[1] == %X[1])
// ROUNDTRIP: tile.reduce sum {{.*}} dim(1)
// ROUNDTRIP: %[[INSIDE:.*]] = arith.cmpi slt
// ROUNDTRIP: arith.select %[[INSIDE]], %{{.*}}, %cst : f32
// ROUNDTRIP: tile.reduce sum {{.*}} dim(1)
// ROUNDTRIP: math.rsqrt

// The f16 copy gives the f32 rows 8-element vectors (16-byte loads); the row
// statistics are slices of that layout, one register per row a thread holds.
// LAYOUT: tile.alloc_fragment : !tile.buffer<4x1024xf32, fragment, #tile.row_major<vec = 8>>
// LAYOUT: tile.alloc_fragment : !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 1024, parent = #tile.row_major<vec = 8>>>
// LAYOUT: tile.alloc_shared : !tile.buffer<1024xf16, shared>

// A thread holds 8 columns of 2 of the 4 rows (256 threads x 8 = 2 rows per
// round), so each reduction is 5 butterfly steps for each of its 2 rows; a
// row spans 4 warps, combined through shared memory between barriers. The
// padded columns are zeroed (selp) between the two reductions.
// (test/Frontend/layernorm-example.mlir checks the frontend's f16 4 x 1024
// kernel against these lines too.)
// PTX-LABEL: .entry layernorm{{(_f16_4x1024_t256)?}}(
// PTX-NOT: .local
// PTX: ld.global.v4.b32
// PTX-COUNT-10: shfl.sync.bfly.b32
// PTX: bar.sync
// PTX: selp.f32 {{.*}}, 0f00000000,
// PTX-COUNT-10: shfl.sync.bfly.b32
// PTX: rsqrt.approx
// PTX: fma.rn
// PTX: st.global.v4.b32
// PTX-NOT: shfl.sync

// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

// W and B in shared memory (2 x 2 KiB) and the reductions' slots: no
// spills, 16-byte accesses, 20 shuffles, no warning.
// REPORT: kernel{{ +}}regs{{ +}}spill{{ +}}smem_K{{ +}}mma{{ +}}ldmat{{ +}}cp.as{{ +}}bar{{ +}}ld.g v/s{{ +}}st.g v/s{{ +}}shfl
// REPORT-NEXT: layernorm{{ +}}{{[0-9]+}}{{ +}}0{{ +}}4.{{[0-9]}}{{ +}}0{{ +}}0{{ +}}0{{ +}}{{[1-9]}}{{ +}}4/{{[0-9]+}}{{ +}}2/{{[0-9]+}}{{ +}}20{{ +}}0
// REPORT-NOT: warning

tile.kernel @layernorm(%X: !tile.buffer<?x?xf16, global>,
                       %W: !tile.buffer<?xf16, global>,
                       %B: !tile.buffer<?xf16, global>,
                       %Y: !tile.buffer<?x?xf16, global>,
                       %eps: f32)
    grid(%bx) = [ceildiv(%X[0], 4)] threads(256)
    // A row must fit the 1024 columns a block holds (a longer one would be
    // cut off, its statistics taken over its first 1024 columns); W and B
    // have a value per column, Y has X's shape.
    requires(%X[1] <= 1024, %W[0] == %X[1], %B[0] == %X[1],
             %Y[0] == %X[0], %Y[1] == %X[1]) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %row = arith.muli %bx, %c4 : index
  // Divide by N, the row's length, not by the tile's 1024 columns.
  %n = tile.dim %X[1] : !tile.buffer<?x?xf16, global>
  %n64 = arith.index_cast %n : index to i64
  %nf = arith.sitofp %n64 : i64 to f32
  %invN = arith.divf %one, %nf : f32

  %x = tile.alloc_fragment : !tile.buffer<4x1024xf32, fragment>
  %sq = tile.alloc_fragment : !tile.buffer<4x1024xf32, fragment>
  %mean = tile.alloc_fragment : !tile.buffer<4xf32, fragment>
  %rstd = tile.alloc_fragment : !tile.buffer<4xf32, fragment>
  %w = tile.alloc_shared : !tile.buffer<1024xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<1024xf16, shared>

  // f16 -> f32 on the way in; columns past N and rows past M read 0.
  tile.copy %X[%row, %c0] to %x : !tile.buffer<?x?xf16, global> to !tile.buffer<4x1024xf32, fragment>
  tile.copy %W[%c0] to %w : !tile.buffer<?xf16, global> to !tile.buffer<1024xf16, shared>
  tile.copy %B[%c0] to %b : !tile.buffer<?xf16, global> to !tile.buffer<1024xf16, shared>

  // mean = sum / N: the padded zeros add nothing to the sum.
  tile.reduce sum %x into %mean dim(1) : !tile.buffer<4x1024xf32, fragment>, !tile.buffer<4xf32, fragment>
  tile.parallel (%i) in [4] {
    %s = tile.load %mean[%i] : !tile.buffer<4xf32, fragment>
    %m = arith.mulf %s, %invN : f32
    tile.store %m, %mean[%i] : !tile.buffer<4xf32, fragment>
  }
  // x - mean, and its square for the variance. A padded column holds 0, so
  // its x - mean is -mean: squared without the mask it would add mean^2 per
  // padded column (`%d2 = arith.mulf %d, %d` is the wrong line).
  tile.parallel (%i, %j) in [4, 1024] {
    %v = tile.load %x[%i, %j] : !tile.buffer<4x1024xf32, fragment>
    %m = tile.load %mean[%i] : !tile.buffer<4xf32, fragment>
    %d = arith.subf %v, %m : f32
    %inside = arith.cmpi slt, %j, %n : index
    %centered = arith.select %inside, %d, %zero : f32
    tile.store %centered, %x[%i, %j] : !tile.buffer<4x1024xf32, fragment>
    %d2 = arith.mulf %centered, %centered : f32
    tile.store %d2, %sq[%i, %j] : !tile.buffer<4x1024xf32, fragment>
  }
  // rstd = 1 / sqrt(sum / N + eps), once per row.
  tile.reduce sum %sq into %rstd dim(1) : !tile.buffer<4x1024xf32, fragment>, !tile.buffer<4xf32, fragment>
  tile.parallel (%i) in [4] {
    %s = tile.load %rstd[%i] : !tile.buffer<4xf32, fragment>
    %var = arith.mulf %s, %invN : f32
    %shifted = arith.addf %var, %eps : f32
    %r = math.rsqrt %shifted : f32
    tile.store %r, %rstd[%i] : !tile.buffer<4xf32, fragment>
  }
  // y = (x - mean) * rstd * W + B; W and B are read at the column from
  // shared memory.
  tile.parallel (%i, %j) in [4, 1024] {
    %c = tile.load %x[%i, %j] : !tile.buffer<4x1024xf32, fragment>
    %r = tile.load %rstd[%i] : !tile.buffer<4xf32, fragment>
    %wj = tile.load %w[%j] : !tile.buffer<1024xf16, shared>
    %bj = tile.load %b[%j] : !tile.buffer<1024xf16, shared>
    %wf = arith.extf %wj : f16 to f32
    %bf = arith.extf %bj : f16 to f32
    %normed = arith.mulf %c, %r : f32
    %y = math.fma %normed, %wf, %bf : f32
    tile.store %y, %x[%i, %j] : !tile.buffer<4x1024xf32, fragment>
  }
  // f32 -> f16, masked at M and N.
  tile.copy %x to %Y[%row, %c0] : !tile.buffer<4x1024xf32, fragment> to !tile.buffer<?x?xf16, global>
}
