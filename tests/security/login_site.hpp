#pragma once
// The servers that check passwords, each started on one site for the guessing attacks
// (tests/security/auth_guessing_test.cpp, guard_live_test.cpp): users alice:secret and
// bob:hunter2, a protected folder private/ for lab-http, a self-signed certificate for SMTP's
// AUTH (offered over TLS only).
#include <string>
#include <vector>

#include "security/security_env.hpp"

namespace security_test {

struct login_site {
  temp_dir dir{"netlab-sec-login"};
  std::vector<std::string> tls;
  login_site() {
    write_file(dir.path / "users.txt", "alice:secret\nbob:hunter2\n");
    write_file(dir.path / "root/private/secret.txt", "for alice and bob\n");
    write_file(dir.path / "root/index.html", "<p>public</p>\n");
    tls = make_cert(dir.path);
  }
  std::vector<std::string> argv(const std::string& proto, const std::vector<std::string>& extra) const {
    const std::string users = (dir.path / "users.txt").string();
    std::vector<std::string> a;
    if (proto == "smtp") {
      a = {netlab::test::bin_path("lab-smtp"),
           "serve",
           "--maildir",
           (dir.path / "mail").string(),
           "--domain",
           "example.org",
           "--users",
           users};
      a.insert(a.end(), tls.begin(), tls.end());
    } else if (proto == "pop3") {
      a = {netlab::test::bin_path("lab-pop3"), "serve", "--maildir", (dir.path / "mail").string(), "--users", users};
    } else if (proto == "ftp") {
      a = {netlab::test::bin_path("lab-ftp"), "serve", "--root", (dir.path / "root").string(), "--users", users};
    } else {
      a = {netlab::test::bin_path("lab-http"),
           "serve",
           "--root",
           (dir.path / "root").string(),
           "--auth-dir",
           "private",
           "--auth-users",
           users};
    }
    a.insert(a.end(), {"--listen", "127.0.0.1:0"});
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  }
};

}  // namespace security_test
