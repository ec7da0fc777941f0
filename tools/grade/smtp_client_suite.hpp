#pragma once
// netlab-grade smtp --client CMD: grade a student's SMTP client against lab-smtp serve.
#include <string>
#include <vector>

#include "check.hpp"
#include "client_run.hpp"

namespace netlab::grade {

struct smtp_client_options {
  client_options client;
  std::string sender = "carol@example.net";
  std::vector<std::string> recipients;  // mailboxes at example.org; empty: alice@example.org
  std::string lab_smtp;                 // the reference server binary
};

suite_result run_smtp_client_suite(smtp_client_options options);

}  // namespace netlab::grade
