#pragma once
// ASCII text helpers for protocol elements (verbs, field names, tokens, keywords): case mapping
// and comparison of the letters A-Z only, never the locale's (RFC 5234 §2.3: ABNF strings are
// case-insensitive US-ASCII), and trimming. Bytes >= 0x80 are left as they are.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace netlib::ascii {

constexpr char to_lower(char c) noexcept {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}
constexpr char to_upper(char c) noexcept {
  return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
}
constexpr bool is_alpha(char c) noexcept {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}
constexpr bool is_digit(char c) noexcept {
  return c >= '0' && c <= '9';
}
constexpr bool is_space(char c) noexcept {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

inline std::string to_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = to_lower(c);
  return out;
}
inline std::string to_upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = to_upper(c);
  return out;
}
inline void lower_in_place(std::string& s) noexcept {
  for (char& c : s) c = to_lower(c);
}
inline void upper_in_place(std::string& s) noexcept {
  for (char& c : s) c = to_upper(c);
}

// Case-insensitive equality. Inline: HTTP looks up every field name with it.
inline bool iequals(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const char x = a[i], y = b[i];
    if (x == y) continue;
    if ((x | 0x20) != (y | 0x20) || static_cast<unsigned char>((x | 0x20) - 'a') > 'z' - 'a') return false;
  }
  return true;
}
inline bool istarts_with(std::string_view s, std::string_view prefix) noexcept {
  return s.size() >= prefix.size() && iequals(s.substr(0, prefix.size()), prefix);
}

// `s` without the leading and trailing characters in `chars` (default: spaces and tabs, which is
// HTTP's OWS, RFC 9110 §5.6.3). Plain loops: HTTP trims every field value with it.
constexpr bool is_one_of(char c, std::string_view chars) noexcept {
  for (const char x : chars)
    if (x == c) return true;
  return false;
}
constexpr std::string_view trim_left(std::string_view s, std::string_view chars = " \t") noexcept {
  std::size_t b = 0;
  while (b < s.size() && is_one_of(s[b], chars)) ++b;
  return s.substr(b);
}
constexpr std::string_view trim_right(std::string_view s, std::string_view chars = " \t") noexcept {
  std::size_t e = s.size();
  while (e > 0 && is_one_of(s[e - 1], chars)) --e;
  return s.substr(0, e);
}
constexpr std::string_view trim(std::string_view s, std::string_view chars = " \t") noexcept {
  return trim_right(trim_left(s, chars), chars);
}
// All white space (" \t\r\n\v\f"), for text read from files and answers typed by people.
inline constexpr std::string_view white_space = " \t\r\n\v\f";

// The words of a line separated by spaces and tabs, as views into it ("a  b\tc" -> a, b, c).
inline std::vector<std::string_view> words(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

// What an error message quotes of input it refuses: at most `max` characters, every byte outside
// printable ASCII shown as '?', and "..." when cut, so that text from a file, a command line or
// the network never reaches a terminal raw (escape sequences) or whole (a 1000-character value).
inline std::string excerpt(std::string_view text, std::size_t max = 40) {
  std::string out;
  for (const char c : text.substr(0, max)) out += (c >= 0x20 && c < 0x7f) ? c : '?';
  if (text.size() > max) out += "...";
  return out;
}

}  // namespace netlib::ascii
