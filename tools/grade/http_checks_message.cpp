// The HTTP suite's message checks. A baseline "GET --path" with Connection: close is made first;
// checks that need the page (HEAD, ranges, conditional GET) compare against it. Each check opens
// its own connections, so one failure does not cascade into the next check.
#include "http_checks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <initializer_list>

#include "http_exchange.hpp"
#include "netlib/http/fields.hpp"
#include "netlib/http/http_date.hpp"

namespace netlab::grade {

const http_reply* http_context::page() const {
  if (baseline.replies.empty() || baseline.replies[0].head.status != 200) return nullptr;
  return &baseline.replies[0];
}

void fail(check_result& c, std::string reason, std::string_view sent, std::string received, std::string expected) {
  c.passed = false;
  c.reason = std::move(reason);
  c.sent = printable(sent);
  c.received = std::move(received);
  c.expected = std::move(expected);
}

const http_reply* need_page(http_context& x, check_result& c) {
  const auto* p = x.page();
  if (!p)
    fail(c, "the baseline GET of --path did not return 200, so this check cannot run", x.baseline_request,
         describe(x.baseline), "200 OK for --path (pick an existing file with --path)");
  return p;
}

void status_check(http_context& x, check_result& c, const std::string& request, std::string_view method,
                  std::initializer_list<int> accept, std::string expected) {
  const auto r = exchange(x.o, request, {std::string(method)}, false);
  if (!r.replies.empty() && std::find(accept.begin(), accept.end(), r.replies[0].head.status) != accept.end()) {
    c.passed = true;
    return;
  }
  const auto reason =
      r.replies.empty() ? "no response: " + r.error : fmt::format("answered {} instead", r.replies[0].head.status);
  fail(c, reason, request, describe(r), std::move(expected));
}

std::string missing_path(const http_options& o) {
  const auto slash = o.path.rfind('/');
  return o.path.substr(0, slash == std::string::npos ? 0 : slash) + "/netlab-grade-no-such-file-4f1c.html";
}

namespace {

void get_ok(http_context& x, check_result& c) {
  if (x.page()) {
    c.passed = true;
    return;
  }
  fail(c, x.baseline.replies.empty() ? "no response: " + x.baseline.error : "the page was not served with 200",
       x.baseline_request, describe(x.baseline), "200 OK with the file's content");
}

void content_length_matches(http_context& x, check_result& c) {
  const auto* p = need_page(x, c);
  if (!p) return;
  const auto& f = p->head.fields;
  const bool chunked = f.has_token("Transfer-Encoding", "chunked");
  if (!f.contains("Content-Length") && !chunked) {
    return fail(c, "the 200 response has neither Content-Length nor chunked framing", x.baseline_request,
                describe(x.baseline), "Content-Length: <body size> (or Transfer-Encoding: chunked)");
  }
  if (!x.baseline.extra.empty()) {
    return fail(c, fmt::format("{} bytes followed the body announced by Content-Length", x.baseline.extra.size()),
                x.baseline_request, describe(x.baseline), "exactly Content-Length bytes of body");
  }
  c.passed = true;
}

void date_header(http_context& x, check_result& c) {
  const auto* p = need_page(x, c);
  if (!p) return;
  const auto d = p->head.fields.get("Date");
  if (d && netlib::http::parse_http_date(*d)) {
    c.passed = true;
    return;
  }
  fail(c, d ? "the Date field is not an HTTP-date" : "no Date field", x.baseline_request, describe(*p),
       "Date: <IMF-fixdate>, e.g. Sun, 06 Nov 1994 08:49:37 GMT");
}

void content_type(http_context& x, check_result& c) {
  const auto* p = need_page(x, c);
  if (!p) return;
  if (p->head.fields.contains("Content-Type")) {
    c.passed = true;
    return;
  }
  fail(c, "no Content-Type field", x.baseline_request, describe(*p), "Content-Type: <media type of the file>");
}

void head_matches_get(http_context& x, check_result& c) {
  const auto* p = need_page(x, c);
  if (!p) return;
  const auto req = request_text(x.o, "HEAD", x.o.path, "Connection: close\r\n");
  const auto r = exchange(x.o, req, {"HEAD"}, true);
  const auto expected = fmt::format("200 with the GET's fields (Content-Length: {}) and no body", p->body.size());
  if (r.replies.empty()) return fail(c, "no response: " + r.error, req, describe(r), expected);
  const auto& h = r.replies[0].head;
  if (h.status != 200) return fail(c, fmt::format("answered {} instead", h.status), req, describe(r), expected);
  if (!r.extra.empty()) {
    return fail(c, fmt::format("a body of {} bytes followed the HEAD response", r.extra.size()), req, describe(r),
                expected);
  }
  const auto len = h.fields.get("Content-Length");
  if (len && *len != std::to_string(p->body.size())) {
    return fail(c, "Content-Length differs from the GET's body size", req, describe(r), expected);
  }
  c.passed = true;
}

void not_found_404(http_context& x, check_result& c) {
  status_check(x, c, request_text(x.o, "GET", missing_path(x.o), "Connection: close\r\n"), "GET", {404},
               "404 Not Found");
}

void host_required(http_context& x, check_result& c) {
  status_check(x, c, fmt::format("GET {} HTTP/1.1\r\nConnection: close\r\n\r\n", x.o.path), "GET", {400},
               "400 Bad Request (an HTTP/1.1 request without Host)");
}

void bad_version(http_context& x, check_result& c) {
  status_check(x, c, request_text(x.o, "GET", x.o.path, "Connection: close\r\n", "HTTP/9.9"), "GET", {505, 400},
               "505 HTTP Version Not Supported (or 400)");
}

void malformed_request_line(http_context& x, check_result& c) {
  status_check(x, c, fmt::format("GET {} extra HTTP/1.1\r\nHost: {}:{}\r\n\r\n", x.o.path, x.o.host, x.o.port), "GET",
               {400}, "400 Bad Request");
}

void unknown_method(http_context& x, check_result& c) {
  status_check(x, c, request_text(x.o, "BREW", x.o.path, "Connection: close\r\n"), "BREW", {501},
               "501 Not Implemented");
}

}  // namespace

std::vector<http_check> http_message_checks() {
  return {
      {"get_ok", "RFC 9110 §9.3.1", "GET of an existing file answers 200 with the file", 2, get_ok},
      {"content_length_matches", "RFC 9112 §6.2, §6.3", "Content-Length equals the body's size", 2,
       content_length_matches},
      {"date_header", "RFC 9110 §6.6.1", "an origin server with a clock sends Date", 1, date_header},
      {"content_type", "RFC 9110 §8.3", "a 200 with content names its media type", 1, content_type},
      {"head_matches_get", "RFC 9110 §9.3.2", "HEAD gives the GET's status and fields, without a body", 2,
       head_matches_get},
      {"not_found_404", "RFC 9110 §15.5.5", "a missing file answers 404", 1, not_found_404},
      {"host_required_400", "RFC 9112 §3.2", "an HTTP/1.1 request without Host answers 400", 1, host_required},
      {"bad_version_505", "RFC 9110 §15.6.6, RFC 9112 §2.3", "an unsupported major version answers 505 (or 400)", 1,
       bad_version},
      {"malformed_request_line_400", "RFC 9112 §3", "a request line with an extra token answers 400", 1,
       malformed_request_line},
      {"unknown_method_501", "RFC 9110 §9.1, §15.6.2", "an unknown method answers 501", 1, unknown_method},
  };
}

}  // namespace netlab::grade
