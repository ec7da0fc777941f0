#pragma once
// Real peers (curl, tshark, swaks, python3 modules...). A missing peer skips the test with the
// reason printed, except under CI=true, where it is a failure: CI must install every peer.
#include <gtest/gtest.h>
#include <unistd.h>

#include <optional>
#include <string>

namespace netlab::test {

// Full path of a program on PATH (or an absolute path), or nullopt.
std::optional<std::string> find_program(const std::string& name);
// True when CI=true is set in the environment.
bool in_ci();
// Whether /usr/bin/python3 can import a module.
bool python_has_module(const std::string& module);

}  // namespace netlab::test

// Use at the top of a test: NETLAB_REQUIRE_PEER("curl");
#define NETLAB_REQUIRE_PEER(name)                                                                \
  do {                                                                                           \
    if (!::netlab::test::find_program(name)) {                                                   \
      if (::netlab::test::in_ci()) FAIL() << "peer program '" << (name) << "' is missing in CI"; \
      GTEST_SKIP() << "peer program '" << (name) << "' is not installed";                        \
    }                                                                                            \
  } while (0)

#define NETLAB_REQUIRE_PYTHON_MODULE(module)                                                        \
  do {                                                                                              \
    if (!::netlab::test::python_has_module(module)) {                                               \
      if (::netlab::test::in_ci()) FAIL() << "python module '" << (module) << "' is missing in CI"; \
      GTEST_SKIP() << "python module '" << (module) << "' is not installed for /usr/bin/python3";   \
    }                                                                                               \
  } while (0)

// Use at the top of a test that needs root (network namespaces, qdiscs): skipped with the reason
// when not root, a failure under CI=true (CI runs as root). NETLAB_REQUIRE_ROOT("lab-dc run");
#define NETLAB_REQUIRE_ROOT(what)                                                 \
  do {                                                                            \
    if (::geteuid() != 0) {                                                       \
      if (::netlab::test::in_ci()) FAIL() << (what) << " must run as root in CI"; \
      GTEST_SKIP() << (what) << " needs root";                                    \
    }                                                                             \
  } while (0)
