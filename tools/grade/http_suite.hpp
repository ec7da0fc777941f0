#pragma once
// `netlab-grade http`: the HTTP/1.1 origin-server conformance suite (RFC 9110, RFC 9112 and the
// lab's requirements), run against a live server.
#include <chrono>
#include <string>

#include "check.hpp"

namespace netlab::grade {

struct http_options {
  std::string host = "127.0.0.1";
  unsigned short port = 0;
  std::string path = "/";  // an existing, non-empty file the server serves with 200
  std::chrono::milliseconds timeout{3000};
};

suite_result run_http_suite(const http_options& options);

}  // namespace netlab::grade
