#pragma once
// The lines of the project's own source files, for the tests that hold the code to a rule
// (unit/base/core_purity_test.cpp, unit/dc/purity_test.cpp): every line of every file below each
// folder (relative to the source tree; a folder that does not exist is passed over).
//
//   const auto files = netlab::test::for_each_source_line({"netlib/src/dc"},
//       [](const std::string& where, const std::string& line) { ... });  // where: "PATH:LINE"
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/process.hpp"

namespace netlab::test {

// Returns how many files were read.
template <class F>
std::size_t for_each_source_line(const std::vector<std::string>& folders, F&& f) {
  std::size_t files = 0;
  for (const auto& folder : folders) {
    const std::filesystem::path dir = source_path(folder);
    if (!std::filesystem::exists(dir)) continue;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
      if (!entry.is_regular_file()) continue;
      ++files;
      std::ifstream in(entry.path());
      std::string line;
      for (int number = 1; std::getline(in, line); ++number)
        f(entry.path().string() + ":" + std::to_string(number), line);
    }
  }
  return files;
}

}  // namespace netlab::test
