// The program conventions (docs/architecture.md, "Program conventions"), checked on every lab and tool binary that was built: --help with an
// example exits 0 (also for each subcommand), --version exits 0, and an unknown flag exits 2 with
// exactly one line on stderr.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "support/process.hpp"

namespace {

namespace fs = std::filesystem;
using netlab::test::run;

std::vector<std::string> programs() {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(NETLAB_BIN_DIR)) {
    const auto name = e.path().filename().string();
    if (name.rfind("lab-", 0) == 0 || name.rfind("netlab-", 0) == 0) names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

// Subcommand names from CLI11's help ("Subcommands:" then "  name   description" lines).
std::vector<std::string> subcommands(const std::string& help) {
  std::vector<std::string> subs;
  std::istringstream in(help);
  std::string line;
  bool in_section = false;
  while (std::getline(in, line)) {
    if (line.rfind("SUBCOMMANDS:", 0) == 0 || line.rfind("Subcommands:", 0) == 0) {
      in_section = true;
      continue;
    }
    if (!in_section) continue;
    if (line.empty() || line[0] != ' ') break;
    std::istringstream words(line);
    std::string name;
    words >> name;
    if (!name.empty()) subs.push_back(name);
  }
  return subs;
}

std::size_t line_count(const std::string& s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')); }

void check_command(const std::vector<std::string>& argv) {
  std::string shown;
  for (const auto& a : argv) shown += (shown.empty() ? "" : " ") + fs::path(a).filename().string();
  auto help_argv = argv;
  help_argv.push_back("--help");
  auto help = run(help_argv);
  EXPECT_EQ(help.exit_code, 0) << shown << " --help: " << help.err;
  EXPECT_NE(help.out.find("Example"), std::string::npos) << shown << " --help shows no example";
  auto bad_argv = argv;
  bad_argv.push_back("--no-such-flag");
  auto bad = run(bad_argv);
  EXPECT_EQ(bad.exit_code, 2) << shown << " --no-such-flag";
  EXPECT_EQ(line_count(bad.err), 1u) << shown << " --no-such-flag stderr:\n" << bad.err;
  for (const auto& sub : subcommands(help.out)) {
    auto sub_argv = argv;
    sub_argv.push_back(sub);
    check_command(sub_argv);
  }
}

TEST(conventions, every_program_has_help_version_and_usage_errors) {
  const auto names = programs();
  ASSERT_FALSE(names.empty()) << "no lab-* or netlab-* binary in " << NETLAB_BIN_DIR;
  for (const auto& name : names) {
    SCOPED_TRACE(name);
    const std::string path = std::string(NETLAB_BIN_DIR) + "/" + name;
    auto version = run({path, "--version"});
    EXPECT_EQ(version.exit_code, 0);
    EXPECT_NE(version.out.find("netlab"), std::string::npos) << version.out;
    check_command({path});
  }
}

}  // namespace
