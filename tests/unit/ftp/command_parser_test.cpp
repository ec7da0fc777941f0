#include <gtest/gtest.h>

#include "netlib/ftp/command.hpp"
#include "support/split_feed.hpp"

using namespace netlib;
using namespace netlib::ftp;

namespace command_parser_test_local {
std::vector<command_result> parse_all(const netlab::test::pieces& pieces, std::size_t max_line = 2048) {
  command_parser p(max_line);
  input_buffer buf;
  std::vector<command_result> out;
  for (auto piece : pieces) {
    buf.append(piece);
    while (!buf.empty()) {
      command_result r = p.next(buf.data());
      buf.consume(r.consumed);
      if (r.status == command_status::need_more) break;
      out.push_back(r);
    }
  }
  return out;
}
}  // namespace command_parser_test_local

TEST(CommandParser, VerbsAreCaseInsensitiveArgumentsKept) {
  using namespace command_parser_test_local;
  auto r = parse_all({"user Alice\r\nRetr my file.txt\r\nnoop\r\n"});
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].value, (command{"USER", "Alice"}));
  EXPECT_EQ(r[1].value, (command{"RETR", "my file.txt"}));
  EXPECT_EQ(r[2].value, (command{"NOOP", ""}));
}

TEST(CommandParser, AnySplitGivesTheSameCommands) {
  using namespace command_parser_test_local;
  const std::string input = "USER ftp\r\nPASS x@y\r\nEPRT |1|127.0.0.1|5000|\nQUIT\r\n";
  netlab::test::for_each_split(input, [](const netlab::test::pieces& p) {
    auto r = parse_all(p);
    ASSERT_EQ(r.size(), 4u);
    EXPECT_EQ(r[2].value, (command{"EPRT", "|1|127.0.0.1|5000|"}));
    EXPECT_EQ(r[3].value.verb, "QUIT");
  });
}

TEST(CommandParser, TruncationsNeedMore) {
  using namespace command_parser_test_local;
  netlab::test::for_each_prefix("STOR a b\r\n",
                                [](std::string_view prefix) { EXPECT_TRUE(parse_all({prefix}).empty()) << prefix; });
}

TEST(CommandParser, BadLines) {
  using namespace command_parser_test_local;
  auto r = parse_all({"\r\nXY\r\nABCDE x\r\nR3TR a\r\nUS\0R\r\n"});
  ASSERT_EQ(r.size(), 4u);
  for (auto& x : r) EXPECT_EQ(x.status, command_status::bad_line);
  EXPECT_EQ(parse_command_line(std::string_view("US\0R x", 6)).status, command_status::bad_line);
}

// A CR inside a line is no part of a name (issue 17): refused wherever the feed is split, and the
// line after it is still parsed.
TEST(CommandParser, BareCarriageReturnInsideALineIsABadLine) {
  using namespace command_parser_test_local;
  const std::string input = "MKD evil\rname\r\nSTOR a\rb\nRNTO x\r\r\nNOOP\r\n";
  netlab::test::for_each_split(input, [](const netlab::test::pieces& p) {
    auto r = parse_all(p);
    ASSERT_EQ(r.size(), 4u);
    for (int i = 0; i < 3; ++i) {
      EXPECT_EQ(r[i].status, command_status::bad_line);
      EXPECT_EQ(r[i].error, "CR inside the command line");
    }
    EXPECT_EQ(r[3].value, (command{"NOOP", ""}));
  });
}

TEST(CommandParser, OverLongLineIsReportedOnceAndSkipped) {
  using namespace command_parser_test_local;
  const std::string input = "RETR " + std::string(100, 'a') + "\r\nNOOP\r\n";
  netlab::test::for_each_split(input, [](const netlab::test::pieces& p) {
    auto r = parse_all(p, 32);
    ASSERT_EQ(r.size(), 2u);
    EXPECT_EQ(r[0].status, command_status::bad_line);
    EXPECT_EQ(r[0].error, "command line too long");
    EXPECT_EQ(r[1].value.verb, "NOOP");
  });
}

TEST(CommandParser, TelnetInterruptBeforeAbor) {
  using namespace command_parser_test_local;
  auto r =
      parse_all({"\xff\xf4\xff\xf2"
                 "ABOR\r\n"});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].value.verb, "ABOR");
}

TEST(CommandSerialize, WithAndWithoutArgument) {
  using namespace command_parser_test_local;
  EXPECT_EQ(serialize(command{"PASV", ""}), "PASV\r\n");
  EXPECT_EQ(serialize(command{"CWD", "a b"}), "CWD a b\r\n");
}
