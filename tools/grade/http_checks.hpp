#pragma once
// The HTTP suite's checks: each one a function filling in a check_result, listed with its name,
// weight and rule. Message checks (status codes, fields, framing) and connection checks
// (persistence, pipelining, conditional and range requests, path safety) live in two files.
#include <initializer_list>
#include <string>
#include <vector>

#include "http_exchange.hpp"

namespace netlab::grade {

struct http_context {
  http_options o;
  std::string baseline_request;  // GET --path with Connection: close
  exchange_result baseline;
  // The baseline page when it came back with 200.
  [[nodiscard]] const http_reply* page() const;
};

using http_check_fn = void (*)(http_context&, check_result&);

struct http_check {
  const char* name;
  const char* rule;
  const char* description;
  double weight;
  http_check_fn run;
};

std::vector<http_check> http_message_checks();
std::vector<http_check> http_connection_checks();

// Marks the check failed with what was sent, what came back and what was expected.
void fail(check_result& c, std::string reason, std::string_view sent, std::string received, std::string expected);
// The baseline page, or nullptr after failing the check (the baseline GET did not give 200).
const http_reply* need_page(http_context& x, check_result& c);
// One request on its own connection; passes when the final status is one of `accept`.
void status_check(http_context& x, check_result& c, const std::string& request, std::string_view method,
                  std::initializer_list<int> accept, std::string expected);
// A path next to --path that does not exist.
std::string missing_path(const http_options& o);

}  // namespace netlab::grade
