// Runs the HTTP suite: the baseline request, then every check in order.
#include "http_suite.hpp"

#include "http_checks.hpp"

namespace netlab::grade {

suite_result run_http_suite(const http_options& options) {
  http_context x{options, {}, {}};
  x.baseline_request = request_text(options, "GET", options.path, "Connection: close\r\n");
  x.baseline = exchange(options, x.baseline_request, {"GET"}, true);
  suite_result result{"http", options.host + ":" + std::to_string(options.port), {}};
  auto checks = http_message_checks();
  for (auto& c : http_connection_checks()) checks.push_back(c);
  for (const auto& spec : checks) {
    auto c = make_check(spec.name, spec.rule, spec.description, spec.weight);
    spec.run(x, c);
    result.checks.push_back(std::move(c));
  }
  return result;
}

}  // namespace netlab::grade
