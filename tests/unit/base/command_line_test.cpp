// The command-line splitter and reader shared by the SMTP, POP3 and FTP cores and analyzers.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "netlib/core/command_line.hpp"
#include "support/split_feed.hpp"

namespace command_line_test {

using netlib::command_line;
using netlib::read_status;

TEST(SplitCommandLine, verb_upper_cased_argument_as_sent) {
  EXPECT_EQ(netlib::split_command_line("mail FROM:<a@b> SIZE=10"), (command_line{"MAIL", "FROM:<a@b> SIZE=10"}));
  EXPECT_EQ(netlib::split_command_line("QUIT"), (command_line{"QUIT", ""}));
  EXPECT_EQ(netlib::split_command_line("stor my file.txt "), (command_line{"STOR", "my file.txt "}));
  EXPECT_EQ(netlib::split_command_line("RETR  two"), (command_line{"RETR", " two"}));
  EXPECT_EQ(netlib::split_command_line(""), (command_line{"", ""}));
  EXPECT_EQ(netlib::split_command_line(" x"), (command_line{"", "x"}));
  EXPECT_EQ(netlib::split_command_line("noop "), (command_line{"NOOP", ""}));
}

TEST(SplitCommandLine, trim_argument_drops_trailing_spaces_only) {
  const netlib::command_syntax smtp{.trim_argument = true};
  EXPECT_EQ(netlib::split_command_line("RCPT TO:<a@b>   ", smtp), (command_line{"RCPT", "TO:<a@b>"}));
  EXPECT_EQ(netlib::split_command_line("HELO  x\t ", smtp), (command_line{"HELO", " x\t"}));
  EXPECT_EQ(netlib::split_command_line("DATA ", smtp), (command_line{"DATA", ""}));
}

struct read_result {
  std::vector<command_line> commands;
  std::vector<read_status> statuses;
  std::size_t unconsumed = 0;
  friend bool operator==(const read_result&, const read_result&) = default;
};

read_result read_all(const netlab::test::pieces& pieces, netlib::command_reader_options options) {
  netlib::command_reader reader(options);
  netlib::input_buffer buffer;
  read_result out;
  for (auto piece : pieces) {
    buffer.append(piece);
    for (int guard = 0; guard < 10000; ++guard) {
      const auto r = reader.next(buffer.data());
      buffer.consume(r.consumed);
      if (r.status == read_status::need_more) break;
      out.statuses.push_back(r.status);
      if (r.status == read_status::command) out.commands.push_back(r.value);
    }
  }
  out.unconsumed = buffer.size();
  return out;
}

TEST(RecordedCommands, each_line_where_it_stands_crlf_or_lf_and_a_cut_last_line_left_out) {
  const std::string client = "user ann\r\nPASS my secret \r\nnoop\nRETR 1";  // the capture ends mid-line
  const auto got = netlib::recorded_commands(client);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].command, (command_line{"USER", "ann"}));
  EXPECT_EQ(client.substr(got[0].begin, got[0].end - got[0].begin), "user ann\r\n");
  EXPECT_EQ(got[1].command, (command_line{"PASS", "my secret "}));
  EXPECT_EQ(got[1].begin, got[0].end);
  EXPECT_EQ(got[2].command, (command_line{"NOOP", ""}));
  EXPECT_EQ(client.substr(got[2].begin, got[2].end - got[2].begin), "noop\n");
  EXPECT_EQ(netlib::recorded_commands(client, {.trim_argument = true})[1].command.argument, "my secret");
  EXPECT_EQ(netlib::recorded_commands(client, {}, 2).size(), 2u);  // the limit
  EXPECT_TRUE(netlib::recorded_commands("").empty());
}

TEST(CommandReader, same_commands_at_every_split) {
  const std::string input = "user alice\r\nPASS a b c\r\nstat\nLIST 1\r\nQUI";
  const netlib::command_reader_options options{.max_length = 64};
  const read_result whole = read_all(netlab::test::pieces{input}, options);
  ASSERT_EQ(whole.commands.size(), 4u);
  EXPECT_EQ(whole.commands[0], (command_line{"USER", "alice"}));
  EXPECT_EQ(whole.commands[1], (command_line{"PASS", "a b c"}));
  EXPECT_EQ(whole.commands[2], (command_line{"STAT", ""}));  // bare LF accepted when not strict
  EXPECT_EQ(whole.unconsumed, 3u);                           // "QUI" waits for its line end
  netlab::test::for_each_split(input, [&](const netlab::test::pieces& p) { EXPECT_EQ(read_all(p, options), whole); });
}

TEST(CommandReader, over_long_line_reported_once_and_skipped_at_every_split) {
  const std::string input = "NOOP\r\n" + std::string(100, 'x') + "\r\nQUIT\r\n";
  const netlib::command_reader_options options{.max_length = 32};
  const read_result whole = read_all(netlab::test::pieces{input}, options);
  EXPECT_EQ(whole.statuses,
            (std::vector<read_status>{read_status::command, read_status::too_long, read_status::command}));
  EXPECT_EQ(whole.commands.back(), (command_line{"QUIT", ""}));
  EXPECT_EQ(whole.unconsumed, 0u);
  netlab::test::for_each_split(input, [&](const netlab::test::pieces& p) { EXPECT_EQ(read_all(p, options), whole); });
}

TEST(CommandReader, strict_framing_reports_bare_line_ends) {
  const std::string input = "EHLO a\nMAIL FROM:<x@y>\r\nRSET\r\n";
  const netlib::command_reader_options options{.max_length = 512, .strict = true, .syntax = {.trim_argument = true}};
  const read_result whole = read_all(netlab::test::pieces{input}, options);
  EXPECT_EQ(whole.statuses,
            (std::vector<read_status>{read_status::bad_line_end, read_status::command, read_status::command}));
  EXPECT_EQ(whole.commands.front(), (command_line{"MAIL", "FROM:<x@y>"}));
  netlab::test::for_each_split(input, [&](const netlab::test::pieces& p) { EXPECT_EQ(read_all(p, options), whole); });
}

TEST(CommandReader, reset_forgets_a_skipped_line) {
  netlib::command_reader reader({.max_length = 8});
  EXPECT_EQ(reader.next(netlib::as_bytes("0123456789")).status, read_status::too_long);
  reader.reset();
  const auto r = reader.next(netlib::as_bytes("QUIT\r\n"));
  EXPECT_EQ(r.status, read_status::command);
  EXPECT_EQ(r.value.verb, "QUIT");
}

}  // namespace command_line_test
