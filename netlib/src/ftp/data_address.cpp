// Theory of operation: pure text conversions for the four ways FTP names a data endpoint. Every
// number is range-checked (bytes 0..255, ports 1..65535 when parsed from the peer); anything else
// is nullopt so the session can answer 501 (bad argument).
#include "netlib/ftp/data_address.hpp"

#include <cctype>
#include <charconv>
#include <vector>

#include <fmt/format.h>

namespace netlib::ftp {

namespace {
std::optional<unsigned> number(std::string_view s, unsigned max) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  if (s.empty() || s.size() > 5) return std::nullopt;
  unsigned v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || p != s.data() + s.size() || v > max) return std::nullopt;
  return v;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == sep) {
      out.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return out;
}
}  // namespace

bool is_ipv4_text(std::string_view text) {
  const auto parts = split(text, '.');
  if (parts.size() != 4) return false;
  for (auto p : parts) {
    if (p.empty() || p.size() > 3 || !number(p, 255) || p.front() == ' ') return false;
  }
  return true;
}

// RFC 959 §4.1.2 (PORT): h1,h2,h3,h4,p1,p2, each a decimal byte.
std::optional<data_address> parse_port_argument(std::string_view text) {
  const auto parts = split(text, ',');
  if (parts.size() != 6) return std::nullopt;
  unsigned v[6];
  for (std::size_t i = 0; i < 6; ++i) {
    auto n = number(parts[i], 255);
    if (!n) return std::nullopt;
    v[i] = *n;
  }
  const unsigned port = v[4] * 256 + v[5];
  if (port == 0) return std::nullopt;
  return data_address{1, fmt::format("{}.{}.{}.{}", v[0], v[1], v[2], v[3]), static_cast<std::uint16_t>(port)};
}

std::string format_port_argument(const data_address& a) {
  std::string host = a.host;
  for (char& c : host) {
    if (c == '.') c = ',';
  }
  return fmt::format("{},{},{}", host, a.port >> 8, a.port & 0xff);
}

// RFC 959 §4.2.2 (227 reply) does not fix the text around the numbers: take the first run of
// digits and commas that parses as six bytes.
std::optional<data_address> parse_pasv_reply(std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) continue;
    std::size_t j = i;
    while (j < text.size() && (std::isdigit(static_cast<unsigned char>(text[j])) || text[j] == ',' || text[j] == ' '))
      ++j;
    if (auto a = parse_port_argument(text.substr(i, j - i))) return a;
    i = j;
  }
  return std::nullopt;
}

// RFC 2428 §2: EPRT<space><d><net-prt><d><net-addr><d><tcp-port><d>
std::optional<data_address> parse_eprt_argument(std::string_view text) {
  if (text.size() < 7) return std::nullopt;
  const char d = text[0];
  if (d < 33 || d > 126 || text.back() != d) return std::nullopt;
  const auto parts = split(text.substr(1, text.size() - 2), d);
  if (parts.size() != 3) return std::nullopt;
  const auto proto = number(parts[0], 2);
  const auto port = number(parts[2], 65535);
  if (!proto || *proto == 0 || !port || *port == 0 || parts[1].empty()) return std::nullopt;
  if (*proto == 1 && !is_ipv4_text(parts[1])) return std::nullopt;
  if (*proto == 2 && parts[1].find(':') == std::string_view::npos) return std::nullopt;
  return data_address{static_cast<int>(*proto), std::string(parts[1]), static_cast<std::uint16_t>(*port)};
}

std::string format_eprt_argument(const data_address& a) {
  return fmt::format("|{}|{}|{}|", a.family, a.host, a.port);
}

// RFC 2428 §3: 229 Entering Extended Passive Mode (<d><d><d><tcp-port><d>)
std::optional<data_address> parse_epsv_reply(std::string_view text) {
  const std::size_t open = text.find('(');
  const std::size_t close = text.find(')', open == std::string_view::npos ? 0 : open);
  if (open == std::string_view::npos || close == std::string_view::npos) return std::nullopt;
  const std::string_view inner = text.substr(open + 1, close - open - 1);
  if (inner.size() < 5) return std::nullopt;
  const char d = inner[0];
  if (inner[1] != d || inner[2] != d || inner.back() != d) return std::nullopt;
  const auto port = number(inner.substr(3, inner.size() - 4), 65535);
  if (!port || *port == 0) return std::nullopt;
  return data_address{0, {}, static_cast<std::uint16_t>(*port)};
}

}  // namespace netlib::ftp
