// The program conventions (docs/conventions.md), checked on every lab and tool binary that was
// built: --help with an example and --version on every program and subcommand (--version before
// any required-flag check), an unknown flag exits 2 with exactly one line on stderr naming the
// nearest known flag, a misspelt subcommand names the nearest one; and, per program, one exit
// code for the same fault: a missing input file, a missing required flag. Units are taken the
// same way everywhere.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <sstream>

#include "support/process.hpp"
#include "support/temp_dir.hpp"

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

std::string bin(const std::string& name) {
  return std::string(NETLAB_BIN_DIR) + "/" + name;
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

std::size_t line_count(const std::string& s) {
  return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n'));
}

std::string shown(const std::vector<std::string>& argv) {
  std::string s;
  for (const auto& a : argv) s += (s.empty() ? "" : " ") + fs::path(a).filename().string();
  return s;
}

void expect_usage_error(const std::vector<std::string>& argv, const std::string& says) {
  const auto r = run(argv);
  EXPECT_EQ(r.exit_code, 2) << shown(argv) << ": " << r.err;
  EXPECT_EQ(line_count(r.err), 1u) << shown(argv) << " stderr:\n" << r.err;
  EXPECT_NE(r.err.find(": error: "), std::string::npos) << shown(argv) << ": " << r.err;
  EXPECT_NE(r.err.find(says), std::string::npos) << shown(argv) << ": expected '" << says << "' in: " << r.err;
}

void check_command(const std::vector<std::string>& argv) {
  const std::string name = shown(argv);
  auto help_argv = argv;
  help_argv.push_back("--help");
  auto help = run(help_argv);
  EXPECT_EQ(help.exit_code, 0) << name << " --help: " << help.err;
  EXPECT_NE(help.out.find("Example"), std::string::npos) << name << " --help shows no example";
  // --version on every command, before any required flag is checked.
  auto version_argv = argv;
  version_argv.push_back("--version");
  const auto version = run(version_argv);
  EXPECT_EQ(version.exit_code, 0) << name << " --version: " << version.err;
  EXPECT_NE(version.out.find("netlab"), std::string::npos) << name << " --version: " << version.out;
  auto bad_argv = argv;
  bad_argv.push_back("--no-such-flag");
  auto bad = run(bad_argv);
  EXPECT_EQ(bad.exit_code, 2) << name << " --no-such-flag";
  EXPECT_EQ(line_count(bad.err), 1u) << name << " --no-such-flag stderr:\n" << bad.err;
  EXPECT_NE(bad.err.find("unknown option --no-such-flag"), std::string::npos) << name << ": " << bad.err;
  // A typo names the nearest flag.
  auto typo_argv = argv;
  typo_argv.push_back("--hepl");
  expect_usage_error(typo_argv, "unknown option --hepl; did you mean --help?");
  const auto subs = subcommands(help.out);
  if (!subs.empty()) {
    // A misspelt subcommand: its first two letters swapped.
    std::string typo = subs.front();
    std::swap(typo[0], typo[1]);
    auto sub_typo = argv;
    sub_typo.push_back(typo);
    expect_usage_error(sub_typo, "unknown subcommand " + typo + "; did you mean " + subs.front() + "?");
  }
  for (const auto& sub : subs) {
    auto sub_argv = argv;
    sub_argv.push_back(sub);
    check_command(sub_argv);
  }
}

TEST(Conventions, every_program_has_help_version_and_usage_errors) {
  const auto names = programs();
  ASSERT_FALSE(names.empty()) << "no lab-* or netlab-* binary in " << NETLAB_BIN_DIR;
  for (const auto& name : names) {
    SCOPED_TRACE(name);
    auto version = run({bin(name), "--version"});
    EXPECT_EQ(version.exit_code, 0);
    EXPECT_NE(version.out.find("netlab"), std::string::npos) << version.out;
    check_command({bin(name)});
  }
}

TEST(Conventions, typos_name_the_nearest_flag_and_subcommand) {
  expect_usage_error({bin("lab-delay"), "nodal", "--lenght", "1500B", "--rate", "10Mbps"},
                     "unknown option --lenght; did you mean --length?");
  expect_usage_error({bin("lab-delay"), "nodl"}, "unknown subcommand nodl; did you mean nodal?");
  expect_usage_error({bin("lab-delay"), "nodal", "--length", "1500B", "--rate", "10Mbps", "extra"},
                     "unexpected argument 'extra'");
}

const std::string missing = "/nonexistent-netlab-input/missing.pcapng";

// For every program: the commands that name an input file or folder, given one that does not
// exist. A program that reads no input file is listed with no command, so that a new program
// must be added here.
const std::map<std::string, std::vector<std::vector<std::string>>>& missing_input_cases() {
  // A maildir that exists, of this test's own: only --users is missing.
  static const netlab::test::temp_dir maildir("conventions-maildir");
  const std::string mail = maildir.path().string();
  static const std::map<std::string, std::vector<std::vector<std::string>>> cases{
      {"lab-dc", {{"ecmp", "--capture", missing}, {"te", "--matrix", missing}, {"ecmp", "--topology", missing}}},
      {"lab-delay", {{"analyze", missing}, {"simulate", "--arrivals", "trace", "--trace", missing}}},
      {"lab-ftp", {{"serve", "--root", "/nonexistent-netlab-input"}, {"analyze", missing}}},
      {"lab-http", {{"serve", "--root", "/nonexistent-netlab-input"}, {"analyze", missing}}},
      {"lab-pop3", {{"serve", "--maildir", mail, "--users", missing}, {"analyze", missing}}},
      {"lab-smtp", {{"serve", "--maildir", mail, "--users", missing}, {"analyze", missing}}},
      {"lab-switch", {{"replay", missing}, {"replay", "--port", "0=" + missing}, {"replay", "--vlan-config", missing}}},
      {"lab-throughput", {}},
      // The student's submission (dc/questions/quiz --answers, switch --decisions) is graded when
      // missing (score 0, exit 1: docs/conventions.md), so only the instructor's inputs are here.
      {"netlab-grade",
       {{"switch", "--capture", missing, "--decisions", "student.json"}, {"questions", missing, "--key"}}},
      {"netlab-ladder", {{missing}}},
      {"netlab-record", {}},
      {"netlab-replay", {{missing, "--target", "127.0.0.1:1"}}},
      {"netlab-tour", {}},
  };
  return cases;
}

TEST(Conventions, a_missing_input_file_is_a_usage_error_in_every_program) {
  for (const auto& name : programs()) {
    SCOPED_TRACE(name);
    const auto it = missing_input_cases().find(name);
    ASSERT_NE(it, missing_input_cases().end()) << name << " is not listed: add its input files to this test";
    for (auto argv : it->second) {
      argv.insert(argv.begin(), bin(name));
      expect_usage_error(argv, "no such");
    }
  }
}

// For every program: a command missing a required flag or argument (none for a program without).
const std::map<std::string, std::vector<std::pair<std::vector<std::string>, std::string>>>& missing_flag_cases() {
  static const std::map<std::string, std::vector<std::pair<std::vector<std::string>, std::string>>> cases{
      {"lab-dc", {{{"te"}, "give either --matrix FILE or --generate"}}},
      {"lab-delay", {{{"nodal", "--rate", "10Mbps"}, "--length is required"}}},
      {"lab-ftp", {{{"serve"}, "--root is required"}}},
      {"lab-http", {{{"serve"}, "--root is required"}}},
      {"lab-pop3", {{{"serve"}, "is required"}}},
      {"lab-smtp", {{{"serve"}, "is required"}}},
      {"lab-switch", {{{"run"}, "--port is required"}}},
      {"lab-throughput", {{{"switching", "--link", "1Mbps"}, "is required"}}},
      {"netlab-grade",
       {{{"switch", "--decisions", "student.json"}, "--capture is required"}, {{"dc"}, "--answers is required"}}},
      {"netlab-ladder", {{{}, "capture is required"}}},
      {"netlab-record", {{{"--output", "x.pcapng"}, "--interface is required"}}},
      {"netlab-replay", {{{"captures/net/loopback-http.pcapng"}, "--target is required"}}},
      {"netlab-tour", {}},
  };
  return cases;
}

TEST(Conventions, a_missing_required_flag_is_a_usage_error_in_every_program) {
  for (const auto& name : programs()) {
    SCOPED_TRACE(name);
    const auto it = missing_flag_cases().find(name);
    ASSERT_NE(it, missing_flag_cases().end()) << name << " is not listed: add a required flag case to this test";
    for (const auto& [args, says] : it->second) {
      auto argv = args;
      for (auto& a : argv)
        if (a.rfind("captures/", 0) == 0) a = std::string(NETLAB_SOURCE_DIR) + "/" + a;
      argv.insert(argv.begin(), bin(name));
      expect_usage_error(argv, says);
    }
  }
}

// Durations take units the same way everywhere (0 needs none; a bare number is seconds), and a
// bad one says what to write in one short line.
TEST(Conventions, durations_take_units_the_same_way) {
  const auto bins = programs();
  const auto built = [&](const std::string& p) { return std::find(bins.begin(), bins.end(), p) != bins.end(); };
  if (built("lab-delay")) {
    // --interval 0 (the default the help names) and --timeout with a unit are accepted: no echo
    // server answers on port 9, so the run fails (exit 1), it is not a usage error (2).
    const auto ping = run(
        {bin("lab-delay"), "ping", "--server", "127.0.0.1:9", "--count", "1", "--timeout", "100ms", "--interval", "0"});
    EXPECT_EQ(ping.exit_code, 1) << ping.err;
    expect_usage_error({bin("lab-delay"), "ping", "--server", "127.0.0.1:9", "--timeout", "2 fortnights"}, "duration");
  }
  if (built("netlab-grade")) {
    for (const char* timeout : {"2s", "2", "500ms"}) {
      const auto g = run({bin("netlab-grade"), "http", "--target", "127.0.0.1:1", "--timeout", timeout, "--json"});
      EXPECT_NE(g.exit_code, 2) << timeout << ": " << g.err;
    }
  }
  if (built("netlab-record")) {
    const netlab::test::temp_dir scratch("conventions-record");
    const auto r =
        run({bin("netlab-record"), "--interface", "nosuchif0", "--output", scratch / "x.pcapng", "--seconds", "1s"});
    EXPECT_EQ(r.exit_code, 1) << r.err;  // the interface does not exist: a runtime failure, not a usage error
    const auto bad =
        run({bin("netlab-record"), "--interface", "lo", "--output", scratch / "x.pcapng", "--seconds", "-1s"});
    EXPECT_EQ(bad.exit_code, 2) << bad.err;
    EXPECT_LT(bad.err.size(), 200u) << bad.err;  // no 309-digit limit
  }
  if (built("lab-switch")) {
    const std::string capture = std::string(NETLAB_SOURCE_DIR) + "/captures/switch/aging_gap.pcapng";
    const auto bare = run({bin("lab-switch"), "replay", capture, "--aging", "500", "--json"});
    const auto unit = run({bin("lab-switch"), "replay", capture, "--aging", "500s", "--json"});
    EXPECT_EQ(bare.exit_code, 0) << bare.err;
    EXPECT_EQ(bare.out, unit.out);
    expect_usage_error({bin("lab-switch"), "replay", capture, "--aging", "5 parsecs"}, "--aging");
  }
}

}  // namespace
