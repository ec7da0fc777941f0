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
  # Not GCC's -Wmismatched-new-delete: GCC 11 to 15 report every Boost.Asio coroutine whose frame
  # allocation it happens to inline (awaitable_frame_base's operator new returns memory from
  # aligned_alloc; its operator delete frees it with free(), a matched pair that GCC takes for a
  # mismatch: GCC bug 109224). Whether it fires depends on inlining, so on what else shares the
  # translation unit: tests/support/echo_driver.hpp warned when compiled alone at -O1 and -O3 and
  # not inside its unity batch. Real mismatches are still caught: clang's front-end check of the
  # same name in CI's libFuzzer build, and ASan's alloc-dealloc-mismatch check (on by default) on
  # every test in CI's ASan stage.
  $<$<CXX_COMPILER_ID:GNU>:-Wno-mismatched-new-delete>
  $<$<BOOL:${NETLAB_WERROR}>:-Werror>)
option(NETLAB_WERROR "Treat warnings as errors" OFF)
