// Theory of operation: Forwarded (RFC 7239 §4) is a comma-separated list of elements, each a
// semicolon-separated list of name=value pairs, values tokens or quoted strings. Only the last
// element is read (the one our trusted proxy appended; anything before it came from the client,
// who can write whatever it likes), and of it only for=, whose value is an IPv4 address, a
// bracketed IPv6 address, either possibly with ":port" (§6). Several Forwarded lines are one list.
#include "netlib/http/forwarded.hpp"

#include <arpa/inet.h>

#include <array>

#include "netlib/core/ascii.hpp"

namespace netlib::http {

namespace {

bool is_ip(const std::string& s, int family) {
  std::array<unsigned char, 16> bytes{};
  return ::inet_pton(family, s.c_str(), bytes.data()) == 1;
}

// "192.0.2.1", "192.0.2.1:8080", "[2001:db8::1]", "[2001:db8::1]:8080" -> the address.
std::optional<std::string> node_address(std::string_view v) {
  if (!v.empty() && v.front() == '[') {
    const auto close = v.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    std::string a(v.substr(1, close - 1));
    return is_ip(a, AF_INET6) ? std::optional(a) : std::nullopt;
  }
  std::string a(v.substr(0, v.find(':')));
  return is_ip(a, AF_INET) ? std::optional(a) : std::nullopt;
}

}  // namespace

std::string forwarded_element(std::string_view address) {
  if (address.find(':') != std::string_view::npos) return "for=\"[" + std::string(address) + "]\"";
  return "for=" + std::string(address);
}

std::optional<std::string> detail::last_forwarded_for(std::string_view list) {
  // The last element: after the last comma outside a quoted string.
  std::size_t start = 0;
  bool quoted = false;
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (list[i] == '\\' && quoted) {
      ++i;
    } else if (list[i] == '"') {
      quoted = !quoted;
    } else if (list[i] == ',' && !quoted) {
      start = i + 1;
    }
  }
  std::string_view element = list.substr(start);
  for (int pairs = 0; pairs < 64 && !element.empty(); ++pairs) {
    const auto semi = element.find(';');
    std::string_view pair = ascii::trim(element.substr(0, semi), " \t");
    element = semi == std::string_view::npos ? std::string_view() : element.substr(semi + 1);
    const auto eq = pair.find('=');
    if (eq == std::string_view::npos || !ascii::iequals(ascii::trim(pair.substr(0, eq), " \t"), "for")) continue;
    std::string_view value = ascii::trim(pair.substr(eq + 1), " \t");
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
    return node_address(value);
  }
  return std::nullopt;
}

}  // namespace netlib::http
