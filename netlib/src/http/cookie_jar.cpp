// Theory of operation (RFC 6265): set_from_header parses name=value and attributes (§5.2), then
// applies the storage model (§5.3): Domain must domain-match the request host (else refused;
// absent -> host-only), Path defaults to the request's directory, Max-Age wins over Expires, an
// expiry in the past deletes; a cookie replaces the one with the same name, domain and path.
// cookie_header picks cookies whose domain, path, Secure and expiry match (§5.4), longer paths
// first.
#include "netlib/http/cookie_jar.hpp"

#include <algorithm>
#include <cstdint>
#include <sstream>

#include <fmt/format.h>

#include "netlib/http/fields.hpp"
#include "netlib/http/http_date.hpp"

namespace netlib::http {
namespace {

bool is_ip_literal(std::string_view host) {
  return host.find(':') != std::string_view::npos ||
         std::all_of(host.begin(), host.end(), [](char c) { return (c >= '0' && c <= '9') || c == '.'; });
}

void apply_attribute(cookie& c, std::string_view name, std::string_view value, std::chrono::sys_seconds now,
                     std::optional<std::chrono::sys_seconds>& max_age,
                     std::optional<std::chrono::sys_seconds>& expires) {
  if (iequals(name, "Max-Age")) {  // §5.2.2
    if (value.empty() || !(value.front() == '-' || (value.front() >= '0' && value.front() <= '9'))) return;
    try {
      const long long v = std::stoll(std::string(value));
      max_age = v <= 0 ? std::chrono::sys_seconds{} : now + std::chrono::seconds{v};
    } catch (...) {
      max_age = now + std::chrono::seconds{INT64_C(1) << 40};
    }
  } else if (iequals(name, "Expires")) {  // §5.2.1
    if (auto t = parse_http_date(value)) expires = *t;
  } else if (iequals(name, "Domain")) {  // §5.2.3
    std::string_view d = value;
    if (!d.empty() && d.front() == '.') d.remove_prefix(1);
    if (!d.empty()) {
      c.domain = to_lower(d);
      c.host_only = false;
    }
  } else if (iequals(name, "Path")) {  // §5.2.4
    if (!value.empty() && value.front() == '/') c.path = value;
  } else if (iequals(name, "Secure")) {
    c.secure = true;
  } else if (iequals(name, "HttpOnly")) {
    c.http_only = true;
  }
  (void)c;
}

}  // namespace

bool domain_match(std::string_view host, std::string_view domain) {
  if (host == domain) return true;
  return !is_ip_literal(host) && host.size() > domain.size() && host.substr(host.size() - domain.size()) == domain &&
         host[host.size() - domain.size() - 1] == '.';
}

bool path_match(std::string_view rp, std::string_view cp) {
  if (rp == cp) return true;
  if (rp.substr(0, cp.size()) != cp) return false;
  return cp.back() == '/' || (rp.size() > cp.size() && rp[cp.size()] == '/');
}

std::string default_path(std::string_view rp) {
  if (rp.empty() || rp.front() != '/') return "/";
  const std::size_t last = rp.rfind('/');
  return last == 0 ? "/" : std::string(rp.substr(0, last));
}

bool cookie_jar::set_from_header(const url& u, std::string_view header, std::chrono::sys_seconds now) {
  const std::size_t semi = header.find(';');
  const std::string_view pair = header.substr(0, semi);
  const std::size_t eq = pair.find('=');
  if (eq == std::string_view::npos) return false;  // §5.2 step 2
  cookie c;
  c.name = trim_ows(pair.substr(0, eq));
  c.value = trim_ows(pair.substr(eq + 1));
  if (c.name.empty()) return false;
  c.domain = u.host;
  c.path = default_path(u.path());
  std::optional<std::chrono::sys_seconds> max_age, expires;
  std::string_view attrs = semi == std::string_view::npos ? std::string_view{} : header.substr(semi + 1);
  while (!attrs.empty()) {
    const std::size_t next = attrs.find(';');
    const std::string_view av = attrs.substr(0, next);
    const std::size_t aeq = av.find('=');
    apply_attribute(c, trim_ows(av.substr(0, aeq)), aeq == std::string_view::npos ? "" : trim_ows(av.substr(aeq + 1)),
                    now, max_age, expires);
    attrs = next == std::string_view::npos ? std::string_view{} : attrs.substr(next + 1);
  }
  if (!c.host_only) {  // §5.3 step 6
    if (!domain_match(u.host, c.domain)) return false;
    if (c.domain.find('.') == std::string::npos && c.domain != u.host) return false;  // "com": public suffix
  }
  if (c.secure && !u.secure()) return false;  // RFC 6265bis: only a secure origin sets Secure
  c.expires = max_age ? max_age : expires;
  std::erase_if(cookies_,
                [&](const cookie& o) { return o.name == c.name && o.domain == c.domain && o.path == c.path; });
  if (c.expires && *c.expires <= now) return true;  // an expiry in the past deletes (§5.3 step 11)
  cookies_.push_back(std::move(c));
  return true;
}

std::string cookie_jar::cookie_header(const url& u, std::chrono::sys_seconds now) const {
  std::vector<const cookie*> chosen;
  for (const auto& c : cookies_) {
    if (c.expires && *c.expires <= now) continue;
    if (c.host_only ? u.host != c.domain : !domain_match(u.host, c.domain)) continue;
    if (!path_match(u.path(), c.path)) continue;
    if (c.secure && !u.secure()) continue;
    chosen.push_back(&c);
  }
  std::stable_sort(chosen.begin(), chosen.end(), [](auto* a, auto* b) { return a->path.size() > b->path.size(); });
  std::string out;
  for (auto* c : chosen) out += (out.empty() ? "" : "; ") + c->name + "=" + c->value;
  return out;
}

void cookie_jar::remove_expired(std::chrono::sys_seconds now) {
  std::erase_if(cookies_, [&](const cookie& c) { return c.expires && *c.expires <= now; });
}

std::string cookie_jar::save(bool include_session) const {
  std::string out = "# Netscape HTTP Cookie File\n# written by lab-http\n";
  for (const auto& c : cookies_) {
    if (!c.expires && !include_session) continue;
    out += fmt::format("{}{}\t{}\t{}\t{}\t{}\t{}\t{}\n", c.http_only ? "#HttpOnly_" : "",
                       c.host_only ? c.domain : "." + c.domain, c.host_only ? "FALSE" : "TRUE", c.path,
                       c.secure ? "TRUE" : "FALSE", c.expires ? c.expires->time_since_epoch().count() : 0, c.name,
                       c.value);
  }
  return out;
}

void cookie_jar::load(std::string_view text) {
  std::istringstream in{std::string(text)};
  std::string line;
  while (std::getline(in, line)) {
    cookie c;
    if (line.rfind("#HttpOnly_", 0) == 0) {
      c.http_only = true;
      line.erase(0, 10);
    } else if (line.empty() || line.front() == '#') {
      continue;
    }
    std::vector<std::string> f;
    std::istringstream ls(line);
    for (std::string part; std::getline(ls, part, '\t');) f.push_back(part);
    if (f.size() != 7) continue;
    c.host_only = f[1] != "TRUE";
    c.domain = to_lower(f[0].front() == '.' ? f[0].substr(1) : f[0]);
    c.path = f[2];
    c.secure = f[3] == "TRUE";
    const long long exp = std::atoll(f[4].c_str());
    if (exp != 0) c.expires = std::chrono::sys_seconds{std::chrono::seconds{exp}};
    c.name = f[5];
    c.value = f[6];
    cookies_.push_back(std::move(c));
  }
}

}  // namespace netlib::http
