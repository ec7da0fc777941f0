// Request target -> normalized path under the root (RFC 3986 §2.1 decoding, §5.2.4 dot segments).
// Decoding happens once, before normalization, so "%2e%2e" is "..", and an encoded "/" or "\" is
// refused instead of being allowed to form new segments.
#include "netlib/http/target_path.hpp"

namespace netlib::http {
namespace {

int hex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Appends the decoding of `s` to `out`; false on a malformed escape ("%", "%4", "%zz").
bool percent_decode_append(std::string_view s, std::string& out) {
  for (;;) {
    const std::size_t pct = s.find('%');
    out.append(s.substr(0, pct));
    if (pct == std::string_view::npos) return true;
    if (pct + 2 >= s.size()) return false;  // "%" or "%4" at the end
    const int hi = hex(s[pct + 1]);
    const int lo = hex(s[pct + 2]);
    if (hi < 0 || lo < 0) return false;
    out += static_cast<char>(hi * 16 + lo);
    s.remove_prefix(pct + 3);
  }
}

}  // namespace

std::optional<std::string> percent_decode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  if (!percent_decode_append(s, out)) return std::nullopt;
  return out;
}

// Each segment is decoded straight onto the end of the path, then kept, dropped ("", ".") or
// dropped with the segment before it (".."), so the path is built in one string.
std::optional<target_error> decode_target(std::string_view target, target_path& out) {
  std::string_view t = target;
  if (t.empty() || t.front() != '/') {
    const std::size_t scheme = t.find("://");
    if (scheme == std::string_view::npos) return target_error::malformed;  // only origin-form and absolute-form
    t.remove_prefix(scheme + 3);
    const std::size_t slash = t.find('/');
    t = slash == std::string_view::npos ? std::string_view("/") : t.substr(slash);
  }
  out.query.clear();
  out.trailing_slash = false;
  if (const std::size_t q = t.find('?'); q != std::string_view::npos) {
    out.query = t.substr(q + 1);
    t = t.substr(0, q);
  }
  if (const std::size_t h = t.find('#'); h != std::string_view::npos) t = t.substr(0, h);
  std::string& path = out.path;
  path.clear();
  path.reserve(t.size());
  std::size_t pos = 1;  // t starts with '/'
  while (pos <= t.size()) {
    const std::size_t slash = t.find('/', pos);
    const std::string_view raw = t.substr(pos, slash == std::string_view::npos ? std::string_view::npos : slash - pos);
    const std::size_t before = path.size();  // the path without this segment
    if (before > 0) path += '/';
    const std::size_t start = path.size();
    if (!percent_decode_append(raw, path)) return target_error::malformed;
    const std::string_view seg = std::string_view(path).substr(start);
    for (const char c : seg)
      if (c == '/' || c == '\\' || c == '\0') return target_error::malformed;
    const bool dot = seg == ".", dotdot = seg == "..";
    if (dotdot) {
      if (before == 0) return target_error::escapes_root;
      const std::size_t cut = path.rfind('/', before - 1);
      path.resize(cut == std::string::npos ? 0 : cut);
    } else if (seg.empty() || dot) {
      path.resize(before);
    }
    if (slash == std::string_view::npos) {
      out.trailing_slash = raw.empty() || dot || dotdot;
      break;
    }
    pos = slash + 1;
  }
  return std::nullopt;
}

target_result decode_target(std::string_view target) {
  target_result r;
  target_path out;
  if (const auto e = decode_target(target, out)) {
    r.error = *e;
    return r;
  }
  r.value = std::move(out);
  return r;
}

std::string percent_encode_path(std::string_view path) {
  constexpr std::string_view kept = "-._~!$&'()*+,;=:@/";  // unreserved, sub-delims, ':' '@' (pchar), '/'
  constexpr char hex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(path.size());
  for (const char ch : path) {
    const auto c = static_cast<unsigned char>(ch);
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (alnum || kept.find(ch) != std::string_view::npos) {
      out.push_back(ch);
    } else {
      out.push_back('%');
      out.push_back(hex[c >> 4]);
      out.push_back(hex[c & 15]);
    }
  }
  return out;
}

}  // namespace netlib::http
