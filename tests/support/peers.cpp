#include "support/peers.hpp"

#include <unistd.h>

#include <cstdlib>
#include <sstream>

#include "support/process.hpp"

namespace netlab::test {

std::optional<std::string> find_program(const std::string& name) {
  if (name.find('/') != std::string::npos) {
    if (access(name.c_str(), X_OK) == 0) return name;
    return std::nullopt;
  }
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return std::nullopt;
}

bool in_ci() {
  const char* ci = std::getenv("CI");
  return ci && std::string(ci) == "true";
}

bool python_has_module(const std::string& module) {
  if (access("/usr/bin/python3", X_OK) != 0) return false;
  return run({"/usr/bin/python3", "-c", "import " + module}).exit_code == 0;
}

}  // namespace netlab::test
