// Request target -> normalized path under the root (RFC 3986 §2.1 decoding, §5.2.4 dot segments).
// Decoding happens once, before normalization, so "%2e%2e" is "..", and an encoded "/" or "\" is
// refused instead of being allowed to form new segments.
#include "netlib/http/target_path.hpp"

#include <vector>

namespace netlib::http {
namespace {

int hex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::optional<std::string> percent_decode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out += s[i];
      continue;
    }
    if (i + 2 >= s.size()) return std::nullopt;  // "%" or "%4" at the end
    const int hi = hex(s[i + 1]);
    const int lo = hex(s[i + 2]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out += static_cast<char>(hi * 16 + lo);
    i += 2;
  }
  return out;
}

target_result decode_target(std::string_view target) {
  target_result r;
  std::string_view t = target;
  if (const std::size_t scheme = t.find("://"); t.empty() || t.front() != '/') {
    if (scheme == std::string_view::npos) return r;  // only origin-form and absolute-form
    t.remove_prefix(scheme + 3);
    const std::size_t slash = t.find('/');
    t = slash == std::string_view::npos ? std::string_view("/") : t.substr(slash);
  }
  target_path out;
  if (const std::size_t q = t.find('?'); q != std::string_view::npos) {
    out.query = t.substr(q + 1);
    t = t.substr(0, q);
  }
  if (const std::size_t h = t.find('#'); h != std::string_view::npos) t = t.substr(0, h);
  std::vector<std::string> segments;
  std::size_t pos = 1;  // t starts with '/'
  while (pos <= t.size()) {
    const std::size_t slash = t.find('/', pos);
    const std::string_view raw = t.substr(pos, slash == std::string_view::npos ? std::string_view::npos : slash - pos);
    const auto seg = percent_decode(raw);
    if (!seg || seg->find_first_of(std::string_view("/\\\0", 3)) != std::string::npos) return r;
    if (*seg == "..") {
      if (segments.empty()) {
        r.error = target_error::escapes_root;
        return r;
      }
      segments.pop_back();
    } else if (!seg->empty() && *seg != ".") {
      segments.push_back(*seg);
    }
    if (slash == std::string_view::npos) {
      out.trailing_slash = raw.empty() || *seg == "." || *seg == "..";
      break;
    }
    pos = slash + 1;
  }
  for (const auto& s : segments) {
    if (!out.path.empty()) out.path += '/';
    out.path += s;
  }
  r.value = std::move(out);
  return r;
}

}  // namespace netlib::http
