# Every dependency comes from a Debian 12 package (setup.sh's build_packages), found the CMake way.
# With NETLAB_PORTABLE (the `portable` preset, cmake/NetlabPortable.cmake) the same libraries are
# linked from their static archives instead, for the release bundle that needs only glibc.
find_package(Threads REQUIRED)
find_package(fmt REQUIRED)
if(NETLAB_PORTABLE)
  set(OPENSSL_USE_STATIC_LIBS TRUE)
endif()
find_package(Boost 1.74 REQUIRED)            # header-only Asio
find_package(OpenSSL REQUIRED)
find_package(CLI11 REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(PkgConfig REQUIRED)
# GLPK (libglpk-dev) solves lab-dc's linear programs; only netlib::dc_glpk links it.
find_path(GLPK_INCLUDE_DIR glpk.h)
# netlab_sd_daemon, and with NETLAB_PORTABLE: PkgConfig::PCAP, GLPK::GLPK and NETLAB_FMT from
# static archives.
include(NetlabPortable)
if(NOT NETLAB_PORTABLE)
  pkg_check_modules(PCAP REQUIRED IMPORTED_TARGET libpcap)
  find_library(GLPK_LIBRARY glpk)
  if(NOT GLPK_INCLUDE_DIR OR NOT GLPK_LIBRARY)
    message(FATAL_ERROR "GLPK not found: apt-get install libglpk-dev")
  endif()
  add_library(GLPK::GLPK UNKNOWN IMPORTED)
  set_target_properties(GLPK::GLPK PROPERTIES IMPORTED_LOCATION ${GLPK_LIBRARY} INTERFACE_INCLUDE_DIRECTORIES ${GLPK_INCLUDE_DIR})
  # fmt as Debian ships it: libfmt.so.9.
  set(NETLAB_FMT fmt::fmt)
endif()
if(NETLAB_BUILD_TESTS)
  find_package(GTest REQUIRED)
endif()
if(NETLAB_BUILD_BENCH)
  find_package(benchmark REQUIRED)
endif()
