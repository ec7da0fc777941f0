// Basic authentication (RFC 7617 §2): credentials = "Basic" SP base64(user-id ":" password).
#include "netlib/http/basic_auth.hpp"

#include <string_view>

#include "netlib/core/ascii.hpp"

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

bool requires_auth(const basic_auth_rule& rule, std::string_view path) {
  return under_prefix(path, rule.prefix) || (!rule.real_prefix.empty() && under_prefix(path, rule.real_prefix));
}

std::optional<basic_credentials> parse_basic_credentials(const request_view& r) {
  const auto value = r.fields.get("Authorization");
  if (!value) return std::nullopt;
  const std::string_view v = trim_ows(*value);
  if (!ascii::istarts_with(v, "Basic ")) return std::nullopt;
  const auto decoded = base64_decode(trim_ows(v.substr(6)));
  if (!decoded) return std::nullopt;
  const std::size_t colon = decoded->find(':');  // RFC 7617 §2: the user-id has no colon
  if (colon == std::string::npos) return std::nullopt;
  return basic_credentials{decoded->substr(0, colon), decoded->substr(colon + 1)};
}

bool credentials_match(const basic_auth_rule& rule, const basic_credentials& c) {
  return rule.users.check(c.user, c.password);
}

auth_decision check_basic_auth(const basic_auth_rule& rule, std::string_view path, const request_view& r) {
  auth_decision d;
  d.required = requires_auth(rule, path);
  if (!d.required) return d;
  const auto c = parse_basic_credentials(r);
  if (!c || !credentials_match(rule, *c)) return d;
  d.granted = true;
  d.user = c->user;
  return d;
}

}  // namespace netlib::http
