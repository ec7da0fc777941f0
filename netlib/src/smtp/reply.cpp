// Theory of operation: a reply is one or more lines "ddd-text" ending with a line "ddd text" or
// "ddd" (RFC 5321 §4.2.1). The parser frames lines with the shared line framer, accumulates the
// continuation lines, and returns the reply when its last line arrives; it reports the bytes it
// consumed only then, so a split at any offset gives the same result.
#include "netlib/smtp/reply.hpp"

namespace netlib::smtp {

std::string reply::text() const {
  std::string out;
  for (const auto& l : lines) out += (out.empty() ? "" : "; ") + l;
  return out;
}

std::string format_reply(int code, const std::vector<std::string>& lines) {
  if (lines.empty()) return fmt::format("{}\r\n", code);
  std::string out;
  for (std::size_t i = 0; i < lines.size(); ++i)
    out += fmt::format("{}{}{}\r\n", code, i + 1 == lines.size() ? ' ' : '-', lines[i]);
  return out;
}

std::string format_reply(int code, std::string_view line) {
  return fmt::format("{} {}\r\n", code, line);
}

namespace {

bool is_code(std::string_view s) noexcept {
  return s.size() >= 3 && s[0] >= '2' && s[0] <= '5' && s[1] >= '0' && s[1] <= '9' && s[2] >= '0' && s[2] <= '9';
}

}  // namespace

reply_result reply_parser::next(byte_view input) {
  if (failed_) return {reply_status::malformed, {}, 0};
  reply_parser saved = *this;  // a reply is consumed whole or not at all
  std::size_t used = 0;
  partial_ = {};
  for (int n = 0; n < 200; ++n) {
    const line_result l = framer_.next(input.subspan(used));
    if (l.status == line_status::need_more) {
      *this = saved;
      return {reply_status::need_more, {}, 0};
    }
    used += l.consumed;
    const std::string_view t = l.text;
    if (l.status != line_status::line || !is_code(t) || (t.size() > 3 && t[3] != ' ' && t[3] != '-')) {
      failed_ = true;
      return {reply_status::malformed, {}, used};
    }
    const int code = (t[0] - '0') * 100 + (t[1] - '0') * 10 + (t[2] - '0');
    if (!partial_.lines.empty() && code != partial_.code) {
      failed_ = true;
      return {reply_status::malformed, {}, used};
    }
    partial_.code = code;
    partial_.lines.emplace_back(t.size() > 4 ? t.substr(4) : std::string_view{});
    if (t.size() == 3 || t[3] == ' ') {
      reply_result r{reply_status::reply, std::move(partial_), used};
      partial_ = {};
      return r;
    }
  }
  failed_ = true;
  return {reply_status::malformed, {}, used};
}

}  // namespace netlib::smtp
