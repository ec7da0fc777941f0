# Warnings every netlab target builds with.
add_library(netlab_warnings INTERFACE)
target_compile_options(netlab_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align -Wunused
  -Woverloaded-virtual -Wimplicit-fallthrough
  # Not -Wnull-dereference: GCC 12 at -O3 reports paths its own inlining invents (a vector's
  # back() after a loop that always pushes, Asio's and libstdc++'s internals: about 90 reports,
  # none a real null pointer); UBSan's null checks in CI's ASan + UBSan stage catch the real ones.
  # C++20 designated initializers leave members at their default initializers on purpose
  # (`server_flags{.max_connections = 100}`); GCC 12 warns about that under -Wextra.
  -Wno-missing-field-initializers
  $<$<BOOL:${NETLAB_WERROR}>:-Werror>)
option(NETLAB_WERROR "Treat warnings as errors" OFF)
