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
  // The server's mail store, when the grader can read it (the Gradescope recipe starts the
  // student's server with --maildir DIR): deliver_message then also requires the message in each
  // recipient's Maildir, DIR/USER/new or DIR/USER/cur, with its dot-stuffing undone. Empty: only
  // the dialogue is graded, and the check says so.
  std::string maildir;
};

suite_result run_smtp_suite(const smtp_options& options);

}  // namespace netlab::grade
