#===- RunConsumerTest.cmake - Install the runtime and build a consumer -----===#
#
# cmake -DBUILD_DIR=... -DWORK_DIR=... -DSOURCE_DIR=... -DGENERATOR=...
#       [-DMAKE_PROGRAM=...] [-DCXX_COMPILER=...] [-DCONFIG=...] -P <this file>
#
# Installs the TileRuntime component of BUILD_DIR into WORK_DIR/prefix,
# configures and builds SOURCE_DIR against it with find_package, runs the
# program and checks its output. The installed package must not mention
# nlohmann_json (a private, build-only dependency).
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
  --component TileRuntime --prefix ${prefix} ${config_args})

file(GLOB_RECURSE target_files ${prefix}/*TileRuntimeTargets*.cmake)
if(NOT target_files)
  message(FATAL_ERROR "no TileRuntimeTargets*.cmake installed under ${prefix}")
endif()
foreach(file IN LISTS target_files)
  file(READ ${file} text)
  if(text MATCHES "nlohmann")
    message(FATAL_ERROR "${file} refers to nlohmann_json")
  endif()
endforeach()

set(configure_args -G ${GENERATOR} -S ${SOURCE_DIR} -B ${build}
  -DCMAKE_PREFIX_PATH=${prefix})
if(MAKE_PROGRAM)
  list(APPEND configure_args -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM})
endif()
if(CXX_COMPILER)
  list(APPEND configure_args -DCMAKE_CXX_COMPILER=${CXX_COMPILER})
endif()
if(CONFIG)
  list(APPEND configure_args -DCMAKE_BUILD_TYPE=${CONFIG})
endif()
run_step("configuring the consumer" ${CMAKE_COMMAND} ${configure_args})
run_step("building the consumer" ${CMAKE_COMMAND} --build ${build} ${config_args})

find_program(consumer tile_runtime_consumer PATHS ${build} ${build}/${CONFIG}
  NO_DEFAULT_PATH)
if(NOT consumer)
  message(FATAL_ERROR "tile_runtime_consumer was not built in ${build}")
endif()
run_step("running the consumer" ${consumer})
if(NOT step_output MATCHES "library tensor: f16\\[32, 64\\] strides \\[1, 32\\]"
   OR NOT step_output MATCHES "GPU present: (yes|no)")
  message(FATAL_ERROR "unexpected consumer output:\n${step_output}")
endif()
message(STATUS "consumer: ${step_output}")
