// Every diagnostic of the launch attributes' parsers and verifiers
// (TileLaunchAttrs.cpp), one case each: what a gpu-level input's
// `tile.kernels` may not say. The checks against the kernel function's
// signature are in test/Target/manifest-gpu-level-invalid.mlir.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// Parameters
//===----------------------------------------------------------------------===//

// A parameter needs a name.
// expected-error@+1 {{expected a parameter name, but got an empty name}}
func.func private @buffer_no_name() attributes {launch = #tile.buffer_param<name = "", dtype = f32, shape = [4], access = read>}

// -----

// expected-error@+1 {{expected dtype to be f16, bf16, f32, f64, i8, i16, i32 or i64, but got 'index'}}
func.func private @buffer_dtype_index() attributes {launch = #tile.buffer_param<name = "A", dtype = index, shape = [4], access = read>}

// -----

// A dynamic size is `?`, not -1 as in the manifest.
// expected-error@+1 {{expected shape[0] to be ? or a size of at least 0, but got -1}}
func.func private @buffer_shape_minus_1() attributes {launch = #tile.buffer_param<name = "A", dtype = f32, shape = [-1], access = read>}

// -----

// The one integer that would read back as `?`.
// expected-error@+2 {{expected a size or ?, but got -9223372036854775808}}
// expected-error@+1 {{failed to parse Tile_BufferParamAttr parameter 'shape'}}
func.func private @buffer_shape_int64_min() attributes {launch = #tile.buffer_param<name = "A", dtype = f32, shape = [-9223372036854775808], access = read>}

// -----

// expected-error@+1 {{expected divisibility to have 1 entries, one per dimension, but got 2}}
func.func private @divisibility_too_long() attributes {launch = #tile.buffer_param<name = "A", dtype = f32, shape = [?], access = read, divisibility = [1, 8]>}

// -----

// expected-error@+1 {{expected divisibility[1] to be at least 1, but got 0}}
func.func private @divisibility_zero() attributes {launch = #tile.buffer_param<name = "A", dtype = f32, shape = [?, ?], access = read, divisibility = [1, 0]>}

// -----

// expected-error@+2 {{expected ::mlir::tile::BufferAccess to be one of: read, write, readwrite}}
// expected-error@+1 {{failed to parse Tile_BufferParamAttr parameter 'access'}}
func.func private @buffer_access_unknown() attributes {launch = #tile.buffer_param<name = "A", dtype = f32, shape = [4], access = append>}

// -----

// What the runtime can pass by value.
// expected-error@+1 {{expected type to be f32, f64, i32 or i64, but got 'f16'}}
func.func private @scalar_type_f16() attributes {launch = #tile.scalar_param<name = "s", type = f16>}

// -----

// expected-error@+1 {{expected a buffer parameter, but got an empty name}}
func.func private @dim_no_buffer() attributes {launch = #tile.dim_param<name = "A.dim0", buffer = "", dim = 0>}

// -----

// expected-error@+1 {{expected dim to be at least 0, but got -1}}
func.func private @dim_negative() attributes {launch = #tile.dim_param<name = "A.dim0", buffer = "A", dim = -1>}

// -----

// A tensor map (TMA) parameter: its name, its buffer's, a box of 1 to 5
// dimensions of 1 to 256 elements each, and a swizzle TMA has.
// expected-error@+1 {{expected a parameter name, but got an empty name}}
func.func private @tensor_map_no_name() attributes {launch = #tile.tensor_map_param<name = "", buffer = "A", box = [64, 64], swizzle = 128>}

// -----

// expected-error@+1 {{expected a buffer parameter, but got an empty name}}
func.func private @tensor_map_no_buffer() attributes {launch = #tile.tensor_map_param<name = "A.tma0", buffer = "", box = [64, 64], swizzle = 128>}

// -----

// expected-error@+1 {{expected a box of 1 to 5 dimensions, but got 0}}
func.func private @tensor_map_box_empty() attributes {launch = #tile.tensor_map_param<name = "A.tma0", buffer = "A", box = [], swizzle = 128>}

// -----

// expected-error@+1 {{expected a box of 1 to 5 dimensions, but got 6}}
func.func private @tensor_map_box_rank_6() attributes {launch = #tile.tensor_map_param<name = "A.tma0", buffer = "A", box = [1, 1, 1, 1, 1, 1], swizzle = 128>}

// -----

// expected-error@+1 {{expected box extents from 1 to 256, but got 0}}
func.func private @tensor_map_box_zero() attributes {launch = #tile.tensor_map_param<name = "A.tma0", buffer = "A", box = [64, 0], swizzle = 128>}

// -----

// expected-error@+1 {{expected box extents from 1 to 256, but got 257}}
func.func private @tensor_map_box_257() attributes {launch = #tile.tensor_map_param<name = "A.tma0", buffer = "A", box = [257, 64], swizzle = 128>}

// -----

// expected-error@+1 {{expected a swizzle of 0, 32, 64 or 128 bytes, but got 96}}
func.func private @tensor_map_swizzle_96() attributes {launch = #tile.tensor_map_param<name = "A.tma0", buffer = "A", box = [64, 64], swizzle = 96>}

// -----

// expected-error@+1 {{struct is missing required parameter: swizzle}}
func.func private @tensor_map_swizzle_missing() attributes {launch = #tile.tensor_map_param<name = "A.tma0", buffer = "A", box = [64, 64]>}

// -----

//===----------------------------------------------------------------------===//
// Grid rules and relations
//===----------------------------------------------------------------------===//

// expected-error@+1 {{expected a constant of at least 1, but got 0}}
func.func private @grid_constant_zero() attributes {launch = #tile.grid_rule<0>}

// -----

// expected-error@+1 {{expected a divisor of at least 1, but got -128}}
func.func private @grid_divisor_negative() attributes {launch = #tile.grid_rule<ceildiv "A"[0] by -128>}

// -----

// expected-error@+1 {{expected dim to be at least 0, but got -1}}
func.func private @grid_dim_negative() attributes {launch = #tile.grid_rule<ceildiv "A"[-1] by 128>}

// -----

// expected-error@+1 {{expected a buffer parameter to divide, but got an empty name}}
func.func private @grid_ceildiv_no_name() attributes {launch = #tile.grid_rule<ceildiv ""[0] by 128>}

// -----

// expected-error@+1 {{expected a buffer parameter on the left, but got an empty name}}
func.func private @relation_no_lhs() attributes {launch = #tile.size_relation<""[0] eq "B"[0]>}

// -----

// expected-error@+1 {{expected dims of at least 0, but got -2}}
func.func private @relation_dim_negative() attributes {launch = #tile.size_relation<"A"[0] eq "B"[-2]>}

// -----

// expected-error@+1 {{expected a size or a value on the right, but got neither}}
func.func private @relation_no_rhs() attributes {launch = #tile.size_relation<"A"[0] eq ""[0]>}

// -----

// expected-error@+1 {{expected a size ("B"[0]) or an integer}}
func.func private @relation_rhs_not_a_size() attributes {launch = #tile.size_relation<"A"[0] le x>}

// -----

// expected-error@+1 {{expected a size on the right of 'divides', but got the value 8}}
func.func private @relation_divides_value() attributes {launch = #tile.size_relation<"A"[0] divides 8>}

// -----

// `<` is no predicate (and would not balance the brackets).
// expected-error@+2 {{expected ::mlir::tile::ShapePredicate to be one of: eq, le, ge, divides}}
// expected-error@+1 {{failed to parse Tile_SizeRelationAttr parameter 'predicate'}}
func.func private @relation_predicate_lt() attributes {launch = #tile.size_relation<"A"[0] lt 4096>}

// -----

//===----------------------------------------------------------------------===//
// The launch description
//===----------------------------------------------------------------------===//

// expected-error@+1 {{expected a kernel name, but got an empty name}}
func.func private @launch_no_name() attributes {launch = #tile.launch<name = "", block = [32, 1, 1], grid = [#tile.grid_rule<1>], dynamic_shared_memory = 0>}

// -----

// expected-error@+1 {{struct is missing required parameter: name}}
func.func private @launch_name_missing() attributes {launch = #tile.launch<block = [32, 1, 1], grid = [#tile.grid_rule<1>], dynamic_shared_memory = 0>}

// -----

// As the runtime reads "blocks_per_sm".
// expected-error@+1 {{expected persistent (blocks per multiprocessor) from 0 to 32, but got 33}}
func.func private @launch_persistent_range() attributes {launch = #tile.launch<name = "k", block = [32, 1, 1], grid = [#tile.grid_rule<1>], dynamic_shared_memory = 0, persistent = 33>}

// -----

// The dictionary's keys are gone: an unknown one is refused.
// expected-error@+1 {{duplicate or unknown struct parameter name: dynamic_shared_mem}}
func.func private @launch_unknown_field() attributes {launch = #tile.launch<name = "k", block = [32, 1, 1], grid = [#tile.grid_rule<1>], dynamic_shared_mem = 0>}

// -----

// The block the kernel function was compiled for: three extents.
// expected-error@+1 {{expected 3 block extents (x, y, z), but got 2}}
func.func private @block_two_extents() attributes {launch = #tile.launch<name = "k", block = [32, 1], grid = [#tile.grid_rule<1>], dynamic_shared_memory = 0>}

// -----

// expected-error@+1 {{expected block[0] in [1, 1024], but got 0}}
func.func private @block_zero() attributes {launch = #tile.launch<name = "k", block = [0, 1, 1], grid = [#tile.grid_rule<1>], dynamic_shared_memory = 0>}

// -----

// expected-error@+1 {{expected at most 1024 threads in the block, but got 2048}}
func.func private @block_2048_threads() attributes {launch = #tile.launch<name = "k", block = [1024, 2, 1], grid = [#tile.grid_rule<1>], dynamic_shared_memory = 0>}

// -----

// Integers of the block are i64: no other type.
// expected-error@+2 {{expected ']'}}
// expected-error@+1 {{failed to parse Tile_LaunchAttr parameter 'block'}}
func.func private @block_i32() attributes {launch = #tile.launch<name = "k", block = [32 : i32, 1, 1], grid = [#tile.grid_rule<1>], dynamic_shared_memory = 0>}

// -----

// expected-error@+1 {{expected 1 to 3 grid rules, but got 0}}
func.func private @grid_empty() attributes {launch = #tile.launch<name = "k", block = [32, 1, 1], dynamic_shared_memory = 0>}

// -----

// expected-error@+1 {{expected 1 to 3 grid rules, but got 4}}
func.func private @grid_four_rules() attributes {launch = #tile.launch<name = "k", block = [32, 1, 1], grid = [#tile.grid_rule<1>, #tile.grid_rule<1>, #tile.grid_rule<1>, #tile.grid_rule<1>], dynamic_shared_memory = 0>}

// -----

// A grid rule in the dictionary form is refused.
// expected-error@+2 {{expected '<'}}
// expected-error@+1 {{failed to parse Tile_LaunchAttr parameter 'grid'}}
func.func private @grid_dictionary() attributes {launch = #tile.launch<name = "k", block = [32, 1, 1], grid = [{kind = "const", value = 1}], dynamic_shared_memory = 0>}

// -----

// expected-error@+1 {{expected dynamic_shared_memory in [0, 232448], but got -1}}
func.func private @shared_negative() attributes {launch = #tile.launch<name = "k", block = [32, 1, 1], grid = [#tile.grid_rule<1>], dynamic_shared_memory = -1>}

// -----

// At most 227 KiB (kMaxSharedMemoryBytes).
// expected-error@+1 {{expected dynamic_shared_memory in [0, 232448], but got 232449}}
func.func private @shared_past_227_kib() attributes {launch = #tile.launch<name = "k", block = [32, 1, 1], grid = [#tile.grid_rule<1>], dynamic_shared_memory = 232449>}

// -----

// expected-error@+1 {{expected params[0] to be a #tile.buffer_param, #tile.scalar_param, #tile.dim_param, #tile.tensor_map_param or #tile.workspace_param, but got 5 : i64}}
func.func private @param_not_a_param() attributes {launch = #tile.launch<name = "k", block = [32, 1, 1], grid = [#tile.grid_rule<1>], dynamic_shared_memory = 0, params = [5]>}

// -----

// Names are unique, across the kinds too.
// expected-error@+1 {{expected unique parameter names, but params[0] and params[1] are 'A'}}
func.func private @param_names_duplicate() attributes {launch = #tile.launch<name = "k", block = [32, 1, 1], grid = [#tile.grid_rule<1>], dynamic_shared_memory = 0, params = [#tile.buffer_param<name = "A", dtype = f32, shape = [4], access = read>, #tile.scalar_param<name = "A", type = f32>]>}

// -----

// A grid rule names a buffer parameter of the description, and one of its dimensions.
// expected-error@+1 {{expected grid[0] to name a buffer parameter, but got 'Z'}}
func.func private @grid_unknown_param() attributes {launch = #tile.launch<name = "k", block = [32, 1, 1], grid = [#tile.grid_rule<ceildiv "Z"[0] by 32>], dynamic_shared_memory = 0, params = [#tile.buffer_param<name = "A", dtype = f32, shape = [?, 8], access = read>, #tile.dim_param<name = "A.dim0", buffer = "A", dim = 0>]>}

// -----

// expected-error@+1 {{expected grid[1] to name a buffer parameter, but got 's'}}
func.func private @grid_names_scalar() attributes {launch = #tile.launch<name = "k", block = [32, 1, 1], grid = [#tile.grid_rule<1>, #tile.grid_rule<ceildiv "s"[0] by 32>], dynamic_shared_memory = 0, params = [#tile.scalar_param<name = "s", type = f32>]>}

// -----

// expected-error@+1 {{expected grid[0] to name a dimension of 'A' (rank 2), but got dimension 2}}
func.func private @grid_dim_out_of_range() attributes {launch = #tile.launch<name = "k", block = [32, 1, 1], grid = [#tile.grid_rule<ceildiv "A"[2] by 32>], dynamic_shared_memory = 0, params = [#tile.buffer_param<name = "A", dtype = f32, shape = [?, 8], access = read>, #tile.dim_param<name = "A.dim0", buffer = "A", dim = 0>]>}

// -----

// A dim parameter is the size of a dynamic dimension of a buffer parameter.
// expected-error@+1 {{expected params[1] ('B.dim0') to name a buffer parameter, but got 'B'}}
func.func private @dim_unknown_buffer() attributes {launch = #tile.launch<name = "k", block = [32, 1, 1], grid = [#tile.grid_rule<1>], dynamic_shared_memory = 0, params = [#tile.buffer_param<name = "A", dtype = f32, shape = [?, 8], access = read>, #tile.dim_param<name = "B.dim0", buffer = "B", dim = 0>]>}

// -----

// expected-error@+1 {{expected params[2] ('A.dim1') to name a dynamic size, but dimension 1 of 'A' is 8}}
func.func private @dim_of_static_size() attributes {launch = #tile.launch<name = "k", block = [32, 1, 1], grid = [#tile.grid_rule<1>], dynamic_shared_memory = 0, params = [#tile.buffer_param<name = "A", dtype = f32, shape = [?, 8], access = read>, #tile.dim_param<name = "A.dim0", buffer = "A", dim = 0>, #tile.dim_param<name = "A.dim1", buffer = "A", dim = 1>]>}

// -----

// expected-error@+1 {{expected one dim parameter per dynamic size, but params[1] and params[2] are both dimension 0 of 'A'}}
func.func private @dim_twice() attributes {launch = #tile.launch<name = "k", block = [32, 1, 1], grid = [#tile.grid_rule<1>], dynamic_shared_memory = 0, params = [#tile.buffer_param<name = "A", dtype = f32, shape = [?, 8], access = read>, #tile.dim_param<name = "A.dim0", buffer = "A", dim = 0>, #tile.dim_param<name = "A.dim0.again", buffer = "A", dim = 0>]>}

// -----

// Each dynamic size has one: the runtime passes it.
// expected-error@+1 {{expected a dim parameter for dimension 0 of 'A' (dynamic), but there is none}}
func.func private @dim_missing() attributes {launch = #tile.launch<name = "k", block = [32, 1, 1], grid = [#tile.grid_rule<1>], dynamic_shared_memory = 0, params = [#tile.buffer_param<name = "A", dtype = f32, shape = [?, 8], access = read>]>}

// -----

// A relation names buffer parameters and their dimensions.
// expected-error@+1 {{expected contract[1]'s left side to name a buffer parameter, but got 'X'}}
func.func private @contract_unknown_param() attributes {launch = #tile.launch<name = "k", block = [32, 1, 1], grid = [#tile.grid_rule<1>], dynamic_shared_memory = 0, params = [#tile.buffer_param<name = "A", dtype = f32, shape = [?, 8], access = read>, #tile.dim_param<name = "A.dim0", buffer = "A", dim = 0>], contract = [#tile.size_relation<"A"[0] le 4096>, #tile.size_relation<"X"[0] le 4096>]>}

// -----

// expected-error@+1 {{expected contract[0]'s right side to name a dimension of 'A' (rank 2), but got dimension 5}}
func.func private @contract_dim_out_of_range() attributes {launch = #tile.launch<name = "k", block = [32, 1, 1], grid = [#tile.grid_rule<1>], dynamic_shared_memory = 0, params = [#tile.buffer_param<name = "A", dtype = f32, shape = [?, 8], access = read>, #tile.dim_param<name = "A.dim0", buffer = "A", dim = 0>], contract = [#tile.size_relation<"A"[0] eq "A"[5]>]>}

// -----

// A tensor map is of a buffer parameter of the description...
// expected-error@+1 {{expected params[1] ('B.tma0') to name a buffer parameter, but got 'B'}}
func.func private @tensor_map_unknown_buffer() attributes {launch = #tile.launch<name = "k", block = [32, 1, 1], grid = [#tile.grid_rule<1>], dynamic_shared_memory = 0, params = [#tile.buffer_param<name = "A", dtype = f16, shape = [64, 64], access = read>, #tile.tensor_map_param<name = "B.tma0", buffer = "B", box = [64, 64], swizzle = 128>]>}

// -----

// ... not of a scalar ...
// expected-error@+1 {{expected params[1] ('s.tma0') to name a buffer parameter, but got 's'}}
func.func private @tensor_map_of_scalar() attributes {launch = #tile.launch<name = "k", block = [32, 1, 1], grid = [#tile.grid_rule<1>], dynamic_shared_memory = 0, params = [#tile.scalar_param<name = "s", type = f32>, #tile.tensor_map_param<name = "s.tma0", buffer = "s", box = [64], swizzle = 0>]>}

// -----

// ... with one box extent per dimension of the buffer.
// expected-error@+1 {{expected params[1] ('A.tma0') to have a box of rank 2 (that of 'A'), but got rank 3}}
func.func private @tensor_map_box_rank() attributes {launch = #tile.launch<name = "k", block = [32, 1, 1], grid = [#tile.grid_rule<1>], dynamic_shared_memory = 0, params = [#tile.buffer_param<name = "A", dtype = f16, shape = [64, 64], access = read>, #tile.tensor_map_param<name = "A.tma0", buffer = "A", box = [1, 64, 64], swizzle = 128>]>}

// -----

// ... whose swizzled rows fit the swizzle (128 f16 are 256 bytes).
// expected-error@+1 {{expected params[1] ('A.tma0')'s box rows to fit its 128-byte swizzle, but they are 256 bytes}}
func.func private @tensor_map_rows_wider_than_swizzle() attributes {launch = #tile.launch<name = "k", block = [32, 1, 1], grid = [#tile.grid_rule<1>], dynamic_shared_memory = 0, params = [#tile.buffer_param<name = "A", dtype = f16, shape = [64, 128], access = read>, #tile.tensor_map_param<name = "A.tma0", buffer = "A", box = [64, 128], swizzle = 128>]>}

// -----

// Its name is unique among all parameters.
// expected-error@+1 {{expected unique parameter names, but params[0] and params[1] are 'A'}}
func.func private @tensor_map_name_duplicate() attributes {launch = #tile.launch<name = "k", block = [32, 1, 1], grid = [#tile.grid_rule<1>], dynamic_shared_memory = 0, params = [#tile.buffer_param<name = "A", dtype = f16, shape = [64, 64], access = read>, #tile.tensor_map_param<name = "A", buffer = "A", box = [64, 64], swizzle = 128>]>}

// -----

// expected-error@+1 {{expected a cluster only on a persistent kernel}}
func.func private @launch_cluster_not_persistent() attributes {launch = #tile.launch<name = "k", block = [32, 1, 1], grid = [#tile.grid_rule<1>, #tile.grid_rule<2>], dynamic_shared_memory = 0, cluster = [1, 2]>}

// -----

// expected-error@+1 {{expected one cluster extent per grid rule (2), but got 1}}
func.func private @launch_cluster_rank() attributes {launch = #tile.launch<name = "k", block = [32, 1, 1], grid = [#tile.grid_rule<1>, #tile.grid_rule<2>], dynamic_shared_memory = 0, persistent = 1, cluster = [2]>}

// -----

// expected-error@+1 {{expected cluster extents from 1 to 8, but got 9}}
func.func private @launch_cluster_extent() attributes {launch = #tile.launch<name = "k", block = [32, 1, 1], grid = [#tile.grid_rule<1>, #tile.grid_rule<2>], dynamic_shared_memory = 0, persistent = 1, cluster = [1, 9]>}

// -----

// expected-error@+1 {{expected at most 8 blocks per cluster, but got 16}}
func.func private @launch_cluster_blocks() attributes {launch = #tile.launch<name = "k", block = [32, 1, 1], grid = [#tile.grid_rule<1>, #tile.grid_rule<2>], dynamic_shared_memory = 0, persistent = 1, cluster = [4, 4]>}

// -----

// expected-error@+1 {{expected bytes_per_block from 1 to 2^32, but got 0}}
func.func private @workspace_empty() attributes {launch = #tile.workspace_param<name = "workspace", bytes_per_block = 0>}
