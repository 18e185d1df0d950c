//===- LayoutTest.cpp - Layout ownership grids against their docs ---------===//
//
// Every ownership grid in the layouts' ODS documentation (as generated into
// docs/generated/TileAttrs.md) is recomputed through the layout interfaces
// and compared line by line: a layout whose math changes, or a doc that
// drifts from it, fails here. Also checks that owner and element are
// inverse maps for larger configurations than the docs show.
//
// A grid is a code block whose first line names the layout and its tile,
//   #tile.row_major<vec = 2>, 4x8 fragment, T = 4
//   #tile.swizzle, 8x32xf16 tile
// followed by `row R:` lines (a fragment: the owner of each element, `tN`
// for thread N, `lN` for lane N of warp 0; a rank-1 #tile.slice: every
// thread holding the row) or `row R,S:` lines (a shared tile: the position
// of each 16-byte chunk of those rows). `...` lines are skipped.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

using namespace mlir;
using namespace mlir::tile;

namespace {

/// One grid of the docs: its header, tile, and the rows it lists.
struct DocGrid {
  std::string header;
  std::string layout;
  SmallVector<int64_t> shape;
  std::string elementType; // shared tiles
  int64_t threads = 0;     // fragments
  /// (row label, the rest of the line) in doc order.
  std::vector<std::pair<std::string, std::string>> rows;
};

SmallVector<int64_t> parseShape(const std::string &text) {
  SmallVector<int64_t> shape;
  for (StringRef dim : llvm::split(StringRef(text), 'x'))
    shape.push_back(std::stoll(dim.str()));
  return shape;
}

std::string collapseSpaces(const std::string &text) {
  std::istringstream in(text);
  std::string word, out;
  while (in >> word)
    out += (out.empty() ? "" : " ") + word;
  return out;
}

std::vector<DocGrid> readGrids() {
  std::ifstream file(TILE_ATTRS_DOC);
  EXPECT_TRUE(file.good()) << "cannot read " << TILE_ATTRS_DOC;
  static const std::regex fragment(
      R"(^\s*(#tile\..*), ([0-9x]+) fragment, T = ([0-9]+)\s*$)");
  static const std::regex shared(
      R"(^\s*(#tile\..*), ([0-9x]+)x(\w+) tile\s*$)");
  static const std::regex row(R"(^\s*row ([0-9,]+):\s+(.*)$)");
  std::vector<DocGrid> grids;
  std::string line;
  bool inGrid = false;
  while (std::getline(file, line)) {
    std::smatch m;
    if (std::regex_match(line, m, fragment)) {
      grids.push_back({line, m[1], parseShape(m[2]), "", std::stoll(m[3]), {}});
      inGrid = true;
    } else if (std::regex_match(line, m, shared)) {
      grids.push_back({line, m[1], parseShape(m[2]), m[3], 0, {}});
      inGrid = true;
    } else if (inGrid && std::regex_match(line, m, row)) {
      grids.back().rows.push_back({m[1], collapseSpaces(m[2])});
    } else if (inGrid && collapseSpaces(line) != "...") {
      inGrid = false;
    }
  }
  return grids;
}

class LayoutTest : public ::testing::Test {
protected:
  void SetUp() override { context.loadDialect<TileDialect>(); }
  Attribute parse(const std::string &text) {
    return parseAttribute(text, &context);
  }
  MLIRContext context;
};

/// The owners of row `row` of a fragment grid as the doc writes them.
std::string renderFragmentRow(FragmentLayoutAttrInterface layout,
                              const DocGrid &grid, int64_t row, char prefix) {
  std::vector<std::string> tokens;
  auto name = [&](int64_t thread) {
    return prefix + std::to_string(prefix == 'l' ? thread % 32 : thread);
  };
  if (grid.shape.size() == 1) {
    // Replicated: every thread holding the row, in thread order.
    int64_t slots = layout.getRegistersPerThread(grid.shape, grid.threads);
    for (int64_t t = 0; t < grid.threads; ++t)
      for (int64_t s = 0; s < slots; ++s)
        if (layout.getElement(grid.shape, grid.threads, t, s) ==
            SmallVector<int64_t>{row}) {
          tokens.push_back(name(t));
          break;
        }
  } else {
    for (int64_t col = 0; col < grid.shape[1]; ++col) {
      LayoutOwner owner = layout.getOwner(grid.shape, grid.threads, {row, col});
      if (prefix == 'l')
        EXPECT_EQ(owner.warp, 0) << grid.header << ": lanes name warp 0 only";
      tokens.push_back(name(owner.getThread()));
    }
  }
  return llvm::join(tokens, " ");
}

TEST_F(LayoutTest, DocumentedGridsMatchTheInterface) {
  std::vector<DocGrid> grids = readGrids();
  std::map<std::string, int> gridsPerLayout;
  for (const DocGrid &grid : grids) {
    SCOPED_TRACE(grid.header);
    Attribute attr = parse(grid.layout);
    ASSERT_TRUE(attr) << "cannot parse the layout of: " << grid.header;
    ASSERT_FALSE(grid.rows.empty()) << "a grid without rows";
    std::string mnemonic =
        grid.layout.substr(0, grid.layout.find_first_of("<"));
    ++gridsPerLayout[mnemonic];
    // The doc's grid and the interface's, row by row as the doc lists them.
    std::string expected, actual;
    if (auto fragment = dyn_cast<FragmentLayoutAttrInterface>(attr)) {
      ASSERT_TRUE(succeeded(fragment.verifyShape(
          [&] { return emitError(UnknownLoc::get(&context)); }, grid.shape,
          Float32Type::get(&context), grid.threads)));
      char prefix = grid.rows.front().second.front();
      for (const auto &[label, text] : grid.rows) {
        expected += "row " + label + ": " + text + "\n";
        actual += "row " + label + ": " +
                  renderFragmentRow(fragment, grid, std::stoll(label), prefix) +
                  "\n";
      }
    } else {
      auto layout = dyn_cast<SharedLayoutAttrInterface>(attr);
      ASSERT_TRUE(layout) << "not a layout";
      Type type = parseType(grid.elementType, &context);
      ASSERT_TRUE(type);
      int64_t perChunk = 16 / getElementByteWidth(type);
      for (const auto &[label, text] : grid.rows) {
        expected += "row " + label + ": " + text + "\n";
        for (StringRef r : llvm::split(StringRef(label), ',')) {
          std::vector<std::string> chunks;
          for (int64_t c = 0; c < grid.shape.back() / perChunk; ++c)
            chunks.push_back(std::to_string(
                layout
                    .getPhysicalPosition(grid.shape, type,
                                         {std::stoll(r.str()), c * perChunk})
                    .back() /
                perChunk));
          actual +=
              "row " + label + ": chunks " + llvm::join(chunks, " ") + "\n";
          break; // The rows of one label share a pattern; checked below.
        }
        SmallVector<StringRef> labels;
        StringRef(label).split(labels, ',');
        for (StringRef r : labels)
          for (int64_t c = 0; c < grid.shape.back(); ++c)
            EXPECT_EQ(layout
                          .getPhysicalPosition(grid.shape, type,
                                               {std::stoll(labels[0].str()), c})
                          .back(),
                      layout
                          .getPhysicalPosition(grid.shape, type,
                                               {std::stoll(r.str()), c})
                          .back())
                << "rows " << label << " differ at column " << c;
      }
    }
    // Printed in full on a mismatch: the interface's grid next to the doc's.
    EXPECT_EQ(expected, actual);
  }
  // Every layout documents its ownership.
  for (const char *layout : {"#tile.row_major", "#tile.mma", "#tile.slice",
                             "#tile.swizzle", "#tile.wgmma", "#tile.nvmma"})
    EXPECT_GE(gridsPerLayout[layout], 1) << "no grid for " << layout;
}

/// Owner and element are inverse maps, every element has one owner (a
/// first holder), and each thread's slots are exactly its registers.
void expectConsistent(FragmentLayoutAttrInterface layout,
                      ArrayRef<int64_t> shape, int64_t threads) {
  std::string trace;
  llvm::raw_string_ostream os(trace);
  os << Attribute(layout) << " on "
     << llvm::join(
            llvm::map_range(shape, [](int64_t d) { return std::to_string(d); }),
            "x")
     << ", T = " << threads;
  SCOPED_TRACE(trace);
  int64_t slots = layout.getRegistersPerThread(shape, threads);
  ASSERT_GT(slots, 0);
  std::map<SmallVector<int64_t>, int> held;
  for (int64_t t = 0; t < threads; ++t)
    for (int64_t s = 0; s < slots; ++s) {
      SmallVector<int64_t> element = layout.getElement(shape, threads, t, s);
      ASSERT_EQ(element.size(), shape.size());
      for (auto [coord, dim] : llvm::zip_equal(element, shape))
        ASSERT_TRUE(coord >= 0 && coord < dim);
      ++held[element];
      LayoutOwner owner = layout.getOwner(shape, threads, element);
      // The owner holds it in the slot it names.
      EXPECT_EQ(
          layout.getElement(shape, threads, owner.getThread(), owner.slot),
          element);
      if (!isa<SliceLayoutAttr>(layout))
        EXPECT_EQ(owner, (LayoutOwner{t / 32, t % 32, s}));
    }
  int64_t numElements = 1;
  for (int64_t dim : shape)
    numElements *= dim;
  EXPECT_EQ(int64_t(held.size()), numElements) << "elements no thread holds";
}

TEST_F(LayoutTest, OwnerAndElementAreInverse) {
  auto fragment = [&](const char *text) {
    return cast<FragmentLayoutAttrInterface>(parse(text));
  };
  expectConsistent(fragment("#tile.row_major<vec = 4>"), {4, 256}, 64);
  expectConsistent(fragment("#tile.row_major<vec = 8>"), {16, 64}, 128);
  expectConsistent(fragment("#tile.mma<warps = [2, 2]>"), {64, 64}, 128);
  expectConsistent(fragment("#tile.mma<warps = [4, 1]>"), {64, 64}, 128);
  expectConsistent(fragment("#tile.mma<warps = [1, 2]>"), {32, 32}, 64);
  expectConsistent(fragment("#tile.wgmma<warpgroups = [1, 1]>"), {64, 256},
                   128);
  expectConsistent(fragment("#tile.wgmma<warpgroups = [2, 1]>"), {256, 64},
                   256);
  expectConsistent(fragment("#tile.wgmma<warpgroups = [1, 2]>"), {64, 32}, 256);
  expectConsistent(fragment("#tile.slice<dim = 1, dim_size = 64, parent = "
                            "#tile.mma<warps = [2, 2]>>"),
                   {64}, 128);
  expectConsistent(fragment("#tile.slice<dim = 1, dim_size = 1024, parent = "
                            "#tile.row_major<vec = 4>>"),
                   {4}, 128);
  expectConsistent(fragment("#tile.slice<dim = 1, dim_size = 256, parent = "
                            "#tile.row_major<vec = 4>>"),
                   {8}, 128);
}

TEST_F(LayoutTest, WgmmaProducerWarpgroupHoldsNothing) {
  // 384 threads for 2 compute warpgroups: warpgroup 0 produces, the
  // accumulator is spread over threads 128 to 383 as over 0 to 255 without
  // a producer.
  auto wgmma = cast<FragmentLayoutAttrInterface>(
      parse("#tile.wgmma<warpgroups = [2, 1]>"));
  SmallVector<int64_t> shape = {128, 256};
  int64_t slots = wgmma.getRegistersPerThread(shape, 384);
  EXPECT_EQ(slots, 128) << "64 x 256 f32 over 128 threads";
  for (int64_t t = 0; t < 128; ++t)
    EXPECT_TRUE(wgmma.getElement(shape, 384, t, 0).empty()) << "thread " << t;
  for (int64_t t = 128; t < 384; ++t)
    for (int64_t s = 0; s < slots; s += 37) {
      SmallVector<int64_t> element = wgmma.getElement(shape, 384, t, s);
      EXPECT_EQ(element, wgmma.getElement(shape, 256, t - 128, s));
      EXPECT_EQ(wgmma.getOwner(shape, 384, element),
                (LayoutOwner{t / 32, t % 32, s}));
    }
  // The register order of one m64n256 instruction: d[4 i + 2 half + j] is
  // row l/4 + 8 half, column 8 i + 2 (l mod 4) + j of the warp's rows.
  EXPECT_EQ(wgmma.getElement(shape, 256, 5, 4 * 3 + 2 + 1),
            (SmallVector<int64_t>{1 + 8, 8 * 3 + 2 + 1}));
}

TEST_F(LayoutTest, FragmentWindowsKeepTheirThreads) {
  // A 64-column band of the 128x256 accumulator of two compute warpgroups:
  // each thread's registers of columns 128-191, in the window's order
  // (8-column group i is registers 4i to 4i + 3; the band starts at group
  // 16).
  auto wgmma = cast<FragmentLayoutAttrInterface>(
      parse("#tile.wgmma<warpgroups = [2, 1]>"));
  std::string whyNot;
  FailureOr<SmallVector<int64_t>> slots = getFragmentWindowSlots(
      wgmma, {128, 256}, {0, 128}, {128, 64}, 384, whyNot);
  ASSERT_TRUE(succeeded(slots)) << whyNot;
  ASSERT_EQ(slots->size(), 32u);
  for (int64_t s = 0; s < 32; ++s)
    EXPECT_EQ((*slots)[s], 64 + s) << "window register " << s;
  // #tile.mma: a band of 16 columns of a 64x64 tile over 2 x 2 warps is
  // half of each warp's columns, at other threads: refused, with the
  // element that moves.
  auto mma =
      cast<FragmentLayoutAttrInterface>(parse("#tile.mma<warps = [2, 2]>"));
  EXPECT_TRUE(failed(
      getFragmentWindowSlots(mma, {64, 64}, {0, 16}, {64, 16}, 128, whyNot)));
  EXPECT_NE(whyNot.find("of the window is held by thread"), std::string::npos)
      << whyNot;
  // Rows 8 down: the window's row 8 is the fragment's row 16, the next
  // warp's.
  EXPECT_TRUE(failed(getFragmentWindowSlots(wgmma, {256, 256}, {8, 0},
                                            {128, 256}, 384, whyNot)));
  EXPECT_EQ(whyNot, "element (8, 0) of the window is held by thread 160 in "
                    "the fragment but by thread 128 in the window");
}

TEST_F(LayoutTest, NvmmaPanels) {
  auto nvmma =
      cast<SharedLayoutAttrInterface>(parse("#tile.nvmma<swizzle = 128>"));
  Type f16 = Float16Type::get(&context);
  // 8 x 128 f16: two panels of 64 columns, the second stored after the
  // first's 8 x 64 elements (row 4 of the row-major 8 x 128 storage).
  SmallVector<int64_t> shape = {8, 128};
  EXPECT_EQ(nvmma.getPhysicalPosition(shape, f16, {0, 64}),
            (SmallVector<int64_t>{4, 0}));
  // Row 1 of panel 1, chunk 0: XORed to chunk 1.
  EXPECT_EQ(nvmma.getPhysicalPosition(shape, f16, {1, 64}),
            (SmallVector<int64_t>{4, 64 + 8}));
  // A leading stage dimension is kept.
  EXPECT_EQ(nvmma.getPhysicalPosition({3, 8, 128}, f16, {2, 0, 64}),
            (SmallVector<int64_t>{2, 4, 0}));
  // A permutation of the tile: every position once.
  std::set<SmallVector<int64_t>> seen;
  for (int64_t r = 0; r < 16; ++r)
    for (int64_t c = 0; c < 256; ++c)
      seen.insert(nvmma.getPhysicalPosition({16, 256}, f16, {r, c}));
  EXPECT_EQ(seen.size(), 16u * 256);
  auto rows64 =
      cast<SharedLayoutAttrInterface>(parse("#tile.nvmma<swizzle = 64>"));
  // 64-byte panels: chunk c of row r goes to c xor ((r / 2) mod 4).
  EXPECT_EQ(rows64.getPhysicalPosition({8, 32}, f16, {2, 0}),
            (SmallVector<int64_t>{2, 8}));
  EXPECT_EQ(rows64.getPhysicalPosition({8, 32}, f16, {7, 8}),
            (SmallVector<int64_t>{7, 16}));
}

TEST_F(LayoutTest, SliceRegistersComeFromTheAttribute) {
  // One row slot per row a thread touches: two per 16-row MMA tile.
  auto mma = cast<FragmentLayoutAttrInterface>(parse(
      "#tile.slice<dim = 1, dim_size = 64, parent = #tile.mma<warps = [2, "
      "2]>>"));
  EXPECT_EQ(mma.getRegistersPerThread({64}, 128), 4);
  // 256 columns of vec 4 over 128 threads: two rows per round.
  auto rowMajor = cast<FragmentLayoutAttrInterface>(
      parse("#tile.slice<dim = 1, dim_size = 256, parent = "
            "#tile.row_major<vec = 4>>"));
  EXPECT_EQ(rowMajor.getRegistersPerThread({8}, 128), 4);
  // 1024 columns: every thread touches every row.
  auto wide = cast<FragmentLayoutAttrInterface>(
      parse("#tile.slice<dim = 1, dim_size = 1024, parent = "
            "#tile.row_major<vec = 4>>"));
  EXPECT_EQ(wide.getRegistersPerThread({4}, 128), 4);
}

TEST_F(LayoutTest, ShapeRules) {
  auto f32 = Float32Type::get(&context);
  auto mma =
      cast<FragmentLayoutAttrInterface>(parse("#tile.mma<warps = [2, 2]>"));
  EXPECT_TRUE(fitsShape(mma, {64, 64}, f32, 128));
  EXPECT_FALSE(fitsShape(mma, {16, 64}, f32, 0)) << "rows below 16 x 2";
  EXPECT_FALSE(fitsShape(mma, {64, 64}, f32, 256)) << "4 warps, not 8";
  auto rowMajor =
      cast<FragmentLayoutAttrInterface>(parse("#tile.row_major<vec = 8>"));
  EXPECT_TRUE(fitsShape(rowMajor, {4, 64}, f32, 32));
  EXPECT_FALSE(fitsShape(rowMajor, {4, 60}, f32, 0)) << "vec divides rows";
  EXPECT_FALSE(fitsShape(rowMajor, {4, 64}, f32, 64)) << "threads x vec";
  EXPECT_FALSE(fitsShape(rowMajor, {4, 64}, Float64Type::get(&context), 0))
      << "64 bytes of f64";
}

} // namespace
