#include <gtest/gtest.h>

#include "netlib/ftp/data_address.hpp"

using namespace netlib::ftp;

TEST(DataAddress, PortArgument) {
  auto a = parse_port_argument("127,0,0,1,195,80");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->host, "127.0.0.1");
  EXPECT_EQ(a->port, 195 * 256 + 80);
  EXPECT_EQ(format_port_argument(*a), "127,0,0,1,195,80");
  EXPECT_FALSE(parse_port_argument("127,0,0,1,195"));
  EXPECT_FALSE(parse_port_argument("127,0,0,256,1,1"));
  EXPECT_FALSE(parse_port_argument("127,0,0,1,0,0"));
  EXPECT_FALSE(parse_port_argument("a,b,c,d,e,f"));
  EXPECT_FALSE(parse_port_argument(""));
}

TEST(DataAddress, PasvReplyText) {
  auto a = parse_pasv_reply("Entering Passive Mode (199,233,217,249,221,90)");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->host, "199.233.217.249");
  EXPECT_EQ(a->port, 221 * 256 + 90);
  EXPECT_TRUE(parse_pasv_reply("=127,0,0,1,4,1"));
  EXPECT_FALSE(parse_pasv_reply("Entering Passive Mode"));
}

TEST(DataAddress, Eprt) {
  auto a = parse_eprt_argument("|1|132.235.1.2|6275|");
  ASSERT_TRUE(a);
  EXPECT_EQ(*a, (data_address{1, "132.235.1.2", 6275}));
  EXPECT_EQ(format_eprt_argument(*a), "|1|132.235.1.2|6275|");
  auto b = parse_eprt_argument("!2!1080::8:800:200C:417A!5282!");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->family, 2);
  EXPECT_FALSE(parse_eprt_argument("|3|1.2.3.4|5|"));
  EXPECT_FALSE(parse_eprt_argument("|1|1.2.3|5|"));
  EXPECT_FALSE(parse_eprt_argument("|1|1.2.3.4|70000|"));
  EXPECT_FALSE(parse_eprt_argument("|1|1.2.3.4|5"));
}

TEST(DataAddress, EpsvReply) {
  auto a = parse_epsv_reply("Entering Extended Passive Mode (|||57086|)");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->port, 57086);
  EXPECT_FALSE(parse_epsv_reply("Entering Extended Passive Mode (|||0|)"));
  EXPECT_FALSE(parse_epsv_reply("(||57086|)"));
}
