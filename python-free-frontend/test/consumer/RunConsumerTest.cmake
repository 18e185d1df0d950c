#===- RunConsumerTest.cmake - Install the frontend and build a consumer ----===#
#
# cmake -DBUILD_DIR=... -DSOURCE_ROOT=... -DWORK_DIR=... -DSOURCE_DIR=...
#       -DGENERATOR=... [-DMAKE_PROGRAM=...] [-DCXX_COMPILER=...]
#       [-DCXX_COMPILER_LAUNCHER=...] [-DCONFIG=...] -P <this file>
#
# Installs the TileCompiler component of BUILD_DIR alone into
# WORK_DIR/prefix, checks that the package names neither the source nor the
# build tree, configures and builds SOURCE_DIR against it with find_package
# (MLIR found through the package), runs the program and checks its output.
# Then installs the whole build into WORK_DIR/all and checks that TileRuntime
# and TileCompiler load side by side from one prefix.
#
#===------------------------------------------------------------------------===#
cmake_minimum_required(VERSION 3.21)

function(run_step name)
  execute_process(COMMAND ${ARGN}
    RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "${name} failed (${result}):\n${output}")
  endif()
  set(step_output "${output}" PARENT_SCOPE)
endfunction()

set(prefix ${WORK_DIR}/prefix)
set(build ${WORK_DIR}/build)
file(REMOVE_RECURSE ${WORK_DIR})

set(config_args)
if(CONFIG)
  set(config_args --config ${CONFIG})
endif()
run_step("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR}
  --component TileCompiler --prefix ${prefix} ${config_args})

# The package must work from wherever it is installed.
file(GLOB package_files ${prefix}/lib*/cmake/TileCompiler/*.cmake)
if(NOT package_files)
  message(FATAL_ERROR "no TileCompiler package installed under ${prefix}")
endif()
foreach(file IN LISTS package_files)
  file(READ ${file} text)
  foreach(tree IN ITEMS "${SOURCE_ROOT}" "${BUILD_DIR}")
    string(FIND "${text}" "${tree}" at)
    if(NOT at EQUAL -1)
      message(FATAL_ERROR "${file} refers to ${tree}")
    endif()
  endforeach()
endforeach()

set(configure_args -G ${GENERATOR} -DCMAKE_PREFIX_PATH=${prefix})
if(MAKE_PROGRAM)
  list(APPEND configure_args -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM})
endif()
if(CXX_COMPILER)
  list(APPEND configure_args -DCMAKE_CXX_COMPILER=${CXX_COMPILER})
endif()
if(CXX_COMPILER_LAUNCHER)
  list(APPEND configure_args
    -DCMAKE_CXX_COMPILER_LAUNCHER=${CXX_COMPILER_LAUNCHER})
endif()
if(CONFIG)
  list(APPEND configure_args -DCMAKE_BUILD_TYPE=${CONFIG})
endif()
run_step("configuring the consumer" ${CMAKE_COMMAND} ${configure_args}
  -S ${SOURCE_DIR} -B ${build})
run_step("building the consumer" ${CMAKE_COMMAND} --build ${build} ${config_args})

find_program(consumer tile_compiler_consumer PATHS ${build} ${build}/${CONFIG}
  NO_DEFAULT_PATH)
if(NOT consumer)
  message(FATAL_ERROR "tile_compiler_consumer was not built in ${build}")
endif()
run_step("running the consumer" ${consumer})
foreach(line IN ITEMS "edsl: ok: consumer_scale"
    "vector_add: ok: vector_add_" "gemm: ok: gemm_" "tuning: ok:")
  string(FIND "${step_output}" "${line}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "no '${line}' in the consumer's output:\n${step_output}")
  endif()
endforeach()
message(STATUS "consumer:\n${step_output}")

# cmake --install of the whole build: both packages in one prefix (they share
# tile/runtime/ConfigKeys.h and the tile:: namespace).
set(all ${WORK_DIR}/all)
run_step("cmake --install (all components)" ${CMAKE_COMMAND} --install
  ${BUILD_DIR} --prefix ${all} ${config_args})
file(WRITE ${WORK_DIR}/both/CMakeLists.txt [[
cmake_minimum_required(VERSION 3.21)
project(TileBothPackages LANGUAGES CXX)
find_package(TileRuntime CONFIG REQUIRED)
find_package(TileCompiler CONFIG REQUIRED)
foreach(target tile::runtime tile::frontend)
  if(NOT TARGET ${target})
    message(FATAL_ERROR "no ${target}")
  endif()
endforeach()
]])
list(TRANSFORM configure_args REPLACE "^-DCMAKE_PREFIX_PATH=.*" "-DCMAKE_PREFIX_PATH=${all}")
run_step("configuring against both packages" ${CMAKE_COMMAND} ${configure_args}
  -S ${WORK_DIR}/both -B ${WORK_DIR}/both/build)
