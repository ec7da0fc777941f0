#include <gtest/gtest.h>

#include "netlib/ftp/reply.hpp"
#include "support/split_feed.hpp"

using namespace netlib;
using namespace netlib::ftp;

namespace reply_parser_test_local {
// Feeds pieces through one parser, keeping unconsumed bytes the way a driver does.
std::vector<reply> parse_all(const netlab::test::pieces& pieces, bool* error = nullptr) {
  reply_parser p;
  input_buffer buf;
  std::vector<reply> out;
  for (auto piece : pieces) {
    buf.append(piece);
    while (true) {
      reply_result r = p.next(buf.data());
      buf.consume(r.consumed);
      if (r.status == reply_status::error) {
        if (error) *error = true;
        return out;
      }
      if (r.status == reply_status::need_more) break;
      out.push_back(r.value);
    }
  }
  return out;
}
}  // namespace reply_parser_test_local

TEST(ReplyParser, SingleLine) {
  using namespace reply_parser_test_local;
  auto r = parse_all({"220 ready\r\n"});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].code, 220);
  EXPECT_EQ(r[0].text(), "ready");
}

TEST(ReplyParser, CodeOnlyAndBareLf) {
  using namespace reply_parser_test_local;
  auto r = parse_all({"200\r\n331 go\n"});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].code, 200);
  EXPECT_EQ(r[1].code, 331);
}

TEST(ReplyParser, MultiLineAnySplit) {
  using namespace reply_parser_test_local;
  const std::string input = "211-Features:\r\n EPSV\r\n211-MDTM\r\n123 not the end\r\n211 End\r\n226 Done\r\n";
  netlab::test::for_each_split(input, [](const netlab::test::pieces& p) {
    auto r = parse_all(p);
    ASSERT_EQ(r.size(), 2u);
    EXPECT_EQ(r[0].code, 211);
    EXPECT_EQ(r[0].lines, (std::vector<std::string>{"Features:", " EPSV", "MDTM", "123 not the end", "End"}));
    EXPECT_EQ(r[1], reply(226, "Done"));
  });
}

TEST(ReplyParser, EveryTruncationNeedsMore) {
  using namespace reply_parser_test_local;
  const std::string input = "230-Welcome\r\n to here\r\n230 Logged in\r\n";
  netlab::test::for_each_prefix(input, [](std::string_view prefix) {
    bool error = false;
    EXPECT_TRUE(parse_all({prefix}, &error).empty()) << prefix;
    EXPECT_FALSE(error);
  });
}

TEST(ReplyParser, MalformedIsStickyError) {
  using namespace reply_parser_test_local;
  reply_parser p;
  auto r = p.next(as_bytes("hello\r\n220 ok\r\n"));
  EXPECT_EQ(r.status, reply_status::error);
  EXPECT_TRUE(p.failed());
  EXPECT_EQ(p.next(as_bytes("220 ok\r\n")).status, reply_status::error);
  EXPECT_EQ(reply_parser{}.next(as_bytes("22x ok\r\n")).status, reply_status::error);
  EXPECT_EQ(reply_parser{}.next(as_bytes("220xok\r\n")).status, reply_status::error);
  EXPECT_EQ(reply_parser{}.next(as_bytes("720 ok\r\n")).status, reply_status::error);
}

TEST(ReplyParser, LimitsOnLineLengthAndLineCount) {
  using namespace reply_parser_test_local;
  reply_parser p(reply_parser_limits{.max_line = 64, .max_lines = 3});
  EXPECT_EQ(p.next(as_bytes(std::string(100, '2'))).status, reply_status::error);
  reply_parser q(reply_parser_limits{.max_line = 64, .max_lines = 3});
  EXPECT_EQ(q.next(as_bytes("211-a\r\nb\r\nc\r\nd\r\ne\r\n")).status, reply_status::error);
}

TEST(ReplySerialize, SingleAndMultiLine) {
  using namespace reply_parser_test_local;
  EXPECT_EQ(serialize(reply(200, "ok")), "200 ok\r\n");
  EXPECT_EQ(serialize(reply(211, std::vector<std::string>{"Features:", " SIZE", "End"})),
            "211-Features:\r\n SIZE\r\n211 End\r\n");
  // A text line starting with a digit is indented so it cannot end the reply (RFC 959 §4.2).
  const reply tricky(214, std::vector<std::string>{"Help:", "211 lookalike", "End"});
  EXPECT_EQ(serialize(tricky), "214-Help:\r\n 211 lookalike\r\n214 End\r\n");
  auto back = parse_all({serialize(tricky)});
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].lines.size(), 3u);
  EXPECT_EQ(fmt::format("{}", reply(226, "done")), "226 done");
}
