// URL parsing and reference resolution (RFC 3986 §3, §5.2.2 with §5.2.4 dot-segment removal).
#include "netlib/http/url.hpp"

#include <fmt/format.h>

#include <vector>

#include "netlib/http/fields.hpp"

namespace netlib::http {
namespace {

std::optional<unsigned short> parse_port(std::string_view s) {
  if (s.empty() || s.size() > 5) return std::nullopt;
  unsigned v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + static_cast<unsigned>(c - '0');
  }
  if (v == 0 || v > 65535) return std::nullopt;
  return static_cast<unsigned short>(v);
}

// RFC 3986 §5.2.4 on a path that starts with '/'.
std::string remove_dot_segments(std::string_view path) {
  std::vector<std::string_view> out;
  std::size_t pos = 1;
  bool trailing = false;
  while (pos <= path.size()) {
    const std::size_t slash = path.find('/', pos);
    const std::string_view seg =
        path.substr(pos, slash == std::string_view::npos ? std::string_view::npos : slash - pos);
    trailing = false;
    if (seg == "..") {
      if (!out.empty()) out.pop_back();
      trailing = true;
    } else if (seg == ".") {
      trailing = true;
    } else {
      out.push_back(seg);
    }
    if (slash == std::string_view::npos) break;
    pos = slash + 1;
  }
  std::string r;
  for (auto s : out) {
    r += '/';
    r += s;
  }
  if (r.empty() || trailing) r += "/";
  return r;
}

}  // namespace

std::string url::authority() const {
  const bool v6 = host.find(':') != std::string::npos;
  std::string a = v6 ? fmt::format("[{}]", host) : host;
  if (port != (secure() ? 443 : 80)) a += fmt::format(":{}", port);
  return a;
}

std::string url::to_string() const {
  return scheme + "://" + authority() + target;
}

std::string url::path() const {
  return target.substr(0, target.find('?'));
}

std::optional<url> parse_url(std::string_view text) {
  url u;
  const std::size_t colon = text.find("://");
  if (colon == std::string_view::npos) return std::nullopt;
  u.scheme = to_lower(text.substr(0, colon));
  if (u.scheme != "http" && u.scheme != "https") return std::nullopt;
  u.port = u.secure() ? 443 : 80;
  text.remove_prefix(colon + 3);
  const std::size_t end = text.find_first_of("/?#");
  std::string_view authority = text.substr(0, end);
  std::string_view rest = end == std::string_view::npos ? std::string_view{} : text.substr(end);
  if (authority.find('@') != std::string_view::npos) return std::nullopt;  // no userinfo
  if (!authority.empty() && authority.front() == '[') {
    const std::size_t close = authority.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    u.host = to_lower(authority.substr(1, close - 1));
    authority.remove_prefix(close + 1);
    if (!authority.empty() && authority.front() != ':') return std::nullopt;
  } else {
    const std::size_t pc = authority.rfind(':');
    u.host = to_lower(authority.substr(0, pc));
    authority = pc == std::string_view::npos ? std::string_view{} : authority.substr(pc);
  }
  if (!authority.empty()) {
    const auto p = parse_port(authority.substr(1));
    if (!p) return std::nullopt;
    u.port = *p;
  }
  if (u.host.empty()) return std::nullopt;
  rest = rest.substr(0, rest.find('#'));
  u.target = rest.empty() || rest.front() == '?' ? fmt::format("/{}", rest) : std::string(rest);
  for (char c : u.target)
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f) return std::nullopt;
  return u;
}

std::optional<url> resolve_reference(const url& base, std::string_view ref) {
  ref = trim_ows(ref);
  ref = ref.substr(0, ref.find('#'));
  const std::size_t colon = ref.find(':');
  const std::size_t first_sep = ref.find_first_of("/?");
  if (colon != std::string_view::npos && (first_sep == std::string_view::npos || colon < first_sep))
    return parse_url(ref);  // has a scheme: absolute (other schemes give nullopt)
  if (ref.substr(0, 2) == "//") return parse_url(base.scheme + ":" + std::string(ref));
  url u = base;
  if (ref.empty()) return u;
  if (ref.front() == '?') {
    u.target = base.path() + std::string(ref);
    return u;
  }
  const std::size_t q = ref.find('?');
  const std::string query = q == std::string_view::npos ? "" : std::string(ref.substr(q));
  const std::string_view rpath = ref.substr(0, q);
  std::string merged;
  if (!rpath.empty() && rpath.front() == '/')
    merged = std::string(rpath);
  else {
    const std::string bp = base.path();
    merged = bp.substr(0, bp.rfind('/') + 1);
    merged += rpath;
  }
  u.target = remove_dot_segments(merged) + query;
  for (char c : u.target)
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f) return std::nullopt;
  return u;
}

}  // namespace netlib::http
