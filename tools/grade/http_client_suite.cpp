// The HTTP client suite. Theory of operation: lab-http serve runs on a prepared site (or --root)
// behind the recording relay; the student's command fetches {url} (or {urls}); afterwards the
// relay's connections are parsed into requests and responses and every check reads them. Checks
// that depend on a request having been sent fail with "no request" rather than passing vacuously.
#include "http_client_suite.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>

#include "http_client_wire.hpp"

namespace netlab::grade {

namespace http_client_suite_local {

constexpr const char* site_index =
    "<html><head><title>netlab</title></head><body>\n<p>hello from netlab-grade</p>\n"
    "<img src=\"/logo.bin\">\n</body></html>\n";

void prepare_site(const std::string& root) {
  std::ofstream(root + "/index.html", std::ios::binary) << site_index;
  std::ofstream(root + "/second.txt", std::ios::binary) << "the second target\r\nwith a CRLF and a LF\n";
  std::string bin;
  for (int i = 0; i < 3000; ++i) bin += static_cast<char>((i * 7 + i / 256) % 256);
  std::ofstream(root + "/logo.bin", std::ios::binary) << bin;
}

struct http_context {
  const http_client_options& o;
  const client_transcript& t;
  const client_requests& wire;
  std::string authority;  // "127.0.0.1:PORT" as the URL names it
};

std::string all_heads(const client_requests& w) {
  std::string out;
  for (const auto& r : w.requests) out += r.raw_head;
  return out;
}

void fail(check_result& c, std::string reason, std::string sent, std::string received, std::string expected) {
  c.passed = false;
  c.reason = std::move(reason);
  c.sent = printable(sent);
  c.received = printable(received);
  c.expected = std::move(expected);
}

check_result request_line_check(const http_context& x) {
  auto c = make_check("request_line_http11", "RFC 9112 §3, §2.3",
                      "every request line is METHOD SP origin-form SP HTTP/1.1 and parses", 2);
  if (!x.wire.error.empty()) {
    fail(c, x.wire.error, x.wire.error_bytes, "", "a well-formed HTTP/1.1 request");
  } else if (x.wire.requests.empty()) {
    fail(c, "the client sent no request", "", "", "GET " + x.o.paths.front() + " HTTP/1.1");
  } else {
    c.passed = true;
    for (const auto& r : x.wire.requests) {
      if (r.head.version.major == 1 && r.head.version.minor == 1 && r.head.target.starts_with('/')) continue;
      fail(c, "a request is not HTTP/1.1 in origin-form", r.raw_head, "", "METHOD /path HTTP/1.1");
      break;
    }
  }
  return c;
}

check_result crlf_check(const http_context& x) {
  auto c = make_check("crlf_line_endings", "RFC 9112 §2.2", "every request head line ends with CRLF", 1);
  c.passed = !x.wire.requests.empty();
  if (!c.passed) fail(c, "the client sent no request", "", "", "request lines ending with CRLF");
  for (const auto& r : x.wire.requests) {
    for (std::size_t i = r.raw_head.find('\n'); i != std::string::npos; i = r.raw_head.find('\n', i + 1)) {
      if (i > 0 && r.raw_head[i - 1] == '\r') continue;
      fail(c, "a request line ends with a bare LF", r.raw_head, "", "CRLF after every line");
      return c;
    }
  }
  return c;
}

check_result host_check(const http_context& x) {
  auto c = make_check("host_header", "RFC 9112 §3.2, RFC 9110 §7.2",
                      "every request carries exactly one Host field naming the URL's host and port", 2);
  c.passed = !x.wire.requests.empty();
  if (!c.passed) fail(c, "the client sent no request", "", "", "Host: " + x.authority);
  for (const auto& r : x.wire.requests) {
    const auto n = r.head.fields.count("Host");
    const auto value = std::string(r.head.fields.get("Host").value_or(""));
    if (n == 1 && (value == x.authority || value == "localhost:" + x.authority.substr(x.authority.find(':') + 1)))
      continue;
    fail(c,
         n == 0  ? "a request has no Host field"
         : n > 1 ? "a request has several Host fields"
                 : "Host is " + value,
         r.raw_head, "", "exactly one \"Host: " + x.authority + "\"");
    return c;
  }
  return c;
}

check_result targets_check(const http_context& x) {
  auto c = make_check("targets_fetched", "RFC 9110 §9.3.1, RFC 9112 §3.2.1",
                      "each target was requested with GET and answered 200 (or 304 to a conditional GET)", 2);
  for (const auto& path : x.o.paths) {
    const auto hit = std::find_if(x.wire.requests.begin(), x.wire.requests.end(), [&](const client_request& r) {
      return r.head.method == "GET" && r.head.target == path && (r.status == 200 || r.status == 304);
    });
    if (hit != x.wire.requests.end()) continue;
    fail(c, "no successful GET " + path, all_heads(x.wire), "", "GET " + path + " HTTP/1.1 answered 200");
    return c;
  }
  c.passed = true;
  return c;
}

std::string served_bytes(const http_client_options& o) {
  std::string out;
  for (const auto& p : o.paths) out += read_whole_file(o.root + p);
  return out;
}

check_result body_check(const http_context& x) {
  auto c = make_check("body_identical", "RFC 9110 §6.4, RFC 9112 §6.3",
                      "the bytes the client saved ({out}, else stdout) equal the served file(s), in order", 3);
  const auto expected = served_bytes(x.o);
  c.passed = x.t.output == expected;
  if (!c.passed) {
    fail(c,
         x.t.output.empty() ? "the client wrote nothing to {out} or stdout"
                            : fmt::format("{} holds {} bytes that differ from the {} served bytes", x.t.output_source,
                                          x.t.output.size(), expected.size()),
         "", x.t.output, printable(expected, 120));
  }
  return c;
}

check_result reuse_check(const http_context& x) {
  auto c = make_check("connection_reused", "RFC 9112 §9.3, RFC 9110 §9.3.1",
                      "several targets are fetched over one persistent connection", 2);
  std::size_t used = 0;
  for (const auto& conv : x.t.conversations) used += conv.client_bytes().empty() ? 0 : 1;
  c.passed = !x.wire.requests.empty() && used == 1 && x.wire.requests.size() >= x.o.paths.size();
  if (!c.passed) {
    fail(c, fmt::format("{} requests came on {} connections", x.wire.requests.size(), used), all_heads(x.wire), "",
         fmt::format("{} requests on 1 connection (no Connection: close)", x.o.paths.size()));
  }
  return c;
}

check_result conditional_check(const http_context& x) {
  auto c = make_check("conditional_get", "RFC 9110 §13.1.1, §13.1.3, §13.2.2",
                      "the client revalidates with If-None-Match or If-Modified-Since and gets 304", 2);
  for (const auto& r : x.wire.requests) {
    const bool conditional = r.head.fields.contains("If-None-Match") || r.head.fields.contains("If-Modified-Since");
    if (conditional && r.status == 304) {
      c.passed = true;
      return c;
    }
  }
  fail(c, "no conditional GET was answered 304", all_heads(x.wire), "",
       "a second GET with If-None-Match: <the ETag> or If-Modified-Since: <the Last-Modified date>");
  return c;
}

}  // namespace http_client_suite_local

suite_result run_http_client_suite(http_client_options o) {
  using namespace http_client_suite_local;
  temp_folder site("site");
  temp_folder client("client");
  if (o.root.empty()) {
    prepare_site(site.path);
    o.root = site.path;
  }
  if (o.paths.empty()) o.paths.push_back("/index.html");
  std::map<std::string, std::string> values{{"{url}", "http://{host}:{port}" + o.paths.front()},
                                            {"{path}", o.paths.front()}};
  std::string urls;
  for (const auto& p : o.paths) urls += (urls.empty() ? "" : " ") + std::string("http://{host}:{port}") + p;
  values["{urls}"] = urls;
  const auto t =
      run_client({o.lab_http, "serve", "--root", o.root, "--listen", "127.0.0.1:0"}, values, client, o.client);
  const auto wire = parse_client_requests(t.conversations);
  const http_context x{o, t, wire, "127.0.0.1:" + std::to_string(t.port)};
  suite_result r{"http", client_target(o.client), {}};
  r.checks = {exit_check(t), request_line_check(x), crlf_check(x), host_check(x), targets_check(x), body_check(x)};
  if (o.paths.size() > 1) r.checks.push_back(reuse_check(x));
  if (o.conditional) r.checks.push_back(conditional_check(x));
  return r;
}

}  // namespace netlab::grade
