# docs/CheckGenerated.cmake - fails when docs/generated/ is not what ODS
# generates.
#
#   cmake -DGENERATED=<build>/docs -DCHECKED_IN=<source>/docs/generated
#         -P CheckGenerated.cmake
#
# The reference pages are generated at build time (`tile-doc`, part of the
# default build) into <build>/docs/{Dialects,Passes}; the checked-in copies
# are what readers of the repository see, so they must not drift.
cmake_policy(SET CMP0057 NEW) # if(... IN_LIST ...)
file(GLOB generated "${GENERATED}/Dialects/*.md" "${GENERATED}/Passes/*.md")
file(GLOB checkedIn "${CHECKED_IN}/*.md")
if(NOT generated)
  message(FATAL_ERROR "no generated pages under ${GENERATED}: build the tile-doc target first")
endif()
set(problems "")
set(names "")
foreach(page IN LISTS generated)
  get_filename_component(name "${page}" NAME)
  list(APPEND names "${name}")
  if(NOT EXISTS "${CHECKED_IN}/${name}")
    string(APPEND problems "\n  ${name}: generated, but not in docs/generated")
    continue()
  endif()
  file(READ "${page}" want)
  file(READ "${CHECKED_IN}/${name}" have)
  if(NOT want STREQUAL have)
    string(APPEND problems "\n  ${name}: differs from what ODS generates")
  endif()
endforeach()
foreach(page IN LISTS checkedIn)
  get_filename_component(name "${page}" NAME)
  if(NOT name IN_LIST names)
    string(APPEND problems "\n  ${name}: in docs/generated, but ODS generates no such page")
  endif()
endforeach()
if(problems)
  message(FATAL_ERROR "docs/generated is out of date:${problems}\n"
                      "Run scripts/gen-docs.sh and commit the result.")
endif()
list(LENGTH names count)
message(STATUS "docs/generated: ${count} pages match ODS")
