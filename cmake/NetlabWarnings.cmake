# Warnings every netlab target builds with.
add_library(netlab_warnings INTERFACE)
target_compile_options(netlab_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align -Wunused
  -Woverloaded-virtual -Wnull-dereference -Wimplicit-fallthrough
  # C++20 designated initializers leave members at their default initializers on purpose
  # (`server_flags{.max_connections = 100}`); GCC 12 warns about that under -Wextra.
  -Wno-missing-field-initializers
  $<$<BOOL:${NETLAB_WERROR}>:-Werror>)
option(NETLAB_WERROR "Treat warnings as errors" OFF)
