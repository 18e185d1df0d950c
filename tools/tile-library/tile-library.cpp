//===- tile-library.cpp - What a compiled kernel library covers -----------===//
//
//   tile-library coverage [--kernel-dir=DIR] [--check] [--check-doc=FILE]
//                         [--write-doc=FILE]
//
// Reads DIR/index.json (default: the build's kernels, or $TILE_KERNEL_DIR)
// and prints, in Markdown, which combinations of each generator's axes have
// variants (Coverage.h). --check instead checks the promises
// (Promises.cpp): exit status 1 with a line per promised combination that
// lacks a variant for any shape. --check-doc compares the generated section
// of a document (docs/Coverage.md) with the table, --write-doc rewrites it.
// Exit status 2 for wrong arguments or an unreadable index or document, 77
// when DIR has no index.json (ctest counts its tests as skipped). Runtime
// only: no LLVM, no GPU.
//
//===----------------------------------------------------------------------===//

#include "Coverage.h"

#include "common/Flags.h"

#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

using namespace tile;

namespace {

/// The lines around the generated table in a document.
constexpr const char *kBeginMarker =
    "<!-- BEGIN tile-library coverage (generated: do not edit) -->";
constexpr const char *kEndMarker = "<!-- END tile-library coverage -->";

constexpr int kNoIndex = 77;

struct Options {
  std::string kernelDir;
  bool check = false;
  std::string checkDoc, writeDoc;
};

std::optional<Options> parse(int argc, char **argv) {
  if (argc < 2 || std::string(argv[1]) != "coverage") {
    std::cerr << "tile-library: expected the command 'coverage', but got '"
              << (argc < 2 ? "" : argv[1]) << "'\n";
    return std::nullopt;
  }
  Options o;
  o.kernelDir = rt::kernelDir(TILE_KERNEL_DIR_DEFAULT);
  for (int i = 2; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const char *flag) { return bench::flagValue(arg, flag); };
    if (auto v = value("--kernel-dir"))
      o.kernelDir = *v;
    else if (auto v = value("--check-doc"))
      o.checkDoc = *v;
    else if (auto v = value("--write-doc"))
      o.writeDoc = *v;
    else if (arg == "--check")
      o.check = true;
    else {
      std::cerr << "tile-library: unexpected argument '" << arg << "'\n";
      return std::nullopt;
    }
  }
  return o;
}

/// The text of `path`, or nullopt after saying why not.
std::optional<std::string> readFile(const std::string &path) {
  std::ifstream in(path);
  if (!in) {
    std::cerr << "tile-library: cannot read " << path << "\n";
    return std::nullopt;
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// A document split around its generated section: the text up to the
/// begin marker's line, the section, and the end marker's line onwards.
struct Document {
  std::string before, section, after;
};

/// The document at `path`, or nullopt after saying why not.
std::optional<Document> readDocument(const std::string &path) {
  std::optional<std::string> text = readFile(path);
  if (!text)
    return std::nullopt;
  std::string beginLine = std::string(kBeginMarker) + "\n";
  size_t begin = text->find(beginLine);
  size_t end = text->find(kEndMarker);
  if (begin == std::string::npos || end == std::string::npos || end < begin) {
    std::cerr << "tile-library: expected the lines '" << kBeginMarker
              << "' and, after it, '" << kEndMarker << "' in " << path << "\n";
    return std::nullopt;
  }
  size_t start = begin + beginLine.size();
  return Document{text->substr(0, start), text->substr(start, end - start),
                  text->substr(end)};
}

/// The first line where `expected` and `got` differ, 1-based.
std::string firstDifference(const std::string &expected,
                            const std::string &got) {
  std::istringstream e(expected), g(got);
  std::string eLine, gLine;
  for (int line = 1;; ++line) {
    bool eMore = bool(std::getline(e, eLine)),
         gMore = bool(std::getline(g, gLine));
    if (!eMore && !gMore)
      return "";
    if (eMore != gMore || eLine != gLine)
      return "line " + std::to_string(line) + " of the table: expected '" +
             (eMore ? eLine : "(end)") + "', but got '" +
             (gMore ? gLine : "(end)") + "'";
  }
}

int run(const Options &o) {
  std::string error;
  auto library = rt::loadKernelIndex(o.kernelDir, "", &error);
  if (!library) {
    bool missing = error.rfind("no ", 0) == 0;
    std::cerr << "tile-library: " << error
              << (missing ? " (compile the library: tile-kernels --out-dir=" +
                                o.kernelDir + ")"
                          : "")
              << "\n";
    return missing ? kNoIndex : 2;
  }
  std::vector<library::Table> tables =
      library::coverage(*library, library::promises());
  std::string table = library::markdown(tables);
  bool quiet = o.check || !o.checkDoc.empty() || !o.writeDoc.empty();
  if (!quiet)
    std::cout << table;
  int status = 0;
  if (o.check) {
    std::vector<std::string> missing = library::missingCombinations(tables);
    for (const std::string &line : missing)
      std::cerr << "tile-library: missing: " << line << "\n";
    size_t promised = library::promisedCount(tables);
    if (missing.empty()) {
      std::cout << "tile-library: each of the " << promised
                << " promised combinations has a variant for any shape in "
                << o.kernelDir << "\n";
    } else {
      std::cerr << "tile-library: " << missing.size() << " of the " << promised
                << " promised combinations (tools/tile-library/Promises.cpp) "
                   "lack a variant for any shape in "
                << o.kernelDir << "\n";
      status = 1;
    }
  }
  if (!o.checkDoc.empty()) {
    std::optional<Document> doc = readDocument(o.checkDoc);
    if (!doc)
      return 2;
    if (doc->section != table) {
      std::cerr << "tile-library: the coverage table in " << o.checkDoc
                << " is not the one of " << o.kernelDir << " ("
                << firstDifference(table, doc->section)
                << "); regenerate it: tile-library coverage --kernel-dir="
                << o.kernelDir << " --write-doc=" << o.checkDoc << "\n";
      status = 1;
    }
  }
  if (!o.writeDoc.empty()) {
    std::optional<Document> doc = readDocument(o.writeDoc);
    if (!doc)
      return 2;
    std::ofstream out(o.writeDoc);
    out << doc->before << table << doc->after;
    if (!out.flush()) {
      std::cerr << "tile-library: cannot write " << o.writeDoc << "\n";
      return 2;
    }
  }
  return status;
}

} // namespace

int main(int argc, char **argv) {
  std::optional<Options> options = parse(argc, argv);
  if (!options) {
    std::cerr << "usage: tile-library coverage [--kernel-dir=DIR] [--check] "
                 "[--check-doc=FILE] [--write-doc=FILE]\n";
    return 2;
  }
  try {
    return run(*options);
  } catch (const std::exception &e) {
    std::cerr << "tile-library: " << e.what() << "\n";
    return 2;
  }
}
