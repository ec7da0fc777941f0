#pragma once
// HTTP-date (RFC 9110 §5.6.7): IMF-fixdate out; IMF-fixdate, RFC 850 and asctime formats in.
// Times are std::chrono::sys_seconds, handed in by the driver (cores never read a clock).
#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace netlib::http {

std::string format_http_date(std::chrono::sys_seconds t);  // "Sun, 06 Nov 1994 08:49:37 GMT"
// The same written into `out`, without allocating (every response's Date): a view of `out`.
struct http_date_buffer {
  char text[48];
};
std::string_view format_http_date(std::chrono::sys_seconds t, http_date_buffer& out);
std::optional<std::chrono::sys_seconds> parse_http_date(std::string_view text);
std::string format_clf_date(std::chrono::sys_seconds t);  // "06/Nov/1994:08:49:37 +0000"

}  // namespace netlib::http
