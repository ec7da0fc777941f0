# Unity builds for the programs and the tests (NETLAB_UNITY, on by default).
#
# Compile time is dominated by the third-party headers every program and test file includes
# (CLI11, nlohmann-json, Boost.Asio, GoogleTest): about 15 s of parsing and template instantiation
# per file on a CI core, against a second or two for the file's own code. Compiling a target's
# files together as a few translation units pays that once per batch instead of once per file.
# netlib's own libraries stay one object per file (they are small and edited most).
# Turn it off for fast incremental rebuilds of one file: cmake -DNETLAB_UNITY=OFF.
option(NETLAB_UNITY "Compile programs and tests as unity batches" ON)
set(NETLAB_UNITY_BATCH 16 CACHE STRING "Files per unity batch")

function(netlab_unity target)
  if(NETLAB_UNITY)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${NETLAB_UNITY_BATCH})
  endif()
endfunction()
