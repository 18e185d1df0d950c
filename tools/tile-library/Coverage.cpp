//===- Coverage.cpp - Which combinations a kernel library covers ----------===//
//
// The axes of each covered generator (read from a variant's configuration
// through the keys of ConfigKeys.h), the grid of a library's variants over
// them, and its Markdown form.
//
//===----------------------------------------------------------------------===//

#include "Coverage.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <stdexcept>
#include <tuple>

using namespace tile;
using namespace tile::library;

//===----------------------------------------------------------------------===//
// The axes
//===----------------------------------------------------------------------===//

static std::vector<std::string> epilogueOrder() {
  std::vector<std::string> names;
  for (const config::gemm::EpilogueInfo &epilogue : config::gemm::epilogues)
    names.push_back(epilogue.name);
  return names;
}

const std::vector<GeneratorAxes> &tile::library::coveredGenerators() {
  namespace gemm = config::gemm;
  namespace attention = config::attention;
  namespace softmax = config::softmax;
  static const std::vector<GeneratorAxes> generators = {
      {gemm::generator,
       "C = A x B with f32 accumulation; layout: A given M x K (N) or K x M "
       "(T), B given K x N (N) or N x K (T)",
       {{"in -> out",
         [](const rt::KernelConfig &c) {
           return c.getOrDefault(gemm::inDtype) + " -> " +
                  c.getOrDefault(gemm::outDtype);
         },
         {"f16 -> f32", "f16 -> f16", "bf16 -> f32", "bf16 -> bf16"}},
        {"layout",
         [](const rt::KernelConfig &c) {
           return std::string(c.getOrDefault(gemm::transposeA) ? "T" : "N") +
                  (c.getOrDefault(gemm::transposeB) ? "T" : "N");
         },
         {}},
        {"epilogue",
         [](const rt::KernelConfig &c) {
           return c.getOrDefault(gemm::epilogue);
         },
         epilogueOrder()}},
       /*countsShapes=*/true},
      {attention::generator,
       "FlashAttention forward, any sequence lengths; LSE: also the "
       "log-sum-exp of each query row",
       {{"dtype",
         [](const rt::KernelConfig &c) {
           return c.getOrDefault(attention::dtype);
         },
         {"f16", "bf16"}},
        {"head_dim",
         [](const rt::KernelConfig &c) {
           return std::to_string(c.getOrDefault(attention::headDim));
         },
         {}},
        {"mask",
         [](const rt::KernelConfig &c) {
           return std::string(c.getOrDefault(attention::causal)
                                  ? "causal"
                                  : "non-causal") +
                  (c.getOrDefault(attention::lse) ? " + LSE" : "");
         },
         {"non-causal", "causal", "non-causal + LSE", "causal + LSE"}}}},
      {softmax::generator,
       "Y = softmax(X) along rows; row length: held in registers up to "
       "block_n elements, or any length (online, two passes)",
       {{"dtype",
         [](const rt::KernelConfig &c) {
           return c.getOrDefault(softmax::dtype);
         },
         {"f16", "bf16", "f32"}},
        {"row length", [](const rt::KernelConfig &c) {
           return c.getOrDefault(softmax::online)
                      ? std::string("any (online)")
                      : "up to " +
                            std::to_string(c.getOrDefault(softmax::blockN));
         }}}}};
  return generators;
}

//===----------------------------------------------------------------------===//
// The grid
//===----------------------------------------------------------------------===//

/// Whether a cubin for `chip` runs on one device architecture only
/// ("sm_90a").
static bool isChipSpecific(const std::string &chip) {
  return !chip.empty() && chip.back() == 'a';
}

bool tile::library::runsOnAnyShape(const rt::KernelVariant &variant) {
  // Only gemm has a divisibility promise; the others have no such key.
  return !isChipSpecific(variant.chip) &&
         variant.config.getOrDefault(config::gemm::divisibility) <= 1;
}

/// The first number in `text`, if any.
static std::optional<long long> firstNumber(const std::string &text) {
  auto digit = std::find_if(text.begin(), text.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c));
  });
  if (digit == text.end())
    return std::nullopt;
  auto end = std::find_if(digit, text.end(), [](char c) {
    return !std::isdigit(static_cast<unsigned char>(c));
  });
  return std::stoll(std::string(digit, end));
}

/// `values` in the axis' order, the others after them by their first number
/// (those without one last), then alphabetically.
static void sortValues(const Axis &axis, std::vector<std::string> &values) {
  auto rank = [&](const std::string &value) {
    auto listed = std::find(axis.order.begin(), axis.order.end(), value);
    std::optional<long long> number = firstNumber(value);
    return std::make_tuple(listed - axis.order.begin(), !number.has_value(),
                           number.value_or(0), value);
  };
  std::sort(values.begin(), values.end(),
            [&](const std::string &x, const std::string &y) {
              return rank(x) < rank(y);
            });
}

/// Calls `visit` with every combination of one value per axis of `values`.
static void forEachCombination(
    const std::vector<std::vector<std::string>> &values,
    const std::function<void(std::vector<std::string> &)> &visit) {
  std::vector<std::string> combination(values.size());
  std::function<void(size_t)> fill = [&](size_t axis) {
    if (axis == values.size()) {
      visit(combination);
      return;
    }
    for (const std::string &value : values[axis]) {
      combination[axis] = value;
      fill(axis + 1);
    }
  };
  fill(0);
}

std::vector<Table>
tile::library::coverage(const std::vector<rt::KernelVariant> &library,
                        const std::vector<Promise> &promised) {
  const std::vector<GeneratorAxes> &generators = coveredGenerators();
  for (const Promise &promise : promised) {
    auto axes = std::find_if(generators.begin(), generators.end(),
                             [&](const GeneratorAxes &g) {
                               return g.generator == promise.generator;
                             });
    if (axes == generators.end())
      throw std::invalid_argument("a promise of generator '" +
                                  promise.generator +
                                  "', which the coverage table does not show");
    if (promise.values.size() != axes->axes.size())
      throw std::invalid_argument(
          "a promise of " + promise.generator + ": expected " +
          std::to_string(axes->axes.size()) + " axes, but got " +
          std::to_string(promise.values.size()));
  }
  std::vector<Table> tables;
  for (const GeneratorAxes &axes : generators) {
    Table table;
    table.axes = &axes;
    for (const rt::KernelVariant &variant : library) {
      if (variant.generator != axes.generator)
        continue;
      std::vector<std::string> key;
      for (const Axis &axis : axes.axes)
        key.push_back(axis.valueOf(variant.config));
      Cell &cell = table.cells[key];
      ++cell.variants;
      cell.anyShape += runsOnAnyShape(variant);
      cell.chipSpecific += isChipSpecific(variant.chip);
    }
    for (const Promise &promise : promised)
      if (promise.generator == axes.generator)
        forEachCombination(promise.values,
                           [&](std::vector<std::string> &combination) {
                             table.cells[combination].promised = true;
                           });
    table.values.resize(axes.axes.size());
    for (size_t i = 0; i < axes.axes.size(); ++i) {
      for (const auto &[key, cell] : table.cells)
        if (std::find(table.values[i].begin(), table.values[i].end(), key[i]) ==
            table.values[i].end())
          table.values[i].push_back(key[i]);
      sortValues(axes.axes[i], table.values[i]);
    }
    tables.push_back(std::move(table));
  }
  return tables;
}

//===----------------------------------------------------------------------===//
// Reports
//===----------------------------------------------------------------------===//

static std::string join(const std::vector<std::string> &parts,
                        const std::string &separator) {
  std::string text;
  for (const std::string &part : parts)
    text += (text.empty() ? "" : separator) + part;
  return text;
}

static std::string plural(int count, const std::string &noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

/// What a cell of the grid says.
static std::string cellText(const Table &table, const Cell *cell) {
  if (!cell)
    return "-";
  if (cell->variants == 0)
    return "**missing**";
  std::string text = std::to_string(cell->variants);
  if (table.axes->countsShapes) {
    text += " (" + std::to_string(cell->anyShape) + " any";
    if (cell->chipSpecific)
      text += ", " + std::to_string(cell->chipSpecific) + " sm_90a";
    text += ")";
  }
  if (cell->missing())
    text += " **none for any shape**";
  return text;
}

std::string tile::library::markdown(const std::vector<Table> &tables) {
  std::string out;
  for (const Table &table : tables) {
    const std::vector<Axis> &axes = table.axes->axes;
    size_t rowAxes = axes.size() - 1;
    int variants = 0, promised = 0, missing = 0;
    for (const auto &[key, cell] : table.cells) {
      variants += cell.variants;
      promised += cell.promised;
      missing += cell.missing();
    }
    std::vector<std::string> rowTitles;
    for (size_t i = 0; i < rowAxes; ++i)
      rowTitles.push_back(axes[i].title);
    out += "### " + table.axes->generator + "\n\n" + table.axes->summary +
           ". Rows: " + join(rowTitles, ", ") +
           "; columns: " + axes.back().title + ". " +
           plural(variants, "variant") + "; " +
           plural(promised, "combination") + " promised, " +
           (missing ? std::to_string(missing) + " of them missing"
                    : "each with a variant for any shape") +
           ".\n\n|";
    for (size_t i = 0; i < rowAxes; ++i)
      out += " " + axes[i].title + " |";
    for (const std::string &column : table.values.back())
      out += " " + column + " |";
    out += "\n|";
    for (size_t i = 0; i < rowAxes + table.values.back().size(); ++i)
      out += " --- |";
    out += "\n";
    std::vector<std::vector<std::string>> rowValues(table.values.begin(),
                                                    table.values.end() - 1);
    forEachCombination(rowValues, [&](std::vector<std::string> &row) {
      std::vector<std::string> cells;
      bool any = false;
      for (const std::string &column : table.values.back()) {
        row.push_back(column);
        auto cell = table.cells.find(row);
        row.pop_back();
        any |= cell != table.cells.end();
        cells.push_back(cellText(
            table, cell == table.cells.end() ? nullptr : &cell->second));
      }
      if (any)
        out += "| " + join(row, " | ") + " | " + join(cells, " | ") + " |\n";
    });
    out += "\n";
  }
  // One trailing newline.
  while (out.size() > 1 && out[out.size() - 2] == '\n')
    out.pop_back();
  return out;
}

std::vector<std::string>
tile::library::missingCombinations(const std::vector<Table> &tables) {
  std::vector<std::string> lines;
  for (const Table &table : tables) {
    std::vector<std::vector<std::string>> keys;
    for (const auto &[key, cell] : table.cells)
      if (cell.missing())
        keys.push_back(key);
    // In table order.
    auto position = [&](const std::vector<std::string> &key) {
      std::vector<size_t> at;
      for (size_t i = 0; i < key.size(); ++i)
        at.push_back(
            std::find(table.values[i].begin(), table.values[i].end(), key[i]) -
            table.values[i].begin());
      return at;
    };
    std::sort(keys.begin(), keys.end(), [&](const auto &x, const auto &y) {
      return position(x) < position(y);
    });
    for (const std::vector<std::string> &key : keys) {
      const Cell &cell = table.cells.at(key);
      lines.push_back(table.axes->generator + " (" + join(key, ", ") + "): " +
                      (cell.variants == 0
                           ? std::string("no variant")
                           : plural(cell.variants, "variant") +
                                 ", none for any shape (each promises "
                                 "divisibility or is for sm_90a only)"));
    }
  }
  return lines;
}

size_t tile::library::promisedCount(const std::vector<Table> &tables) {
  size_t count = 0;
  for (const Table &table : tables)
    for (const auto &[key, cell] : table.cells)
      count += cell.promised;
  return count;
}
