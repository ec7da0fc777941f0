// The path of a redirect's Location, percent-encoded (RFC 3986 §2.1; issue 31: a folder name with
// CR LF injected a header into lab-http's 301).
#include <gtest/gtest.h>

#include <string>

#include "netlib/http/target_path.hpp"

namespace location_encoding_test {

namespace http = netlib::http;

TEST(PercentEncodePath, NamesNeverGoOutRaw) {
  EXPECT_EQ(http::percent_encode_path("/docs/"), "/docs/");
  EXPECT_EQ(http::percent_encode_path("/inj\r\nX-Injected: yes/"), "/inj%0D%0AX-Injected:%20yes/");
  EXPECT_EQ(http::percent_encode_path("/a b\"<c>/"), "/a%20b%22%3Cc%3E/");
  EXPECT_EQ(http::percent_encode_path("/caf\xc3\xa9/"), "/caf%C3%A9/");
  EXPECT_EQ(http::percent_encode_path("/50%/?#/"), "/50%25/%3F%23/");
  EXPECT_EQ(http::percent_encode_path("/-._~!$&'()*+,;=:@/"), "/-._~!$&'()*+,;=:@/");
  // Decoding the encoded form gives the name back (the Location leads to the same folder).
  const std::string name = "/\x01\x7f odd\t/";
  EXPECT_EQ(http::percent_decode(http::percent_encode_path(name)), name);
}

}  // namespace location_encoding_test
