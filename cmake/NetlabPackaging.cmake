# Release artefacts (docs/instructor.md, "Install in one minute"; docs/testing.md, "Release
# artefacts"), made from the Release build folder:
#
#   cmake --build build/release --target package
#       build/release/netlab-VERSION-linux-x86_64.tar.gz: the portable bundle, every program linked
#       for glibc only (the `portable` preset, cmake/NetlabPortable.cmake, built on the way), with
#       captures, handouts, man pages and the autograder files;
#       build/release/netlab_VERSION_amd64.deb: the Release programs as Debian links them, Depends
#       computed by dpkg-shlibdeps;
#   cmake --build build/release --target autograders
#       build/release/autograders/netlab-autograder-LAB-ROLE.zip, one per Gradescope assignment
#       kind, each holding what it grades with from the portable bundle
#       (tools/autograder/make_autograders.sh).
#
# Both layouts put programs in bin/ and data in share/ beside it (/usr/bin and /usr/share in the
# package), which is how the programs find their captures (netlib/app/data_path.hpp).

# --- what is installed (both layouts) -----------------------------------------------------------
# The captures' recipes are shell scripts (#!), installed executable.
install(DIRECTORY ${CMAKE_SOURCE_DIR}/captures/ DESTINATION share/netlab/captures
        PATTERN "*.sh" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
install(FILES ${CMAKE_SOURCE_DIR}/README.md DESTINATION share/doc/netlab)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/ DESTINATION share/doc/netlab)
set(NETLAB_PACKAGE_MAINTAINER "netlab maintainers <netlab@example.org>" CACHE STRING
    "Maintainer of the Debian package (name <address>)")
string(TIMESTAMP netlab_changelog_date "%a, %d %b %Y %H:%M:%S +0000" UTC)
configure_file(${CMAKE_SOURCE_DIR}/cmake/packaging/changelog.in ${CMAKE_BINARY_DIR}/packaging/changelog @ONLY)
install(FILES ${CMAKE_SOURCE_DIR}/cmake/packaging/copyright DESTINATION share/doc/netlab)
# The licences of code compiled into the programs: the header-only libraries in every layout, and
# in the bundle the libraries linked statically (Debian's copyright file of each, as found here).
set(netlab_third_party libcli11-dev nlohmann-json3-dev libfmt-dev)
file(GLOB netlab_boost_docs LIST_DIRECTORIES true /usr/share/doc/libboost*-dev)
foreach(d ${netlab_boost_docs})
  get_filename_component(name ${d} NAME)
  list(APPEND netlab_third_party ${name})
endforeach()
if(NETLAB_PORTABLE)
  list(APPEND netlab_third_party libssl3 libpcap0.8 libdbus-1-3 libglpk40 libgmp10 libltdl7 zlib1g libamd2
                                 libcolamd2 libsuitesparseconfig5 libstdc++6 libgcc-s1)
endif()
foreach(pkg ${netlab_third_party})
  if(EXISTS /usr/share/doc/${pkg}/copyright)
    install(FILES /usr/share/doc/${pkg}/copyright DESTINATION share/doc/netlab/third-party RENAME ${pkg}.copyright)
  endif()
endforeach()
# The changelog and the man pages are compressed as Debian policy wants (gzip -9n: no name, no
# time, so the same input gives the same bytes).
get_property(netlab_all_programs GLOBAL PROPERTY NETLAB_PROGRAMS)
set(netlab_program_files "")
foreach(p ${netlab_all_programs})
  list(APPEND netlab_program_files "$<TARGET_FILE:${p}>")
endforeach()
install(CODE "
  set(root \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}\")
  file(MAKE_DIRECTORY \"\${root}/share/man/man1\" \"\${root}/share/doc/netlab\")
  execute_process(COMMAND gzip -9nc \"${CMAKE_BINARY_DIR}/packaging/changelog\"
                  OUTPUT_FILE \"\${root}/share/doc/netlab/changelog.gz\" COMMAND_ERROR_IS_FATAL ANY)
  foreach(program ${netlab_program_files})
    get_filename_component(name \"\${program}\" NAME)
    message(STATUS \"Manual page: \${root}/share/man/man1/\${name}.1.gz\")
    execute_process(COMMAND bash \"${CMAKE_SOURCE_DIR}/cmake/packaging/manpage.sh\" \"\${program}\"
                            \"\${root}/share/man/man1/\${name}.1\" COMMAND_ERROR_IS_FATAL ANY)
    execute_process(COMMAND gzip -9nf \"\${root}/share/man/man1/\${name}.1\" COMMAND_ERROR_IS_FATAL ANY)
  endforeach()
")

if(NETLAB_PORTABLE)
  # The bundle only: the Gradescope autograder files (the zips are made from a bundle, whose
  # programs need nothing but glibc).
  install(PROGRAMS ${CMAKE_SOURCE_DIR}/tools/autograder/make_autograders.sh
                   ${CMAKE_SOURCE_DIR}/tools/autograder/run_autograder
                   ${CMAKE_SOURCE_DIR}/tools/autograder/setup.sh
          DESTINATION share/netlab/autograder)
  return()  # CPack and the autograder targets live in the Release build folder
endif()

# --- the portable tree, built on the way (package, autograders) ----------------------------------
set(NETLAB_PORTABLE_DIR ${CMAKE_SOURCE_DIR}/build/portable CACHE PATH
    "Build folder of the portable programs (the `portable` preset's)")
set(netlab_portable_stage ${CMAKE_BINARY_DIR}/portable-stage)
# Configures (once) and builds the portable preset, then installs it into portable-stage/.
add_custom_target(netlab_portable
  COMMAND ${CMAKE_COMMAND} -E chdir ${CMAKE_SOURCE_DIR} ${CMAKE_COMMAND} --preset portable > /dev/null
  COMMAND ${CMAKE_COMMAND} --build ${NETLAB_PORTABLE_DIR}
  COMMAND ${CMAKE_COMMAND} -E rm -rf ${netlab_portable_stage}
  COMMAND ${CMAKE_COMMAND} --install ${NETLAB_PORTABLE_DIR} --prefix ${netlab_portable_stage} --strip > /dev/null
  COMMENT "Building the portable programs (preset portable, ${NETLAB_PORTABLE_DIR})"
  USES_TERMINAL)
add_custom_target(autograders
  COMMAND bash ${CMAKE_SOURCE_DIR}/tools/autograder/make_autograders.sh ${netlab_portable_stage} ${CMAKE_BINARY_DIR}/autograders
  COMMENT "Gradescope autograder zips in ${CMAKE_BINARY_DIR}/autograders"
  USES_TERMINAL)
add_dependencies(autograders netlab_portable)

# --- CPack: the bundle (TGZ, from the portable tree) and the Debian package (DEB, from this one) --
set(CPACK_GENERATOR "TGZ;DEB")
set(CPACK_PACKAGE_NAME netlab)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR netlab)
set(CPACK_PACKAGE_CONTACT "${NETLAB_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "networking lab suite: HTTP, FTP, SMTP, POP3, switching, delay, data centres")
set(CPACK_STRIP_FILES TRUE)
set(CPACK_PACKAGE_DIRECTORY ${CMAKE_BINARY_DIR})
set(CPACK_OUTPUT_FILE_PREFIX ${CMAKE_BINARY_DIR})
set(CPACK_THREADS 0)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${NETLAB_PACKAGE_MAINTAINER}")
# The extended description (CPack indents it under CPACK_PACKAGE_DESCRIPTION_SUMMARY, the
# synopsis; an empty line becomes the " ." that separates paragraphs).
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
  "netlab is a lab suite for a first course in computer networking. Each lab is
one program with real protocol implementations: lab-http, lab-ftp, lab-smtp,
lab-pop3 (servers and clients that real peers accept), lab-switch (the
802.1D learning switch), lab-delay and lab-throughput (calculators and
simulations), lab-dc (data-centre fabrics). netlab-record, netlab-replay,
netlab-ladder and netlab-grade serve instructors and autograders;
netlab-tour runs every lab end to end.

The handouts and the instructor guide are in /usr/share/doc/netlab, the
recorded captures in /usr/share/netlab/captures.")
set(CPACK_PROJECT_CONFIG_FILE ${CMAKE_BINARY_DIR}/packaging/cpack_project.cmake)
file(WRITE ${CMAKE_BINARY_DIR}/packaging/cpack_project.cmake "
# Per generator (cmake/NetlabPackaging.cmake): the bundle installs the portable build, built first.
if(CPACK_GENERATOR STREQUAL \"TGZ\")
  set(CPACK_PACKAGE_FILE_NAME \"netlab-${PROJECT_VERSION}-linux-x86_64\")
  set(CPACK_INSTALL_CMAKE_PROJECTS \"${NETLAB_PORTABLE_DIR};netlab;ALL;/\")
  set(CPACK_PACKAGING_INSTALL_PREFIX \"/\")
  set(CPACK_INSTALL_COMMANDS
      \"${CMAKE_COMMAND} -S ${CMAKE_SOURCE_DIR} --preset portable\"
      \"${CMAKE_COMMAND} --build ${NETLAB_PORTABLE_DIR}\")
elseif(CPACK_GENERATOR STREQUAL \"DEB\")
  set(CPACK_PACKAGING_INSTALL_PREFIX \"/usr\")
endif()
")
include(CPack)
