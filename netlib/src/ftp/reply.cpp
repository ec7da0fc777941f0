// Theory of operation: replies are line-oriented (RFC 959 §4.2). The parser takes one line at a
// time (LF-terminated, a preceding CR dropped). Outside a multi-line reply a line must start with
// three digits followed by ' ' (complete reply), '-' (a multi-line reply begins) or end of line.
// Inside a multi-line reply, every line is text until one starts with the same three digits and a
// space (RFC 959 §4.2: "the last line will begin with the same code, followed immediately by
// Space"). Errors are sticky; the parser never consumes past the line it reports.
#include "netlib/ftp/reply.hpp"

#include <cctype>

namespace netlib::ftp {

std::string reply::text() const {
  std::string out;
  for (const auto& l : lines) {
    if (!out.empty()) out += '\n';
    out += l;
  }
  return out;
}

std::string serialize(const reply& r) {
  const std::vector<std::string> one{""};
  const auto& lines = r.lines.empty() ? one : r.lines;
  std::string out;
  for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
    if (i == 0) {
      out += fmt::format("{:03}-{}\r\n", r.code, lines[i]);
    } else {
      const bool digit = !lines[i].empty() && std::isdigit(static_cast<unsigned char>(lines[i][0]));
      out += fmt::format("{}{}\r\n", digit ? " " : "", lines[i]);  // RFC 959 §4.2
    }
  }
  out += fmt::format("{:03} {}\r\n", r.code, lines.back());
  return out;
}

namespace {
int code_of(std::string_view line) {
  if (line.size() < 3) return -1;
  for (int i = 0; i < 3; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(line[static_cast<std::size_t>(i)]))) return -1;
  }
  if (line[0] < '1' || line[0] > '6') return -1;  // RFC 959 §4.2.1 (6yz: RFC 2228)
  return (line[0] - '0') * 100 + (line[1] - '0') * 10 + (line[2] - '0');
}
}  // namespace

reply_result reply_parser::fail(std::string why) {
  error_ = std::move(why);
  return {reply_status::error, 0, {}, error_};
}

bool reply_parser::take_line(std::string_view line) {
  const int code = code_of(line);
  if (!in_multiline_) {
    partial_ = reply{};
    partial_.code = code;
    const char sep = line.size() > 3 ? line[3] : ' ';
    partial_.lines.emplace_back(line.size() > 4 ? line.substr(4) : std::string_view{});
    in_multiline_ = sep == '-';
    return !in_multiline_;
  }
  if (code == partial_.code && (line.size() == 3 || line[3] == ' ')) {
    partial_.lines.emplace_back(line.size() > 4 ? line.substr(4) : std::string_view{});
    in_multiline_ = false;
    return true;
  }
  // Text line; a "123-" line repeating the code keeps only its text (common server style).
  if (code == partial_.code && line[3] == '-') line.remove_prefix(4);
  partial_.lines.emplace_back(line);
  return false;
}

reply_result reply_parser::next(byte_view input) {
  if (failed()) return {reply_status::error, 0, {}, error_};
  const std::string_view s = as_chars(input);
  std::size_t pos = 0;
  while (true) {
    const std::size_t lf = s.find('\n', pos);
    if (lf == std::string_view::npos) {
      if (s.size() - pos >= limits_.max_line) return fail("reply line too long");
      // Lines of an unfinished multi-line reply are kept in partial_; report them consumed.
      return {reply_status::need_more, pos, {}, {}};
    }
    if (lf + 1 - pos > limits_.max_line) return fail("reply line too long");
    std::string_view line = s.substr(pos, lf - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!in_multiline_) {
      if (code_of(line) < 0) return fail(fmt::format("malformed reply line '{}'", line.substr(0, 40)));
      if (line.size() > 3 && line[3] != ' ' && line[3] != '-')
        return fail("malformed reply line: no space after the code");
    }
    pos = lf + 1;
    if (take_line(line)) return {reply_status::reply, pos, std::move(partial_), {}};
    if (partial_.lines.size() > limits_.max_lines) return fail("multi-line reply has too many lines");
  }
}

}  // namespace netlib::ftp
