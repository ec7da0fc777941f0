// Users files (issue 29): every server that checks passwords reads its users file with one parser
// (netlib::users_table). lab-ftp and lab-http had their own: a name listed twice silently took the
// last line's password, and an empty password was accepted, so `alice:` let anyone in as alice
// with an empty PASS or `alice:` Basic credentials. Now each of the four servers refuses to start
// on such a file (exit 1, the line named). On the code before the fix, lab-ftp and lab-http
// started, and this test logs in with the empty password to show what that meant.
#include <algorithm>
#include <csignal>
#include <cstdio>

#include "security/security_env.hpp"

namespace users_file_test {

using namespace security_test;

struct bad_file {
  const char* what;
  const char* text;
  const char* says;
};

const bad_file bad_files[] = {
    {"a name listed twice", "alice:wonderland\nbob:x\nalice:other\n", "line 3: user 'alice' listed twice"},
    {"an empty password", "# lab users\nalice:\n", "line 2: empty password for 'alice'"},
    {"a password with a control character", "alice:won\tderland\n", "line 1: control character in the password"},
    {"a line without ':'", "alice wonderland\n", "line 1: expected name:password"},
};

std::vector<std::string> server_argv(const std::string& proto, const fs::path& dir, const std::string& users) {
  if (proto == "smtp")
    return {netlab::test::bin_path("lab-smtp"),
            "serve",
            "--maildir",
            (dir / "mail").string(),
            "--domain",
            "example.org",
            "--users",
            users,
            "--listen",
            "127.0.0.1:0"};
  if (proto == "pop3")
    return {netlab::test::bin_path("lab-pop3"),
            "serve",
            "--maildir",
            (dir / "mail").string(),
            "--users",
            users,
            "--listen",
            "127.0.0.1:0"};
  if (proto == "ftp")
    return {netlab::test::bin_path("lab-ftp"),
            "serve",
            "--root",
            (dir / "root").string(),
            "--users",
            users,
            "--listen",
            "127.0.0.1:0"};
  return {netlab::test::bin_path("lab-http"),
          "serve",
          "--root",
          (dir / "root").string(),
          "--auth-dir",
          "private",
          "--auth-users",
          users,
          "--listen",
          "127.0.0.1:0"};
}

// What a server that started on "alice:" lets through: a login as alice with an empty password
// (Python's standard clients). "accepted" or what the server answered.
std::string empty_password_login(const std::string& proto, int port) {
  std::string code;
  if (proto == "ftp")
    code =
        "import ftplib\nf = ftplib.FTP()\nf.connect('127.0.0.1', %d, timeout=10)\n"
        "try:\n    f.login('alice', '')\n    print('accepted')\nexcept ftplib.error_perm as e:\n    print(e)\n";
  else if (proto == "http")
    code =
        "import urllib.request, base64\nr = urllib.request.Request('http://127.0.0.1:%d/private/secret.txt', "
        "headers={'Authorization': 'Basic ' + base64.b64encode(b'alice:').decode()})\n"
        "try:\n    urllib.request.urlopen(r, timeout=10)\n    print('accepted')\n"
        "except Exception as e:\n    print(e)\n";
  else
    return "not tried";
  char script[1024];
  std::snprintf(script, sizeof script, code.c_str(), port);
  const auto r = netlab::test::run({"/usr/bin/python3", "-c", script}, {}, std::chrono::seconds(30));
  return r.out + r.err;
}

void expect_refused(const std::string& proto) {
  for (const auto& bad : bad_files) {
    SCOPED_TRACE(proto + ", " + bad.what);
    temp_dir dir("netlab-sec-users");
    write_file(dir.path / "users.txt", bad.text);
    write_file(dir.path / "root/private/secret.txt", "for alice only\n");
    netlab::test::process server(server_argv(proto, dir.path, (dir.path / "users.txt").string()));
    // A server that starts anyway prints its listening line; one that refuses exits at once.
    if (const auto line = server.wait_for_line("listening on ", std::chrono::seconds(15))) {
      const int port = netlab::test::process::port_of(line->substr(std::string("listening on ").size()));
      const std::string login = std::string(bad.what) == "an empty password" ? empty_password_login(proto, port) : "";
      ADD_FAILURE() << "the server started on a users file with " << bad.what
                    << (login.empty() ? "" : "; alice with an empty password: " + login);
      server.signal(SIGTERM);
      server.wait();
      continue;
    }
    EXPECT_EQ(server.wait(), 1) << server.err();
    EXPECT_NE(server.err().find(bad.says), std::string::npos) << server.err();
    EXPECT_NE(server.err().find("users.txt"), std::string::npos) << "the error names the file: " << server.err();
    EXPECT_EQ(std::count(server.err().begin(), server.err().end(), '\n'), 1) << server.err();
    std::printf("%s, %s: %s", proto.c_str(), bad.what, server.err().c_str());
  }
}

TEST(UsersFile, FtpRefusesDuplicatesAndEmptyPasswords) {
  expect_refused("ftp");
}
TEST(UsersFile, HttpBasicAuthRefusesDuplicatesAndEmptyPasswords) {
  expect_refused("http");
}
TEST(UsersFile, SmtpRefusesDuplicatesAndEmptyPasswords) {
  expect_refused("smtp");
}
TEST(UsersFile, Pop3RefusesDuplicatesAndEmptyPasswords) {
  expect_refused("pop3");
}

// With --anonymous, a named user called "ftp" or "anonymous" would never be asked for a password.
TEST(UsersFile, FtpRefusesANamedAnonymousUserWithAnonymousOn) {
  temp_dir dir("netlab-sec-users");
  write_file(dir.path / "users.txt", "alice:wonderland\nftp:secret\n");
  fs::create_directories(dir.path / "root");
  auto argv = server_argv("ftp", dir.path, (dir.path / "users.txt").string());
  argv.push_back("--anonymous");
  const auto r = netlab::test::run(argv, {}, std::chrono::seconds(15));
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("user 'ftp' is the anonymous login"), std::string::npos) << r.err;
}

}  // namespace users_file_test
