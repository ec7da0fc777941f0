// RFC 1738 §3.2: ftp://<user>:<password>@<host>:<port>/<cwd1>/.../<name>. The path is sent as one
// argument relative to the login directory (the server resolves it), percent-decoded.
#include "ftp_url.hpp"

#include <charconv>

#include <fmt/format.h>

#include "netlib/app/program.hpp"

namespace lab_ftp {

namespace {
std::string decode(std::string_view s, const std::string& url) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out += s[i];
      continue;
    }
    unsigned v = 0;
    if (i + 2 >= s.size() + 0 || std::from_chars(s.data() + i + 1, s.data() + i + 3, v, 16).ptr != s.data() + i + 3) {
      throw netlib::app::usage_error(fmt::format("{}: bad %-escape", url));
    }
    if (v == 0 || v == '\r' || v == '\n')
      throw netlib::app::usage_error(fmt::format("{}: %00, CR and LF are not allowed", url));
    out += static_cast<char>(v);
    i += 2;
  }
  return out;
}
}  // namespace

ftp_url parse_ftp_url(const std::string& text) {
  constexpr std::string_view scheme = "ftp://";
  if (text.compare(0, scheme.size(), scheme) != 0) {
    throw netlib::app::usage_error(fmt::format("{}: expected ftp://[user[:password]@]host[:port]/path", text));
  }
  ftp_url u;
  std::string_view rest = std::string_view(text).substr(scheme.size());
  const std::size_t slash = rest.find('/');
  std::string_view authority = rest.substr(0, slash);
  const std::string_view path = slash == std::string_view::npos ? std::string_view{} : rest.substr(slash + 1);
  if (const std::size_t at = authority.rfind('@'); at != std::string_view::npos) {
    const std::string_view creds = authority.substr(0, at);
    authority.remove_prefix(at + 1);
    const std::size_t colon = creds.find(':');
    u.user = decode(creds.substr(0, colon), text);
    if (colon != std::string_view::npos) u.password = decode(creds.substr(colon + 1), text);
  }
  std::string_view host = authority;
  if (!host.empty() && host.front() == '[') {  // [IPv6]:port
    const std::size_t close = host.find(']');
    if (close == std::string_view::npos) throw netlib::app::usage_error(fmt::format("{}: unclosed [", text));
    u.host = std::string(host.substr(1, close - 1));
    host.remove_prefix(close + 1);
    if (!host.empty() && host.front() != ':') throw netlib::app::usage_error(fmt::format("{}: bad host", text));
    host = host.empty() ? host : host.substr(0);
  } else {
    const std::size_t colon = host.rfind(':');
    u.host = std::string(host.substr(0, colon));
    host = colon == std::string_view::npos ? std::string_view{} : host.substr(colon);
  }
  if (!host.empty()) {
    unsigned p = 0;
    const auto digits = host.substr(1);
    auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), p);
    if (ec != std::errc{} || ptr != digits.data() + digits.size() || p == 0 || p > 65535) {
      throw netlib::app::usage_error(fmt::format("{}: bad port", text));
    }
    u.port = static_cast<unsigned short>(p);
  }
  if (u.host.empty()) throw netlib::app::usage_error(fmt::format("{}: no host", text));
  u.directory = path.empty() || path.back() == '/';
  u.path = decode(path, text);
  return u;
}

}  // namespace lab_ftp
