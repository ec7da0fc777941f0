// RFC 9111 for a shared (proxy) cache. Each function cites the section it follows.
#include "netlib/http/cache_policy.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "netlib/http/http_date.hpp"
#include "netlib/http/status.hpp"

namespace netlib::http {
namespace {

std::optional<std::string_view> directive(const fields& f, std::string_view name, std::vector<std::string>& storage) {
  const auto cc = f.combined("Cache-Control");
  if (!cc) return std::nullopt;
  storage.emplace_back(*cc);
  for (auto item : split_list(storage.back())) {
    const std::size_t eq = item.find('=');
    if (iequals(trim_ows(item.substr(0, eq)), name))
      return eq == std::string_view::npos ? std::string_view{} : trim_ows(item.substr(eq + 1));
  }
  return std::nullopt;
}

std::optional<std::chrono::sys_seconds> date_of(const fields& f, std::string_view name) {
  const auto v = f.get(name);
  return v ? parse_http_date(*v) : std::nullopt;
}

}  // namespace

std::optional<std::chrono::seconds> cache_directive_seconds(const fields& f, std::string_view name) {
  std::vector<std::string> storage;
  auto v = directive(f, name, storage);
  if (!v || v->empty()) return std::nullopt;
  std::string_view s = *v;
  if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = s.substr(1, s.size() - 2);
  if (s.empty() || s.size() > 10 || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  return std::chrono::seconds(std::stoll(std::string(s)));  // §1.2.2: delta-seconds
}

bool has_cache_directive(const fields& f, std::string_view name) {
  std::vector<std::string> storage;
  return directive(f, name, storage).has_value();
}

bool storable(const request_head& req, const response_head& resp) {
  if (req.method != "GET") return false;  // §3 (only GET here)
  if (resp.status == 206 || resp.status == 304 || is_interim(resp.status)) return false;
  if (has_cache_directive(req.fields, "no-store") || has_cache_directive(resp.fields, "no-store")) return false;
  if (has_cache_directive(resp.fields, "private")) return false;  // §5.2.2.7 shared cache
  if (resp.fields.contains("Set-Cookie")) return false;           // §7.3, as nginx
  if (req.fields.contains("Authorization") && !has_cache_directive(resp.fields, "public") &&
      !has_cache_directive(resp.fields, "s-maxage") && !has_cache_directive(resp.fields, "must-revalidate"))
    return false;                                                                              // §3.5
  static constexpr int heuristic[] = {200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501};  // §4.2.2
  const bool explicit_fresh = resp.fields.contains("Expires") || has_cache_directive(resp.fields, "max-age") ||
                              has_cache_directive(resp.fields, "s-maxage") ||
                              has_cache_directive(resp.fields, "public");
  return explicit_fresh || std::find(std::begin(heuristic), std::end(heuristic), resp.status) != std::end(heuristic);
}

std::chrono::seconds freshness_lifetime(const response_head& r) {
  using std::chrono::seconds;
  if (auto s = cache_directive_seconds(r.fields, "s-maxage")) return *s;  // §4.2.1, shared caches
  if (auto m = cache_directive_seconds(r.fields, "max-age")) return *m;
  const auto date = date_of(r.fields, "Date");
  if (r.fields.contains("Expires")) {
    const auto expires = date_of(r.fields, "Expires");  // an invalid Expires means "already expired"
    return expires && date ? std::max(seconds{0}, *expires - *date) : seconds{0};
  }
  const auto lm = date_of(r.fields, "Last-Modified");  // §4.2.2 heuristic
  if (lm && date && *date > *lm) return std::min(seconds{(*date - *lm) / 10}, seconds{86400});
  return seconds{0};
}

std::chrono::seconds current_age(const response_head& r, std::chrono::sys_seconds request_time,
                                 std::chrono::sys_seconds response_time, std::chrono::sys_seconds now) {
  using std::chrono::seconds;
  seconds age_value{0};  // the Age field, delta-seconds (§5.1)
  if (const auto a = r.fields.get("Age");
      a && !a->empty() && a->size() < 10 &&
      std::all_of(a->begin(), a->end(), [](char c) { return c >= '0' && c <= '9'; }))
    age_value = seconds{std::stoll(std::string(*a))};
  const auto date = date_of(r.fields, "Date").value_or(response_time);
  const seconds apparent_age = std::max(seconds{0}, response_time - date);
  const seconds corrected_age_value = age_value + (response_time - request_time);
  return std::max(apparent_age, corrected_age_value) + (now - response_time);  // §4.2.3
}

bool can_serve_fresh(const request_head& req, const response_head& stored, std::chrono::seconds age) {
  if (has_cache_directive(stored.fields, "no-cache")) return false;  // §5.2.2.4
  if (has_cache_directive(req.fields, "no-cache") || req.fields.has_token("Pragma", "no-cache"))
    return false;  // §5.2.1.4
  if (auto max_age = cache_directive_seconds(req.fields, "max-age"); max_age && age > *max_age)
    return false;  // §5.2.1.1
  return age < freshness_lifetime(stored);
}

namespace {

// A field's value for comparison under Vary: the list members trimmed, joined by ", ".
std::optional<std::string> normalized(const fields& f, std::string_view name) {
  const auto v = f.combined(name);
  if (!v) return std::nullopt;
  std::string out;
  for (auto item : split_list(*v)) {
    if (!out.empty()) out += ", ";
    out += item;
  }
  return out;
}

}  // namespace

fields selecting_fields(const response_head& resp, const request_head& req) {
  fields out;
  const auto vary = resp.fields.combined("Vary");
  if (!vary) return out;
  for (auto name : split_list(*vary)) {
    if (name == "*" || out.contains(name)) continue;
    if (const auto v = normalized(req.fields, name)) out.add(name, *v);
  }
  return out;
}

bool vary_matches(const response_head& stored, const fields& selecting, const request_head& req) {
  const auto vary = stored.fields.combined("Vary");
  if (!vary) return true;
  for (auto name : split_list(*vary)) {
    if (name == "*") return false;
    const auto then = selecting.get(name);
    const auto now = normalized(req.fields, name);
    if (then.has_value() != now.has_value() || (then && *then != *now)) return false;
  }
  return true;
}

void remove_hop_by_hop(fields& f) {
  std::vector<std::string> named;
  for (const auto& line : f.lines())
    if (iequals(line.name, "Connection"))
      for (auto token : split_list(line.value)) named.emplace_back(token);
  for (const auto& n : named) f.remove(n);
  for (auto name : {"Connection", "Keep-Alive", "Proxy-Connection", "TE", "Transfer-Encoding", "Upgrade", "Trailer",
                    "Proxy-Authenticate", "Proxy-Authorization"})
    f.remove(name);
}

}  // namespace netlib::http
