#!/usr/bin/env python3
# Writes MLIR text that nests DEPTH levels deep in one of several ways, for
# input-nesting-limit.mlir: nesting.py SHAPE DEPTH > file.mlir. Each shape
# reaches exactly DEPTH levels as tile/Registration/InputLimits.h counts them.
import sys

shape, depth = sys.argv[1], int(sys.argv[2])
KERNEL = "tile.kernel @k() grid(%%bx) = [1] threads(32) attributes {a = %s} {\n}\n"


if shape == "arrays":  # [[[...]]] inside the attribute dictionary
    n = depth - 1
    out = KERNEL % ("[" * n + "]" * n)
elif shape == "dicts":
    n = depth - 1
    out = KERNEL % ("{a = " * n + "1" + "}" * n)
elif shape == "types":  # a function type of nested tuples
    n = depth - 1
    out = "func.func private @f(" + "tuple<" * n + "i32" + ">" * n + ")\n"
elif shape == "parens":  # an affine map: < ( ( ... d0 ... ) ) >
    n = depth - 2
    out = ("#m = affine_map<(d0) -> (" + "(" * (n - 1) + "d0" + ")" * (n - 1) +
           ")>\n" + KERNEL % "#m")
elif shape == "sum":  # d0 + d0 + ...: the parser recurses per operator
    n = depth - 2
    out = ("#m = affine_map<(d0) -> (" + " + ".join(["d0"] * n) + ")>\n" +
           KERNEL % "#m")
elif shape == "negations":  # - - - d0
    n = depth - 2
    out = "#m = affine_map<(d0) -> (" + "- " * (n - 1) + "d0)>\n" + KERNEL % "#m"
elif shape == "aliases":  # #a1 = [#a0], #a2 = [#a1], ...: shallow text
    n = depth - 1
    lines = ["#a1 = [1]"] + ["#a%d = [#a%d]" % (i, i - 1) for i in range(2, n + 1)]
    out = "\n".join(lines) + "\n" + KERNEL % ("#a%d" % n)
elif shape == "type-aliases":  # !t1 = tuple<i32>, !t2 = tuple<!t1>, ...
    n = depth - 1
    lines = ["!t1 = tuple<i32>"] + ["!t%d = tuple<!t%d>" % (i, i - 1)
                                    for i in range(2, n + 1)]
    out = "\n".join(lines) + "\nfunc.func private @f(!t%d)\n" % n
elif shape == "regions":  # scf.if in scf.if in ... in the kernel's body
    n = depth - 2  # the kernel body is one level, the innermost (0) one more
    body = ["scf.if %b {\n  tile.print \"x\" %f thread(0) : f32"] * n + ["}"] * n
    out = ("tile.kernel @k(%c: i32, %f: f32) grid(%bx) = [1] threads(32) {\n"
           "  %z = arith.constant 0 : i32\n"
           "  %b = arith.cmpi eq, %c, %z : i32\n" + "\n".join(body) + "\n}\n")
elif shape == "doubling":  # #a1 = [#a0, #a0]: 2^DEPTH elements expanded
    lines = ["#a0 = [1]"] + ["#a%d = [#a%d, #a%d]" % (i, i - 1, i - 1)
                             for i in range(1, depth + 1)]
    out = "\n".join(lines) + "\n" + KERNEL % ("#a%d" % depth)
elif shape == "not-brackets":
    # DEPTH of each thing that is not a level, inside one level: `<=`, `>=`
    # and `->`; brackets and operators in strings and comments; operators
    # of expressions that commas separate.
    out = ("#maps = [" + ", ".join(["affine_map<(d0) -> (d0 - 1)>"] * depth) +
           "]\n" + "// " + "(" * depth + "\n" +
           "tile.kernel @k(%A: !tile.buffer<?xf32, global>) grid(%bx) = [1] "
           "threads(32)\n    requires(" +
           ", ".join("%%A[0] <= %d, %%A[0] >= %d" % ((1 << 20) + i, i + 1)
                     for i in range(depth)) +
           ") attributes {a = #maps, s = \"" + "[<(" * depth + "\"} {\n}\n")
else:
    sys.exit("unknown shape " + shape)
sys.stdout.write(out)
