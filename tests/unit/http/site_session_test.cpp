// http::site_session, the static web server's core, in memory: pipelined requests answered in
// order at every split of the input (each answer a send_response whose plan and request are read
// before the driver drops the consumed bytes, as the live driver does), the last request's answer
// followed by close_connection, the session's own errors, and Basic-auth credentials held for the
// credentials guard's turn through the contract's wake_at and answered at tick().
#include "netlib/http/site_session.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "netlib/core/credentials_guard.hpp"
#include "netlib/http/basic_auth.hpp"
#include "support/split_feed.hpp"

namespace site_session_test {

namespace http = netlib::http;
using namespace std::chrono_literals;

class files : public http::file_system {
 public:
  std::optional<http::file_info> stat(std::string_view path, const netlib::clock_reading&) override {
    if (path.empty() || path == "private") return http::file_info{true, 0, {}};
    if (path == "index.html") return http::file_info{false, 120, std::chrono::sys_seconds{1000s}};
    if (path == "a.png" || path == "private/index.html")
      return http::file_info{false, 5, std::chrono::sys_seconds{2000s}};
    return std::nullopt;
  }
};

// What the driver would do with each action, one line each.
std::string describe(const http::site_step& step) {
  std::string out;
  for (const auto& a : step.actions) {
    if (const auto* r = std::get_if<http::send_response>(&a)) {
      const auto& h = r->plan->head;
      out += std::to_string(h.status) + " " + std::string(r->request->method) + " " + std::string(r->request->target) +
             " " + std::string(h.fields.get("Content-Length").value_or("-")) + (r->last ? " last" : "") + "\n";
    } else if (const auto* s = std::get_if<http::response_sent>(&a)) {
      out += "own " + std::to_string(s->status) + " " + s->request_line + "\n";
    } else if (std::holds_alternative<netlib::close_connection>(a)) {
      out += "close\n";
    } else if (std::holds_alternative<netlib::wake_at>(a)) {
      out += "wake\n";
    }
  }
  return out;
}

std::string run(const netlab::test::pieces& in) {
  files fs;
  http::static_site site({}, fs);
  http::site_session s({}, site);
  netlib::input_buffer buf;
  std::string out;
  http::site_step step;
  for (auto piece : in) {
    buf.append(piece);
    for (int guard = 0; guard < 100; ++guard) {
      s.receive(buf.data(), {}, step);
      out += describe(step);  // the plan and the request are views: read before consuming
      buf.consume(step.consumed);
      if (step.actions.empty()) break;
    }
  }
  return out;
}

TEST(SiteSession, PipelinedRequestsAnsweredInOrderAtEverySplit) {
  const std::string in =
      "GET / HTTP/1.1\r\nHost: a\r\n\r\n"
      "HEAD /a.png HTTP/1.1\r\nHost: a\r\n\r\n"
      "GET /nope HTTP/1.1\r\nHost: a\r\n\r\n"
      "GET /a.png HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n";
  const std::string expected =
      "200 GET / 120\n"
      "200 HEAD /a.png 5\n"
      "404 GET /nope 14\n"
      "200 GET /a.png 5 last\nclose\n";
  EXPECT_EQ(run({in}), expected);
  netlab::test::for_each_split(in, [&](const netlab::test::pieces& p) { ASSERT_EQ(run(p), expected); });
}

TEST(SiteSession, TheSessionsOwnAnswersPassThrough) {
  EXPECT_EQ(run({"DELETE / HTTP/1.1\r\nHost: a\r\n\r\nGET / HTTP/1.1\r\n\r\n"}),
            "own 405 DELETE / HTTP/1.1\nown 400 GET / HTTP/1.1\nclose\n");
}

TEST(SiteSession, ABodyOverSeveralReadsKeepsItsRequest) {
  // The body arrives after the head was consumed and the buffer reused: the answer still names it.
  EXPECT_EQ(run({"POST /upload HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\n\r\nab", "cd",
                 "GET / HTTP/1.1\r\nHost: a\r\n\r\n"}),
            "own 405 POST /upload HTTP/1.1\n200 GET / 120\n");
}

TEST(SiteSession, HeldCredentialsWaitForTheirTurnThroughWakeAt) {
  files fs;
  netlib::credentials_guard guard({.max_failures = 5, .delay = 1s, .lockout = 60s});
  http::site_options o;
  o.auth = http::basic_auth_rule{"private", "lab", {{"alice", "pw"}}};
  o.guard = &guard;
  http::static_site site(o, fs);
  http::site_session s({}, site, "10.0.0.1");
  static_assert(netlib::session_core<http::site_session>);
  netlib::virtual_clock clock(netlib::time_point(1000h));
  const auto get = [](const std::string& password) {
    return "GET /private/ HTTP/1.1\r\nHost: a\r\nAuthorization: Basic " + http::base64_encode("alice:" + password) +
           "\r\n\r\n";
  };
  const std::string first = get("wrong");
  auto step = s.receive(netlib::as_bytes(first), clock.reading());
  EXPECT_EQ(describe(step), "401 GET /private/ 61\n");
  const std::string both = get("pw") + "GET / HTTP/1.1\r\nHost: a\r\n\r\n";
  step = s.receive(netlib::as_bytes(both), clock.reading());
  ASSERT_EQ(describe(step), "wake\n") << "the failure's delay: the next attempt waits";
  const std::size_t taken = step.consumed;
  const auto when = std::get<netlib::wake_at>(step.actions.front()).when;
  EXPECT_EQ(when, clock.now() + 1s);
  EXPECT_TRUE(s.holding());
  const std::string rest = both.substr(taken);
  EXPECT_EQ(s.receive(netlib::as_bytes(rest), clock.reading()).consumed, 0u) << "nothing is taken while held";
  clock.advance(500ms);
  EXPECT_EQ(describe({0, s.tick(clock.reading())}), "wake\n") << "too early: the deadline stands";
  clock.advance(500ms);
  EXPECT_EQ(describe({0, s.tick(clock.reading())}), "200 GET /private/ 5\n") << "checked now, with the right password";
  EXPECT_FALSE(s.holding());
  EXPECT_EQ(describe(s.receive(netlib::as_bytes(rest), clock.reading())), "200 GET / 120\n");
}

// The addresses the credentials guard is asked about, in order; every attempt is checked at once.
class recording_gate : public netlib::credentials_gate {
 public:
  netlib::admission admit(std::string_view address, std::string_view, netlib::time_point now) override {
    admitted.emplace_back(address);
    return {false, now, {}};
  }
  void report(std::string_view, std::string_view, bool, netlib::time_point) override {}
  std::vector<std::string> admitted;
};

TEST(SiteSession, TheGuardKeysOnTheClientATrustedProxyNamesRequestByRequest) {
  files fs;
  recording_gate gate;
  http::site_options o;
  o.auth = http::basic_auth_rule{"private", "lab", {{"alice", "pw"}}};
  o.guard = &gate;
  http::static_site site(o, fs);
  const auto get = [](const std::string& forwarded) {
    return "GET /private/ HTTP/1.1\r\nHost: a\r\nForwarded: " + forwarded + "\r\nAuthorization: Basic " +
           http::base64_encode("alice:x") + "\r\n\r\n";
  };
  // One proxy connection carries two clients: each request is keyed on its own.
  const std::string in = get("for=192.0.2.1") + get("for=192.0.2.1, for=198.51.100.7") + get("for=unknown");
  const auto feed = [&in](http::site_session& s) {
    std::string out;
    netlib::byte_view rest = netlib::as_bytes(in);
    for (int i = 0; i < 10 && !rest.empty(); ++i) {
      const auto step = s.receive(rest, {});
      out += describe(step);
      rest = rest.subspan(step.consumed);
    }
    return out;
  };
  const std::string three = "401 GET /private/ 61\n401 GET /private/ 61\n401 GET /private/ 61\n";
  http::site_session proxied({}, site, "127.0.0.1", {"127.0.0.1"});
  EXPECT_EQ(feed(proxied), three);
  EXPECT_EQ(gate.admitted, (std::vector<std::string>{"192.0.2.1", "198.51.100.7", "127.0.0.1"}));
  // Anyone else can write the field: from a peer that is not trusted it is not believed.
  gate.admitted.clear();
  http::site_session direct({}, site, "127.0.0.2", {"127.0.0.1"});
  EXPECT_EQ(feed(direct), three);
  EXPECT_EQ(gate.admitted, (std::vector<std::string>(3, "127.0.0.2")));
}

}  // namespace site_session_test
