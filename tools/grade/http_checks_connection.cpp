// The HTTP suite's connection checks: persistence (RFC 9112 §9.3), pipelining (§9.3.2),
// Connection: close (§9.6), conditional GET (RFC 9110 §13.1.3), ranges (RFC 9110 §14) and the
// lab's requirement that no file outside the document root is ever served.
#include <fmt/format.h>

#include "http_checks.hpp"

namespace netlab::grade {

namespace {

void keep_alive(http_context& x, check_result& c) {
  const auto req = request_text(x.o, "GET", x.o.path);
  const std::string expected = "two 200 responses on one connection (HTTP/1.1 is persistent by default)";
  http_probe probe(x.o.host, x.o.port, x.o.timeout);
  exchange_result r;
  for (int i = 0; i < 2; ++i) {
    if (!probe.send(req, {"GET"})) break;
    auto reply = probe.next_response();
    if (!reply) break;
    r.replies.push_back(std::move(*reply));
  }
  r.error = probe.error();
  r.received = probe.received();
  const bool ok = r.replies.size() == 2 && r.replies[0].head.status == 200 && r.replies[1].head.status == 200;
  if (ok) {
    c.passed = true;
    return;
  }
  const auto reason = r.replies.size() == 1 ? "the server did not answer a second request on the same connection"
                                            : "the requests were not both answered with 200";
  fail(c, reason, req + req, describe(r), expected);
}

void pipelining(http_context& x, check_result& c) {
  const auto req =
      request_text(x.o, "GET", x.o.path) + request_text(x.o, "GET", missing_path(x.o), "Connection: close\r\n");
  const auto r = exchange(x.o, req, {"GET", "GET"}, false);
  const bool ok = r.replies.size() == 2 && r.replies[0].head.status == 200 && r.replies[1].head.status == 404;
  if (ok) {
    c.passed = true;
    return;
  }
  fail(c, fmt::format("{} of 2 pipelined requests answered in order", r.replies.size()), req, describe(r),
       "200 then 404, in the order the requests were sent");
}

void connection_close(http_context& x, check_result& c) {
  if (!x.baseline.replies.empty() && x.baseline.closed) {
    c.passed = true;
    return;
  }
  fail(c,
       x.baseline.replies.empty() ? "no response: " + x.baseline.error
                                  : "the server kept the connection open after the response",
       x.baseline_request, describe(x.baseline), "the response, then the server closes the connection");
}

void conditional_get(http_context& x, check_result& c) {
  const auto* p = need_page(x, c);
  if (!p) return;
  const auto lm = p->head.fields.get("Last-Modified");
  if (!lm) {
    return fail(c, "the 200 response has no Last-Modified to revalidate with", x.baseline_request, describe(*p),
                "Last-Modified: <HTTP-date>, then 304 to If-Modified-Since with that date");
  }
  const auto req =
      request_text(x.o, "GET", x.o.path, fmt::format("If-Modified-Since: {}\r\nConnection: close\r\n", *lm));
  const auto r = exchange(x.o, req, {"GET"}, true);
  const std::string expected = "304 Not Modified without a body";
  if (r.replies.empty()) return fail(c, "no response: " + r.error, req, describe(r), expected);
  if (r.replies[0].head.status != 304) {
    return fail(c, fmt::format("answered {} instead", r.replies[0].head.status), req, describe(r), expected);
  }
  if (!r.extra.empty()) return fail(c, "the 304 response carried a body", req, describe(r), expected);
  c.passed = true;
}

void range_partial(http_context& x, check_result& c) {
  const auto* p = need_page(x, c);
  if (!p) return;
  const auto size = p->body.size();
  if (size == 0) {
    return fail(c, "the page is empty, so no range can be asked for", x.baseline_request, describe(*p),
                "a non-empty file for --path");
  }
  const auto last = std::min<std::size_t>(size, 4) - 1;
  const auto req = request_text(x.o, "GET", x.o.path, fmt::format("Range: bytes=0-{}\r\nConnection: close\r\n", last));
  const auto want_range = fmt::format("bytes 0-{}/{}", last, size);
  const auto expected = fmt::format("206 Partial Content, Content-Range: {}, body {}", want_range,
                                    printable(p->body.substr(0, last + 1)));
  const auto r = exchange(x.o, req, {"GET"}, false);
  if (r.replies.empty()) return fail(c, "no response: " + r.error, req, describe(r), expected);
  const auto& reply = r.replies[0];
  if (reply.head.status != 206) {
    return fail(c, fmt::format("answered {} instead", reply.head.status), req, describe(r), expected);
  }
  const auto cr = reply.head.fields.get("Content-Range");
  if (!cr || *cr != want_range) return fail(c, "wrong or missing Content-Range", req, describe(r), expected);
  if (reply.body != p->body.substr(0, last + 1)) return fail(c, "wrong bytes in the body", req, describe(r), expected);
  c.passed = true;
}

void range_unsatisfiable(http_context& x, check_result& c) {
  const auto* p = need_page(x, c);
  if (!p) return;
  status_check(x, c,
               request_text(x.o, "GET", x.o.path,
                            fmt::format("Range: bytes={}-\r\nConnection: close\r\n", p->body.size() + 1000)),
               "GET", {416}, "416 Range Not Satisfiable (the range starts past the end of the file)");
}

void path_traversal(http_context& x, check_result& c) {
  for (const char* target : {"/../../../../../../../../etc/passwd", "/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
                             "/..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd"}) {
    const auto req = request_text(x.o, "GET", target, "Connection: close\r\n");
    const auto r = exchange(x.o, req, {"GET"}, false);
    if (!r.connected) return fail(c, "no response: " + r.error, req, describe(r), "400, 403 or 404");
    if (r.replies.empty()) continue;  // closing the connection also refuses the request
    const auto& reply = r.replies[0];
    if ((reply.head.status >= 200 && reply.head.status < 300) || reply.body.find("root:") != std::string::npos) {
      return fail(c, "a file outside the document root was served", req, describe(r), "400, 403 or 404");
    }
  }
  c.passed = true;
}

}  // namespace

std::vector<http_check> http_connection_checks() {
  return {
      {"keep_alive", "RFC 9112 §9.3", "two requests in a row on one connection are both answered", 2, keep_alive},
      {"pipelining_in_order", "RFC 9112 §9.3.2", "pipelined requests are answered in the order sent", 2, pipelining},
      {"connection_close", "RFC 9112 §9.6", "after a request with Connection: close the server closes", 1,
       connection_close},
      {"conditional_get_304", "RFC 9110 §13.1.3, §15.4.5", "If-Modified-Since with Last-Modified answers 304", 2,
       conditional_get},
      {"range_206", "RFC 9110 §14.2, §15.3.7", "Range: bytes=0-3 answers 206 with Content-Range and those bytes", 1,
       range_partial},
      {"range_416", "RFC 9110 §14.2, §15.5.17", "a range past the end answers 416", 1, range_unsatisfiable},
      {"path_traversal_refused", "lab requirement: serve only files under --root (RFC 9110 §17.1)",
       "/../ and %2e%2e targets never reach a file outside the root", 2, path_traversal},
  };
}

}  // namespace netlab::grade
