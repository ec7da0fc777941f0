#pragma once
// `netlab-grade smtp`: the SMTP server conformance suite (RFC 5321 and the lab's requirements),
// run against a live server. Every check is a short dialogue of command lines, each with the
// reply codes a conforming server may give.
#include <chrono>
#include <string>
#include <vector>

#include "check.hpp"

namespace netlab::grade {

struct smtp_options {
  std::string host = "127.0.0.1";
  unsigned short port = 0;
  std::vector<std::string> recipients;  // mailboxes the server delivers to ("alice@example.org")
  std::string sender = "grader@netlab-grade.test";
  std::chrono::milliseconds timeout{3000};
};

suite_result run_smtp_suite(const smtp_options& options);

}  // namespace netlab::grade
