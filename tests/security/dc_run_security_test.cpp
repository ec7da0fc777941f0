// lab-dc run as root (issue 31, items 12 and 13). A program that may be given to students through
// sudo must not show what is in a file it could not parse (a --topology naming /etc/shadow), and
// must delete only the network namespaces it made itself: a namespace a person named
// netlab-<number>-<anything> by hand, whose "process" does not exist, survives the next run.
// Both need root and ip(8): skipped with the reason otherwise (a failure under CI=true).
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cerrno>
#include <random>

#include "security_env.hpp"
#include "support/peers.hpp"
#include "support/process.hpp"

namespace dc_run_security_test {

using netlab::test::bin_path;
using netlab::test::run;

#define DC_REQUIRE_ROOT_AND_IP()                                                      \
  do {                                                                                \
    if (geteuid() != 0) {                                                             \
      if (netlab::test::in_ci()) FAIL() << "lab-dc run must be tested as root in CI"; \
      GTEST_SKIP() << "lab-dc run needs root";                                        \
    }                                                                                 \
    if (access("/usr/sbin/ip", X_OK) != 0 && access("/sbin/ip", X_OK) != 0) {         \
      if (netlab::test::in_ci()) FAIL() << "ip (iproute2) is missing in CI";          \
      GTEST_SKIP() << "ip (iproute2) is not installed";                               \
    }                                                                                 \
  } while (0)

std::string ip_tool() {
  return access("/usr/sbin/ip", X_OK) == 0 ? "/usr/sbin/ip" : "/sbin/ip";
}

// A root-only file shaped like /etc/shadow, with a secret on every line.
const std::string shadow_text =
    "root:$y$j9T$SECRETSALTroot$SECRETHASHrootAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA:19000:0:99999:7:::\n"
    "daemon:*:19000:0:99999:7:::\n"
    "student:$y$j9T$SECRETSALTstudent$SECRETHASHstudentBBBBBBBBBBBBBBBBBBBBBBBB:19000:0:99999:7:::\n";

// Every run of lab-dc with this --topology: nothing of the file's text in its output.
void expect_nothing_echoed(const std::string& file, const std::vector<std::string>& words) {
  for (const char* command : {"run", "ecmp", "topology", "polarize", "te"}) {
    std::vector<std::string> argv{bin_path("lab-dc"), command, "--topology", file};
    if (std::string(command) == "te") argv.push_back("--generate");
    const auto r = run(argv, {}, std::chrono::seconds(60));
    SCOPED_TRACE(std::string("lab-dc ") + command + " --topology " + file);
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    EXPECT_NE(r.err.find(file), std::string::npos) << "the error names the file: " << r.err;
    for (const auto& w : words) {
      EXPECT_EQ(r.err.find(w), std::string::npos) << "'" << w << "' echoed: " << r.err;
      EXPECT_EQ(r.out.find(w), std::string::npos) << "'" << w << "' echoed: " << r.out;
    }
  }
}

TEST(DcRunSecurity, a_file_it_cannot_parse_is_not_echoed) {
  DC_REQUIRE_ROOT_AND_IP();
  security_test::temp_dir dir("dc-shadow");
  const auto shadow = (dir.path / "shadow").string();
  security_test::write_file(shadow, shadow_text);
  ::chmod(shadow.c_str(), 0600);
  expect_nothing_echoed(shadow, {"SECRET", "root:", "$y$", "student", "daemon", "19000"});
  // The line number, which tells the student where to look, is still given.
  const auto r = run({bin_path("lab-dc"), "run", "--topology", shadow});
  EXPECT_NE(r.err.find("line 1"), std::string::npos) << r.err;
  // A file that is a topology up to a line, then not: that line is not shown either.
  const auto partial = (dir.path / "partial.txt").string();
  security_test::write_file(partial, "switch s1\nhost h1\nlink h1 s1 10Gbps\nSECRETWORD extra words here\n");
  expect_nothing_echoed(partial, {"SECRETWORD", "extra words"});
  // Binary bytes.
  const auto binary = (dir.path / "binary.bin").string();
  security_test::write_file(binary, std::string("\x7f"
                                                "ELF\x02\x01\x01\0SECRETBIN\0\0\x03\0>\0",
                                                20));
  expect_nothing_echoed(binary, {"SECRETBIN", "ELF"});
}

TEST(DcRunSecurity, the_real_shadow_file_is_not_echoed) {
  DC_REQUIRE_ROOT_AND_IP();
  if (access("/etc/shadow", R_OK) != 0) GTEST_SKIP() << "no readable /etc/shadow";
  std::ifstream in("/etc/shadow");
  std::string first;
  std::getline(in, first);
  ASSERT_FALSE(first.empty());
  const auto r = run({bin_path("lab-dc"), "run", "--topology", "/etc/shadow"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  // Not a word of its first line (the user name and every field after it).
  const auto user = first.substr(0, first.find(':'));
  EXPECT_EQ(r.err.find(user + ":"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find(first.substr(0, std::min<std::size_t>(first.size(), 12))), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("'" + user), std::string::npos) << r.err;
}

// A pid that no process has now: namespaces named after it look like a killed run's.
pid_t dead_pid() {
  std::mt19937 rng(static_cast<unsigned>(getpid()));
  for (int i = 0; i < 1000; ++i) {
    const auto pid = static_cast<pid_t>(3'000'000 + rng() % 1'000'000);
    if (kill(pid, 0) != 0 && errno == ESRCH) return pid;
  }
  return 0;
}

bool namespace_exists(const std::string& name) {
  return access(("/run/netns/" + name).c_str(), F_OK) == 0;
}

TEST(DcRunSecurity, namespaces_it_did_not_create_survive) {
  DC_REQUIRE_ROOT_AND_IP();
  const pid_t pid = dead_pid();
  ASSERT_NE(pid, 0);
  // A person's namespaces that merely look like lab-dc's: a dead "pid" and the handout's own
  // example of a hand-made one.
  const std::vector<std::string> mine{"netlab-" + std::to_string(pid) + "-dcfixmylab", "netlab-2024-mylab-dcfix"};
  for (const auto& n : mine) {
    if (namespace_exists(n)) run({ip_tool(), "netns", "del", n});
    ASSERT_EQ(run({ip_tool(), "netns", "add", n}).exit_code, 0) << n;
  }
  const auto r = run({bin_path("lab-dc"), "run", "--flows", "4", "--size", "2KB", "--one-step", "--verbose"}, {},
                     std::chrono::seconds(120));
  EXPECT_EQ(r.exit_code, 0) << r.err.substr(0, 3000);
  for (const auto& n : mine) {
    EXPECT_TRUE(namespace_exists(n)) << n << " was deleted by lab-dc run: " << r.err.substr(0, 3000);
    run({ip_tool(), "netns", "del", n});
  }
}

}  // namespace dc_run_security_test
