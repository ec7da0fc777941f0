#include "netlib/core/line_framer.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/split_feed.hpp"

namespace {

using netlib::as_bytes;
using netlib::input_buffer;
using netlib::line_framer;
using netlib::line_status;

struct framed {
  std::vector<std::string> lines;
  std::vector<line_status> errors;
};

// Feeds pieces through an input_buffer exactly as a driver does.
framed frame_all(const netlab::test::pieces& pieces, netlib::line_framer_options opts) {
  line_framer f(opts);
  input_buffer buf;
  framed out;
  for (auto piece : pieces) {
    buf.append(piece);
    for (;;) {
      auto r = f.next(buf.data());
      if (r.status == line_status::need_more) {
        buf.consume(r.consumed);
        break;
      }
      if (r.status == line_status::line)
        out.lines.emplace_back(r.text);
      else
        out.errors.push_back(r.status);
      buf.consume(r.consumed);
    }
  }
  return out;
}

TEST(LineFramer, splits_crlf_lines_at_every_offset) {
  const std::string input = "USER alice\r\nPASS secret\r\n\r\nQUIT\r\npartial";
  netlab::test::for_each_split(input, [&](const auto& pieces) {
    auto out = frame_all(pieces, {});
    ASSERT_EQ(out.lines, (std::vector<std::string>{"USER alice", "PASS secret", "", "QUIT"}));
    EXPECT_TRUE(out.errors.empty());
  });
}

TEST(LineFramer, every_prefix_without_terminator_needs_more) {
  line_framer f;
  netlab::test::for_each_prefix("NOOP\r", [&](std::string_view p) {
    auto r = f.next(as_bytes(p));
    EXPECT_EQ(r.status, line_status::need_more);
    EXPECT_EQ(r.consumed, 0u);
  });
}

TEST(LineFramer, lenient_mode_accepts_bare_lf) {
  auto out = frame_all({"a\nb\r\n"}, {});
  EXPECT_EQ(out.lines, (std::vector<std::string>{"a", "b"}));
}

TEST(LineFramer, strict_mode_reports_bare_lf_and_bare_cr) {
  auto out = frame_all({"a\nb\rc\r\nd\r\n"}, {.max_length = 512, .strict = true});
  EXPECT_EQ(out.lines, (std::vector<std::string>{"d"}));
  EXPECT_EQ(out.errors, (std::vector<line_status>{line_status::bare_lf, line_status::bare_cr}));
}

TEST(LineFramer, too_long_line_is_reported_once_and_skipped_at_every_split) {
  const std::string input = std::string(40, 'x') + "\r\nok\r\n";
  netlab::test::for_each_split(input, [&](const auto& pieces) {
    auto out = frame_all(pieces, {.max_length = 16});
    EXPECT_EQ(out.lines, (std::vector<std::string>{"ok"}));
    EXPECT_EQ(out.errors, (std::vector<line_status>{line_status::too_long}));
  });
}

TEST(LineFramer, max_length_counts_the_terminator) {
  auto fits = frame_all({"12345678\r\n"}, {.max_length = 10});
  EXPECT_EQ(fits.lines.size(), 1u);
  auto over = frame_all({"123456789\r\n"}, {.max_length = 10});
  EXPECT_TRUE(over.lines.empty());
  EXPECT_EQ(over.errors.size(), 1u);
}

TEST(InputBuffer, keeps_unconsumed_bytes) {
  input_buffer b;
  b.append("hello world");
  b.consume(6);
  EXPECT_EQ(netlib::as_chars(b.data()), "world");
  EXPECT_THROW(b.consume(6), std::logic_error);
}

}  // namespace
