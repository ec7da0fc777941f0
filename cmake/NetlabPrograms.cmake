# netlab_program(NAME SOURCES... [LIBS ...]): one lab or tool binary, built into bin/.
function(netlab_program name)
  cmake_parse_arguments(P "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${P_SOURCES} ${P_UNPARSED_ARGUMENTS})
  target_link_libraries(${name} PRIVATE netlib::app ${P_LIBS} netlab_warnings)
  install(TARGETS ${name} RUNTIME DESTINATION bin)
  set_property(GLOBAL APPEND PROPERTY NETLAB_PROGRAMS ${name})
endfunction()
