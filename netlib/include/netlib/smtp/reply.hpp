#pragma once
// SMTP replies (RFC 5321 §4.2): serializing on the server side, parsing multi-line replies on the
// client side and in capture analysis.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "netlib/core/bytes.hpp"
#include "netlib/core/line_framer.hpp"
#include "netlib/core/parse_result.hpp"

namespace netlib::smtp {

struct reply {
  int code = 0;
  std::vector<std::string> lines;          // texts after "ddd-" / "ddd "
  [[nodiscard]] std::string text() const;  // the lines joined with "; "
};

// "250-first\r\n250 last\r\n"; an empty `lines` gives "250\r\n".
std::string format_reply(int code, const std::vector<std::string>& lines);
std::string format_reply(int code, std::string_view line);

enum class reply_status { reply, need_more, malformed };
using reply_result = parse_result<reply_status, reply>;

// Parses one (multi-line) reply at a time; lines up to 512 bytes (RFC 5321 §4.5.3.1.5), at most
// 200 lines. A malformed line (no 3-digit code, a code that changes mid-reply) is sticky.
class reply_parser {
 public:
  [[nodiscard]] reply_result next(byte_view input);

 private:
  line_framer framer_{{.max_length = 512, .strict = false}};
  reply partial_;
  bool failed_ = false;
};

}  // namespace netlib::smtp

template <>
struct fmt::formatter<netlib::smtp::reply> : fmt::formatter<std::string_view> {
  auto format(const netlib::smtp::reply& r, format_context& ctx) const {
    return fmt::format_to(ctx.out(), "{} {}", r.code, r.text());
  }
};
