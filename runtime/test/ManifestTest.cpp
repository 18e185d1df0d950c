//===- ManifestTest.cpp - Tests of manifest parsing and targets -----------===//
//
// Parsing of the compiler's manifest, every malformed-manifest message, the
// dtype helpers and the chip / image-kind helpers. No GPU needed.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "tile/runtime/Manifest.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <functional>

using namespace tile::rt;
using json = nlohmann::json;

namespace {

TEST(Manifest, ParsesTheContractExample) {
  ManifestInfo manifest = parseManifest(kVectorAddManifest);
  EXPECT_EQ(manifest.version, 1);
  EXPECT_EQ(manifest.target.chip, "sm_90");
  EXPECT_EQ(manifest.target.features, "+ptx80");
  ASSERT_EQ(manifest.kernels.size(), 1u);
  EXPECT_EQ(manifest.kernelNames(), std::vector<std::string>{"vector_add"});

  const KernelInfo &kernel = manifest.kernels[0];
  EXPECT_EQ(manifest.findKernel("vector_add"), &kernel);
  EXPECT_EQ(manifest.findKernel("nope"), nullptr);
  EXPECT_EQ(kernel.block.x, 256u);
  EXPECT_EQ(kernel.block.y, 1u);
  EXPECT_EQ(kernel.block.z, 1u);
  EXPECT_EQ(kernel.dynamicSharedMemory, 0u);
  ASSERT_EQ(kernel.grid.size(), 1u);
  EXPECT_EQ(kernel.grid[0].kind, GridExtent::Kind::CeilDiv);
  EXPECT_EQ(kernel.grid[0].param, "A");
  EXPECT_EQ(kernel.grid[0].dim, 0);
  EXPECT_EQ(kernel.grid[0].divisor, 1024);

  ASSERT_EQ(kernel.params.size(), 7u);
  EXPECT_EQ(kernel.params[0].name, "A");
  EXPECT_EQ(kernel.params[0].kind, ParamKind::Buffer);
  EXPECT_EQ(kernel.params[0].dtype, DType::f32);
  EXPECT_EQ(kernel.params[0].shape, std::vector<int64_t>{-1});
  EXPECT_EQ(kernel.params[4].name, "B.dim0");
  EXPECT_EQ(kernel.params[4].kind, ParamKind::Dim);
  EXPECT_EQ(kernel.params[4].buffer, "B");
  EXPECT_EQ(kernel.params[4].dim, 0);
  EXPECT_EQ(kernel.params[6].kind, ParamKind::Scalar);
  EXPECT_EQ(kernel.params[6].dtype, DType::f32);

  EXPECT_EQ(kernel.params[0].access, Access::Read);
  EXPECT_EQ(kernel.params[2].access, Access::Write);
  ASSERT_EQ(kernel.relations.size(), 2u);
  EXPECT_EQ(kernel.relations[0].lhs.param, "B");
  EXPECT_EQ(kernel.relations[0].lhs.dim, 0);
  EXPECT_EQ(kernel.relations[0].op, ShapeRelation::Op::Eq);
  EXPECT_TRUE(kernel.relations[0].rhsIsDim);
  EXPECT_EQ(kernel.relations[0].rhs.param, "A");
  EXPECT_EQ(kernel.relations[1].str(), "C[0] == A[0]");

  std::vector<const ParamInfo *> user = kernel.userParams();
  ASSERT_EQ(user.size(), 4u);
  EXPECT_EQ(user[3]->name, "scale");
  EXPECT_EQ(kernel.findParam("C.dim0"), &kernel.params[5]);
}

TEST(Manifest, TensorMapsAndPersistentGrids) {
  json j = json::parse(kVectorAddManifest);
  j["kernels"][0]["persistent"] = {{"blocks_per_sm", 2}};
  j["kernels"][0]["params"].push_back({{"name", "A.tma"},
                                       {"kind", "tensor_map"},
                                       {"buffer", "A"},
                                       {"box", {32}},
                                       {"swizzle", 128}});
  ManifestInfo manifest = parseManifest(j.dump());
  const KernelInfo &kernel = manifest.kernels[0];
  ASSERT_TRUE(kernel.persistent);
  EXPECT_EQ(kernel.persistent->blocksPerMultiprocessor, 2u);
  const ParamInfo &map = kernel.params.back();
  EXPECT_EQ(map.kind, ParamKind::TensorMap);
  EXPECT_EQ(map.buffer, "A");
  EXPECT_EQ(map.box, std::vector<int64_t>{32});
  EXPECT_EQ(map.swizzle, 128);
  // The runtime fills tensor maps in, like dims: not a user parameter.
  EXPECT_EQ(kernel.userParams().size(), 4u);
  // Nor a stream-K kernel's workspace.
  json withWorkspace = j;
  withWorkspace["kernels"][0]["params"].push_back(
      {{"name", "workspace"}, {"kind", "workspace"}, {"bytes_per_block", 8}});
  ManifestInfo streamK = parseManifest(withWorkspace.dump());
  EXPECT_EQ(streamK.kernels[0].params.back().kind, ParamKind::Workspace);
  EXPECT_EQ(streamK.kernels[0].params.back().bytesPerBlock, 8);
  EXPECT_EQ(streamK.kernels[0].userParams().size(), 4u);
  withWorkspace["kernels"][0]["params"].back()["bytes_per_block"] = 0;
  EXPECT_THROW(parseManifest(withWorkspace.dump()), Error);
  // A persistent grid covers every tile in x: A of 5000 elements in blocks
  // of 1024 is 5 tiles.
  Dim3 grid = kernel.gridFor({{5000}, {5000}, {5000}});
  EXPECT_EQ(grid.x, 5u);
  EXPECT_EQ(grid.y, 1u);
  // Clusters of 2: 3 cluster tiles of 2 blocks.
  j["kernels"][0]["persistent"]["cluster"] = {2};
  manifest = parseManifest(j.dump());
  EXPECT_EQ(manifest.kernels[0].persistent->cluster, std::vector<unsigned>{2});
  EXPECT_EQ(manifest.kernels[0].gridFor({{5000}, {5000}, {5000}}).x, 6u);
  j["kernels"][0]["persistent"]["cluster"] = {9};
  EXPECT_TILE_ERROR(parseManifest(j.dump()), "cluster[0]");
}

TEST(Manifest, OptionalFieldsAndUnknownKeys) {
  json j = json::parse(kVectorAddManifest);
  j["producer"] = "tile-translate";
  j["target"].erase("features");
  j["kernels"][0].erase("dynamic_shared_memory");
  j["kernels"][0]["block"] = {128};
  j["kernels"][0]["params"][0]["comment"] = "ignored";
  j["kernels"][0]["params"][3].erase("type");
  j["kernels"][0]["grid"].push_back({{"kind", "const"}, {"value", 4}});
  ManifestInfo manifest = parseManifest(j.dump());
  const KernelInfo &kernel = manifest.kernels[0];
  EXPECT_EQ(manifest.target.features, "");
  EXPECT_EQ(kernel.dynamicSharedMemory, 0u);
  EXPECT_EQ(kernel.block.x, 128u);
  EXPECT_EQ(kernel.block.y, 1u);
  ASSERT_EQ(kernel.grid.size(), 2u);
  EXPECT_EQ(kernel.grid[1].kind, GridExtent::Kind::Const);
  EXPECT_EQ(kernel.grid[1].value, 4);
  EXPECT_TRUE(kernel.params[0].divisibility.empty());

  j["kernels"][0]["params"][1]["divisibility"] = {8};
  EXPECT_EQ(parseManifest(j.dump()).kernels[0].params[1].divisibility,
            std::vector<int64_t>{8});

  // A manifest of an older compiler: no contract, every buffer may be read
  // and written.
  j = json::parse(kVectorAddManifest);
  j["kernels"][0].erase("requires");
  for (json &param : j["kernels"][0]["params"])
    param.erase("access");
  const KernelInfo old = parseManifest(j.dump()).kernels[0];
  EXPECT_TRUE(old.relations.empty());
  EXPECT_EQ(old.params[0].access, Access::ReadWrite);
  EXPECT_EQ(old.params[2].access, Access::ReadWrite);
}

TEST(Manifest, ShapeRelations) {
  json j = json::parse(kVectorAddManifest);
  j["kernels"][0]["requires"] = json::parse(R"([
    {"lhs": {"param": "A", "dim": 0}, "op": "<=", "value": 4096},
    {"lhs": {"param": "B", "dim": 0}, "op": ">=", "value": -3},
    {"lhs": {"param": "C", "dim": 0}, "op": ">=", "rhs": {"param": "B", "dim": 0}},
    {"lhs": {"param": "B", "dim": 0}, "op": "divides", "rhs": {"param": "A", "dim": 0}}
  ])");
  j["kernels"][0]["params"][1]["access"] = "readwrite";
  const KernelInfo kernel = parseManifest(j.dump()).kernels[0];
  ASSERT_EQ(kernel.relations.size(), 4u);
  EXPECT_EQ(kernel.relations[0].str(), "A[0] <= 4096");
  EXPECT_FALSE(kernel.relations[0].rhsIsDim);
  EXPECT_EQ(kernel.relations[0].value, 4096);
  EXPECT_EQ(kernel.relations[1].str(), "B[0] >= -3");
  EXPECT_EQ(kernel.relations[2].str(), "C[0] >= B[0]");
  EXPECT_EQ(kernel.params[1].access, Access::ReadWrite);
  EXPECT_TRUE(kernel.relations[0].holds(4096, 4096));
  EXPECT_FALSE(kernel.relations[0].holds(4097, 4096));
  EXPECT_TRUE(kernel.relations[2].holds(5, 4));
  EXPECT_FALSE(kernel.relations[2].holds(3, 4));
  // B[0] divides A[0]: A[0] is a multiple of B[0]; 0 divides only 0.
  const ShapeRelation &divides = kernel.relations[3];
  EXPECT_EQ(divides.op, ShapeRelation::Op::Divides);
  EXPECT_TRUE(divides.rhsIsDim);
  EXPECT_EQ(divides.str(), "B[0] divides A[0]");
  EXPECT_TRUE(divides.holds(2, 8));
  EXPECT_TRUE(divides.holds(8, 8));
  EXPECT_TRUE(divides.holds(1, 7));
  EXPECT_TRUE(divides.holds(3, 0));
  EXPECT_TRUE(divides.holds(0, 0));
  EXPECT_FALSE(divides.holds(3, 8));
  EXPECT_FALSE(divides.holds(16, 8));
  EXPECT_FALSE(divides.holds(0, 8));
  EXPECT_TRUE(divides.holds(-1, INT64_MIN));
  EXPECT_STREQ(accessName(Access::Read), "read");
  EXPECT_STREQ(accessName(Access::Write), "write");
  EXPECT_STREQ(accessName(Access::ReadWrite), "readwrite");
  EXPECT_STREQ(accessName(Access::Accumulate), "accumulate");
  EXPECT_TRUE(isWritten(Access::ReadWrite));
  EXPECT_TRUE(isWritten(Access::Accumulate));
  j["kernels"][0]["params"][2]["access"] = "accumulate";
  EXPECT_EQ(parseManifest(j.dump()).kernels[0].params[2].access,
            Access::Accumulate);
  EXPECT_FALSE(isWritten(Access::Read));
}

struct MalformedCase {
  const char *what;
  std::function<void(json &)> mutate;
  const char *expected;
};

TEST(Manifest, MalformedManifestsGivePreciseErrors) {
  auto kernel = [](json &j) -> json & { return j["kernels"][0]; };
  auto param = [&](json &j, int i) -> json & { return kernel(j)["params"][i]; };
  auto grid0 = [&](json &j) -> json & { return kernel(j)["grid"][0]; };
  // Appends a tensor_map parameter "A.tma" describing `buffer`.
  auto tensorMap = [&](json &j, const char *buffer, std::vector<int> box,
                       int swizzle) {
    kernel(j)["params"].push_back({{"name", "A.tma"},
                                   {"kind", "tensor_map"},
                                   {"buffer", buffer},
                                   {"box", box},
                                   {"swizzle", swizzle}});
  };
  const MalformedCase cases[] = {
      {"top level", [](json &j) { j = json::array(); },
       "manifest: the top level must be an object, but got array"},
      {"format missing", [](json &j) { j.erase("format"); },
       "manifest: missing field 'format'"},
      {"format", [](json &j) { j["format"] = "other"; },
       "manifest: unsupported format 'other' (expected 'tile-manifest')"},
      {"format type", [](json &j) { j["format"] = 3; },
       "manifest: field 'format' must be a string, but got number"},
      {"version", [](json &j) { j["version"] = 2; },
       "manifest: unsupported version 2 (this runtime reads version 1)"},
      {"version missing", [](json &j) { j.erase("version"); },
       "manifest: missing field 'version'"},
      {"target", [](json &j) { j.erase("target"); },
       "manifest: missing field 'target'"},
      {"target type", [](json &j) { j["target"] = "sm_90"; },
       "manifest: field 'target' must be an object, but got string"},
      {"chip missing", [](json &j) { j["target"].erase("chip"); },
       "manifest: target: missing field 'chip'"},
      {"chip", [](json &j) { j["target"]["chip"] = "gfx90a"; },
       "manifest: target: chip 'gfx90a' is not of the form "
       "sm_<major><minor>[a|f]"},
      {"kernels", [](json &j) { j["kernels"] = json::object(); },
       "manifest: field 'kernels' must be an array, but got object"},
      {"kernel type", [](json &j) { j["kernels"][0] = 7; },
       "manifest: kernels[0]: must be an object, but got number"},
      {"kernel name", [&](json &j) { kernel(j).erase("name"); },
       "manifest: kernels[0]: missing field 'name'"},
      {"kernel name empty", [&](json &j) { kernel(j)["name"] = ""; },
       "manifest: kernels[0]: field 'name' is empty"},
      {"duplicate kernel", [&](json &j) { j["kernels"].push_back(kernel(j)); },
       "manifest: duplicate kernel name 'vector_add'"},
      {"block missing", [&](json &j) { kernel(j).erase("block"); },
       "manifest: kernel 'vector_add': missing field 'block'"},
      {"block zero", [&](json &j) { kernel(j)["block"][0] = 0; },
       "manifest: kernel 'vector_add': block[0] must be in [1, 1024], but "
       "got 0"},
      {"block size",
       [&](json &j) {
         kernel(j)["block"] = {1, 1, 1, 1};
       },
       "manifest: kernel 'vector_add': field 'block' must have 1 to 3 "
       "entries, but has 4"},
      {"block float", [&](json &j) { kernel(j)["block"][1] = 1.5; },
       "manifest: kernel 'vector_add': block[1] must be an integer, but got "
       "1.5"},
      {"grid missing", [&](json &j) { kernel(j).erase("grid"); },
       "manifest: kernel 'vector_add': missing field 'grid'"},
      {"grid empty", [&](json &j) { kernel(j)["grid"] = json::array(); },
       "manifest: kernel 'vector_add': field 'grid' must have 1 to 3 "
       "entries, but has 0"},
      {"grid kind", [&](json &j) { grid0(j)["kind"] = "linear"; },
       "manifest: kernel 'vector_add': grid[0]: unknown kind 'linear' "
       "(expected 'const' or 'ceildiv')"},
      {"grid unknown buffer", [&](json &j) { grid0(j)["param"] = "X"; },
       "manifest: kernel 'vector_add': grid[0]: refers to unknown buffer "
       "'X'"},
      {"grid names a scalar", [&](json &j) { grid0(j)["param"] = "scale"; },
       "manifest: kernel 'vector_add': grid[0]: refers to 'scale', which is "
       "not a buffer"},
      {"grid dim", [&](json &j) { grid0(j)["dim"] = 1; },
       "manifest: kernel 'vector_add': grid[0]: refers to dim 1 of buffer "
       "'A', which has rank 1"},
      {"grid divisor", [&](json &j) { grid0(j)["divisor"] = 0; },
       "manifest: kernel 'vector_add': grid[0]: field 'divisor' must be >= "
       "1, but got 0"},
      {"grid divisor missing", [&](json &j) { grid0(j).erase("divisor"); },
       "manifest: kernel 'vector_add': grid[0]: missing field 'divisor'"},
      {"grid const value",
       [&](json &j) {
         grid0(j) = {{"kind", "const"}, {"value", "8"}};
       },
       "manifest: kernel 'vector_add': grid[0]: field 'value' must be an "
       "integer, but got \"8\""},
      {"shared memory",
       [&](json &j) { kernel(j)["dynamic_shared_memory"] = -1; },
       "manifest: kernel 'vector_add': field 'dynamic_shared_memory' must "
       "be in [0, 4294967295], but got -1"},
      {"params missing", [&](json &j) { kernel(j).erase("params"); },
       "manifest: kernel 'vector_add': missing field 'params'"},
      {"param type", [&](json &j) { param(j, 2) = "C"; },
       "manifest: kernel 'vector_add': params[2]: must be an object, but "
       "got string"},
      {"param name", [&](json &j) { param(j, 1).erase("name"); },
       "manifest: kernel 'vector_add': params[1]: missing field 'name'"},
      {"param kind", [&](json &j) { param(j, 1)["kind"] = "tensor"; },
       "manifest: kernel 'vector_add': param 'B': unknown kind 'tensor' "
       "(expected 'buffer', 'dim', 'scalar', 'tensor_map' or 'workspace')"},
      {"dtype", [&](json &j) { param(j, 1)["dtype"] = "f17"; },
       "manifest: kernel 'vector_add': param 'B': unknown dtype 'f17'"},
      {"dtype missing", [&](json &j) { param(j, 1).erase("dtype"); },
       "manifest: kernel 'vector_add': param 'B': missing field 'dtype'"},
      {"shape", [&](json &j) { param(j, 0)["shape"] = {-2}; },
       "manifest: kernel 'vector_add': param 'A': shape[0] must be >= -1, "
       "but got -2"},
      {"divisibility length",
       [&](json &j) {
         param(j, 0)["divisibility"] = {8, 1};
       },
       "manifest: kernel 'vector_add': param 'A': field 'divisibility' has 2 "
       "entries, but the shape has 1"},
      {"divisibility zero", [&](json &j) { param(j, 0)["divisibility"] = {0}; },
       "manifest: kernel 'vector_add': param 'A': divisibility[0] must be >= "
       "1, but got 0"},
      {"shape missing", [&](json &j) { param(j, 0).erase("shape"); },
       "manifest: kernel 'vector_add': param 'A': missing field 'shape'"},
      {"dim buffer", [&](json &j) { param(j, 3)["buffer"] = "Z"; },
       "manifest: kernel 'vector_add': param 'A.dim0': refers to unknown "
       "buffer 'Z'"},
      {"dim of a dim", [&](json &j) { param(j, 3)["buffer"] = "B.dim0"; },
       "manifest: kernel 'vector_add': param 'A.dim0': refers to 'B.dim0', "
       "which is not a buffer"},
      {"dim index", [&](json &j) { param(j, 3)["dim"] = 2; },
       "manifest: kernel 'vector_add': param 'A.dim0': refers to dim 2 of "
       "buffer 'A', which has rank 1"},
      {"dim type", [&](json &j) { param(j, 3)["type"] = "i32"; },
       "manifest: kernel 'vector_add': param 'A.dim0': dim parameters have "
       "type i64, but got 'i32'"},
      {"scalar type", [&](json &j) { param(j, 6)["type"] = "f16"; },
       "manifest: kernel 'vector_add': param 'scale': unsupported scalar "
       "type 'f16' (expected f32, f64, i32 or i64)"},
      {"scalar type missing", [&](json &j) { param(j, 6).erase("type"); },
       "manifest: kernel 'vector_add': param 'scale': missing field 'type'"},
      {"duplicate param", [&](json &j) { param(j, 1)["name"] = "A"; },
       "manifest: kernel 'vector_add': duplicate param name 'A'"},
      // Every dynamic dim has exactly one dim parameter (else every later
      // parameter of a launch would shift).
      {"dynamic dim without a dim param",
       [&](json &j) { kernel(j)["params"].erase(4); },
       "manifest: kernel 'vector_add': param 'B': dim 0 is dynamic, but no "
       "dim parameter passes its size to the kernel (expected one with "
       "\"buffer\": \"B\", \"dim\": 0)"},
      {"two dim params for one dim",
       [&](json &j) { param(j, 5)["buffer"] = "B"; },
       "manifest: kernel 'vector_add': param 'B': dim 0 is passed by two dim "
       "parameters, 'B.dim0' and 'C.dim0', but a dynamic dim has exactly one"},
      {"dim param of a static dim",
       [&](json &j) { param(j, 0)["shape"] = {16}; },
       "manifest: kernel 'vector_add': param 'A.dim0': refers to dim 0 of "
       "buffer 'A', which is static (size 16); only dynamic dims are passed "
       "as dim parameters"},
      {"block threads",
       [&](json &j) {
         kernel(j)["block"] = {64, 32, 1};
       },
       "manifest: kernel 'vector_add': block 64 x 32 x 1 has 2048 threads, "
       "but CUDA allows at most 1024 per block"},
      {"block z",
       [&](json &j) {
         kernel(j)["block"] = {1, 1, 65};
       },
       "manifest: kernel 'vector_add': block.z = 65 is outside CUDA's range "
       "[1, 64]"},
      {"long kernel name",
       [&](json &j) { kernel(j)["name"] = std::string(5000, 'k'); },
       "manifest: kernels[0]: field 'name' has 5000 bytes, but at most 1024 "
       "are allowed ('kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk"
       "kkkkkkkk...')"},
      // Tensor maps (TMA): A is a rank-1 f32 buffer.
      {"tensor map box rank",
       [&](json &j) {
         tensorMap(j, "A", {64, 2}, 0);
       },
       "manifest: kernel 'vector_add': param 'A.tma': has a box of 2 "
       "extents, but buffer 'A' has rank 1"},
      {"tensor map box extent", [&](json &j) { tensorMap(j, "A", {300}, 0); },
       "manifest: kernel 'vector_add': param 'A.tma': box[0] must be in "
       "[1, 256], but got 300"},
      {"tensor map swizzle", [&](json &j) { tensorMap(j, "A", {64}, 48); },
       "manifest: kernel 'vector_add': param 'A.tma': swizzle must be 0, 32, "
       "64 or 128 bytes, but got 48"},
      {"tensor map row bytes", [&](json &j) { tensorMap(j, "A", {2}, 0); },
       "manifest: kernel 'vector_add': param 'A.tma': a box row of 2 f32 is "
       "8 bytes, but TMA moves rows of whole 16-byte units"},
      {"tensor map row wider than swizzle",
       [&](json &j) { tensorMap(j, "A", {64}, 32); },
       "manifest: kernel 'vector_add': param 'A.tma': a box row of 256 bytes "
       "is wider than its 32-byte swizzle"},
      {"tensor map of a scalar",
       [&](json &j) { tensorMap(j, "scale", {4}, 0); },
       "manifest: kernel 'vector_add': param 'A.tma': describes 'scale', "
       "which is not a buffer parameter"},
      {"tensor map without box",
       [&](json &j) {
         tensorMap(j, "A", {64}, 0);
         kernel(j)["params"].back().erase("box");
       },
       "manifest: kernel 'vector_add': param 'A.tma': missing field 'box'"},
      {"persistent blocks",
       [&](json &j) {
         kernel(j)["persistent"] = {{"blocks_per_sm", 0}};
       },
       "manifest: kernel 'vector_add': persistent: field 'blocks_per_sm' "
       "must be in [1, 32], but got 0"},
      {"persistent type", [&](json &j) { kernel(j)["persistent"] = true; },
       "manifest: kernel 'vector_add': field 'persistent' must be an object, "
       "but got boolean"},
      // The launch contract.
      {"access", [&](json &j) { param(j, 2)["access"] = "rw"; },
       "manifest: kernel 'vector_add': param 'C': unknown access 'rw' "
       "(expected 'read', 'write', 'readwrite' or 'accumulate')"},
      {"access type", [&](json &j) { param(j, 2)["access"] = 1; },
       "manifest: kernel 'vector_add': param 'C': field 'access' must be a "
       "string, but got number"},
      {"requires type", [&](json &j) { kernel(j)["requires"] = "A == B"; },
       "manifest: kernel 'vector_add': field 'requires' must be an array, "
       "but got string"},
      {"relation type", [&](json &j) { kernel(j)["requires"][1] = 3; },
       "manifest: kernel 'vector_add': requires[1]: must be an object, but "
       "got number"},
      {"relation lhs", [&](json &j) { kernel(j)["requires"][0].erase("lhs"); },
       "manifest: kernel 'vector_add': requires[0]: missing field 'lhs'"},
      {"relation lhs dim",
       [&](json &j) { kernel(j)["requires"][0]["lhs"]["dim"] = "0"; },
       "manifest: kernel 'vector_add': requires[0]: lhs: field 'dim' must be "
       "an integer, but got \"0\""},
      {"relation unknown param",
       [&](json &j) { kernel(j)["requires"][1]["lhs"]["param"] = "D"; },
       "manifest: kernel 'vector_add': requires[1]: refers to unknown buffer "
       "'D'"},
      {"relation names a scalar",
       [&](json &j) { kernel(j)["requires"][1]["rhs"]["param"] = "scale"; },
       "manifest: kernel 'vector_add': requires[1]: refers to 'scale', which "
       "is not a buffer"},
      {"relation dim out of range",
       [&](json &j) { kernel(j)["requires"][0]["rhs"]["dim"] = 1; },
       "manifest: kernel 'vector_add': requires[0]: refers to dim 1 of "
       "buffer 'A', which has rank 1"},
      {"relation op", [&](json &j) { kernel(j)["requires"][0]["op"] = "<"; },
       "manifest: kernel 'vector_add': requires[0]: unknown op '<' (expected "
       "'==', '<=', '>=' or 'divides')"},
      {"relation divides a value",
       [&](json &j) {
         kernel(j)["requires"][0]["op"] = "divides";
         kernel(j)["requires"][0].erase("rhs");
         kernel(j)["requires"][0]["value"] = 8;
       },
       "manifest: kernel 'vector_add': requires[0]: op 'divides' compares "
       "with a dimension ('rhs'), but got 'value'"},
      {"relation both sides",
       [&](json &j) { kernel(j)["requires"][0]["value"] = 4; },
       "manifest: kernel 'vector_add': requires[0]: has both 'rhs' and "
       "'value', but a relation compares with one of them"},
      {"relation no rhs",
       [&](json &j) { kernel(j)["requires"][0].erase("rhs"); },
       "manifest: kernel 'vector_add': requires[0]: missing field 'rhs' or "
       "'value'"},
      {"relation value",
       [&](json &j) {
         kernel(j)["requires"][0].erase("rhs");
         kernel(j)["requires"][0]["value"] = 4096.5;
       },
       "manifest: kernel 'vector_add': requires[0]: field 'value' must be an "
       "integer, but got 4096.5"},
      {"relation value beyond int64",
       [&](json &j) {
         kernel(j)["requires"][0].erase("rhs");
         kernel(j)["requires"][0]["value"] = uint64_t(1) << 63;
       },
       "manifest: kernel 'vector_add': requires[0]: field 'value' must be an "
       "integer, but got a huge number"},
  };
  for (const MalformedCase &c : cases) {
    SCOPED_TRACE(c.what);
    json j = json::parse(kVectorAddManifest);
    c.mutate(j);
    EXPECT_TILE_ERROR(parseManifest(j.dump()), c.expected);
  }
}

/// The example manifest with `replacement` in place of the first
/// occurrence of `what`.
std::string exampleWith(const std::string &what,
                        const std::string &replacement) {
  std::string text = kVectorAddManifest;
  std::size_t at = text.find(what);
  EXPECT_NE(at, std::string::npos) << what;
  return text.replace(at, what.size(), replacement);
}

TEST(Manifest, NumbersBeyondDoubleOrInt64) {
  // nlohmann raises out_of_range.406 while parsing: it must reach the caller
  // as an Error that says where.
  EXPECT_TILE_ERROR(
      parseManifest(exampleWith("[256, 1, 1]", "[1e400]")),
      "manifest: not valid JSON: [json.exception.out_of_range.406] number "
      "overflow parsing '1e400' (in kernels[0].block[0])");
  EXPECT_TILE_ERROR(
      parseManifest(exampleWith("\"version\": 1", "\"version\": -1e400")),
      "number overflow parsing '-1e400' (in version)");
  EXPECT_TILE_ERROR(
      parseManifest(exampleWith("\"divisor\": 1024", "\"divisor\": 1e999")),
      "(in kernels[0].grid[0].divisor)");
  // Integers beyond int64 (and uint64) are refused by value.
  EXPECT_TILE_ERROR(
      parseManifest(exampleWith("[256, 1, 1]", "[18446744073709551615]")),
      "manifest: kernel 'vector_add': block[0] must be an integer, but got a "
      "huge number");
  EXPECT_TILE_ERROR(
      parseManifest(exampleWith("[256, 1, 1]", "[123456789012345678901234]")),
      "manifest: kernel 'vector_add': block[0] must be an integer, but got "
      "1.2345678901234569e+23");
  EXPECT_TILE_ERROR(
      parseManifest(
          exampleWith("\"shape\": [-1]", "\"shape\": [-9223372036854775809]")),
      "manifest: kernel 'vector_add': param 'A': shape[0] must be an "
      "integer, but got -9.223372036854776e+18");
  // A huge literal is quoted cut short.
  std::string digits(100000, '9');
  try {
    parseManifest(exampleWith("[256, 1, 1]", "[" + digits + "e9999]"));
    ADD_FAILURE() << "a number beyond a double was accepted";
  } catch (const Error &error) {
    EXPECT_LT(std::string(error.what()).size(), 500u) << error.what();
  }
}

TEST(Manifest, DeepNestingIsBounded) {
  // Finding 9: 100000 nested arrays crashed the message builder. The parser
  // stops at kMaxManifestDepth levels, wherever they are.
  std::string deep = std::string(100000, '[') + "1" + std::string(100000, ']');
  EXPECT_TILE_ERROR(
      parseManifest("{\"format\": \"tile-manifest\", \"version\": " + deep +
                    "}"),
      "manifest: values are nested more than 64 deep (at version[0][0][0]");
  EXPECT_TILE_ERROR(
      parseManifest(exampleWith("\"dim\": 0, \"divisor\"",
                                "\"dim\": " + deep + ", \"divisor\"")),
      "manifest: values are nested more than 64 deep (at "
      "kernels[0].grid[0].dim[0]");
  EXPECT_TILE_ERROR(parseManifest(deep), "nested more than 64 deep");
  std::string objects;
  for (int i = 0; i < 100000; ++i)
    objects += "{\"a\":";
  EXPECT_TILE_ERROR(parseManifest(objects + "1" + std::string(100000, '}')),
                    "manifest: values are nested more than 64 deep (at "
                    "a.a.a.a");

  // 64 levels are allowed (the root object is one), 65 are not, and a
  // nested value quoted in a message is cut short.
  auto nested = [](int levels) {
    return std::string(levels, '[') + "1" + std::string(levels, ']');
  };
  EXPECT_NO_THROW(parseManifest(exampleWith(
      "\"format\"", "\"producer\": " + nested(63) + ", \"format\"")));
  EXPECT_TILE_ERROR(
      parseManifest(exampleWith("\"format\"", "\"producer\": " + nested(64) +
                                                  ", \"format\"")),
      "nested more than 64 deep (at producer");
  EXPECT_TILE_ERROR(parseManifest(exampleWith("\"version\": 1",
                                              "\"version\": " + nested(63))),
                    "manifest: unsupported version " + std::string(63, '[') +
                        "1... (this runtime reads version 1)");
}

TEST(Manifest, LongValuesAreCutInMessages) {
  std::string big(1000000, 'x');
  auto messageOf = [](const std::string &text) {
    try {
      parseManifest(text);
    } catch (const Error &error) {
      return std::string(error.what());
    }
    return std::string("accepted");
  };
  std::string message =
      messageOf(exampleWith("\"tile-manifest\"", "\"" + big + "\""));
  EXPECT_LT(message.size(), 200u) << message;
  EXPECT_NE(message.find("unsupported format 'xxxxxxxx"), std::string::npos)
      << message;
  message = messageOf(
      exampleWith("\"version\": 1", "\"version\": {\"" + big + "\": 1}"));
  EXPECT_LT(message.size(), 200u) << message;
  EXPECT_NE(message.find("unsupported version {\"xxxx"), std::string::npos)
      << message;
  std::string array = "[1";
  for (int i = 0; i < 100000; ++i)
    array += ", 1";
  message = messageOf(exampleWith("[256, 1, 1]", "[" + array + "]]"));
  EXPECT_LT(message.size(), 200u) << message;
  EXPECT_NE(message.find("block[0] must be an integer, but got [1, 1, 1"),
            std::string::npos)
      << message;
  // UTF-8 is cut at a character boundary; invalid UTF-8 is not JSON.
  std::string euros;
  for (int i = 0; i < 100; ++i)
    euros += "\xE2\x82\xAC";
  message = messageOf(exampleWith("\"f32\"", "\"" + euros + "\""));
  EXPECT_NE(message.find("unknown dtype '\xE2\x82\xAC"), std::string::npos)
      << message;
  EXPECT_NE(message.find("\xE2\x82\xAC...'"), std::string::npos) << message;
  EXPECT_TILE_ERROR(
      parseManifest(exampleWith("\"f32\"", "\"\xff\xfe\"")),
      "manifest: not valid JSON: [json.exception.parse_error.101]");
}

TEST(Manifest, CountsAreBounded) {
  // Counts that would make the checks quadratic in a hostile manifest.
  json j = json::parse(kVectorAddManifest);
  json &params = j["kernels"][0]["params"];
  for (int i = 0; i < 5000; ++i)
    params.push_back({{"name", "s" + std::to_string(i)},
                      {"kind", "scalar"},
                      {"type", "f32"}});
  EXPECT_TILE_ERROR(parseManifest(j.dump()),
                    "manifest: kernel 'vector_add': field 'params' has 5007 "
                    "entries, but at most 4095 are allowed (CUDA passes at "
                    "most 32764 bytes of kernel parameters)");
  j = json::parse(kVectorAddManifest);
  j["kernels"][0]["params"][0]["shape"] = std::vector<int>(65, 1);
  EXPECT_TILE_ERROR(parseManifest(j.dump()),
                    "manifest: kernel 'vector_add': param 'A': field 'shape' "
                    "has 65 entries, but at most 64 are allowed");
  j = json::parse(kVectorAddManifest);
  j["kernels"][0]["requires"] =
      std::vector<json>(5000, j["kernels"][0]["requires"][0]);
  EXPECT_TILE_ERROR(parseManifest(j.dump()),
                    "manifest: kernel 'vector_add': field 'requires' has 5000 "
                    "entries, but at most 4096 are allowed");
  // Many kernels parse in linear time (duplicates are found with a set).
  std::string many = "{\"format\": \"tile-manifest\", \"version\": 1, "
                     "\"target\": {\"chip\": \"sm_90\"}, \"kernels\": [";
  for (int i = 0; i < 100000; ++i)
    many += std::string(i ? "," : "") + "{\"name\": \"k" + std::to_string(i) +
            "\", \"block\": [1], \"grid\": [{\"kind\": \"const\", "
            "\"value\": 1}], \"params\": []}";
  EXPECT_EQ(parseManifest(many + "]}").kernels.size(), 100000u);
  EXPECT_TILE_ERROR(
      parseManifest(many + ", {\"name\": \"k7\", \"block\": [1], \"grid\": "
                           "[{\"kind\": \"const\", \"value\": 1}], "
                           "\"params\": []}]}"),
      "manifest: duplicate kernel name 'k7'");
}

TEST(Manifest, InvalidJson) {
  EXPECT_TILE_ERROR(parseManifest("{\"format\": "),
                    "manifest: not valid JSON: ");
  EXPECT_TILE_ERROR(parseManifest(""), "manifest: not valid JSON: ");
}

TEST(Manifest, SourceNamePrefixesMessages) {
  EXPECT_TILE_ERROR(parseManifest("[]", "k.json"),
                    "k.json: the top level must be an object");
}

TEST(Manifest, LoadFile) {
  EXPECT_TILE_ERROR(loadManifestFile("/nonexistent/k.json"),
                    "cannot read manifest '/nonexistent/k.json': No such file");

  std::string path = ::testing::TempDir() + "tile_runtime_manifest.json";
  {
    std::ofstream file(path);
    file << kVectorAddManifest;
  }
  EXPECT_EQ(loadManifestFile(path).kernels.at(0).name, "vector_add");
  {
    std::ofstream file(path);
    file << "{\"format\": \"tile-manifest\"}";
  }
  EXPECT_TILE_ERROR(loadManifestFile(path),
                    "manifest '" + path + "': missing field 'version'");
  std::remove(path.c_str());
}

//===----------------------------------------------------------------------===//
// DType
//===----------------------------------------------------------------------===//

TEST(DType, NamesSizesAndParsing) {
  const std::pair<DType, std::size_t> all[] = {
      {DType::f16, 2}, {DType::bf16, 2}, {DType::f32, 4}, {DType::f64, 8},
      {DType::i8, 1},  {DType::i16, 2},  {DType::i32, 4}, {DType::i64, 8}};
  for (auto [type, size] : all) {
    EXPECT_EQ(dtypeSize(type), size) << dtypeName(type);
    EXPECT_EQ(parseDType(dtypeName(type)), type) << dtypeName(type);
  }
  EXPECT_STREQ(dtypeName(DType::bf16), "bf16");
  EXPECT_EQ(parseDType("float"), std::nullopt);
  EXPECT_EQ(parseDType(""), std::nullopt);
  EXPECT_EQ(parseDType("F32"), std::nullopt);
}

//===----------------------------------------------------------------------===//
// Targets
//===----------------------------------------------------------------------===//

TEST(Target, ParseChip) {
  auto cc = [](const char *chip) {
    std::optional<ComputeCapability> c = parseChip(chip);
    return c ? std::to_string(c->major) + "." + std::to_string(c->minor)
             : std::string("invalid");
  };
  EXPECT_EQ(cc("sm_90"), "9.0");
  EXPECT_EQ(cc("sm_90a"), "9.0");
  EXPECT_EQ(cc("sm_89"), "8.9");
  EXPECT_EQ(cc("sm_100a"), "10.0");
  EXPECT_EQ(cc("sm_120f"), "12.0");
  EXPECT_EQ(cc("sm_9"), "invalid");
  EXPECT_EQ(cc("compute_90"), "invalid");
  EXPECT_EQ(cc("sm_9x"), "invalid");
  EXPECT_EQ(cc("sm_"), "invalid");
  EXPECT_EQ(cc(""), "invalid");
}

TEST(Target, ChipCompatibility) {
  ComputeCapability sm80{8, 0}, sm86{8, 6}, sm90{9, 0}, sm100{10, 0};
  EXPECT_TRUE(isChipCompatible("sm_90", sm90, ImageKind::Cubin));
  EXPECT_FALSE(isChipCompatible("sm_90", sm80, ImageKind::Cubin));
  EXPECT_FALSE(isChipCompatible("sm_90", sm100, ImageKind::Cubin));
  EXPECT_TRUE(isChipCompatible("sm_80", sm86, ImageKind::Cubin));
  EXPECT_FALSE(isChipCompatible("sm_86", sm80, ImageKind::Cubin));
  EXPECT_TRUE(isChipCompatible("sm_90a", sm90, ImageKind::Cubin));
  EXPECT_FALSE(isChipCompatible("sm_90a", sm100, ImageKind::Ptx));
  EXPECT_TRUE(isChipCompatible("sm_80", sm90, ImageKind::Ptx));
  EXPECT_TRUE(isChipCompatible("sm_80", sm100, ImageKind::Fatbin));
  EXPECT_FALSE(isChipCompatible("sm_90", sm80, ImageKind::Ptx));
  EXPECT_FALSE(isChipCompatible("gfx90a", sm90, ImageKind::Ptx));
}

TEST(Target, DetectImageKind) {
  const unsigned char elf[] = {0x7f, 'E', 'L', 'F', 2, 1, 1};
  const unsigned char fatbin[] = {0x50, 0xED, 0x55, 0xBA, 1, 0};
  const char ptx[] = "//\n.version 8.0\n.target sm_90\n";
  EXPECT_EQ(detectImageKind(elf, sizeof(elf)), ImageKind::Cubin);
  EXPECT_EQ(detectImageKind(fatbin, sizeof(fatbin)), ImageKind::Fatbin);
  EXPECT_EQ(detectImageKind(ptx, sizeof(ptx) - 1), ImageKind::Ptx);
  EXPECT_EQ(detectImageKind(elf, 2), ImageKind::Ptx);
}

} // namespace
