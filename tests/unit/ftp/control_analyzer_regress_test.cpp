// Regression cases found by fuzzing (tests/fuzz/ftp_reply_fuzz.cpp drives the control analyzer).
#include <gtest/gtest.h>

#include "netlib/ftp/control_analyzer.hpp"
#include "support/split_feed.hpp"

using namespace netlib;
using namespace netlib::ftp;

// A malformed reply line that still looks like the start of a line ("939 ..." : 9 is no reply
// class) made server_bytes retry the same line without consuming it, a million times per call, and
// every later reply was lost. It is now skipped as one malformed line and the dialogue goes on.
TEST(ControlAnalyzerRegress, MalformedReplyThatLooksLikeALineStartIsSkipped) {
  const std::string server = "220 ready\r\n939 not a reply class\r\n331 pass\r\n230 ok\r\n";
  netlab::test::for_each_split(server, [&](const netlab::test::pieces& p) {
    control_analyzer a;
    a.client_bytes(as_bytes(std::string("USER anonymous\r\nPASS x\r\n")), time_point{});
    for (auto piece : p) a.server_bytes(as_bytes(piece), time_point{});
    ASSERT_EQ(a.commands().size(), 2u);
    EXPECT_EQ(a.commands()[0].reply_code, 331);
    EXPECT_EQ(a.commands()[1].reply_code, 230);
  });
}
