#pragma once
// netlab-grade pop3 --client CMD: grade a student's POP3 client against lab-pop3 serve.
#include <string>
#include <vector>

#include "check.hpp"
#include "client_run.hpp"

namespace netlab::grade {

struct pop3_client_options {
  client_options client;
  std::vector<int> messages;  // message numbers the client must RETR; empty: every message (1 and 2)
  std::string lab_pop3;       // the reference server binary
};

suite_result run_pop3_client_suite(pop3_client_options options);

}  // namespace netlab::grade
