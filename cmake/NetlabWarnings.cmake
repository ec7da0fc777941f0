# Warnings every netlab target builds with.
add_library(netlab_warnings INTERFACE)
target_compile_options(netlab_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align -Wunused
  -Woverloaded-virtual -Wnull-dereference -Wimplicit-fallthrough
  $<$<BOOL:${NETLAB_WERROR}>:-Werror>)
option(NETLAB_WERROR "Treat warnings as errors" OFF)
