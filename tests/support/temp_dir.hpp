#pragma once
// A scratch directory of the test's own: made with mkdtemp (a fresh, unique name, so tests that run
// at once, in one build tree or in two, never share a file) and removed with what it holds when the
// object goes. Tests write their files here, never under a fixed name in /tmp.
#include <stdlib.h>

#include <cerrno>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>

namespace netlab::test {

class temp_dir {
 public:
  // stem names the directory for whoever finds it left behind: /tmp/netlab-STEM-XXXXXX.
  explicit temp_dir(const std::string& stem = "test") {
    std::string tmpl = (std::filesystem::temp_directory_path() / ("netlab-" + stem + "-XXXXXX")).string();
    if (::mkdtemp(tmpl.data()) == nullptr) throw std::system_error(errno, std::generic_category(), "mkdtemp " + tmpl);
    path_ = tmpl;
  }
  ~temp_dir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  // The path of NAME inside the directory, as a string for a command line.
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

}  // namespace netlab::test
