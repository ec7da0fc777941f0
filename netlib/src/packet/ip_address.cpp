// IP address text forms: RFC 4291 §2.2 (parsing) and RFC 5952 §4 (the canonical output).
#include "netlib/packet/ip_address.hpp"

#include <cstring>

#include <vector>

namespace netlib::packet {
namespace {

std::optional<std::array<std::uint8_t, 4>> parse_v4(std::string_view text) {
  std::array<std::uint8_t, 4> out{};
  std::size_t part = 0;
  std::size_t i = 0;
  while (part < 4) {
    unsigned v = 0;
    std::size_t digits = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9' && digits < 4) {
      v = v * 10 + static_cast<unsigned>(text[i++] - '0');
      ++digits;
    }
    if (digits == 0 || digits > 3 || v > 255) return std::nullopt;
    out[part++] = static_cast<std::uint8_t>(v);
    if (part < 4) {
      if (i >= text.size() || text[i] != '.') return std::nullopt;
      ++i;
    }
  }
  if (i != text.size()) return std::nullopt;
  return out;
}

// Parses colon-separated hex groups (no "::"), appending 16-bit values; an IPv4 tail adds two.
bool parse_groups(std::string_view text, std::vector<std::uint16_t>& out, bool allow_v4_tail) {
  if (text.empty()) return true;
  std::size_t start = 0;
  while (true) {
    const std::size_t colon = text.find(':', start);
    const std::string_view g =
        text.substr(start, colon == std::string_view::npos ? std::string_view::npos : colon - start);
    if (colon == std::string_view::npos && allow_v4_tail && g.find('.') != std::string_view::npos) {
      auto v4 = parse_v4(g);
      if (!v4) return false;
      out.push_back(static_cast<std::uint16_t>((*v4)[0] << 8 | (*v4)[1]));
      out.push_back(static_cast<std::uint16_t>((*v4)[2] << 8 | (*v4)[3]));
      return true;
    }
    if (g.empty() || g.size() > 4) return false;
    unsigned v = 0;
    for (char c : g) {
      const int d = (c >= '0' && c <= '9')   ? c - '0'
                    : (c >= 'a' && c <= 'f') ? c - 'a' + 10
                    : (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                             : -1;
      if (d < 0) return false;
      v = v * 16 + static_cast<unsigned>(d);
    }
    out.push_back(static_cast<std::uint16_t>(v));
    if (colon == std::string_view::npos) return true;
    start = colon + 1;
  }
}

}  // namespace

std::optional<ip_address> ip_address::parse(std::string_view text) {
  if (text.find(':') == std::string_view::npos) {
    auto v4 = parse_v4(text);
    if (!v4) return std::nullopt;
    ip_address a;
    std::copy(v4->begin(), v4->end(), a.octets.begin());
    return a;
  }
  std::vector<std::uint16_t> head;
  std::vector<std::uint16_t> tail;
  const std::size_t gap = text.find("::");
  if (gap == std::string_view::npos) {
    if (!parse_groups(text, head, true) || head.size() != 8) return std::nullopt;
  } else {
    if (text.find("::", gap + 1) != std::string_view::npos) return std::nullopt;
    if (!parse_groups(text.substr(0, gap), head, false) || !parse_groups(text.substr(gap + 2), tail, true))
      return std::nullopt;
    if (head.size() + tail.size() > 7) return std::nullopt;
    head.resize(8 - tail.size(), 0);
    head.insert(head.end(), tail.begin(), tail.end());
  }
  ip_address a;
  a.v6 = true;
  for (std::size_t i = 0; i < 8; ++i) {
    a.octets[2 * i] = static_cast<std::uint8_t>(head[i] >> 8);
    a.octets[2 * i + 1] = static_cast<std::uint8_t>(head[i] & 0xff);
  }
  return a;
}

std::string ip_address::to_string() const {
  if (!v6) return fmt::format("{}.{}.{}.{}", octets[0], octets[1], octets[2], octets[3]);
  std::array<unsigned, 8> g{};
  for (std::size_t i = 0; i < 8; ++i) g[i] = static_cast<unsigned>(octets[2 * i] << 8 | octets[2 * i + 1]);
  // RFC 5952 §5: IPv4-mapped addresses end in dotted quad.
  if (g[0] == 0 && g[1] == 0 && g[2] == 0 && g[3] == 0 && g[4] == 0 && g[5] == 0xffff) {
    return fmt::format("::ffff:{}.{}.{}.{}", octets[12], octets[13], octets[14], octets[15]);
  }
  // RFC 5952 §4.2: "::" replaces the longest run of two or more zero groups, the first on ties.
  std::size_t best = 8, best_len = 1;
  for (std::size_t i = 0; i < 8;) {
    std::size_t j = i;
    while (j < 8 && g[j] == 0) ++j;
    if (j - i > best_len) best = i, best_len = j - i;
    i = j == i ? i + 1 : j;
  }
  std::string out;
  for (std::size_t i = 0; i < 8; ++i) {
    if (i == best) {
      out += "::";
      i += best_len - 1;
      continue;
    }
    if (!out.empty() && out.back() != ':') out += ':';
    out += fmt::format("{:x}", g[i]);  // §4.3: lower case, §4.1: no leading zeros
  }
  return out;
}

std::string endpoint::to_string() const {
  return address.v6 ? fmt::format("[{}]:{}", address.to_string(), port)
                    : fmt::format("{}:{}", address.to_string(), port);
}

}  // namespace netlib::packet
