// HTTP-date formatting and parsing (RFC 9110 §5.6.7) on the proleptic Gregorian calendar in UTC.
#include "netlib/http/http_date.hpp"

#include <fmt/format.h>

#include <array>
#include <chrono>
#include <cstdio>

namespace netlib::http {
namespace {

constexpr std::array<const char*, 7> day_names{"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
constexpr std::array<const char*, 12> month_names{"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                  "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

struct civil {
  int year, month, day, hour, minute, second, weekday;
};

civil to_civil(std::int64_t t) {
  using namespace std::chrono;
  const sys_seconds s{seconds{t}};
  const auto days = floor<std::chrono::days>(s);
  const year_month_day ymd{days};
  const hh_mm_ss hms{s - days};
  return {int(ymd.year()), int(unsigned(ymd.month())), int(unsigned(ymd.day())), int(hms.hours().count()),
          int(hms.minutes().count()), int(hms.seconds().count()), int(weekday{days}.c_encoding())};
}

int month_index(const char* m) {
  for (int i = 0; i < 12; ++i)
    if (std::string_view(m) == month_names[static_cast<std::size_t>(i)]) return i + 1;
  return 0;
}

std::optional<std::int64_t> from_civil(int y, int mo, int d, int h, int mi, int s) {
  using namespace std::chrono;
  if (mo < 1 || h > 23 || mi > 59 || s > 60) return std::nullopt;
  const year_month_day ymd{year{y}, month{static_cast<unsigned>(mo)}, day{static_cast<unsigned>(d)}};
  if (!ymd.ok()) return std::nullopt;
  return sys_days{ymd}.time_since_epoch().count() * 86400LL + h * 3600 + mi * 60 + s;
}

}  // namespace

std::string format_http_date(std::int64_t t) {
  const civil c = to_civil(t);
  return fmt::format("{}, {:02d} {} {:04d} {:02d}:{:02d}:{:02d} GMT", day_names[static_cast<std::size_t>(c.weekday)],
                     c.day, month_names[static_cast<std::size_t>(c.month - 1)], c.year, c.hour, c.minute, c.second);
}

std::string format_clf_date(std::int64_t t) {
  const civil c = to_civil(t);
  return fmt::format("{:02d}/{}/{:04d}:{:02d}:{:02d}:{:02d} +0000", c.day,
                     month_names[static_cast<std::size_t>(c.month - 1)], c.year, c.hour, c.minute, c.second);
}

std::optional<std::int64_t> parse_http_date(std::string_view text) {
  if (text.size() > 64) return std::nullopt;
  const std::string s(text);
  char wd[16] = {}, mon[4] = {}, tz[4] = {};
  int d = 0, y = 0, h = 0, mi = 0, sec = 0, n = 0;
  // IMF-fixdate: "Sun, 06 Nov 1994 08:49:37 GMT"
  if (std::sscanf(s.c_str(), "%3[A-Za-z], %2d %3s %4d %2d:%2d:%2d %3s%n", wd, &d, mon, &y, &h, &mi, &sec, tz, &n) == 8 &&
      static_cast<std::size_t>(n) == s.size() && std::string_view(tz) == "GMT")
    return from_civil(y, month_index(mon), d, h, mi, sec);
  // RFC 850: "Sunday, 06-Nov-94 08:49:37 GMT" (two-digit years: RFC 9110 §5.6.7, 50-year rule,
  // approximated as 19xx for >= 70)
  if (std::sscanf(s.c_str(), "%15[A-Za-z], %2d-%3s-%2d %2d:%2d:%2d %3s%n", wd, &d, mon, &y, &h, &mi, &sec, tz, &n) == 8 &&
      static_cast<std::size_t>(n) == s.size() && std::string_view(tz) == "GMT")
    return from_civil(y < 70 ? 2000 + y : 1900 + y, month_index(mon), d, h, mi, sec);
  // asctime: "Sun Nov  6 08:49:37 1994"
  if (std::sscanf(s.c_str(), "%3s %3s %2d %2d:%2d:%2d %4d%n", wd, mon, &d, &h, &mi, &sec, &y, &n) == 7 &&
      static_cast<std::size_t>(n) == s.size())
    return from_civil(y, month_index(mon), d, h, mi, sec);
  return std::nullopt;
}

}  // namespace netlib::http
