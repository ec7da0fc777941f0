// Basic authentication (RFC 7617 §2): credentials = "Basic" SP base64(user-id ":" password).
#include "netlib/http/basic_auth.hpp"

#include <string_view>

namespace netlib::http {
namespace {

constexpr std::string_view alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

bool under_prefix(std::string_view path, std::string_view prefix) {
  if (prefix.empty()) return true;
  if (path.substr(0, prefix.size()) != prefix) return false;
  return path.size() == prefix.size() || path[prefix.size()] == '/';
}

}  // namespace

std::optional<std::string> base64_decode(std::string_view in) {
  std::string out;
  unsigned buffer = 0;
  int bits = 0;
  std::size_t pad = 0;
  for (char c : in) {
    if (c == '=') {
      ++pad;
      continue;
    }
    const std::size_t v = alphabet.find(c);
    if (v == std::string_view::npos || pad > 0) return std::nullopt;
    buffer = (buffer << 6) | static_cast<unsigned>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((buffer >> bits) & 0xff);
    }
  }
  if (pad > 2 || (in.size() % 4) != 0) return std::nullopt;
  return out;
}

std::string base64_encode(std::string_view in) {
  std::string out;
  unsigned buffer = 0;
  int bits = 0;
  for (unsigned char c : in) {
    buffer = (buffer << 8) | c;
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      out += alphabet[(buffer >> bits) & 0x3f];
    }
  }
  if (bits > 0) out += alphabet[(buffer << (6 - bits)) & 0x3f];
  while (out.size() % 4 != 0) out += '=';
  return out;
}

std::map<std::string, std::string> parse_users(std::string_view text) {
  std::map<std::string, std::string> users;
  while (!text.empty()) {
    const std::size_t lf = text.find('\n');
    std::string_view line = trim_ows(text.substr(0, lf));
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    text.remove_prefix(lf == std::string_view::npos ? text.size() : lf + 1);
    if (line.empty() || line.front() == '#') continue;
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0) continue;
    users[std::string(line.substr(0, colon))] = std::string(line.substr(colon + 1));
  }
  return users;
}

auth_decision check_basic_auth(const basic_auth_rule& rule, std::string_view path, const request_head& r) {
  auth_decision d;
  d.required = under_prefix(path, rule.prefix) || (!rule.real_prefix.empty() && under_prefix(path, rule.real_prefix));
  if (!d.required) return d;
  const auto value = r.fields.get("Authorization");
  if (!value) return d;
  const std::string_view v = trim_ows(*value);
  if (v.size() < 6 || !iequals(v.substr(0, 6), "Basic ")) return d;
  const auto decoded = base64_decode(trim_ows(v.substr(6)));
  if (!decoded) return d;
  const std::size_t colon = decoded->find(':');  // RFC 7617 §2: the user-id has no colon
  if (colon == std::string::npos) return d;
  const auto it = rule.users.find(decoded->substr(0, colon));
  if (it == rule.users.end() || it->second != decoded->substr(colon + 1)) return d;
  d.granted = true;
  d.user = it->first;
  return d;
}

}  // namespace netlib::http
