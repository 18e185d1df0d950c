// tile-opt and tile-translate refuse MLIR text that nests deeper than 1000
// levels, or whose aliases expand past 2^24 tokens, before upstream's
// recursive parser sees it (tile/Registration/InputLimits.h): 10000 nested
// arrays, 100000 nested dictionaries, an affine map 100000 parentheses deep
// or a sum of 100000 terms overflowed its stack (SIGSEGV); aliases built
// the same depth from shallow text, or 2^40 elements from 40 lines. Every
// shape of nesting at the limit is accepted and one level more refused,
// with the line and column, from a file or stdin. The inputs come from
// Inputs/nesting.py.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: for shape in arrays dicts types parens sum negations aliases type-aliases regions; do \
// RUN:   %python %S/Inputs/nesting.py $shape 1000 > %t/$shape-1000.mlir && \
// RUN:   %python %S/Inputs/nesting.py $shape 1001 > %t/$shape-1001.mlir && \
// RUN:   tile-opt %t/$shape-1000.mlir -o /dev/null || exit 1; \
// RUN: done
// RUN: not tile-opt %t/arrays-1001.mlir 2>&1 | FileCheck %s --check-prefix=ARRAYS
// ARRAYS: arrays-1001.mlir:1:1061: error: expected at most 1000 levels of nesting, but got 1001 here (each bracket, operator of an expression and level of a referenced alias counts)
// RUN: not tile-translate %t/arrays-1001.mlir --emit=ptx -o %t/out.ptx 2>&1 | FileCheck %s --check-prefix=ARRAYS
// RUN: not test -e %t/out.ptx
// RUN: not tile-opt - < %t/arrays-1001.mlir 2>&1 | FileCheck %s --check-prefix=STDIN
// RUN: not tile-translate - --emit=manifest < %t/arrays-1001.mlir 2>&1 | FileCheck %s --check-prefix=STDIN
// STDIN: <stdin>:1:1061: error: expected at most 1000 levels of nesting, but got 1001 here
// RUN: not tile-opt %t/dicts-1001.mlir 2>&1 | FileCheck %s --check-prefix=DICTS
// DICTS: dicts-1001.mlir:1:5057: error: expected at most 1000 levels of nesting, but got 1001 here
// RUN: not tile-opt %t/types-1001.mlir 2>&1 | FileCheck %s --check-prefix=TYPES
// TYPES: types-1001.mlir:1:6021: error: expected at most 1000 levels of nesting, but got 1001 here
// The affine map's parentheses, the operators of a sum, unary minus; the
// error is where the alias nesting 1000 levels is used one level deep:
// RUN: not tile-opt %t/parens-1001.mlir 2>&1 | FileCheck %s --check-prefix=AFFINE
// RUN: not tile-opt %t/sum-1001.mlir 2>&1 | FileCheck %s --check-prefix=AFFINE
// RUN: not tile-opt %t/negations-1001.mlir 2>&1 | FileCheck %s --check-prefix=AFFINE
// RUN: not tile-translate %t/sum-1001.mlir --emit=ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=AFFINE
// AFFINE: -1001.mlir:2:62: error: expected at most 1000 levels of nesting, but got 1001 here
// RUN: not tile-opt %t/aliases-1001.mlir 2>&1 | FileCheck %s --check-prefix=ALIASES
// ALIASES: aliases-1001.mlir:1001:62: error: expected at most 1000 levels of nesting, but got 1001 here
// RUN: not tile-opt %t/type-aliases-1001.mlir 2>&1 | FileCheck %s --check-prefix=TYPE-ALIASES
// TYPE-ALIASES: type-aliases-1001.mlir:1001:22: error: expected at most 1000 levels of nesting, but got 1001 here
// RUN: not tile-opt %t/regions-1001.mlir 2>&1 | FileCheck %s --check-prefix=REGIONS
// REGIONS: regions-1001.mlir:2001:27: error: expected at most 1000 levels of nesting, but got 1001 here
// Regions cost the most stack per level; 1000 of them go all the way to PTX.
// RUN: tile-translate %t/regions-1000.mlir --emit=ptx -o - | FileCheck %s --check-prefix=PTX
// PTX: .entry k(
//
// Aliases that double per line: 2^16 elements are fine, 2^40 are not.
// RUN: %python %S/Inputs/nesting.py doubling 16 > %t/doubling-16.mlir
// RUN: tile-opt %t/doubling-16.mlir -o /dev/null
// RUN: %python %S/Inputs/nesting.py doubling 40 > %t/doubling-40.mlir
// RUN: not tile-opt %t/doubling-40.mlir 2>&1 | FileCheck %s --check-prefix=DOUBLING
// RUN: not tile-translate %t/doubling-40.mlir --emit=ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=DOUBLING
// DOUBLING: doubling-40.mlir:22:9: error: expected alias references to add at most 16777216 tokens to the input when expanded, but '#a20' here (6291453 tokens) brings them past that
//
// Not levels: `<=`, `>=` (tile.kernel's requires clause) and `->`, 2000 of
// each within one level; brackets in strings and comments; operators of
// expressions that commas separate.
// RUN: %python %S/Inputs/nesting.py not-brackets 2000 > %t/not-brackets.mlir
// RUN: tile-opt %t/not-brackets.mlir -o /dev/null
// RUN: tile-translate %t/not-brackets.mlir --emit=manifest -o - | FileCheck %s --check-prefix=NOT-BRACKETS
// NOT-BRACKETS: "value": 1050575
