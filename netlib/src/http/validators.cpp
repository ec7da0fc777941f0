// Entity tags and conditional GET (RFC 9110 §8.8.3, §13.1.1, §13.1.3, §13.1.5, §13.2.2).
#include "netlib/http/validators.hpp"

#include <fmt/format.h>

#include "netlib/http/http_date.hpp"

namespace netlib::http {
namespace {

std::string_view opaque(std::string_view tag) {
  tag = trim_ows(tag);
  if (tag.size() >= 2 && tag.substr(0, 2) == "W/") tag.remove_prefix(2);
  return tag;
}

}  // namespace

// "\"<size hex>-<mtime hex>\"" (a negative time gets a '-' before its digits, as fmt's {:x} did).
// Built by hand: it is made for every file response.
std::string make_etag(std::uint64_t size, std::chrono::sys_seconds mtime) {
  etag_buffer buffer;
  return std::string(make_etag(size, mtime, buffer));
}

std::string_view make_etag(std::uint64_t size, std::chrono::sys_seconds mtime, etag_buffer& buffer) {
  const std::int64_t mtime_s = mtime.time_since_epoch().count();
  char* const text = buffer.text;
  char* p = text;
  const auto put_hex = [&p](std::uint64_t v) {
    char digits[16];
    int n = 0;
    do {
      digits[n++] = "0123456789abcdef"[v & 15];
      v >>= 4;
    } while (v != 0);
    while (n > 0) *p++ = digits[--n];
  };
  *p++ = '"';
  put_hex(size);
  *p++ = '-';
  if (mtime_s < 0) *p++ = '-';
  put_hex(mtime_s < 0 ? 0 - static_cast<std::uint64_t>(mtime_s) : static_cast<std::uint64_t>(mtime_s));
  *p++ = '"';
  return {text, static_cast<std::size_t>(p - text)};
}

bool if_none_match_matches(std::string_view value, std::string_view etag) {
  if (trim_ows(value) == "*") return true;
  for (list_items items(value); auto item = items.next();)
    if (opaque(*item) == opaque(etag)) return true;  // weak comparison, §8.8.3.2
  return false;
}

bool not_modified(const request_view& r, std::string_view etag, std::chrono::sys_seconds mtime) {
  if (r.method != "GET" && r.method != "HEAD") return false;
  bool has_inm = false;  // step 3; several lines are one list (RFC 9110 §5.3)
  for (const auto& f : r.fields.lines()) {
    if (!iequals(f.name, "If-None-Match")) continue;
    has_inm = true;
    if (if_none_match_matches(f.value, etag)) return true;
  }
  if (has_inm) return false;
  if (const auto ims = r.fields.get("If-Modified-Since")) {  // step 4
    const auto t = parse_http_date(*ims);
    return t && mtime <= *t;  // an invalid date is ignored
  }
  return false;
}

bool if_range_allows(const request_view& r, std::string_view etag, std::chrono::sys_seconds mtime) {
  const auto v = r.fields.get("If-Range");
  if (!v) return true;
  const std::string_view value = trim_ows(*v);
  if (!value.empty() && value.front() == '"') return value == etag;  // strong comparison only
  const auto t = parse_http_date(value);
  return t && *t == mtime;
}

}  // namespace netlib::http
