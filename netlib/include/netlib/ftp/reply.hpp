#pragma once
// FTP replies (RFC 959 §4.2): a three-digit code and one or more text lines. A multi-line reply
// starts "123-First line" and ends with a line "123 Last line"; serialize() writes that form.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "netlib/core/bytes.hpp"

namespace netlib::ftp {

struct reply {
  int code = 0;
  std::vector<std::string> lines;  // at least one; text only, without code or CRLF

  reply() = default;
  reply(int c, std::string text) : code(c), lines{std::move(text)} {}
  reply(int c, std::vector<std::string> text) : code(c), lines(std::move(text)) {}

  [[nodiscard]] bool preliminary() const noexcept { return code >= 100 && code < 200; }   // 1yz
  [[nodiscard]] bool completion() const noexcept { return code >= 200 && code < 300; }    // 2yz
  [[nodiscard]] bool intermediate() const noexcept { return code >= 300 && code < 400; }  // 3yz
  [[nodiscard]] bool failure() const noexcept { return code >= 400; }                     // 4yz 5yz
  [[nodiscard]] std::string text() const;                                                 // the lines joined with '\n'
  friend bool operator==(const reply&, const reply&) = default;
};

// The reply as it goes on the wire, CRLF-terminated. A text line of a multi-line reply that would
// itself start with a digit gets a leading space (RFC 959 §4.2, so it cannot end the reply early).
std::string serialize(const reply& r);

enum class reply_status { reply, need_more, error };

struct reply_result {
  reply_status status = reply_status::need_more;
  std::size_t consumed = 0;
  ftp::reply value;   // when status == reply
  std::string error;  // when status == error (sticky)
};

struct reply_parser_limits {
  std::size_t max_line = 8192;   // bytes per line, CRLF included
  std::size_t max_lines = 4096;  // lines per multi-line reply
};

// Incremental reply parser for a client or a capture analyzer. Feed it the unconsumed bytes; it
// reports what it consumed. A malformed line (no 3-digit code, over-long line, too many lines) is a
// sticky error.
class reply_parser {
 public:
  explicit reply_parser(reply_parser_limits limits = {}) : limits_(limits) {}
  [[nodiscard]] reply_result next(byte_view input);
  [[nodiscard]] bool failed() const noexcept { return !error_.empty(); }

 private:
  reply_parser_limits limits_;
  reply partial_;
  bool in_multiline_ = false;
  std::string error_;
  reply_result fail(std::string why);
  bool take_line(std::string_view line);  // true when a whole reply is complete
};

}  // namespace netlib::ftp

template <>
struct fmt::formatter<netlib::ftp::reply> : fmt::formatter<std::string_view> {
  auto format(const netlib::ftp::reply& r, fmt::format_context& ctx) const {
    return fmt::format_to(ctx.out(), "{} {}", r.code, r.lines.empty() ? std::string{} : r.lines.back());
  }
};
