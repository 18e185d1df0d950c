# -*- Python -*-
# lit configuration of the tile toolchain tests.

import os
import shutil

import lit.formats
from lit.llvm import llvm_config

config.name = "TILE"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tile_obj_root, "test")

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.tile_tools_dir, append_path=True)
tools = ["tile-opt", "tile-translate", "tile-kernels", "tile-tune", "tile-tune-run",
         "tile-layernorm-example", "tile-library", "FileCheck", "not", "count",
         "split-file"]
llvm_config.add_tool_substitutions(tools, [config.tile_tools_dir,
                                           config.llvm_tools_dir])

ptxas = os.path.join(config.cuda_toolkit_root, "bin", "ptxas")
config.substitutions.append(("%ptxas", ptxas))
config.substitutions.append(("%cuda_toolkit", config.cuda_toolkit_root))
if os.path.exists(ptxas):
    config.available_features.add("ptxas")

# cuobjdump (SASS) is missing from some toolkit installs, this one included.
if os.path.exists(os.path.join(config.cuda_toolkit_root, "bin", "cuobjdump")) \
        or shutil.which("cuobjdump"):
    config.available_features.add("cuobjdump")
