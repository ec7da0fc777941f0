#pragma once
// `netlab-grade pop3`: the POP3 server conformance suite (RFC 1939), run against a live server
// with one account whose maildrop holds at least one message. Nothing is deleted: the DELE
// check ends with RSET.
#include <chrono>
#include <string>

#include "check.hpp"

namespace netlab::grade {

struct pop3_options {
  std::string host = "127.0.0.1";
  unsigned short port = 0;
  std::string user;
  std::string password;
  std::chrono::milliseconds timeout{3000};
};

suite_result run_pop3_suite(const pop3_options& options);

}  // namespace netlab::grade
