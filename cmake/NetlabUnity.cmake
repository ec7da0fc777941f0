# Unity builds for netlib's libraries, the programs and the tests (NETLAB_UNITY, on by default).
#
# Compile time is dominated by the third-party headers every program and test file includes
# (CLI11, nlohmann-json, Boost.Asio, GoogleTest): about 15 s of parsing and template instantiation
# per file on a CI core, against a second or two for the file's own code. Compiling a target's
# files together as a few translation units pays that once per batch instead of once per file.
# netlib's libraries are batched too since the set-up goal of issue 19 (tour within 5 minutes of a
# fresh clone): netlib::io's 19 files each parsed Boost.Asio and OpenSSL's headers and instantiated
# the same coroutine machinery: 232 s of compile jobs in a fresh build, 71 s as two batches
# (docs/testing.md). Files in one batch share a translation unit, so two of
# them may not define the same name in an anonymous namespace (put a shared helper in a header).
# Turn it off for fast incremental rebuilds of one file: cmake -DNETLAB_UNITY=OFF.
option(NETLAB_UNITY "Compile programs and tests as unity batches" ON)
set(NETLAB_UNITY_BATCH 16 CACHE STRING "Files per unity batch")

function(netlab_unity target)
  if(NETLAB_UNITY)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${NETLAB_UNITY_BATCH})
    # GCC warns when a coroutine frame (named after its function) holds a type from an anonymous
    # namespace in a file that is not the main file, which every file of a batch is not; within
    # one translation unit that cannot break the one-definition rule.
    target_compile_options(${target} PRIVATE $<$<CXX_COMPILER_ID:GNU>:-Wno-subobject-linkage>)
  endif()
endfunction()
