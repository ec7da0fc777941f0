# The portable link (NETLAB_PORTABLE, the `portable` preset): programs that need nothing but glibc
# at run time, for the release bundle netlab-VERSION-linux-x86_64.tar.gz (docs/instructor.md,
# "Install in one minute"; docs/architecture.md, "Release artefacts").
#
# glibc itself stays a shared library: a static glibc still loads NSS modules for getaddrinfo and
# getpwnam at run time, which then must match the glibc it was built with. Everything else is
# linked from Debian 12's static archives:
#   - libstdc++ and libgcc: -static-libstdc++ -static-libgcc, linked with --gc-sections. Debian
#     12's libstdc++.a implements std::random_device with arc4random (GLIBC_2.36), and every
#     program reaches that code: std::runtime_error's copy constructor comes from the archive
#     member that also holds the old-ABI random_device::_M_init, which calls into random.o.
#     --gc-sections drops the sections nothing calls, and with them the arc4random import, so no
#     program may use std::random_device itself (netlib::app::random_hex reads getrandom(2),
#     GLIBC_2.25). The highest version left is GLIBC_2.35 (_dl_find_object from libgcc's unwinder,
#     hypot); the bundle test fails on any symbol newer than that.
#   - fmt: Debian ships no libfmt.a, and libfmt.so.9 needs libstdc++.so.6 (which needs
#     GLIBC_2.36): fmt is used header-only, so every file compiles anew (no object is shared
#     with the release build; docs/testing.md has the cost).
#   - OpenSSL: libssl.a, libcrypto.a (FindOpenSSL with OPENSSL_USE_STATIC_LIBS).
#   - libpcap: what `pkg-config --static --libs libpcap` names: libpcap.a, libdbus-1.a and
#     libsystemd, which has no static archive in Debian. libdbus-1.a references two functions of
#     it, sd_listen_fds and sd_is_socket (dbus-daemon's socket activation, never reached by
#     libpcap's D-Bus capture); cmake/portable/sd_daemon.cpp implements both as sd_listen_fds(3)
#     and sd_is_socket(3) document them. Any other libsystemd function would fail the link.
#   - GLPK: libglpk.a and the libraries libglpk.so.40 needs (libltdl, zlib, GMP, AMD, COLAMD and
#     SuiteSparse_config); the linker takes from each archive only what is called.

# sd_listen_fds and sd_is_socket for the static libdbus-1.a (always built: the unit tests check
# it in the Release build, tests/unit/portable).
add_library(netlab_sd_daemon STATIC ${CMAKE_CURRENT_LIST_DIR}/portable/sd_daemon.cpp)
target_link_libraries(netlab_sd_daemon PRIVATE netlab_warnings)

if(NOT NETLAB_PORTABLE)
  return()
endif()

function(netlab_static_archive var name package)
  find_library(${var} NAMES lib${name}.a)
  if(NOT ${var})
    message(FATAL_ERROR "NETLAB_PORTABLE: lib${name}.a not found: apt-get install ${package} (./setup.sh deps --package)")
  endif()
endfunction()

# libpcap: the static list pkg-config gives, each from its archive; libsystemd from sd_daemon.cpp.
pkg_check_modules(PCAP_PC REQUIRED libpcap)
set(pcap_archives "")
foreach(lib ${PCAP_PC_STATIC_LIBRARIES})
  if(lib STREQUAL "systemd")
    list(APPEND pcap_archives netlab_sd_daemon)
  elseif(lib STREQUAL "pcap" OR lib STREQUAL "dbus-1")
    netlab_static_archive(NETLAB_STATIC_${lib} ${lib} "libpcap-dev libdbus-1-dev")
    list(APPEND pcap_archives ${NETLAB_STATIC_${lib}})
  else()
    message(FATAL_ERROR "NETLAB_PORTABLE: pkg-config --static --libs libpcap names -l${lib}, which "
                        "cmake/NetlabPortable.cmake does not know how to link statically")
  endif()
endforeach()
add_library(PkgConfig::PCAP INTERFACE IMPORTED)
set_target_properties(PkgConfig::PCAP PROPERTIES
  INTERFACE_INCLUDE_DIRECTORIES "${PCAP_PC_INCLUDE_DIRS}"
  INTERFACE_LINK_LIBRARIES "${pcap_archives};Threads::Threads")

# GLPK and what libglpk.so.40 needs (objdump -p: libcolamd, libamd, libz, libltdl, libgmp).
if(NOT GLPK_INCLUDE_DIR)
  message(FATAL_ERROR "GLPK not found: apt-get install libglpk-dev")
endif()
netlab_static_archive(NETLAB_STATIC_glpk glpk libglpk-dev)
netlab_static_archive(NETLAB_STATIC_ltdl ltdl libltdl-dev)
netlab_static_archive(NETLAB_STATIC_z z zlib1g-dev)
netlab_static_archive(NETLAB_STATIC_gmp gmp libgmp-dev)
netlab_static_archive(NETLAB_STATIC_colamd colamd libsuitesparse-dev)
netlab_static_archive(NETLAB_STATIC_amd amd libsuitesparse-dev)
netlab_static_archive(NETLAB_STATIC_ssconfig suitesparseconfig libsuitesparse-dev)
add_library(GLPK::GLPK INTERFACE IMPORTED)
set_target_properties(GLPK::GLPK PROPERTIES
  INTERFACE_INCLUDE_DIRECTORIES "${GLPK_INCLUDE_DIR}"
  INTERFACE_LINK_LIBRARIES "${NETLAB_STATIC_glpk};${NETLAB_STATIC_colamd};${NETLAB_STATIC_amd};${NETLAB_STATIC_ssconfig};${NETLAB_STATIC_ltdl};${NETLAB_STATIC_z};${NETLAB_STATIC_gmp};${CMAKE_DL_LIBS};m")

set(NETLAB_FMT fmt::fmt-header-only)
add_link_options(-static-libstdc++ -static-libgcc -Wl,--gc-sections)
