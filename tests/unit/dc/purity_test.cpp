// docs/architecture.md ("Data-centre core"): netlib::dc uses the standard library, fmt and the
// netlib cores only; GLPK is included in one file, netlib/src/dc_glpk/glpk_solver.cpp.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include "support/process.hpp"

namespace dc_purity_test {

namespace fs = std::filesystem;

TEST(dc_purity, the_core_includes_only_std_fmt_and_netlib_cores) {
  const std::regex include(R"(^\s*#\s*include\s*([<"])([^>"]+)[>"])");
  const std::regex allowed(R"(^(fmt/[a-z_]+\.h|netlib/(core|calc|packet|dc)/[a-z_0-9]+\.hpp)$)");
  std::size_t files = 0;
  for (const char* dir : {"netlib/include/netlib/dc", "netlib/src/dc"}) {
    for (const auto& entry : fs::recursive_directory_iterator(netlab::test::source_path(dir))) {
      if (!entry.is_regular_file()) continue;
      ++files;
      std::ifstream in(entry.path());
      std::string line;
      int number = 0;
      while (std::getline(in, line)) {
        ++number;
        std::smatch m;
        if (!std::regex_search(line, m, include)) continue;
        const std::string header = m[2];
        const bool standard = m[1] == "<" && header.find('/') == std::string::npos && header.find('.') == std::string::npos;
        EXPECT_TRUE(standard || std::regex_match(header, allowed)) << entry.path().string() << ":" << number << " includes " << header;
        EXPECT_NE(header, "netlib/dc/glpk_solver.hpp")
            << entry.path().string() << ":" << number << " includes " << header;
        EXPECT_EQ(header.find("glpk.h"), std::string::npos) << entry.path().string() << ":" << number;
      }
    }
  }
  EXPECT_GT(files, 10u);
}

}  // namespace dc_purity_test
