#pragma once
// `netlab-grade ftp`: the FTP server conformance suite (RFC 959, RFC 2428 EPSV, RFC 3659 SIZE),
// with passive (PASV, EPSV) and active (PORT) data connections, run against a live server with
// one account (not anonymous: a wrong password must be refused) and one existing file.
#include <chrono>
#include <string>

#include "check.hpp"

namespace netlab::grade {

struct ftp_options {
  std::string host = "127.0.0.1";
  unsigned short port = 0;
  std::string user;
  std::string password;
  std::string file;  // an existing, non-empty file, as RETR names it ("hello.txt")
  std::chrono::milliseconds timeout{3000};
  // How long the server may wait before refusing a wrong password, on top of `timeout`: servers
  // slow down password guessing (pyftpdlib's auth_failed_timeout is 3 s, vsftpd's
  // delay_failed_login 1 s), and that delay is no fault.
  std::chrono::milliseconds login_delay{5000};
};

suite_result run_ftp_suite(const ftp_options& options);

}  // namespace netlab::grade
