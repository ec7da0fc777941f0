# netlab_program(NAME SOURCES... [LIBS ...]): one lab or tool binary, built into bin/.
#
# Every program file includes CLI11 (through netlib/app/program.hpp), which is header-only and
# costs about 6 s of compile time per file. A program is therefore compiled as unity batches
# (cmake/NetlabUnity.cmake), and the heavy third-party headers are precompiled. Measured on
# lab-delay (9 files, one batch, 2 cores): the batch compiles in 22 s of CPU with the precompiled
# header and 67 s without; the header itself costs about 20 s. It is built twice in all (below)
# and reused by every program: one header per program cost 11 x 23 s of compile jobs before the
# tour could start (docs/testing.md).
# A program's own code is glue (its command line, its output); the work it does runs in netlib,
# compiled with the build type's optimisation (-O3 in Release). In Release the programs are
# compiled with -O1: three quarters of a program's compile time was GCC's optimiser at -O3, on
# code that is nearly half CLI11's inline functions (lab-delay's batch: 22.7 s of CPU at -O3 or
# -O2, 16.9 s at -O1), and the tour waits for every program (issue 19, docs/testing.md).
add_library(netlab_program_flags INTERFACE)
target_compile_options(netlab_program_flags INTERFACE $<$<CONFIG:Release>:-O1>)

function(netlab_program name)
  cmake_parse_arguments(P "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${P_SOURCES} ${P_UNPARSED_ARGUMENTS})
  target_link_libraries(${name} PRIVATE netlib::app ${P_LIBS} netlab_warnings netlab_program_flags)
  # Two precompiled headers serve every program (REUSE_FROM): the third-party headers, and the
  # same with Boost.Asio for the programs on netlib::io. Each is built by an object library with
  # the compile options and definitions of the programs that reuse it (GCC refuses a header built
  # with other macros).
  if(NOT TARGET netlab_program_pch)
    set(common <CLI/CLI.hpp> <nlohmann/json.hpp> <fmt/format.h>)
    add_library(netlab_program_pch OBJECT ${PROJECT_SOURCE_DIR}/cmake/netlab_program_pch.cpp)
    target_link_libraries(netlab_program_pch PRIVATE netlib::app netlab_warnings netlab_program_flags)
    target_precompile_headers(netlab_program_pch PRIVATE ${common})
    add_library(netlab_program_pch_io OBJECT ${PROJECT_SOURCE_DIR}/cmake/netlab_program_pch.cpp)
    target_link_libraries(netlab_program_pch_io PRIVATE netlib::app netlib::io netlab_warnings netlab_program_flags)
    target_precompile_headers(netlab_program_pch_io PRIVATE ${common}
                              "${PROJECT_SOURCE_DIR}/netlib/include/netlib/io/asio.hpp")
  endif()
  netlab_unity(${name})
  if("netlib::io" IN_LIST P_LIBS)
    target_precompile_headers(${name} REUSE_FROM netlab_program_pch_io)
  else()
    target_precompile_headers(${name} REUSE_FROM netlab_program_pch)
  endif()
  install(TARGETS ${name} RUNTIME DESTINATION bin)
  set_property(GLOBAL APPEND PROPERTY NETLAB_PROGRAMS ${name})
endfunction()

# netlab_write_program_manifest(): after every program is declared, adds the target
# netlab_programs (every program) and writes
# program_sources.txt in the build folder: each program's folder, its sources and its own include
# folders, as the build really has them. tests/scripts/program_sources.sh checks that no program
# compiles or includes a file of another program's folder (shared code lives in a library).
function(netlab_write_program_manifest)
  get_property(programs GLOBAL PROPERTY NETLAB_PROGRAMS)
  set(manifest "")
  foreach(p ${programs})
    string(APPEND manifest
      "program ${p}\n"
      "folder $<TARGET_PROPERTY:${p},SOURCE_DIR>\n"
      "sources $<JOIN:$<TARGET_PROPERTY:${p},SOURCES>,|>\n"
      "includes $<JOIN:$<TARGET_PROPERTY:${p},INCLUDE_DIRECTORIES>,|>\n")
  endforeach()
  file(GENERATE OUTPUT ${CMAKE_BINARY_DIR}/program_sources.txt CONTENT "${manifest}")
  # `cmake --build --preset release --target netlab_programs`: every lab and tool, no test
  # (./setup.sh tour builds this, so that the tour starts without waiting for the test suite).
  add_custom_target(netlab_programs DEPENDS ${programs})
endfunction()
