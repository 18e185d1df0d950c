// tile-translate --emit=sass without cuobjdump: the error says where it
// looked; and the plumbing with a stand-in cuobjdump. The real disassembly
// is sass-cuobjdump.mlir (UNSUPPORTED where the toolkit lacks cuobjdump).
//
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t/cuda/bin
// RUN: ln -s %ptxas %t/cuda/bin/ptxas && ln -s %cuda_toolkit/nvvm %t/cuda/nvvm
// RUN: env PATH=%t/cuda/bin not tile-translate %S/../Examples/vector-add.mlir --emit=sass --cuda-toolkit=%t/cuda 2>&1 | FileCheck %s --check-prefix=NOTOOL

// NOTOOL: tile-translate: SASS needs cuobjdump, which is neither in '{{.*}}/cuda/bin' nor on PATH (--emit=ptx shows the PTX)

// The plumbing, with a stand-in cuobjdump that shows what it was given: the
// -sass flag and a cubin (an ELF file).
// RUN: printf '#!/bin/sh\necho "stand-in cuobjdump $1"\nhead -c 4 "$2" | od -c | head -1\n' > %t/cuda/bin/cuobjdump
// RUN: chmod +x %t/cuda/bin/cuobjdump
// RUN: tile-translate %S/../Examples/vector-add.mlir --emit=sass --cuda-toolkit=%t/cuda | FileCheck %s --check-prefix=STANDIN
// STANDIN: stand-in cuobjdump -sass
// STANDIN-NEXT: 177 E L F
