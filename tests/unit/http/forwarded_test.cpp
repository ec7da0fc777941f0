// Forwarded (RFC 7239) as lab-http proxy writes it and lab-http serve reads it for the credentials
// guard (issue 31).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "netlib/http/fields.hpp"
#include "netlib/http/forwarded.hpp"

namespace forwarded_test {

namespace http = netlib::http;

http::fields with(std::initializer_list<std::string> values) {
  http::fields f;
  for (const auto& v : values) f.add("Forwarded", v);
  return f;
}

TEST(Forwarded, ElementsTheProxyWrites) {
  EXPECT_EQ(http::forwarded_element("192.0.2.43"), "for=192.0.2.43");
  EXPECT_EQ(http::forwarded_element("2001:db8::17"), "for=\"[2001:db8::17]\"");
  EXPECT_EQ(http::last_forwarded_for(with({http::forwarded_element("2001:db8::17")})), "2001:db8::17");
}

TEST(Forwarded, TheLastElementIsTheNearestProxys) {
  EXPECT_EQ(http::last_forwarded_for(with({"for=192.0.2.1, for=198.51.100.17"})), "198.51.100.17");
  EXPECT_EQ(http::last_forwarded_for(with({"for=192.0.2.1", "for=198.51.100.17;proto=http"})), "198.51.100.17");
  EXPECT_EQ(http::last_forwarded_for(with({"proto=http;For=\"192.0.2.60:8080\";by=203.0.113.43"})), "192.0.2.60");
  EXPECT_EQ(http::last_forwarded_for(with({"for=\"[2001:db8:cafe::17]:4711\""})), "2001:db8:cafe::17");
  // A quoted comma does not split the list.
  EXPECT_EQ(http::last_forwarded_for(with({"for=192.0.2.9;x=\"a,b\""})), "192.0.2.9");
}

TEST(Forwarded, NothingUsableIsNothing) {
  EXPECT_EQ(http::last_forwarded_for(http::fields{}), std::nullopt);
  EXPECT_EQ(http::last_forwarded_for(with({"for=unknown"})), std::nullopt);
  EXPECT_EQ(http::last_forwarded_for(with({"for=_hidden"})), std::nullopt);
  EXPECT_EQ(http::last_forwarded_for(with({"for=\"[not-an-address]\""})), std::nullopt);
  EXPECT_EQ(http::last_forwarded_for(with({"for=192.0.2.1, by=203.0.113.43"})), std::nullopt);  // last has no for=
  EXPECT_EQ(http::last_forwarded_for(with({"for=\"[2001:db8::1\""})), std::nullopt);
}

TEST(Forwarded, OnlyATrustedPeerIsBelieved) {
  const std::vector<std::string> trusted{"127.0.0.1"};
  const auto f = with({"for=192.0.2.43"});
  EXPECT_EQ(http::client_address(f, "127.0.0.1", trusted), "192.0.2.43");
  EXPECT_EQ(http::client_address(f, "127.0.0.2", trusted), "127.0.0.2");  // anyone can write the field
  EXPECT_EQ(http::client_address(f, "127.0.0.1", {}), "127.0.0.1");
  EXPECT_EQ(http::client_address(with({"for=unknown"}), "127.0.0.1", trusted), "127.0.0.1");
}

}  // namespace forwarded_test
