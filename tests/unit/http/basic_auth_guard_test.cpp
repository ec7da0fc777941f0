// HTTP Basic auth behind the credentials guard, in virtual time: a held request (plan.wait,
// respond_held), the address lockout's 429 with Retry-After (RFC 6585 §4), the owner let in from
// another address meanwhile, recovery.
#include <gtest/gtest.h>

#include <map>

#include "netlib/core/credentials_guard.hpp"
#include "netlib/http/static_site.hpp"

namespace basic_auth_guard_test {

namespace http = netlib::http;
using namespace std::chrono_literals;

class one_folder : public http::file_system {
 public:
  std::optional<http::file_info> stat(std::string_view path, const netlib::clock_reading&) override {
    if (path == "private") return http::file_info{true, 0, {}};
    if (path == "private/index.html") return http::file_info{false, 5, std::chrono::sys_seconds{3000s}};
    return std::nullopt;
  }
};

http::request_head get(const std::string& user, const std::string& password) {
  http::request_head r;
  r.method = "GET";
  r.target = "/private/";
  r.fields.add("Host", "a");
  r.fields.add("Authorization", "Basic " + http::base64_encode(user + ":" + password));
  return r;
}

TEST(BasicAuthGuard, HeldThenLockedThenRecovers) {
  one_folder files;
  netlib::credentials_guard guard({.max_failures = 2, .delay = 1s, .lockout = 10s});
  http::site_options o;
  o.auth = http::basic_auth_rule{"private", "lab", {{"alice", "pw"}}};
  o.guard = &guard;
  http::static_site site(o, files);
  netlib::virtual_clock clock(netlib::time_point(1000h));
  EXPECT_EQ(site.respond(get("alice", "x"), clock.reading(), "10.0.0.1").head.status, 401);
  const auto held = site.respond(get("alice", "y"), clock.reading(), "10.0.0.1");
  ASSERT_TRUE(held.wait);
  EXPECT_EQ(held.wait->when, clock.now() + 1s);
  clock.advance(1s);
  EXPECT_EQ(site.respond_held(get("alice", "y"), clock.reading(), "10.0.0.1").head.status, 401);
  // Two failures: the address is locked out, the right password refused from it...
  const auto locked = site.respond(get("alice", "pw"), clock.reading(), "10.0.0.1");
  EXPECT_EQ(locked.head.status, 429);
  EXPECT_EQ(locked.head.fields.get("Retry-After"), "10");
  EXPECT_FALSE(locked.wait);
  // ...but not from an address that never failed (in another network: 10.0.0.0/24 has used up its
  // allowance of two failures): the account itself is never locked.
  const auto owner = site.respond(get("alice", "pw"), clock.reading(), "192.0.2.3");
  EXPECT_EQ(owner.head.status, 200);
  EXPECT_FALSE(owner.wait);
  clock.advance(10s);
  const auto ok = site.respond(get("alice", "pw"), clock.reading(), "10.0.0.1");
  EXPECT_EQ(ok.head.status, 200);
  EXPECT_EQ(ok.user, "alice");
}

TEST(BasicAuthGuard, PublicFilesAndMissingCredentialsDoNotTouchTheGuard) {
  one_folder files;
  netlib::credentials_guard guard({.max_failures = 1});
  http::site_options o;
  o.auth = http::basic_auth_rule{"private", "lab", {{"alice", "pw"}}};
  o.guard = &guard;
  http::static_site site(o, files);
  http::request_head r;
  r.method = "GET";
  r.target = "/private/";
  EXPECT_EQ(site.respond(r, {}, "10.0.0.1").head.status, 401);
  r.target = "/elsewhere";
  EXPECT_EQ(site.respond(r, {}, "10.0.0.1").head.status, 404);
  EXPECT_EQ(guard.tracked(), 0U);
}

}  // namespace basic_auth_guard_test
