#include "netlib/app/data_path.hpp"

#include <algorithm>
#include <filesystem>

#include "netlib/app/process.hpp"
#include "netlib/app/program.hpp"

namespace netlib::app {

std::vector<std::string> data_candidates(const std::string& relative) {
  namespace fs = std::filesystem;
  const fs::path exe_dir = own_directory();
  std::vector<std::string> out{(exe_dir.parent_path() / "share/netlab" / relative).lexically_normal().string()};
  // A program in its own build folder (build/release/bin) reads the source tree it was built from;
  // an installed or bundled copy never does, even where that folder exists.
  const fs::path binary_dir = NETLAB_BUILD_BINARY_DIR;
  const auto [end, ignored] = std::mismatch(binary_dir.begin(), binary_dir.end(), exe_dir.begin(), exe_dir.end());
  if (end == binary_dir.end()) out.push_back((fs::path(NETLAB_BUILD_SOURCE_DIR) / relative).string());
  out.push_back((fs::path("/usr/share/netlab") / relative).string());
  return out;
}

std::string data_path(const std::string& relative) {
  const auto candidates = data_candidates(relative);
  std::string looked;
  for (const auto& c : candidates) {
    if (std::filesystem::exists(c)) return c;
    looked += (looked.empty() ? "" : ", ") + c;
  }
  throw failure("netlab's " + relative + " is missing (looked in " + looked + ")");
}

}  // namespace netlib::app
