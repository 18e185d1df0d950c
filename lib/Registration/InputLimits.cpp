//===- InputLimits.cpp - Bounds on the MLIR text the tools parse ----------===//
//
// A lexical scan of MLIR text that bounds what upstream's recursive parser,
// printer and walks would recurse on, before they see it. It follows
// upstream's lexer where that decides what is a token (prefixed
// identifiers, numbers, strings, comments) and counts every level the
// parser could recurse on:
//   - brackets: ( [ { and <, except in `->`, `<=` and `>=`; a `>` closes
//     only a `<` (a `>` elsewhere is a comparison), and a closer that meets
//     unclosed `<` first closes them (they were comparisons);
//   - operators inside ( [ <: upstream's affine parser recurses once per
//     `+`, `-`, `*`, floordiv, ceildiv and mod of an expression, and per
//     unary minus; a comma ends the expression;
//   - aliases: `#a = ...` / `!t = ...` at the top level record how deep
//     their definition nests and how many tokens it expands to; a reference
//     nests that much more where it stands and adds its expansion.
// Each is counted when in doubt, never skipped: the scan may overcount a
// level of odd valid syntax, but it cannot undercount what the parser
// recurses on.
//
//===----------------------------------------------------------------------===//

#include "tile/Registration/InputLimits.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MemoryBufferRef.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace mlir;
using llvm::LogicalResult;
using llvm::StringRef;

namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isAlpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool isHexDigit(char c) {
  return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
// bare-id: (letter|_) (letter|digit|[_$.])*
bool isBareIdChar(char c) {
  return isAlpha(c) || isDigit(c) || c == '_' || c == '$' || c == '.';
}
// suffix-id punctuation of %, ^, #, ! identifiers: [$._-]
bool isIdPunct(char c) { return c == '$' || c == '.' || c == '_' || c == '-'; }

uint64_t saturatingAdd(uint64_t a, uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

struct Scope {
  char open;
  unsigned ops = 0; // operators of the current expression in this scope
};

struct Alias {
  unsigned depth = 0; // the deepest its definition nests
  uint64_t size = 0;  // tokens, with the aliases it references expanded
};

class Scanner {
public:
  Scanner(llvm::MemoryBufferRef input, llvm::raw_ostream &errs)
      : name(input.getBufferIdentifier()), begin(input.getBufferStart()),
        cur(begin), end(input.getBufferEnd()), errs(errs) {}

  LogicalResult run();

private:
  LogicalResult error(const char *at, const llvm::Twine &message);
  // Accounts a token at `at`: `units` tokens of expansion, `extraDepth`
  // levels below the current one (an alias reference).
  LogicalResult token(const char *at, uint64_t units = 1,
                      unsigned extraDepth = 0);
  LogicalResult open(char c);
  LogicalResult close(char c);
  LogicalResult oper(const char *at);
  void popScope();
  void skipString();
  LogicalResult prefixedIdentifier();
  LogicalResult bareIdentifier();
  void number();
  bool startsAliasDefinition() const;

  StringRef name;
  const char *begin, *cur, *end;
  unsigned line = 1;
  llvm::raw_ostream &errs;

  llvm::SmallVector<Scope> scopes;
  unsigned level = 0; // scopes.size() plus the ops of each scope
  llvm::StringMap<Alias> aliases;
  Alias *definition = nullptr;  // the alias being defined, if any
  bool definitionBegun = false; // a token of its value was seen
  bool skipDefinitionEquals = false;
  uint64_t expansion = 0;
};

} // namespace

LogicalResult Scanner::error(const char *at, const llvm::Twine &message) {
  // Columns as upstream counts them: bytes from the start of the line.
  const char *start = at;
  while (start > begin && start[-1] != '\n')
    --start;
  errs << name << ":" << line << ":" << (at - start + 1)
       << ": error: " << message << "\n";
  return llvm::failure();
}

LogicalResult Scanner::token(const char *at, uint64_t units,
                             unsigned extraDepth) {
  unsigned depth = level + extraDepth;
  if (depth > tile::kMaxInputNesting)
    return error(at, "expected at most " + llvm::Twine(tile::kMaxInputNesting) +
                         " levels of nesting, but got " + llvm::Twine(depth) +
                         " here (each bracket, operator of an expression and "
                         "level of a referenced alias counts)");
  if (definition) {
    definition->depth = std::max(definition->depth, depth);
    definition->size = saturatingAdd(definition->size, units);
    definitionBegun = true;
  }
  return llvm::success();
}

LogicalResult Scanner::open(char c) {
  const char *at = cur++;
  scopes.push_back({c});
  ++level;
  return token(at);
}

void Scanner::popScope() {
  level -= 1 + scopes.back().ops;
  scopes.pop_back();
}

LogicalResult Scanner::close(char c) {
  const char *at = cur++;
  if (c == '>') {
    // Not after a `<`: a comparison, not a bracket.
    if (!scopes.empty() && scopes.back().open == '<')
      popScope();
    return token(at);
  }
  char match = c == ')' ? '(' : c == ']' ? '[' : '{';
  size_t i = scopes.size();
  while (i > 0 && scopes[i - 1].open == '<')
    --i;
  // Unbalanced: leave the scopes open (the parser reports it).
  if (i > 0 && scopes[i - 1].open == match)
    while (scopes.size() >= i)
      popScope();
  return token(at);
}

LogicalResult Scanner::oper(const char *at) {
  if (!scopes.empty() && scopes.back().open != '{') {
    ++scopes.back().ops;
    ++level;
  }
  return token(at);
}

void Scanner::skipString() {
  ++cur; // the opening quote
  while (cur < end && *cur != '"' && *cur != '\n') {
    if (*cur == '\\' && cur + 1 < end && cur[1] != '\n')
      ++cur;
    ++cur;
  }
  if (cur < end && *cur == '"')
    ++cur;
}

bool Scanner::startsAliasDefinition() const {
  if (!scopes.empty())
    return false;
  const char *p = cur;
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
    ++p;
  return p < end && *p == '=' && !(p + 1 < end && p[1] == '=');
}

LogicalResult Scanner::prefixedIdentifier() {
  const char *at = cur;
  char sigil = *cur++;
  if (sigil == '@') {
    if (cur < end && *cur == '"') {
      skipString();
      return token(at);
    }
    while (cur < end && isBareIdChar(*cur))
      ++cur;
  } else if (cur < end && isDigit(*cur)) {
    while (cur < end && isDigit(*cur))
      ++cur;
  } else {
    while (cur < end && (isAlpha(*cur) || isDigit(*cur) || isIdPunct(*cur)))
      ++cur;
  }
  if (sigil != '#' && sigil != '!') {
    // An SSA value at the top level starts an operation.
    if (sigil == '%' && scopes.empty() && definitionBegun)
      definition = nullptr;
    return token(at);
  }

  StringRef id(at, cur - at);
  if (startsAliasDefinition()) {
    Alias &alias = aliases[id];
    alias = Alias();
    definition = &alias;
    definitionBegun = false;
    skipDefinitionEquals = true;
    return llvm::success();
  }
  auto it = aliases.find(id);
  if (it == aliases.end()) // a dialect attribute or type, or a location
    return token(at);      // alias defined later (those nest nothing)
  const Alias &alias = it->second;
  if (alias.size > 1) {
    expansion = saturatingAdd(expansion, alias.size - 1);
    if (expansion > tile::kMaxAliasExpansion)
      return error(at, "expected alias references to add at most " +
                           llvm::Twine(tile::kMaxAliasExpansion) +
                           " tokens to the input when expanded, but '" + id +
                           "' here (" + llvm::Twine(alias.size) +
                           " tokens) brings them past that");
  }
  return token(at, alias.size, alias.depth);
}

LogicalResult Scanner::bareIdentifier() {
  const char *at = cur;
  while (cur < end && isBareIdChar(*cur))
    ++cur;
  StringRef id(at, cur - at);
  if (id == "floordiv" || id == "ceildiv" || id == "mod")
    return oper(at);
  // An operation name at the top level ends an alias definition.
  if (scopes.empty() && definitionBegun && (id.contains('.') || id == "module"))
    definition = nullptr;
  return token(at);
}

void Scanner::number() {
  if (*cur == '0' && cur + 2 < end && cur[1] == 'x' && isHexDigit(cur[2])) {
    cur += 2;
    while (cur < end && isHexDigit(*cur))
      ++cur;
    return;
  }
  while (cur < end && isDigit(*cur))
    ++cur;
  if (cur >= end || *cur != '.')
    return;
  ++cur;
  while (cur < end && isDigit(*cur))
    ++cur;
  // An exponent, with its sign: [eE][-+]?[0-9]+
  if (cur < end && (*cur == 'e' || *cur == 'E')) {
    const char *p = cur + 1;
    if (p < end && (*p == '-' || *p == '+'))
      ++p;
    if (p < end && isDigit(*p)) {
      cur = p;
      while (cur < end && isDigit(*cur))
        ++cur;
    }
  }
}

LogicalResult Scanner::run() {
  while (cur < end) {
    char c = *cur;
    char next = cur + 1 < end ? cur[1] : '\0';
    const char *at = cur;
    switch (c) {
    case '\n':
      ++cur;
      ++line;
      continue;
    case ' ':
    case '\t':
    case '\r':
    case '\0':
      ++cur;
      continue;
    case '/':
      if (next == '/') {
        while (cur < end && *cur != '\n')
          ++cur;
        continue;
      }
      ++cur;
      break;
    case '"':
      // A generic operation at the top level ends an alias definition.
      if (scopes.empty() && definitionBegun)
        definition = nullptr;
      skipString();
      break;
    case '(':
    case '[':
    case '{':
      if (failed(open(c)))
        return llvm::failure();
      continue;
    case '<':
      if (next == '=') { // a comparison
        cur += 2;
        break;
      }
      if (failed(open(c)))
        return llvm::failure();
      continue;
    case '>':
      if (next == '=') {
        cur += 2;
        break;
      }
      [[fallthrough]];
    case ')':
    case ']':
    case '}':
      if (failed(close(c)))
        return llvm::failure();
      continue;
    case '-':
      if (next == '>') { // an arrow
        cur += 2;
        break;
      }
      [[fallthrough]];
    case '+':
    case '*':
      ++cur;
      if (failed(oper(at)))
        return llvm::failure();
      continue;
    case ',':
      ++cur;
      if (!scopes.empty()) {
        level -= scopes.back().ops;
        scopes.back().ops = 0;
      }
      break;
    case '=':
      ++cur;
      if (skipDefinitionEquals) {
        skipDefinitionEquals = false;
        continue;
      }
      break;
    case '%':
    case '^':
    case '#':
    case '!':
    case '@':
      if (failed(prefixedIdentifier()))
        return llvm::failure();
      continue;
    default:
      if (isDigit(c)) {
        number();
        break;
      }
      if (isAlpha(c) || c == '_') {
        if (failed(bareIdentifier()))
          return llvm::failure();
        continue;
      }
      ++cur; // other punctuation, or bytes the lexer rejects
      break;
    }
    if (failed(token(at)))
      return llvm::failure();
  }
  return llvm::success();
}

LogicalResult tile::checkInputLimits(llvm::MemoryBufferRef input,
                                     llvm::raw_ostream &errs) {
  return Scanner(input, errs).run();
}
