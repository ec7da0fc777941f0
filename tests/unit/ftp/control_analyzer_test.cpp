#include <gtest/gtest.h>

#include "netlib/ftp/control_analyzer.hpp"
#include "support/split_feed.hpp"

using namespace netlib;
using namespace netlib::ftp;

namespace {
const std::string client =
    "USER anonymous\r\nPASS x\r\nPASV\r\nRETR robots.txt\r\nPORT 10,0,0,2,4,1\r\nLIST\r\nEPSV\r\nQUIT\r\n";
const std::string server =
    "220-Welcome\r\n220 ready\r\n331 pass\r\n230 ok\r\n227 Entering Passive Mode (199,233,217,249,221,90)\r\n"
    "150 Opening\r\n226 Transfer complete.\r\n200 PORT ok\r\n150 Here\r\n226 Done\r\n"
    "229 Entering Extended Passive Mode (|||57086|)\r\n221 Bye\r\n";
}  // namespace

TEST(ControlAnalyzer, PairsRepliesAndFindsSetupsAnySplit) {
  netlab::test::for_each_split(server, [](const netlab::test::pieces& p) {
    control_analyzer a;
    a.client_bytes(as_bytes(client), time_point{});
    for (auto piece : p) a.server_bytes(as_bytes(piece), time_point{});
    ASSERT_EQ(a.commands().size(), 8u);
    ASSERT_TRUE(a.greeting());
    EXPECT_EQ(a.greeting()->code, 220);
    EXPECT_EQ(a.commands()[0].reply_code, 331);
    EXPECT_EQ(a.commands()[3].verb, "RETR");
    EXPECT_EQ(a.commands()[3].reply_code, 226);
    EXPECT_EQ(a.commands()[3].preliminary_codes, std::vector<int>{150});
    ASSERT_EQ(a.setups().size(), 3u);
    EXPECT_EQ(a.setups()[0].where, (data_address{1, "199.233.217.249", 221 * 256 + 90}));
    EXPECT_TRUE(a.setups()[0].passive);
    EXPECT_FALSE(a.setups()[1].passive);
    EXPECT_EQ(a.setups()[1].where.port, 1025);
    EXPECT_EQ(a.setups()[2].where.port, 57086);
    EXPECT_EQ(a.commands()[7].reply_code, 221);
  });
}

// Each command says which bytes of the client's stream it was (netlab-replay re-sends them,
// netlab-grade checks their line ends), however the client's stream was cut; a line that is no
// command takes its bytes out of no command's range.
TEST(ControlAnalyzer, CommandsKnowTheirBytesAnySplit) {
  const std::string with_bad_line = "USER a\r\nX1Y\r\nPASS b\nQUIT\r\n";
  netlab::test::for_each_split(with_bad_line, [&](const netlab::test::pieces& p) {
    control_analyzer a;
    for (auto piece : p) a.client_bytes(as_bytes(piece), time_point{});
    ASSERT_EQ(a.commands().size(), 3u);
    std::vector<std::string> got;
    for (const auto& c : a.commands())
      got.push_back(with_bad_line.substr(c.client_begin, c.client_end - c.client_begin));
    EXPECT_EQ(got, (std::vector<std::string>{"USER a\r\n", "PASS b\n", "QUIT\r\n"}));
    EXPECT_EQ(a.malformed_lines(), 1u);
  });
}

// One list of the verbs that use a data connection, for lab-ftp analyze, netlab-replay and
// netlab-grade.
TEST(ControlAnalyzer, TransferAndUploadVerbs) {
  for (const char* v : {"RETR", "LIST", "NLST", "MLSD", "STOR", "STOU", "APPE"})
    EXPECT_TRUE(control_analyzer::is_transfer_verb(v)) << v;
  for (const char* v : {"STAT", "MLST", "SIZE", "PASV", "PORT", "ABOR"})
    EXPECT_FALSE(control_analyzer::is_transfer_verb(v)) << v;
  for (const char* v : {"STOR", "STOU", "APPE"}) EXPECT_TRUE(control_analyzer::is_upload_verb(v)) << v;
  for (const char* v : {"RETR", "LIST"}) EXPECT_FALSE(control_analyzer::is_upload_verb(v)) << v;
}

TEST(ControlAnalyzer, InterleavedFeedingAndMissingReplies) {
  control_analyzer a;
  a.server_bytes(as_bytes("220 hi\r\n"), time_point{});
  a.client_bytes(as_bytes("USER a\r\n"), time_point{});
  a.server_bytes(as_bytes("331 p\r\n"), time_point{});
  a.client_bytes(as_bytes("PASS b\r\nSYST\r\n"), time_point{});
  a.server_bytes(as_bytes("230 ok\r\n"), time_point{});
  ASSERT_EQ(a.commands().size(), 3u);
  EXPECT_EQ(a.commands()[1].reply_code, 230);
  EXPECT_FALSE(a.commands()[2].reply_code);
  EXPECT_TRUE(control_analyzer::is_transfer_verb("RETR"));
  EXPECT_FALSE(control_analyzer::is_transfer_verb("STAT"));
}

TEST(ControlAnalyzer, GarbageIsCountedNotFatal) {
  control_analyzer a;
  a.client_bytes(as_bytes("\x01\x02\r\nNOOP\r\n"), time_point{});
  a.server_bytes(as_bytes("garbage\r\n200 ok\r\n"), time_point{});
  EXPECT_EQ(a.commands().size(), 1u);
  EXPECT_EQ(a.malformed_lines(), 2u);
  EXPECT_EQ(a.commands()[0].reply_code, 200);  // the parser starts over after a bad line
}

TEST(ControlAnalyzer, ResynchronisesAfterGaps) {
  control_analyzer a;  // all at time 0: pairing by order
  a.server_bytes(as_bytes("220 hi\r\n"), time_point{});
  a.client_bytes(as_bytes("USER a\r\n"), time_point{});
  a.server_bytes(as_bytes("331 p\r\n"), time_point{});
  a.client_bytes(as_bytes("PASS b\r\nCW"), time_point{});
  a.client_gap();  // "D x\r\n" and more were lost; the server answered them
  a.server_bytes(as_bytes("230 ok\r\n250 lost cwd\r\n"), time_point{});
  a.client_bytes(as_bytes("ost\r\nPWD\r\n"), time_point{});
  a.server_bytes(as_bytes("257 \"/\"\r\n2"), time_point{});
  a.server_gap();
  a.server_bytes(as_bytes("0 rest of a lost reply\r\n"), time_point{});
  a.client_bytes(as_bytes("NOOP\r\n"), time_point{});
  a.server_bytes(as_bytes("200 ok\r\n"), time_point{});
  ASSERT_EQ(a.commands().size(), 4u);
  EXPECT_EQ(a.commands()[1].verb, "PASS");
  EXPECT_EQ(a.commands()[1].reply_code, 230);  // the 250 answered a lost CWD: nothing waits, ignored
  EXPECT_EQ(a.commands()[2].verb, "PWD");
  EXPECT_EQ(a.commands()[2].reply_code, 257);
  EXPECT_EQ(a.commands()[3].reply_code, 200);
  EXPECT_EQ(a.gaps(), 2u);
}

TEST(ControlAnalyzer, PairsByCaptureTimeWhenRepliesAreLost) {
  using std::chrono::seconds;
  control_analyzer a;
  // The client's stream first (as a reassembler may deliver it), then the server's.
  a.client_bytes(as_bytes("USER a\r\n"), time_point(seconds(1)));
  a.client_bytes(as_bytes("PASS b\r\n"), time_point(seconds(3)));
  a.client_bytes(as_bytes("CWD x\r\n"), time_point(seconds(5)));
  a.client_bytes(as_bytes("RETR f\r\n"), time_point(seconds(7)));
  a.client_bytes(as_bytes("ABOR\r\n"), time_point(seconds(9)));
  a.server_bytes(as_bytes("220 hi\r\n"), time_point(seconds(0)));
  a.server_bytes(as_bytes("331 p\r\n"), time_point(seconds(2)));
  a.server_gap();  // the 230 at 4 s was lost
  a.server_bytes(as_bytes("250 ok\r\n"), time_point(seconds(6)));
  a.server_bytes(as_bytes("150 go\r\n"), time_point(seconds(8)));
  a.server_bytes(as_bytes("426 aborted\r\n226 abor ok\r\n"), time_point(seconds(10)));
  ASSERT_EQ(a.commands().size(), 5u);
  EXPECT_EQ(a.commands()[0].reply_code, 331);
  EXPECT_FALSE(a.commands()[1].reply_code);
  EXPECT_EQ(a.commands()[2].reply_code, 250);
  EXPECT_EQ(a.commands()[3].reply_code, 426);
  EXPECT_EQ(a.commands()[4].reply_code, 226);
}
