// Every diagnostic of the tile dialect's parsers and verifiers (TileOps.cpp,
// TileDialect.cpp), one case each.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// !tile.buffer and #tile.row_major
//===----------------------------------------------------------------------===//

// expected-error@+1 {{expected memory scope 'global', 'shared' or 'fragment', but got 'local'}}
func.func private @unknown_scope(!tile.buffer<4xf32, local>)

// -----

// expected-error@+1 {{expected a buffer of rank 1 to 4, but got rank 5}}
func.func private @rank_5(!tile.buffer<2x2x2x2x2xf32, shared>)

// -----

// expected-error@+1 {{expected a buffer of rank 1 to 4, but got rank 0}}
func.func private @rank_0(!tile.buffer<f32, global>)

// -----

// expected-error@+1 {{expected element type f16, bf16, f32, f64, i8, i16, i32 or i64, but got 'i1'}}
func.func private @bad_element(!tile.buffer<4xi1, shared>)

// -----

// expected-error@+1 {{expected element type f16, bf16, f32, f64, i8, i16, i32 or i64, but got 'ui32'}}
func.func private @unsigned_element(!tile.buffer<4xui32, global>)

// -----

// expected-error@+1 {{expected a static shape for a shared tile, but got a dynamic dimension}}
func.func private @dynamic_shared(!tile.buffer<?x4xf32, shared>)

// -----

// expected-error@+1 {{expected a static shape for a fragment tile, but got a dynamic dimension}}
func.func private @dynamic_fragment(!tile.buffer<4x?xf32, fragment>)

// -----

// expected-error@+1 {{expected positive dimension sizes, but got 0}}
func.func private @zero_dim(!tile.buffer<4x0xf32, global>)

// -----

// expected-error@+1 {{expected a layout only on fragments, but a shared buffer has #tile.row_major<vec = 4>}}
func.func private @layout_on_shared(!tile.buffer<4x4xf32, shared, #tile.row_major<vec = 4>>)

// -----

// expected-error@+1 {{expected a fragment layout attribute, but got "row_major"}}
func.func private @not_a_layout(!tile.buffer<4x4xf32, fragment, "row_major">)

// -----

// expected-error@+1 {{expected the layout's vec (4) to divide the last dimension (6)}}
func.func private @vec_not_dividing(!tile.buffer<8x6xf32, fragment, #tile.row_major<vec = 4>>)

// -----

// expected-error@+1 {{expected vec to be a power of two from 1 to 16, but got 3}}
func.func private @vec_not_power_of_two(!tile.buffer<6xf32, fragment, #tile.row_major<vec = 3>>)

// -----

// expected-error@+1 {{expected vec to be a power of two from 1 to 16, but got 32}}
func.func private @vec_too_wide(!tile.buffer<64xf32, fragment, #tile.row_major<vec = 32>>)

// -----

// expected-error@+1 {{expected vec to be a power of two from 1 to 16, but got 0}}
func.func private @vec_zero(!tile.buffer<64xf32, fragment, #tile.row_major<vec = 0>>)

// -----

// Element counts and sizes are bounded: nothing downstream can overflow
// int64 (2^32 x 2^32 elements are 0 in it).
// expected-error@+1 {{expected a buffer of fewer than 2^63 bytes, but its static sizes overflow that}}
func.func private @bytes_overflow(!tile.buffer<4294967296x4294967296xf32, fragment>)

// -----

// expected-error@+1 {{expected a buffer of fewer than 2^63 bytes, but its static sizes overflow that}}
func.func private @global_bytes_overflow(!tile.buffer<?x4294967296x4294967296xf32, global>)

// -----

// expected-error@+1 {{expected a shared tile of at most 232448 bytes (227 KiB, the shared memory of a block on the largest GPU), but got 262144 bytes}}
func.func private @shared_too_large(!tile.buffer<256x256xf32, shared>)

// -----

// expected-error@+1 {{expected a fragment of at most 1044480 bytes (255 32-bit registers in each of 1024 threads), but got 4194304 bytes}}
func.func private @fragment_too_large(!tile.buffer<1048576xf32, fragment>)

// -----

// The warp product in 64 bits: 2^28 x 16 is 0 in 32 (and the type's
// multiple of 16 x 2^28 a division by zero).
// expected-error@+1 {{expected 1 to 32 warps in total, but got 268435456x16}}
func.func private @mma_warps_overflow(!tile.buffer<32x32xf32, fragment, #tile.mma<warps = [268435456, 16]>>)

// -----

// expected-error@+1 {{expected 1 to 32 warps in total, but got 8x8}}
func.func private @mma_too_many_warps(!tile.buffer<128x64xf32, fragment, #tile.mma<warps = [8, 8]>>)

// -----

//===----------------------------------------------------------------------===//
// tile.kernel: parsing
//===----------------------------------------------------------------------===//

// expected-error@+2 {{grid extent refers to '%bx', which is not a kernel parameter}}
tile.kernel @extent_not_a_param(%A: !tile.buffer<?xf32, global>)
    grid(%bx) = [ceildiv(%bx[0], 4)] threads(32) {
}

// -----

// expected-error@+1 {{grid extent refers to '%B', which is not a kernel parameter}}
tile.kernel @extent_unknown_value(%A: !tile.buffer<?xf32, global>) grid(%bx) = [%B[0]] threads(32) {
}

// -----

// The diagnostic points at the token after the empty region.
tile.kernel @no_body() grid() = [] threads(32) {}
// expected-error@+1 {{expected a kernel body}}
func.func private @after_no_body()

// -----

// expected-error@+1 {{requires refers to '%D', which is not a kernel parameter}}
tile.kernel @requires_unknown(%A: !tile.buffer<?xf32, global>) grid(%bx) = [4] threads(32) requires(%A[0] == %D[0]) {
}

// -----

// expected-error@+1 {{expected '==', '<=', '>=' or 'divides'}}
tile.kernel @requires_less(%A: !tile.buffer<?xf32, global>, %B: !tile.buffer<?xf32, global>) grid(%bx) = [4] threads(32) requires(%A[0] < %B[0]) {
}

// -----

// The two characters of an operator are written together.
// expected-error@+1 {{expected '==', '<=', '>=' or 'divides'}}
tile.kernel @requires_split_operator(%A: !tile.buffer<?xf32, global>, %B: !tile.buffer<?xf32, global>) grid(%bx) = [4] threads(32) requires(%A[0] = = %B[0]) {
}

// -----

// expected-error@+1 {{expected '==', '<=', '>=' or 'divides'}}
tile.kernel @requires_no_operator(%A: !tile.buffer<?xf32, global>) grid(%bx) = [4] threads(32) requires(%A[0] 8) {
}

// -----

// expected-error@+1 {{expected '==', '<=', '>=' or 'divides'}}
tile.kernel @requires_divide(%A: !tile.buffer<?xf32, global>, %B: !tile.buffer<?xf32, global>) grid(%bx) = [4] threads(32) requires(%A[0] divide %B[0]) {
}

// -----

//===----------------------------------------------------------------------===//
// tile.kernel: verifier
//===----------------------------------------------------------------------===//

// expected-error@+1 {{'tile.kernel' op expected no results, but the function type has 1}}
"tile.kernel"() <{function_type = () -> i32, grid = [#tile.extent<param = -1, dim = 0, divisor = 1>], param_names = [], sym_name = "results", threads = 32 : i64}> ({
^bb0(%bx: index):
}) : () -> ()

// -----

// expected-error@+1 {{'tile.kernel' op expected 1 parameter names, but got 2}}
"tile.kernel"() <{function_type = (f32) -> (), grid = [#tile.extent<param = -1, dim = 0, divisor = 1>], param_names = ["a", "b"], sym_name = "names", threads = 32 : i64}> ({
^bb0(%a: f32, %bx: index):
}) : () -> ()

// -----

// expected-error@+1 {{'tile.kernel' op expected the kernel name to be a PTX identifier (letters, digits, '_' and '$', not starting with a digit), but it is empty}}
tile.kernel @""(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
}

// -----

// expected-error@+1 {{'tile.kernel' op expected the kernel name to be a PTX identifier (letters, digits, '_' and '$', not starting with a digit), but 'my kernel' has ' ' at position 2}}
tile.kernel @"my kernel"(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
}

// -----

// expected-error@+1 {{but 'a"b' has '"' at position 1}}
tile.kernel @"a\"b"(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
}

// -----

// A generated name with a negative number in it.
// expected-error@+1 {{but 'gemm_r-1' has '-' at position 6}}
tile.kernel @"gemm_r-1"(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
}

// -----

// UTF-8 (a euro sign): the first byte that is not allowed.
// expected-error@+1 {{has the byte 0xE2 at position 1}}
tile.kernel @"k\E2\82\AC"(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
}

// -----

// '.' and '@' print in LLVM but are not PTX.
// expected-error@+1 {{but 'k.1' has '.' at position 1}}
tile.kernel @"k.1"(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
}

// -----

// expected-error@+1 {{'tile.kernel' op expected the kernel name to be a PTX identifier (letters, digits, '_' and '$', not starting with a digit), but '1k' starts with a digit}}
tile.kernel @"1k"(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
}

// -----

// expected-error@+1 {{'tile.kernel' op expected the kernel name to be a PTX identifier (letters, digits, '_' and '$', not starting with a digit), but '_' is a lone '_' (PTX wants a letter, digit, '_' or '$' after it)}}
tile.kernel @_(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
}

// -----

// expected-error@+1 {{'tile.kernel' op expected a kernel name that is not reserved, but 'WARP_SZ' is (WARP_SZ, vprintf and names starting with '__' belong to PTX, the printf lowering and libdevice)}}
tile.kernel @WARP_SZ(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
}

// -----

// expected-error@+1 {{but 'vprintf' is (WARP_SZ, vprintf}}
tile.kernel @vprintf(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
}

// -----

// expected-error@+1 {{but '__dynamic_shmem__0' is (WARP_SZ, vprintf}}
tile.kernel @__dynamic_shmem__0(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
}

// -----

// expected-error@+1 {{'tile.kernel' op expected unique parameter names, but 'A' names parameter #0 and parameter #1}}
"tile.kernel"() <{function_type = (!tile.buffer<?xf32, global>, f32) -> (), grid = [#tile.extent<param = -1, dim = 0, divisor = 1>], param_names = ["A", "A"], sym_name = "same_names", threads = 32 : i64}> ({
^bb0(%a: !tile.buffer<?xf32, global>, %b: f32, %bx: index):
}) : () -> ()

// -----

// The manifest names the size parameter of A's dimension 0 'A.dim0'.
// expected-error@+1 {{'tile.kernel' op expected unique parameter names, but 'A.dim0' names parameter #1 and the size parameter of dimension 0 of 'A'}}
tile.kernel @dim_param_name(%A: !tile.buffer<?xf32, global>, %A.dim0: i32) grid(%bx) = [1] threads(32) {
}

// -----

// expected-error@+1 {{'tile.kernel' op expected a name for parameter #0, but got ''}}
"tile.kernel"() <{function_type = (f32) -> (), grid = [#tile.extent<param = -1, dim = 0, divisor = 1>], param_names = [""], sym_name = "empty_param_name", threads = 32 : i64}> ({
^bb0(%a: f32, %bx: index):
}) : () -> ()

// -----

// expected-error@+1 {{'tile.kernel' op parameter 'S' must be a global buffer or a scalar, but got a shared buffer}}
tile.kernel @shared_param(%S: !tile.buffer<4xf32, shared>) grid(%bx) = [1] threads(32) {
}

// -----

// expected-error@+1 {{'tile.kernel' op parameter 'F' must be a global buffer or a scalar, but got a fragment buffer}}
tile.kernel @fragment_param(%F: !tile.buffer<32xf32, fragment>) grid(%bx) = [1] threads(32) {
}

// -----

// expected-error@+1 {{'tile.kernel' op parameter 'p' must be a global buffer or a scalar (f32, f64, i32, i64), but got 'i8'}}
tile.kernel @i8_param(%p: i8) grid(%bx) = [1] threads(32) {
}

// -----

// expected-error@+1 {{'tile.kernel' op parameter 'arg0' must be a global buffer or a scalar (f32, f64, i32, i64), but got 'index'}}
tile.kernel @index_param(%0: index) grid(%bx) = [1] threads(32) {
}

// -----

// expected-error@+1 {{'tile.kernel' op expected threads to be a multiple of 32 from 32 to 1024, but got 48}}
tile.kernel @threads_not_warps() grid(%bx) = [1] threads(48) {
}

// -----

// expected-error@+1 {{'tile.kernel' op expected threads to be a multiple of 32 from 32 to 1024, but got 2048}}
tile.kernel @too_many_threads() grid(%bx) = [1] threads(2048) {
}

// -----

// expected-error@+1 {{'tile.kernel' op expected threads to be a multiple of 32 from 32 to 1024, but got 0}}
tile.kernel @no_threads() grid(%bx) = [1] threads(0) {
}

// -----

// expected-error@+1 {{'tile.kernel' op expected a grid of 1 to 3 dimensions, but got 4}}
tile.kernel @grid_4d() grid(%a, %b, %c, %d) = [1, 1, 1, 1] threads(32) {
}

// -----

// expected-error@+1 {{'tile.kernel' op expected a grid of 1 to 3 dimensions, but got 0}}
tile.kernel @grid_0d(%n: i32) grid() = [] threads(32) {
}

// -----

// expected-error@+1 {{'tile.kernel' op expected grid dimension 1 to be at least 1, but got 0}}
tile.kernel @zero_extent() grid(%bx, %by) = [4, 0] threads(32) {
}

// -----

// expected-error@+1 {{'tile.kernel' op expected grid dimension 0 to be at least 1, but got -2}}
tile.kernel @negative_extent() grid(%bx) = [-2] threads(32) {
}

// -----

// expected-error@+1 {{'tile.kernel' op grid dimension 0 refers to parameter #3, but the kernel has 1}}
"tile.kernel"() <{function_type = (!tile.buffer<?xf32, global>) -> (), grid = [#tile.extent<param = 3, dim = 0, divisor = 1>], param_names = ["A"], sym_name = "param_out_of_range", threads = 32 : i64}> ({
^bb0(%A: !tile.buffer<?xf32, global>, %bx: index):
}) : () -> ()

// -----

// expected-error@+1 {{'tile.kernel' op grid dimension 0 must refer to a buffer parameter, but 'n' is a scalar}}
tile.kernel @extent_of_scalar(%n: i32) grid(%bx) = [ceildiv(%n[0], 32)] threads(32) {
}

// -----

// expected-error@+1 {{'tile.kernel' op grid dimension 1 refers to dimension 1 of 'A', which has rank 1}}
tile.kernel @extent_dim_out_of_range(%A: !tile.buffer<?xf32, global>) grid(%bx, %by) = [%A[0], %A[1]] threads(32) {
}

// -----

// expected-error@+1 {{'tile.kernel' op grid dimension 0 refers to dimension -1 of 'A', which has rank 1}}
tile.kernel @extent_dim_negative(%A: !tile.buffer<?xf32, global>) grid(%bx) = [%A[-1]] threads(32) {
}

// -----

// expected-error@+1 {{'tile.kernel' op expected the divisor of grid dimension 0 to be at least 1, but got 0}}
tile.kernel @zero_divisor(%A: !tile.buffer<?xf32, global>) grid(%bx) = [ceildiv(%A[0], 0)] threads(32) {
}

// -----

// expected-error@+1 {{divisible refers to '%B', which is not a kernel parameter}}
tile.kernel @divisible_unknown(%A: !tile.buffer<?xf32, global>) grid(%bx) = [4] threads(32) divisible(%B[0] by 8) {
}

// -----

// expected-error@+1 {{expected 'by'}}
tile.kernel @divisible_syntax(%A: !tile.buffer<?xf32, global>) grid(%bx) = [4] threads(32) divisible(%A[0] 8) {
}

// -----

// expected-error@+1 {{'tile.kernel' op divisible must refer to a buffer parameter, but 'n' is a scalar}}
tile.kernel @divisible_scalar(%n: i32) grid(%bx) = [4] threads(32) divisible(%n[0] by 8) {
}

// -----

// expected-error@+1 {{'tile.kernel' op divisible refers to dimension 1 of 'A', which has rank 1}}
tile.kernel @divisible_rank(%A: !tile.buffer<?xf32, global>) grid(%bx) = [4] threads(32) divisible(%A[1] by 8) {
}

// -----

// expected-error@+1 {{'tile.kernel' op divisible refers to dimension 1 of 'A', whose size is static (64): there is nothing to promise}}
tile.kernel @divisible_static(%A: !tile.buffer<?x64xf16, global>) grid(%bx) = [4] threads(32) divisible(%A[1] by 8) {
}

// -----

// expected-error@+1 {{'tile.kernel' op expected the divisor of 'A[0]' to be at least 2, but got 1}}
tile.kernel @divisible_one(%A: !tile.buffer<?xf32, global>) grid(%bx) = [4] threads(32) divisible(%A[0] by 1) {
}

// -----

// expected-error@+1 {{'tile.kernel' op divisible names 'A[0]' twice}}
tile.kernel @divisible_twice(%A: !tile.buffer<?xf32, global>) grid(%bx) = [4] threads(32) divisible(%A[0] by 8, %A[0] by 16) {
}

// -----

// expected-error@+1 {{'tile.kernel' op divisible refers to parameter #2, but the kernel has 1}}
"tile.kernel"() <{divisibility = [#tile.divisibility<param = 2, dim = 0, divisor = 8>], function_type = (!tile.buffer<?xf32, global>) -> (), grid = [#tile.extent<param = -1, dim = 0, divisor = 4>], param_names = ["A"], sym_name = "divisible_param", threads = 32 : i64}> ({
^bb0(%A: !tile.buffer<?xf32, global>, %bx: index):
}) : () -> ()

// -----

// expected-error@+1 {{'tile.kernel' op requires refers to parameter #2, but the kernel has 1}}
"tile.kernel"() <{function_type = (!tile.buffer<?xf32, global>) -> (), grid = [#tile.extent<param = -1, dim = 0, divisor = 4>], param_names = ["A"], requirements = [#tile.shape_relation<lhs_param = 0, lhs_dim = 0, predicate = eq, rhs_param = 2>], sym_name = "requires_param", threads = 32 : i64}> ({
^bb0(%A: !tile.buffer<?xf32, global>, %bx: index):
}) : () -> ()

// -----

// expected-error@+1 {{'tile.kernel' op requires must refer to a buffer parameter, but 'n' is a scalar}}
tile.kernel @requires_scalar(%A: !tile.buffer<?xf32, global>, %n: i32) grid(%bx) = [4] threads(32) requires(%A[0] == %n[0]) {
}

// -----

// expected-error@+1 {{'tile.kernel' op requires refers to dimension 1 of 'A', which has rank 1}}
tile.kernel @requires_rank(%A: !tile.buffer<?xf32, global>) grid(%bx) = [4] threads(32) requires(%A[1] <= 8) {
}

// -----

// expected-error@+1 {{'tile.kernel' op expected a size or a value on the right of 'A[0] == B[0]', but got both (value = 4)}}
"tile.kernel"() <{function_type = (!tile.buffer<?xf32, global>, !tile.buffer<?xf32, global>) -> (), grid = [#tile.extent<param = -1, dim = 0, divisor = 4>], param_names = ["A", "B"], requirements = [#tile.shape_relation<lhs_param = 0, lhs_dim = 0, predicate = eq, rhs_param = 1, value = 4>], sym_name = "requires_both", threads = 32 : i64}> ({
^bb0(%A: !tile.buffer<?xf32, global>, %B: !tile.buffer<?xf32, global>, %bx: index):
}) : () -> ()

// -----

// expected-error@+1 {{'tile.kernel' op requires compares 'A[0]' with itself}}
tile.kernel @requires_self(%A: !tile.buffer<?xf32, global>) grid(%bx) = [4] threads(32) requires(%A[0] <= %A[0]) {
}

// -----

// `A <= B` and `B >= A` are one relation.
// expected-error@+1 {{'tile.kernel' op requires 'B[0] >= A[0]' repeats 'A[0] <= B[0]'}}
tile.kernel @requires_twice(%A: !tile.buffer<?xf32, global>, %B: !tile.buffer<?xf32, global>) grid(%bx) = [4] threads(32) requires(%A[0] <= %B[0], %B[0] >= %A[0]) {
}

// -----

// expected-error@+1 {{'tile.kernel' op requires 'A[0] == 8' repeats 'A[0] == 8'}}
tile.kernel @requires_twice_constant(%A: !tile.buffer<?xf32, global>) grid(%bx) = [4] threads(32) requires(%A[0] == 8, %A[0] == 8) {
}

// -----

// expected-error@+1 {{'tile.kernel' op requires 'A[1] == B[0]', which never holds: A[1] is 64 and B[0] is 32 (static)}}
tile.kernel @requires_static(%A: !tile.buffer<?x64xf16, global>, %B: !tile.buffer<32x?xf16, global>) grid(%bx) = [4] threads(32) requires(%A[1] == %B[0]) {
}

// -----

// expected-error@+1 {{'tile.kernel' op requires 'K[0] divides Q[0]', which never holds: K[0] is 3 and Q[0] is 8 (static)}}
tile.kernel @requires_static_divides(%Q: !tile.buffer<8xf16, global>, %K: !tile.buffer<3xf16, global>) grid(%bx) = [4] threads(32) requires(%K[0] divides %Q[0]) {
}

// -----

// A multiple of a constant is a divisibility promise (`divisible`).
// expected-error@+1 {{'tile.kernel' op expected a size on the right of 'A[0] divides 8', but got the value 8}}
tile.kernel @requires_divides_value(%A: !tile.buffer<?xf32, global>) grid(%bx) = [4] threads(32) requires(%A[0] divides 8) {
}

// -----

// expected-error@+1 {{'tile.kernel' op requires 'X[1] <= 512', which never holds: X[1] is 1024 (static)}}
tile.kernel @requires_static_bound(%X: !tile.buffer<?x1024xf32, global>) grid(%bx) = [4] threads(32) requires(%X[1] <= 512) {
}

// -----

// expected-error@+1 {{'tile.kernel' op requires 'X[0] <= -1', which never holds: sizes are at least 0}}
tile.kernel @requires_negative(%X: !tile.buffer<?xf32, global>) grid(%bx) = [4] threads(32) requires(%X[0] <= -1) {
}

// -----

// expected-error@+1 {{'tile.kernel' op requires cannot hold: 'X[1] >= 8' and 'X[1] <= 4' exclude each other}}
tile.kernel @requires_bounds(%X: !tile.buffer<?x?xf32, global>) grid(%bx) = [4] threads(32) requires(%X[1] <= 4, %X[1] >= 8) {
}

// -----

// The bounds of an equality class: Y[0] is X[1], which is at most 4.
// expected-error@+1 {{'tile.kernel' op requires cannot hold: 'Y[0] >= 8' and 'X[1] <= 4' exclude each other (requires makes Y[0] and X[1] equal)}}
tile.kernel @requires_class_bounds(%X: !tile.buffer<?x?xf32, global>, %Y: !tile.buffer<?xf32, global>) grid(%bx) = [4] threads(32) requires(%X[1] <= 4, %Y[0] == %X[1], %Y[0] >= 8) {
}

// -----

// Two static sizes made equal through a dynamic one.
// expected-error@+1 {{'tile.kernel' op requires cannot hold: the static size A[0] = 64 and the static size C[0] = 32 exclude each other (requires makes A[0] and C[0] equal)}}
tile.kernel @requires_static_class(%A: !tile.buffer<64xf32, global>, %B: !tile.buffer<?xf32, global>, %C: !tile.buffer<32xf32, global>) grid(%bx) = [4] threads(32) requires(%A[0] == %B[0], %B[0] == %C[0]) {
}

// -----

// expected-error@+1 {{'tile.kernel' op requires 'A[0] <= B[0]' cannot hold: A[0] is at least 8 ('A[0] >= 8') and B[0] at most 4 (the static size B[0] = 4)}}
tile.kernel @requires_inequality(%A: !tile.buffer<?xf32, global>, %B: !tile.buffer<4xf32, global>) grid(%bx) = [4] threads(32) requires(%A[0] >= 8, %A[0] <= %B[0]) {
}

// -----

// expected-error@+1 {{'tile.kernel' op expected 2 entry block arguments (1 parameters and 1 block indices), but got 1}}
"tile.kernel"() <{function_type = (f32) -> (), grid = [#tile.extent<param = -1, dim = 0, divisor = 1>], param_names = ["a"], sym_name = "missing_block_index", threads = 32 : i64}> ({
^bb0(%a: f32):
}) : () -> ()

// -----

// expected-error@+1 {{'tile.kernel' op entry block argument #0 has type 'f16', but the parameter type is 'f32'}}
"tile.kernel"() <{function_type = (f32) -> (), grid = [#tile.extent<param = -1, dim = 0, divisor = 1>], param_names = ["a"], sym_name = "param_type_mismatch", threads = 32 : i64}> ({
^bb0(%a: f16, %bx: index):
}) : () -> ()

// -----

// expected-error@+1 {{'tile.kernel' op expected block index #0 to be of type index, but got 'i32'}}
"tile.kernel"() <{function_type = (f32) -> (), grid = [#tile.extent<param = -1, dim = 0, divisor = 1>], param_names = ["a"], sym_name = "block_index_type", threads = 32 : i64}> ({
^bb0(%a: f32, %bx: i32):
}) : () -> ()

// -----

tile.kernel @fragment_not_spread(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(64) {
  // expected-error@+1 {{'tile.alloc_fragment' op expected the fragment's 96 elements to be a multiple of the kernel's 64 threads}}
  %f = tile.alloc_fragment : !tile.buffer<96xf32, fragment>
}

// -----

tile.kernel @fragment_not_spread_by_vec(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(64) {
  // expected-error@+1 {{'tile.alloc_fragment' op expected the fragment's 128 elements to be a multiple of threads x vec = 64 x 4}}
  %f = tile.alloc_fragment : !tile.buffer<128xf32, fragment, #tile.row_major<vec = 4>>
}

// -----

//===----------------------------------------------------------------------===//
// tile.dim
//===----------------------------------------------------------------------===//

tile.kernel @dim_out_of_range(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  // expected-error@+1 {{'tile.dim' op expected a dimension from 0 to 0, but got 1}}
  %n = tile.dim %A[1] : !tile.buffer<?xf32, global>
}

// -----

tile.kernel @dim_negative(%A: !tile.buffer<?x?xf32, global>) grid(%bx) = [1] threads(32) {
  // expected-error@+1 {{'tile.dim' op expected a dimension from 0 to 1, but got -1}}
  %n = tile.dim %A[-1] : !tile.buffer<?x?xf32, global>
}

// -----

//===----------------------------------------------------------------------===//
// tile.alloc_shared, tile.alloc_fragment
//===----------------------------------------------------------------------===//

tile.kernel @alloc_shared_of_fragment() grid(%bx) = [1] threads(32) {
  // expected-error@+1 {{'tile.alloc_shared' op expected a shared buffer, but got a fragment one}}
  %s = tile.alloc_shared : !tile.buffer<32xf32, fragment>
}

// -----

tile.kernel @alloc_shared_of_global() grid(%bx) = [1] threads(32) {
  // expected-error@+1 {{'tile.alloc_shared' op expected a shared buffer, but got a global one}}
  %s = tile.alloc_shared : !tile.buffer<32xf32, global>
}

// -----

tile.kernel @alloc_fragment_of_shared() grid(%bx) = [1] threads(32) {
  // expected-error@+1 {{'tile.alloc_fragment' op expected a fragment buffer, but got a shared one}}
  %f = tile.alloc_fragment : !tile.buffer<32xf32, shared>
}

// -----

func.func @alloc_shared_outside_kernel() {
  // expected-error@+1 {{'tile.alloc_shared' op expected to be inside a tile.kernel}}
  %s = tile.alloc_shared : !tile.buffer<32xf32, shared>
  return
}

// -----

tile.kernel @alloc_shared_unaligned_offset() grid(%bx) = [1] threads(32) {
  // expected-error@+1 {{'tile.alloc_shared' op expected an offset that is a non-negative multiple of 128 bytes, but got 64}}
  %s = tile.alloc_shared offset(64) : !tile.buffer<32xf32, shared>
}

// -----

tile.kernel @alloc_shared_negative_offset() grid(%bx) = [1] threads(32) {
  // expected-error@+1 {{'tile.alloc_shared' op expected an offset that is a non-negative multiple of 128 bytes, but got -128}}
  %s = tile.alloc_shared offset(-128) : !tile.buffer<32xf32, shared>
}

// -----

tile.kernel @alloc_shared_offset_past_the_end() grid(%bx) = [1] threads(32) {
  // expected-error@+1 {{'tile.alloc_shared' op expected the tile to end within 232448 bytes of shared memory, but its offset 232320 and its 256 bytes end at 232576}}
  %s = tile.alloc_shared offset(232320) : !tile.buffer<64xf32, shared>
}

// -----

func.func @alloc_fragment_outside_kernel() {
  // expected-error@+1 {{'tile.alloc_fragment' op expected to be inside a tile.kernel}}
  %f = tile.alloc_fragment : !tile.buffer<32xf32, fragment>
  return
}

// -----

// More elements per thread than a thread has registers.
tile.kernel @fragment_registers(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  // expected-error@+1 {{'tile.alloc_fragment' op expected a fragment of at most 255 32-bit registers per thread, but its 8192 elements over the kernel's 32 threads take 256}}
  %f = tile.alloc_fragment : !tile.buffer<8192xf32, fragment>
}

// -----

// Two f16 elements share a register; an f64 takes two.
tile.kernel @fragment_registers_f64(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(128) {
  %h = tile.alloc_fragment : !tile.buffer<64x128xf16, fragment>
  // expected-error@+1 {{'tile.alloc_fragment' op expected a fragment of at most 255 32-bit registers per thread, but its 16384 elements over the kernel's 128 threads take 256}}
  %d = tile.alloc_fragment : !tile.buffer<128x128xf64, fragment>
}

// -----

//===----------------------------------------------------------------------===//
// tile.copy
//===----------------------------------------------------------------------===//

tile.kernel @copy_global_to_global(%A: !tile.buffer<?xf32, global>, %B: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  // expected-error@+1 {{'tile.copy' op expected at most one global operand, but source and dest are both global; stage the data through a shared or fragment tile}}
  tile.copy %A to %B : !tile.buffer<?xf32, global> to !tile.buffer<?xf32, global>
}

// -----

tile.kernel @copy_rank_mismatch(%A: !tile.buffer<?x?xf32, global>) grid(%bx) = [1] threads(32) {
  %s = tile.alloc_shared : !tile.buffer<64xf32, shared>
  // expected-error@+1 {{'tile.copy' op expected source and dest of the same rank, but got 2 and 1}}
  tile.copy %A to %s : !tile.buffer<?x?xf32, global> to !tile.buffer<64xf32, shared>
}

// -----

tile.kernel @copy_offsets_on_source_tile(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : !tile.buffer<64xf32, shared>
  // expected-error@+1 {{'tile.copy' op expected offsets only on a global operand or a fragment source, but the source is a shared tile}}
  tile.copy %s[%c0] to %A : !tile.buffer<64xf32, shared> to !tile.buffer<?xf32, global>
}

// -----

tile.kernel @copy_offsets_on_dest_tile(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  %c0 = arith.constant 0 : index
  %f = tile.alloc_fragment : !tile.buffer<64xf32, fragment>
  // expected-error@+1 {{'tile.copy' op expected offsets only on a global operand or a fragment source, but the dest is a fragment tile}}
  tile.copy %A[%c0] to %f[%c0] : !tile.buffer<?xf32, global> to !tile.buffer<64xf32, fragment>
}

// -----

tile.kernel @copy_too_few_offsets(%A: !tile.buffer<?x?xf32, global>) grid(%bx) = [1] threads(32) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : !tile.buffer<8x8xf32, shared>
  // expected-error@+1 {{'tile.copy' op expected 2 source offsets, but got 1}}
  tile.copy %A[%c0] to %s : !tile.buffer<?x?xf32, global> to !tile.buffer<8x8xf32, shared>
}

// -----

tile.kernel @copy_too_many_offsets(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : !tile.buffer<64xf32, shared>
  // expected-error@+1 {{'tile.copy' op expected 1 dest offsets, but got 2}}
  tile.copy %s to %A[%c0, %c0] : !tile.buffer<64xf32, shared> to !tile.buffer<?xf32, global>
}

// -----

tile.kernel @copy_int_to_float(%A: !tile.buffer<?xi32, global>) grid(%bx) = [1] threads(32) {
  %s = tile.alloc_shared : !tile.buffer<64xf32, shared>
  // expected-error@+1 {{'tile.copy' op expected the same element type, or two floating-point types, but got 'i32' and 'f32'}}
  tile.copy %A to %s : !tile.buffer<?xi32, global> to !tile.buffer<64xf32, shared>
}

// -----

tile.kernel @copy_shape_mismatch() grid(%bx) = [1] threads(32) {
  %s = tile.alloc_shared : !tile.buffer<32x32xf32, shared>
  %f = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  // expected-error@+1 {{'tile.copy' op expected the source shape 32x32 to match the dest tile 64x64}}
  tile.copy %s to %f : !tile.buffer<32x32xf32, shared> to !tile.buffer<64x64xf32, fragment>
}

// -----

// A global copy unrolls the thread's elements (a masked access each at the
// tensor's edge).
tile.kernel @copy_unrolled_too_far(%A: !tile.buffer<?x?xi8, global>) grid(%bx) = [1] threads(32) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : !tile.buffer<256x512xi8, shared>
  // expected-error@+1 {{'tile.copy' op expected at most 1024 elements per thread in a copy to or from global memory, but the 256x512 tile over the kernel's 32 threads is 4096}}
  tile.copy %A[%c0, %c0] to %s : !tile.buffer<?x?xi8, global> to !tile.buffer<256x512xi8, shared>
}

// -----

//===----------------------------------------------------------------------===//
// tile.atomic_add
//===----------------------------------------------------------------------===//

tile.kernel @atomic_add_shared_source(%C: !tile.buffer<?x?xf32, global>) grid(%bx) = [1] threads(128) {
  %s = tile.alloc_shared : !tile.buffer<64x64xf32, shared>
  // expected-error@+1 {{'tile.atomic_add' op expected a fragment source, but got a shared buffer}}
  tile.atomic_add %s to %C : !tile.buffer<64x64xf32, shared> to !tile.buffer<?x?xf32, global>
}

// -----

tile.kernel @atomic_add_row_values(%D: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(128) {
  %r = tile.alloc_fragment : !tile.buffer<64xf32, fragment, #tile.slice<dim = 1, dim_size = 32, parent = #tile.row_major<vec = 2>>>
  // expected-error@+1 {{'tile.atomic_add' op expected a fragment of a whole tile, but got row values (#tile.slice)}}
  tile.atomic_add %r to %D : !tile.buffer<64xf32, fragment, #tile.slice<dim = 1, dim_size = 32, parent = #tile.row_major<vec = 2>>> to !tile.buffer<?xf32, global>
}

// -----

tile.kernel @atomic_add_to_shared(%C: !tile.buffer<?x?xf32, global>) grid(%bx) = [1] threads(128) {
  %f = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  %s = tile.alloc_shared : !tile.buffer<64x64xf32, shared>
  // expected-error@+1 {{'tile.atomic_add' op expected a global destination, but got a shared tile}}
  tile.atomic_add %f to %s : !tile.buffer<64x64xf32, fragment> to !tile.buffer<64x64xf32, shared>
}

// -----

tile.kernel @atomic_add_rank(%C: !tile.buffer<?x?xf32, global>) grid(%bx) = [1] threads(128) {
  %f = tile.alloc_fragment : !tile.buffer<64xf32, fragment>
  // expected-error@+1 {{'tile.atomic_add' op expected source and dest of the same rank, but got 1 and 2}}
  tile.atomic_add %f to %C : !tile.buffer<64xf32, fragment> to !tile.buffer<?x?xf32, global>
}

// -----

tile.kernel @atomic_add_offsets(%C: !tile.buffer<?x?xf32, global>) grid(%bx) = [1] threads(128) {
  %c0 = arith.constant 0 : index
  %f = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  // expected-error@+1 {{'tile.atomic_add' op expected 2 dest offsets, but got 1}}
  tile.atomic_add %f to %C[%c0] : !tile.buffer<64x64xf32, fragment> to !tile.buffer<?x?xf32, global>
}

// -----

tile.kernel @atomic_add_f16_dest(%H: !tile.buffer<?x?xf16, global>) grid(%bx) = [1] threads(128) {
  %f = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  // expected-error@+1 {{'tile.atomic_add' op expected an f32 destination, but got 'f16'}}
  tile.atomic_add %f to %H : !tile.buffer<64x64xf32, fragment> to !tile.buffer<?x?xf16, global>
}

// -----

tile.kernel @atomic_add_integer_source(%C: !tile.buffer<?x?xf32, global>) grid(%bx) = [1] threads(128) {
  %f = tile.alloc_fragment : !tile.buffer<64x64xi32, fragment>
  // expected-error@+1 {{'tile.atomic_add' op expected a floating-point source, but got 'i32'}}
  tile.atomic_add %f to %C : !tile.buffer<64x64xi32, fragment> to !tile.buffer<?x?xf32, global>
}

// -----

//===----------------------------------------------------------------------===//
// tile.fill, tile.clear
//===----------------------------------------------------------------------===//

tile.kernel @fill_global(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  %zero = arith.constant 0.0 : f32
  // expected-error@+1 {{'tile.fill' op expected a shared or fragment tile, but got a global buffer}}
  tile.fill %A, %zero : !tile.buffer<?xf32, global>
}

// -----

tile.kernel @fill_wrong_value_type() grid(%bx) = [1] threads(32) {
  %s = tile.alloc_shared : !tile.buffer<64xf32, shared>
  %zero = arith.constant 0.0 : f16
  // expected-error@+1 {{'tile.fill' op failed to verify that value type matches the element type of the buffer}}
  "tile.fill"(%s, %zero) : (!tile.buffer<64xf32, shared>, f16) -> ()
}

// -----

tile.kernel @clear_global(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  // expected-error@+1 {{'tile.clear' op expected a shared or fragment tile, but got a global buffer}}
  tile.clear %A : !tile.buffer<?xf32, global>
}

// -----

//===----------------------------------------------------------------------===//
// tile.parallel
//===----------------------------------------------------------------------===//

tile.kernel @parallel_5d() grid(%bx) = [1] threads(32) {
  // expected-error@+1 {{'tile.parallel' op expected 1 to 4 extents, but got 5}}
  tile.parallel (%i, %j, %k, %l, %m) in [2, 2, 2, 2, 2] {
  }
}

// -----

tile.kernel @parallel_0d() grid(%bx) = [1] threads(32) {
  // expected-error@+1 {{'tile.parallel' op expected 1 to 4 extents, but got 0}}
  tile.parallel () in [] {
  }
}

// -----

tile.kernel @parallel_too_many_iterations() grid(%bx) = [1] threads(32) {
  // expected-error@+1 {{'tile.parallel' op expected at most 1044480 iterations (the elements of the largest tile), but got 2x2x4294967296x8 = 137438953472}}
  tile.parallel (%i, %j, %k, %l) in [2, 2, 4294967296, 8] {
  }
}

// -----

// Unrolled, a loop emits its body once per iteration of each thread.
tile.kernel @parallel_unrolled_too_far(%x: f32) grid(%bx) = [1] threads(32) {
  %s = tile.alloc_shared : !tile.buffer<10x10xf32, shared>
  // expected-error@+1 {{'tile.parallel' op expected at most 1024 iterations per thread (the loop is unrolled; a loop over shared tiles may be `rolled`), but its 655360 iterations over the kernel's 32 threads are 20480}}
  tile.parallel (%i, %j) in [65536, 10] {
    tile.store %x, %s[%j, %j] : !tile.buffer<10x10xf32, shared>
  }
}

// -----

// The same loop, rolled, is a loop (no error).
tile.kernel @parallel_rolled_far(%x: f32) grid(%bx) = [1] threads(32) {
  %s = tile.alloc_shared : !tile.buffer<10x10xf32, shared>
  tile.parallel (%i, %j) in [65536, 10] rolled {
    tile.store %x, %s[%j, %j] : !tile.buffer<10x10xf32, shared>
  }
}

// -----

tile.kernel @parallel_iterations_overflow() grid(%bx) = [1] threads(32) {
  // expected-error@+1 {{'tile.parallel' op expected at most 1044480 iterations (the elements of the largest tile), but got 4294967296x4294967296}}
  tile.parallel (%i, %j) in [4294967296, 4294967296] {
  }
}

// -----

tile.kernel @parallel_rolled_fragment() grid(%bx) = [1] threads(32) {
  %f = tile.alloc_fragment : !tile.buffer<64xf32, fragment>
  // expected-error@+1 {{'tile.parallel' op expected a rolled loop to access shared tiles only, but it accesses a fragment}}
  tile.parallel (%i) in [64] rolled {
    // expected-note@+1 {{fragment accessed here}}
    %x = tile.load %f[%i] : !tile.buffer<64xf32, fragment>
  }
}

// -----

tile.kernel @parallel_zero_extent() grid(%bx) = [1] threads(32) {
  // expected-error@+1 {{'tile.parallel' op expected positive extents}}
  tile.parallel (%i, %j) in [4, 0] {
  }
}

// -----

tile.kernel @parallel_iv_count() grid(%bx) = [1] threads(32) {
  // expected-error@+1 {{'tile.parallel' op expected 2 induction variables, but got 1}}
  tile.parallel (%i) in [4, 4] {
  }
}

// -----

// The custom form always gives index induction variables; the generic form
// can give others.
tile.kernel @parallel_iv_type() grid(%bx) = [1] threads(32) {
  // expected-error@+1 {{'tile.parallel' op expected induction variable #1 to be of type index, but got 'i32'}}
  "tile.parallel"() <{extents = array<i64: 4, 4>}> ({
  ^bb0(%i: index, %j: i32):
    "tile.yield"() : () -> ()
  }) : () -> ()
}

// -----

func.func @parallel_outside_kernel() {
  // expected-error@+1 {{'tile.parallel' op expected to be inside a tile.kernel}}
  tile.parallel (%i) in [4] {
  }
  return
}

// -----

tile.kernel @parallel_nested() grid(%bx) = [1] threads(32) {
  tile.parallel (%i) in [4] {
    // expected-error@+1 {{'tile.parallel' op expected no nesting inside another tile.parallel}}
    tile.parallel (%j) in [4] {
    }
  }
}

// -----

tile.kernel @parallel_whole_tile_op(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  %s = tile.alloc_shared : !tile.buffer<64xf32, shared>
  // expected-error@+1 {{'tile.parallel' op expected only tile.load, tile.store and tile.dim among the tile ops of the body, but got 'tile.copy'}}
  tile.parallel (%i) in [64] {
    tile.copy %A[%i] to %s : !tile.buffer<?xf32, global> to !tile.buffer<64xf32, shared>
  }
}

// -----

tile.kernel @parallel_alloc() grid(%bx) = [1] threads(32) {
  // expected-error@+1 {{'tile.parallel' op expected only tile.load, tile.store and tile.dim among the tile ops of the body, but got 'tile.alloc_fragment'}}
  tile.parallel (%i) in [64] {
    %f = tile.alloc_fragment : !tile.buffer<32xf32, fragment>
  }
}

// -----

//===----------------------------------------------------------------------===//
// tile.load, tile.store
//===----------------------------------------------------------------------===//

tile.kernel @load_global(%A: !tile.buffer<64xf32, global>) grid(%bx) = [1] threads(32) {
  tile.parallel (%i) in [64] {
    // expected-error@+1 {{'tile.load' op expected a shared or fragment tile, but got a global buffer; move global data with tile.copy}}
    %x = tile.load %A[%i] : !tile.buffer<64xf32, global>
  }
}

// -----

tile.kernel @store_global(%A: !tile.buffer<64xf32, global>, %x: f32) grid(%bx) = [1] threads(32) {
  tile.parallel (%i) in [64] {
    // expected-error@+1 {{'tile.store' op expected a shared or fragment tile, but got a global buffer; move global data with tile.copy}}
    tile.store %x, %A[%i] : !tile.buffer<64xf32, global>
  }
}

// -----

tile.kernel @load_index_count() grid(%bx) = [1] threads(32) {
  %s = tile.alloc_shared : !tile.buffer<8x8xf32, shared>
  tile.parallel (%i) in [8] {
    // expected-error@+1 {{'tile.load' op expected 2 indices, but got 1}}
    %x = tile.load %s[%i] : !tile.buffer<8x8xf32, shared>
  }
}

// -----

tile.kernel @store_index_count(%x: f32) grid(%bx) = [1] threads(32) {
  %s = tile.alloc_shared : !tile.buffer<64xf32, shared>
  tile.parallel (%i, %j) in [8, 8] {
    // expected-error@+1 {{'tile.store' op expected 1 indices, but got 2}}
    tile.store %x, %s[%i, %j] : !tile.buffer<64xf32, shared>
  }
}

// -----

tile.kernel @load_constant_index_outside(%x: f32) grid(%bx) = [1] threads(32) {
  %c8 = arith.constant 8 : index
  %s = tile.alloc_shared : !tile.buffer<8x8xf32, shared>
  tile.parallel (%i) in [8] {
    // expected-error@+1 {{'tile.load' op expected index #1 from 0 to 7, but got 8}}
    %v = tile.load %s[%i, %c8] : !tile.buffer<8x8xf32, shared>
  }
}

// -----

tile.kernel @store_negative_index(%x: f32) grid(%bx) = [1] threads(32) {
  %cm1 = arith.constant -1 : index
  %s = tile.alloc_shared : !tile.buffer<64xf32, shared>
  tile.parallel (%i) in [8] {
    // expected-error@+1 {{'tile.store' op expected index #0 from 0 to 63, but got -1}}
    tile.store %x, %s[%cm1] : !tile.buffer<64xf32, shared>
  }
}

// -----

tile.kernel @stage_out_of_range() grid(%bx) = [1] threads(32) {
  %c2 = arith.constant 2 : index
  %s = tile.alloc_shared : !tile.buffer<2x64xf32, shared>
  // expected-error@+1 {{'tile.stage' op expected a stage from 0 to 1, but got 2}}
  %t = tile.stage %s[%c2] : !tile.buffer<2x64xf32, shared> -> !tile.buffer<64xf32, shared>
}

// -----

tile.kernel @load_outside_parallel() grid(%bx) = [1] threads(32) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : !tile.buffer<64xf32, shared>
  // expected-error@+1 {{'tile.load' op expected to be inside tile.parallel}}
  %x = tile.load %s[%c0] : !tile.buffer<64xf32, shared>
}

// -----

tile.kernel @store_outside_parallel(%x: f32) grid(%bx) = [1] threads(32) {
  %c0 = arith.constant 0 : index
  %f = tile.alloc_fragment : !tile.buffer<64xf32, fragment>
  // expected-error@+1 {{'tile.store' op expected to be inside tile.parallel}}
  tile.store %x, %f[%c0] : !tile.buffer<64xf32, fragment>
}

// -----

tile.kernel @fragment_shape_mismatch() grid(%bx) = [1] threads(32) {
  %f = tile.alloc_fragment : !tile.buffer<64xf32, fragment>
  tile.parallel (%i) in [32] {
    // expected-error@+1 {{'tile.load' op expected the fragment shape 64 to match the tile.parallel extents 32}}
    %x = tile.load %f[%i] : !tile.buffer<64xf32, fragment>
  }
}

// -----

tile.kernel @fragment_shape_transposed(%x: f32) grid(%bx) = [1] threads(32) {
  %f = tile.alloc_fragment : !tile.buffer<4x8xf32, fragment>
  tile.parallel (%i, %j) in [8, 4] {
    // expected-error@+1 {{'tile.store' op expected the fragment shape 4x8 to match the tile.parallel extents 8x4}}
    tile.store %x, %f[%j, %i] : !tile.buffer<4x8xf32, fragment>
  }
}

// -----

tile.kernel @fragment_indices_swapped() grid(%bx) = [1] threads(32) {
  %f = tile.alloc_fragment : !tile.buffer<8x8xf32, fragment>
  tile.parallel (%i, %j) in [8, 8] {
    // expected-error@+1 {{'tile.load' op expected fragment index #0 to be induction variable #0 of the enclosing tile.parallel}}
    %x = tile.load %f[%j, %i] : !tile.buffer<8x8xf32, fragment>
  }
}

// -----

tile.kernel @fragment_index_computed(%x: f32) grid(%bx) = [1] threads(32) {
  %c0 = arith.constant 0 : index
  %f = tile.alloc_fragment : !tile.buffer<8x8xf32, fragment>
  tile.parallel (%i, %j) in [8, 8] {
    // expected-error@+1 {{'tile.store' op expected fragment index #1 to be induction variable #1 of the enclosing tile.parallel}}
    tile.store %x, %f[%i, %c0] : !tile.buffer<8x8xf32, fragment>
  }
}

// -----

tile.kernel @gemm_global_a(%A: !tile.buffer<16x16xf16, global>) grid(%bx) = [1] threads(32) {
  %b = tile.alloc_shared : !tile.buffer<16x8xf16, shared>
  %c = tile.alloc_fragment : !tile.buffer<16x8xf32, fragment>
  // expected-error@+1 {{expected A in shared memory or a fragment and B in shared memory, but got a global A and a shared B}}
  tile.gemm %A, %b, %c : !tile.buffer<16x16xf16, global>, !tile.buffer<16x8xf16, shared>, !tile.buffer<16x8xf32, fragment>
}

// -----

tile.kernel @gemm_bad_k(%A: !tile.buffer<?xf16, global>) grid(%bx) = [1] threads(32) {
  %a = tile.alloc_shared : !tile.buffer<16x32xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<16x8xf16, shared>
  %c = tile.alloc_fragment : !tile.buffer<16x8xf32, fragment>
  // expected-error@+1 {{expected B to have K = 32 (the K of A), but got 16 rows}}
  tile.gemm %a, %b, %c : !tile.buffer<16x32xf16, shared>, !tile.buffer<16x8xf16, shared>, !tile.buffer<16x8xf32, fragment>
}

// -----

tile.kernel @gemm_f32_inputs(%A: !tile.buffer<?xf16, global>) grid(%bx) = [1] threads(32) {
  %a = tile.alloc_shared : !tile.buffer<16x16xf32, shared>
  %b = tile.alloc_shared : !tile.buffer<16x8xf32, shared>
  %c = tile.alloc_fragment : !tile.buffer<16x8xf32, fragment>
  // expected-error@+1 {{expected f16 or bf16 A and B of one type, but got 'f32' and 'f32'}}
  tile.gemm %a, %b, %c : !tile.buffer<16x16xf32, shared>, !tile.buffer<16x8xf32, shared>, !tile.buffer<16x8xf32, fragment>
}

// -----

tile.kernel @gemm_bad_c(%A: !tile.buffer<?xf16, global>) grid(%bx) = [1] threads(32) {
  %a = tile.alloc_shared : !tile.buffer<16x16xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<8x16xf16, shared>
  %c = tile.alloc_fragment : !tile.buffer<16x16xf32, fragment>
  // expected-error@+1 {{expected C of shape 16x8, but got 16x16}}
  tile.gemm %a, %b, %c {transpose_b} : !tile.buffer<16x16xf16, shared>, !tile.buffer<8x16xf16, shared>, !tile.buffer<16x16xf32, fragment>
}

// -----

tile.kernel @gemm_mma_shape(%A: !tile.buffer<?xf16, global>) grid(%bx) = [1] threads(32) {
  %a = tile.alloc_shared : !tile.buffer<24x16xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<16x8xf16, shared>
  %c = tile.alloc_fragment : !tile.buffer<24x8xf32, fragment>
  // expected-error@+1 {{expected M, N, K multiples of 16, 8, 16 (one m16n8k16 MMA), but got 24, 8, 16}}
  tile.gemm %a, %b, %c : !tile.buffer<24x16xf16, shared>, !tile.buffer<16x8xf16, shared>, !tile.buffer<24x8xf32, fragment>
}

// -----

tile.kernel @gemm_wait_without_next(%A: !tile.buffer<?xf16, global>) grid(%bx) = [1] threads(32) {
  %a = tile.alloc_shared : !tile.buffer<16x16xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<16x8xf16, shared>
  %c = tile.alloc_fragment : !tile.buffer<16x8xf32, fragment>
  // expected-error@+1 {{expected `then wait N prefetch %a, %b` with both next operands and the wait count, or none of them}}
  "tile.gemm"(%a, %b, %c) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>, wait_pending = 1 : i64}> : (!tile.buffer<16x16xf16, shared>, !tile.buffer<16x8xf16, shared>, !tile.buffer<16x8xf32, fragment>) -> ()
}

// -----

tile.kernel @gemm_next_type(%A: !tile.buffer<?xf16, global>) grid(%bx) = [1] threads(32) {
  %a = tile.alloc_shared : !tile.buffer<16x16xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<16x8xf16, shared>
  %n = tile.alloc_shared : !tile.buffer<16x32xf16, shared>
  %c = tile.alloc_fragment : !tile.buffer<16x8xf32, fragment>
  // expected-error@+1 {{failed to verify that the next A has A's type}}
  "tile.gemm"(%a, %b, %c, %n, %b) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>, wait_pending = 0 : i64}> : (!tile.buffer<16x16xf16, shared>, !tile.buffer<16x8xf16, shared>, !tile.buffer<16x8xf32, fragment>, !tile.buffer<16x32xf16, shared>, !tile.buffer<16x8xf16, shared>) -> ()
}

// -----

tile.kernel @gemm_prefetch_dtype(%A: !tile.buffer<?xf16, global>) grid(%bx) = [1] threads(32) {
  %a = tile.alloc_shared : !tile.buffer<16x16xf32, shared>
  %b = tile.alloc_shared : !tile.buffer<16x8xf32, shared>
  %c = tile.alloc_fragment : !tile.buffer<16x8xf32, fragment>
  // expected-error@+1 {{'tile.gemm_prefetch' op expected f16 or bf16 A and B of one type, but got 'f32' and 'f32'}}
  tile.gemm_prefetch %a, %b, %c : !tile.buffer<16x16xf32, shared>, !tile.buffer<16x8xf32, shared>, !tile.buffer<16x8xf32, fragment>
}

// -----

// `prefetched` reads the registers a prefetch loaded: one must come first.
tile.kernel @gemm_prefetched_without_prefetch(%A: !tile.buffer<?xf16, global>) grid(%bx) = [1] threads(32) {
  %a = tile.alloc_shared : !tile.buffer<16x16xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<16x8xf16, shared>
  %c = tile.alloc_fragment : !tile.buffer<16x8xf32, fragment>
  %d = tile.alloc_fragment : !tile.buffer<16x8xf32, fragment>
  // A prefetch on another accumulator does not count.
  tile.gemm_prefetch %a, %b, %d : !tile.buffer<16x16xf16, shared>, !tile.buffer<16x8xf16, shared>, !tile.buffer<16x8xf32, fragment>
  // expected-error@+1 {{'tile.gemm' op is `prefetched`, but no tile.gemm_prefetch or `then wait N prefetch` on its accumulator comes before it}}
  tile.gemm %a, %b, %c prefetched : !tile.buffer<16x16xf16, shared>, !tile.buffer<16x8xf16, shared>, !tile.buffer<16x8xf32, fragment>
}

// -----

tile.kernel @gemm_prefetched_after(%A: !tile.buffer<?xf16, global>) grid(%bx) = [1] threads(32) {
  %a = tile.alloc_shared : !tile.buffer<16x16xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<16x8xf16, shared>
  %c = tile.alloc_fragment : !tile.buffer<16x8xf32, fragment>
  // expected-error@+1 {{'tile.gemm' op is `prefetched`, but no tile.gemm_prefetch or `then wait N prefetch` on its accumulator comes before it}}
  tile.gemm %a, %b, %c prefetched : !tile.buffer<16x16xf16, shared>, !tile.buffer<16x8xf16, shared>, !tile.buffer<16x8xf32, fragment>
  tile.gemm_prefetch %a, %b, %c : !tile.buffer<16x16xf16, shared>, !tile.buffer<16x8xf16, shared>, !tile.buffer<16x8xf32, fragment>
}

// -----

tile.kernel @gemm_prefetched_transposes(%A: !tile.buffer<?xf16, global>) grid(%bx) = [1] threads(32) {
  %a = tile.alloc_shared : !tile.buffer<16x16xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<16x8xf16, shared>
  %bt = tile.alloc_shared : !tile.buffer<8x16xf16, shared>
  %c = tile.alloc_fragment : !tile.buffer<16x8xf32, fragment>
  // expected-note@+1 {{the prefetch}}
  tile.gemm_prefetch %a, %bt, %c {transpose_b} : !tile.buffer<16x16xf16, shared>, !tile.buffer<8x16xf16, shared>, !tile.buffer<16x8xf32, fragment>
  // expected-error@+1 {{'tile.gemm' op expected the prefetch of its operands to have its transposes (no transpose), but got transpose_b}}
  tile.gemm %a, %b, %c prefetched : !tile.buffer<16x16xf16, shared>, !tile.buffer<16x8xf16, shared>, !tile.buffer<16x8xf32, fragment>
}

// -----

tile.kernel @gemm_prefetched_element_type(%A: !tile.buffer<?xf16, global>) grid(%bx) = [1] threads(32) {
  %a = tile.alloc_shared : !tile.buffer<16x16xbf16, shared>
  %b = tile.alloc_shared : !tile.buffer<16x8xbf16, shared>
  %h = tile.alloc_shared : !tile.buffer<16x16xf16, shared>
  %hb = tile.alloc_shared : !tile.buffer<16x8xf16, shared>
  %c = tile.alloc_fragment : !tile.buffer<16x8xf32, fragment>
  // expected-note@+1 {{the prefetch}}
  tile.gemm_prefetch %h, %hb, %c : !tile.buffer<16x16xf16, shared>, !tile.buffer<16x8xf16, shared>, !tile.buffer<16x8xf32, fragment>
  // expected-error@+1 {{'tile.gemm' op expected the prefetch of its operands to be of its element type 'bf16', but got 'f16'}}
  tile.gemm %a, %b, %c prefetched : !tile.buffer<16x16xbf16, shared>, !tile.buffer<16x8xbf16, shared>, !tile.buffer<16x8xf32, fragment>
}

// -----

// In a loop, the next iteration reads what the body prefetched last: the
// prefetch before the loop serves the first iteration only.
tile.kernel @gemm_prefetched_loop(%A: !tile.buffer<?xf16, global>) grid(%bx) = [1] threads(32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = tile.alloc_shared : !tile.buffer<16x16xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<16x8xf16, shared>
  %c = tile.alloc_fragment : !tile.buffer<16x8xf32, fragment>
  tile.gemm_prefetch %a, %b, %c : !tile.buffer<16x16xf16, shared>, !tile.buffer<16x8xf16, shared>, !tile.buffer<16x8xf32, fragment>
  // expected-note@+1 {{the loop}}
  scf.for %i = %c0 to %c4 step %c1 {
    // expected-error@+1 {{'tile.gemm' op is `prefetched` in a loop whose body loads no prefetch on its accumulator for the next iteration (`then wait N prefetch`)}}
    tile.gemm %a, %b, %c prefetched : !tile.buffer<16x16xf16, shared>, !tile.buffer<16x8xf16, shared>, !tile.buffer<16x8xf32, fragment>
  }
}

// -----

// The loop form tile-pipeline writes is accepted; a later gemm with other
// transposes is not.
tile.kernel @gemm_prefetched_loop_transposes(%A: !tile.buffer<?xf16, global>) grid(%bx) = [1] threads(32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = tile.alloc_shared : !tile.buffer<16x16xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<16x8xf16, shared>
  %bt = tile.alloc_shared : !tile.buffer<8x16xf16, shared>
  %c = tile.alloc_fragment : !tile.buffer<16x8xf32, fragment>
  tile.gemm_prefetch %a, %b, %c : !tile.buffer<16x16xf16, shared>, !tile.buffer<16x8xf16, shared>, !tile.buffer<16x8xf32, fragment>
  scf.for %i = %c0 to %c4 step %c1 {
    // expected-note@+1 {{the prefetch}}
    tile.gemm %a, %b, %c prefetched then wait 1 prefetch %a, %b : !tile.buffer<16x16xf16, shared>, !tile.buffer<16x8xf16, shared>, !tile.buffer<16x8xf32, fragment>
  }
  // expected-error@+1 {{'tile.gemm' op expected the prefetch of its operands to have its transposes (transpose_b), but got no transpose}}
  tile.gemm %a, %bt, %c prefetched {transpose_b} : !tile.buffer<16x16xf16, shared>, !tile.buffer<8x16xf16, shared>, !tile.buffer<16x8xf32, fragment>
}

// -----

func.func @barrier_outside_kernel() {
  // expected-error@+1 {{'tile.barrier' op expected to be inside a tile.kernel}}
  tile.barrier
  return
}

// -----

tile.kernel @barrier_in_parallel() grid(%bx) = [1] threads(32) {
  // expected-error@+1 {{'tile.parallel' op expected only tile.load, tile.store and tile.dim among the tile ops of the body, but got 'tile.barrier'}}
  tile.parallel (%i) in [32] {
    tile.barrier
  }
}

// -----

// cp.async.wait_group counts are bounded (2^63 - 1 was written as -1).
tile.kernel @async_wait_huge(%A: !tile.buffer<?xf16, global>) grid(%bx) = [1] threads(32) {
  // expected-error@+1 {{'tile.async_wait' op expected at most 16 pending async copy groups (the deepest pipeline), but got 9223372036854775807}}
  tile.async_wait 9223372036854775807
}

// -----

tile.kernel @async_wait_17(%A: !tile.buffer<?xf16, global>) grid(%bx) = [1] threads(32) {
  // expected-error@+1 {{'tile.async_wait' op expected at most 16 pending async copy groups (the deepest pipeline), but got 17}}
  tile.async_wait 17
}

// -----

tile.kernel @gemm_wait_huge(%A: !tile.buffer<?xf16, global>) grid(%bx) = [1] threads(32) {
  %a = tile.alloc_shared : !tile.buffer<16x16xf16, shared>
  %b = tile.alloc_shared : !tile.buffer<16x8xf16, shared>
  %c = tile.alloc_fragment : !tile.buffer<16x8xf32, fragment>
  // expected-error@+1 {{'tile.gemm' op expected at most 16 pending async copy groups (the deepest pipeline), but got 4294967296}}
  tile.gemm %a, %b, %c then wait 4294967296 prefetch %a, %b : !tile.buffer<16x16xf16, shared>, !tile.buffer<16x8xf16, shared>, !tile.buffer<16x8xf32, fragment>
}

// -----

tile.kernel @mma_layout_shape(%A: !tile.buffer<?xf16, global>) grid(%bx) = [1] threads(128) {
  // expected-error@+1 {{expected a fragment shape that is a multiple of 32x16 for #tile.mma<warps = [2, 2]>, but got 48x16}}
  %c = tile.alloc_fragment : !tile.buffer<48x16xf32, fragment, #tile.mma<warps = [2, 2]>>
}

// -----

tile.kernel @mma_layout_warps(%A: !tile.buffer<?xf16, global>) grid(%bx) = [1] threads(64) {
  // expected-error@+1 {{expected #tile.mma<warps = [2, 2]> to cover the kernel's 64 threads, but it has 4 warps}}
  %c = tile.alloc_fragment : !tile.buffer<32x16xf32, fragment, #tile.mma<warps = [2, 2]>>
}

// -----

// expected-error@+1 {{'tile.kernel' op parameter 'h' must be a global buffer or a scalar (f32, f64, i32, i64), but got 'f16'}}
tile.kernel @f16_scalar(%h: f16) grid(%bx) = [1] threads(32) {
}

// -----

tile.kernel @vec_too_wide(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  // expected-error@+1 {{expected the layout's vec (16) to span at most 32 bytes of 'f32'}}
  %a = tile.alloc_fragment : !tile.buffer<256xf32, fragment, #tile.row_major<vec = 16>>
}

// -----

tile.kernel @thread_reduce_shared(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  %s = tile.alloc_shared : !tile.buffer<32xf32, shared>
  // expected-error@+1 {{expected a fragment, but got a shared tile}}
  %r = tile.thread_reduce max %s : !tile.buffer<32xf32, shared> -> f32
}

// -----

tile.kernel @thread_reduce_f16(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  %x = tile.alloc_fragment : !tile.buffer<32xf16, fragment>
  // expected-error@+1 {{expected an f32 fragment, but got 'f16'}}
  %r = tile.thread_reduce max %x : !tile.buffer<32xf16, fragment> -> f32
}

// -----

tile.kernel @reduce_dim0(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  %x = tile.alloc_fragment : !tile.buffer<4x32xf32, fragment>
  %m = tile.alloc_fragment : !tile.buffer<32xf32, fragment>
  // expected-error@+1 {{expected dim(1) (reducing each row); reducing dimension 0 is not supported}}
  tile.reduce max %x into %m dim(0) : !tile.buffer<4x32xf32, fragment>, !tile.buffer<32xf32, fragment>
}

// -----

tile.kernel @reduce_shape(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  %x = tile.alloc_fragment : !tile.buffer<4x32xf32, fragment>
  %m = tile.alloc_fragment : !tile.buffer<8xf32, fragment>
  // expected-error@+1 {{expected a destination of shape 4 (the source 4x32 without dimension 1), but got 8}}
  tile.reduce sum %x into %m dim(1) : !tile.buffer<4x32xf32, fragment>, !tile.buffer<8xf32, fragment>
}

// -----

tile.kernel @reduce_f16(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  %x = tile.alloc_fragment : !tile.buffer<4x32xf16, fragment>
  %m = tile.alloc_fragment : !tile.buffer<4xf16, fragment>
  // expected-error@+1 {{expected f32 source and destination, but got 'f16' and 'f16'}}
  tile.reduce sum %x into %m dim(1) : !tile.buffer<4x32xf16, fragment>, !tile.buffer<4xf16, fragment>
}

// -----

tile.kernel @reduce_wrong_slice(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  %x = tile.alloc_fragment : !tile.buffer<4x32xf32, fragment, #tile.row_major<vec = 4>>
  %m = tile.alloc_fragment : !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 32, parent = #tile.row_major<vec = 2>>>
  // expected-error@+1 {{expected the destination layout to be the source layout #tile.row_major<vec = 4> sliced along dimension 1 of size 32, but got #tile.slice<dim = 1, dim_size = 32, parent = #tile.row_major<vec = 2>>}}
  tile.reduce max %x into %m dim(1) : !tile.buffer<4x32xf32, fragment, #tile.row_major<vec = 4>>, !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 32, parent = #tile.row_major<vec = 2>>>
}

// -----

tile.kernel @reduce_wrong_slice_size(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  %x = tile.alloc_fragment : !tile.buffer<4x32xf32, fragment, #tile.row_major<vec = 4>>
  %m = tile.alloc_fragment : !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 64, parent = #tile.row_major<vec = 4>>>
  // expected-error@+1 {{expected the destination layout to be the source layout #tile.row_major<vec = 4> sliced along dimension 1 of size 32, but got #tile.slice<dim = 1, dim_size = 64, parent = #tile.row_major<vec = 4>>}}
  tile.reduce max %x into %m dim(1) : !tile.buffer<4x32xf32, fragment, #tile.row_major<vec = 4>>, !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 64, parent = #tile.row_major<vec = 4>>>
}

// -----

tile.kernel @slice_dim_size(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  // expected-error@+1 {{expected a positive dim_size (the size of the sliced dimension), but got 0}}
  %m = tile.alloc_fragment : !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 0, parent = #tile.row_major<vec = 4>>>
}

// -----

// The parent's shape rules hold for the parent's shape (8x64 here).
tile.kernel @slice_parent_shape(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(128) {
  // expected-error@+1 {{expected a fragment shape that is a multiple of 32x16 for #tile.mma<warps = [2, 2]>, but got 8x64}}
  %m = tile.alloc_fragment : !tile.buffer<8xf32, fragment, #tile.slice<dim = 1, dim_size = 64, parent = #tile.mma<warps = [2, 2]>>>
}

// -----

tile.kernel @slice_parent(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  // expected-error@+1 {{expected a #tile.row_major or #tile.mma parent, but got #tile.swizzle}}
  %m = tile.alloc_fragment : !tile.buffer<4xf32, fragment, #tile.slice<dim = 1, dim_size = 32, parent = #tile.swizzle>>
}

// -----

tile.kernel @broadcast_index(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(32) {
  %x = tile.alloc_fragment : !tile.buffer<4x32xf32, fragment>
  %m = tile.alloc_fragment : !tile.buffer<4xf32, fragment>
  tile.reduce max %x into %m dim(1) : !tile.buffer<4x32xf32, fragment>, !tile.buffer<4xf32, fragment>
  tile.parallel (%i, %j) in [4, 32] {
    // expected-error@+1 {{expected the index of a broadcast row value to be induction variable #0 of the enclosing tile.parallel}}
    %r = tile.load %m[%j] : !tile.buffer<4xf32, fragment>
    tile.store %r, %x[%i, %j] : !tile.buffer<4x32xf32, fragment>
  }
}

// -----

tile.kernel @gemm_register_a_two_warp_columns(%A: !tile.buffer<?x?xf16, global>) grid(%bx) = [1] threads(128) {
  %p = tile.alloc_fragment : !tile.buffer<64x32xf16, fragment, #tile.mma<warps = [2, 2]>>
  %v = tile.alloc_shared : !tile.buffer<32x64xf16, shared>
  %o = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment, #tile.mma<warps = [2, 2]>>
  // expected-error@+1 {{expected an A fragment with the accumulator's #tile.mma layout of one warp column, but got #tile.mma<warps = [2, 2]> and #tile.mma<warps = [2, 2]>}}
  tile.gemm %p, %v, %o : !tile.buffer<64x32xf16, fragment, #tile.mma<warps = [2, 2]>>, !tile.buffer<32x64xf16, shared>, !tile.buffer<64x64xf32, fragment, #tile.mma<warps = [2, 2]>>
}

// -----

tile.kernel @gemm_register_a_transposed(%A: !tile.buffer<?x?xf16, global>) grid(%bx) = [1] threads(128) {
  %p = tile.alloc_fragment : !tile.buffer<32x64xf16, fragment>
  %v = tile.alloc_shared : !tile.buffer<32x64xf16, shared>
  %o = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  // expected-error@+1 {{expected an A fragment without transpose_a}}
  tile.gemm %p, %v, %o {transpose_a} : !tile.buffer<32x64xf16, fragment>, !tile.buffer<32x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
}

// -----

tile.kernel @gemm_register_b(%A: !tile.buffer<?x?xf16, global>) grid(%bx) = [1] threads(128) {
  %a = tile.alloc_shared : !tile.buffer<64x32xf16, shared>
  %v = tile.alloc_fragment : !tile.buffer<32x64xf16, fragment>
  %o = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  // expected-error@+1 {{expected A in shared memory or a fragment and B in shared memory, but got a shared A and a fragment B}}
  tile.gemm %a, %v, %o : !tile.buffer<64x32xf16, shared>, !tile.buffer<32x64xf16, fragment>, !tile.buffer<64x64xf32, fragment>
}

// -----

tile.kernel @gemm_prefetch_register_a(%A: !tile.buffer<?x?xf16, global>) grid(%bx) = [1] threads(128) {
  %p = tile.alloc_fragment : !tile.buffer<64x32xf16, fragment>
  %v = tile.alloc_shared : !tile.buffer<32x64xf16, shared>
  %o = tile.alloc_fragment : !tile.buffer<64x64xf32, fragment>
  // expected-error@+1 {{expected A and B in shared memory, but got a fragment A and a shared B}}
  tile.gemm_prefetch %p, %v, %o : !tile.buffer<64x32xf16, fragment>, !tile.buffer<32x64xf16, shared>, !tile.buffer<64x64xf32, fragment>
}

// -----

tile.kernel @subview_of_shared() grid(%bx) = [1] threads(32) {
  %s = tile.alloc_shared : !tile.buffer<4x8xf16, shared>
  // expected-error@+1 {{expected a global source and result, but got a shared source and a global result}}
  %v = tile.subview %s[%bx] : !tile.buffer<4x8xf16, shared> to !tile.buffer<8xf16, global>
}

// -----

tile.kernel @subview_all_indices(%Q: !tile.buffer<?x?xf16, global>) grid(%bx) = [1] threads(32) {
  // expected-error@+1 {{expected 1 to 1 leading indices of the rank-2 source, but got 2}}
  %v = tile.subview %Q[%bx, %bx] : !tile.buffer<?x?xf16, global> to !tile.buffer<?xf16, global>
}

// -----

tile.kernel @subview_wrong_shape(%Q: !tile.buffer<?x?x64xf16, global>) grid(%bx) = [1] threads(32) {
  // expected-error@+1 {{expected a result of shape ?x64 and element type 'f16' (the source's trailing dimensions), but got ?x32 and 'f16'}}
  %v = tile.subview %Q[%bx] : !tile.buffer<?x?x64xf16, global> to !tile.buffer<?x32xf16, global>
}

// -----

tile.kernel @print_nobody(%x: f32) grid(%bx) = [1] threads(64) {
  // expected-error@+1 {{expected exactly one of thread(N) and warp(N)}}
  tile.print "x" %x : f32
}

// -----

tile.kernel @print_two_choosers(%x: f32) grid(%bx) = [1] threads(64) {
  // expected-error@+1 {{expected exactly one of thread(N) and warp(N)}}
  tile.print "x" %x thread(0) warp(0) : f32
}

// -----

tile.kernel @print_thread_out_of_range(%x: f32) grid(%bx) = [1] threads(64) {
  // expected-error@+1 {{expected thread in [0, 64), but got 64}}
  tile.print "x" %x thread(64) : f32
}

// -----

tile.kernel @print_shared_from_warp() grid(%bx) = [1] threads(64) {
  %s = tile.alloc_shared : !tile.buffer<8x8xf32, shared>
  // expected-error@+1 {{expected thread(N) to print a shared tile (one thread prints the whole tile)}}
  tile.print "s" %s warp(0) : !tile.buffer<8x8xf32, shared>
}

// -----

tile.kernel @print_global(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] threads(64) {
  // expected-error@+1 {{cannot print a global tensor; copy a tile of it to shared memory or a fragment first}}
  tile.print "A" %A thread(0) : !tile.buffer<?xf32, global>
}

// -----

tile.kernel @print_bad_block(%x: f32) grid(%bx) = [1] threads(64) {
  // expected-error@+1 {{expected a block of 3 indices, but got 2}}
  tile.print "x" %x thread(0) block [0, 0] : f32
}

// -----

tile.kernel @print_in_parallel() grid(%bx) = [1] threads(64) {
  %f = tile.alloc_fragment : !tile.buffer<64xf32, fragment>
  // expected-error@+1 {{expected only tile.load, tile.store and tile.dim among the tile ops of the body, but got 'tile.print'}}
  tile.parallel (%i) in [64] {
    %v = tile.load %f[%i] : !tile.buffer<64xf32, fragment>
    tile.print "v" %v thread(0) : f32
  }
}

// -----

tile.kernel @swizzle_bad_variant() grid(%bx) = [1] threads(64) {
  // expected-error@+1 {{expected 'staging'}}
  %s = tile.alloc_shared : !tile.buffer<64x128xf32, shared, #tile.swizzle<wide>>
}
