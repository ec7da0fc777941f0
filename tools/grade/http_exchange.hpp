#pragma once
// Pieces shared by the HTTP checks: request text, one-connection exchanges, and describing what
// came back.
#include <string>
#include <vector>

#include "common/http_probe.hpp"
#include "http_suite.hpp"

namespace netlab::grade {

struct exchange_result {
  std::vector<http_reply> replies;  // complete final responses, in order
  std::string error;                // why fewer replies than requests came back
  std::string received;             // raw bytes
  std::string extra;                // bytes after the last parsed response
  bool closed = false;              // the server closed the connection
  bool connected = false;           // the TCP connection was made
};

// "GET /x HTTP/1.1\r\nHost: h:p\r\n<extra lines>\r\n"
std::string request_text(const http_options& o, std::string_view method, std::string_view target,
                         std::string_view extra_lines = {}, std::string_view version = "HTTP/1.1");
// One connection: send `request`, read one response per method; then, if `wait_close`, read
// until the server closes or the timeout passes.
exchange_result exchange(const http_options& o, std::string_view request, const std::vector<std::string>& methods,
                         bool wait_close);
// "HTTP/1.1 404 Not Found; Content-Length: 9; ..." for a report.
std::string describe(const http_reply& r);
// The replies, or the error and raw bytes when none came back.
std::string describe(const exchange_result& x);

}  // namespace netlab::grade
