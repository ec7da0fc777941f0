// docs/architecture.md ("Data-centre core"): netlib::dc uses the standard library, fmt and the
// netlib cores only; GLPK is included in one file, netlib/src/dc_glpk/glpk_solver.cpp.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "support/source_lines.hpp"

namespace dc_purity_test {

TEST(DcPurity, the_core_includes_only_std_fmt_and_netlib_cores) {
  const std::regex include(R"(^\s*#\s*include\s*([<"])([^>"]+)[>"])");
  const std::regex allowed(R"(^(fmt/[a-z_]+\.h|netlib/(core|calc|packet|dc)/[a-z_0-9]+\.hpp)$)");
  const auto files = netlab::test::for_each_source_line(
      {"netlib/include/netlib/dc", "netlib/src/dc"}, [&](const std::string& where, const std::string& line) {
        std::smatch m;
        if (!std::regex_search(line, m, include)) return;
        const std::string header = m[2];
        const bool standard =
            m[1] == "<" && header.find('/') == std::string::npos && header.find('.') == std::string::npos;
        EXPECT_TRUE(standard || std::regex_match(header, allowed)) << where << " includes " << header;
        EXPECT_NE(header, "netlib/dc/glpk_solver.hpp") << where << " includes " << header;
        EXPECT_EQ(header.find("glpk.h"), std::string::npos) << where;
      });
  EXPECT_GT(files, 10u);
}

}  // namespace dc_purity_test
