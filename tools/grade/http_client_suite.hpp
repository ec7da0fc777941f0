#pragma once
// netlab-grade http --client CMD: grade a student's HTTP client against lab-http serve.
#include <string>
#include <vector>

#include "check.hpp"
#include "client_run.hpp"

namespace netlab::grade {

struct http_client_options {
  client_options client;
  std::vector<std::string> paths;  // targets the client must fetch; empty: /index.html
  std::string root;                // served folder; empty: a prepared site
  bool conditional = false;        // the client must revalidate with a conditional GET
  std::string lab_http;            // the reference server binary
};

suite_result run_http_client_suite(http_client_options options);

}  // namespace netlab::grade
