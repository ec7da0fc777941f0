// HTTP-date formatting and parsing (RFC 9110 §5.6.7) on the proleptic Gregorian calendar in UTC.
#include "netlib/http/http_date.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstring>

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
  return {int(ymd.year()),
          int(unsigned(ymd.month())),
          int(unsigned(ymd.day())),
          int(hms.hours().count()),
          int(hms.minutes().count()),
          int(hms.seconds().count()),
          int(weekday{days}.c_encoding())};
}

int month_index(const char* m) {
  for (int i = 0; i < 12; ++i)
    if (std::string_view(m) == month_names[static_cast<std::size_t>(i)]) return i + 1;
  return 0;
}

std::optional<std::chrono::sys_seconds> from_civil(int y, int mo, int d, int h, int mi, int s) {
  using namespace std::chrono;
  if (mo < 1 || h > 23 || mi > 59 || s > 60) return std::nullopt;
  const year_month_day ymd{year{y}, month{static_cast<unsigned>(mo)}, day{static_cast<unsigned>(d)}};
  if (!ymd.ok()) return std::nullopt;
  return sys_seconds{sys_days{ymd}} + hours{h} + minutes{mi} + seconds{s};
}

}  // namespace

namespace {
// Days since 1970-01-01 to a civil date (H. Hinnant's civil_from_days): no table, no library
// call, a few dozen instructions.
void date_civil_from_days(std::int64_t z, int& y, int& m, int& d) {
  z += 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const std::int64_t doe = z - era * 146097;
  const std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const std::int64_t mp = (5 * doy + 2) / 153;
  d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  m = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  y = static_cast<int>(yoe + era * 400 + (m <= 2 ? 1 : 0));
}

void date_put2(char* p, int v) {
  p[0] = static_cast<char>('0' + v / 10);
  p[1] = static_cast<char>('0' + v % 10);
}
}  // namespace

// Called for every response (Date, Last-Modified), so it is written out by hand: the fmt and
// <chrono> version cost about 4000 instructions a call.
std::string_view format_http_date(std::chrono::sys_seconds when, http_date_buffer& buffer) {
  const std::int64_t t = when.time_since_epoch().count();
  char* const p = buffer.text;
  constexpr std::int64_t year_1 = -62135596800, year_10000 = 253402300800;
  if (t < year_1 || t >= year_10000) {  // outside IMF-fixdate's four digits: the general formatter
    const civil c = to_civil(t);
    const auto r =
        fmt::format_to_n(p, sizeof buffer.text, "{}, {:02d} {} {:04d} {:02d}:{:02d}:{:02d} GMT",
                         day_names[static_cast<std::size_t>(c.weekday)], c.day,
                         month_names[static_cast<std::size_t>(c.month - 1)], c.year, c.hour, c.minute, c.second);
    return {p, std::min(r.size, sizeof buffer.text)};
  }
  constexpr std::size_t length = 29;  // "Sun, 06 Nov 1994 08:49:37 GMT"
  // Date changes once a second and a busy file's Last-Modified repeats: the last two answers
  // are kept per thread.
  struct memo {
    std::int64_t t = 0;
    bool set = false;
    char text[length];
  };
  thread_local memo memos[2];
  thread_local unsigned next_memo = 0;
  for (const memo& kept : memos) {
    if (kept.set && kept.t == t) {
      std::memcpy(p, kept.text, length);
      return {p, length};
    }
  }
  const std::int64_t days = (t >= 0 ? t : t - 86399) / 86400;
  const std::int64_t secs = t - days * 86400;
  int y = 0, m = 0, d = 0;
  date_civil_from_days(days, y, m, d);
  const int weekday = static_cast<int>(((days % 7) + 11) % 7);  // 1970-01-01 was a Thursday (4)
  std::memcpy(p, "Sun, 00 Jan 0000 00:00:00 GMT", length);
  std::memcpy(p, day_names[static_cast<std::size_t>(weekday)], 3);
  date_put2(p + 5, d);
  std::memcpy(p + 8, month_names[static_cast<std::size_t>(m - 1)], 3);
  date_put2(p + 12, y / 100);
  date_put2(p + 14, y % 100);
  date_put2(p + 17, static_cast<int>(secs / 3600));
  date_put2(p + 20, static_cast<int>(secs / 60 % 60));
  date_put2(p + 23, static_cast<int>(secs % 60));
  memo& slot = memos[next_memo++ % 2];
  slot.t = t;
  slot.set = true;
  std::memcpy(slot.text, p, length);
  return {p, length};
}

std::string format_http_date(std::chrono::sys_seconds t) {
  http_date_buffer buffer;
  return std::string(format_http_date(t, buffer));
}

std::string format_clf_date(std::chrono::sys_seconds t) {
  const civil c = to_civil(t.time_since_epoch().count());
  return fmt::format("{:02d}/{}/{:04d}:{:02d}:{:02d}:{:02d} +0000", c.day,
                     month_names[static_cast<std::size_t>(c.month - 1)], c.year, c.hour, c.minute, c.second);
}

std::optional<std::chrono::sys_seconds> parse_http_date(std::string_view text) {
  if (text.size() > 64) return std::nullopt;
  char copy[65];  // sscanf needs a terminated string; on the stack, since requests carry dates
  std::memcpy(copy, text.data(), text.size());
  copy[text.size()] = '\0';
  const std::string_view s(copy, text.size());
  char wd[16] = {}, mon[4] = {}, tz[4] = {};
  int d = 0, y = 0, h = 0, mi = 0, sec = 0, n = 0;
  // IMF-fixdate: "Sun, 06 Nov 1994 08:49:37 GMT"
  if (std::sscanf(copy, "%3[A-Za-z], %2d %3s %4d %2d:%2d:%2d %3s%n", wd, &d, mon, &y, &h, &mi, &sec, tz, &n) == 8 &&
      static_cast<std::size_t>(n) == s.size() && std::string_view(tz) == "GMT")
    return from_civil(y, month_index(mon), d, h, mi, sec);
  // RFC 850: "Sunday, 06-Nov-94 08:49:37 GMT" (two-digit years: RFC 9110 §5.6.7, 50-year rule,
  // approximated as 19xx for >= 70)
  if (std::sscanf(copy, "%15[A-Za-z], %2d-%3s-%2d %2d:%2d:%2d %3s%n", wd, &d, mon, &y, &h, &mi, &sec, tz, &n) == 8 &&
      static_cast<std::size_t>(n) == s.size() && std::string_view(tz) == "GMT")
    return from_civil(y < 70 ? 2000 + y : 1900 + y, month_index(mon), d, h, mi, sec);
  // asctime: "Sun Nov  6 08:49:37 1994"
  if (std::sscanf(copy, "%3s %3s %2d %2d:%2d:%2d %4d%n", wd, mon, &d, &h, &mi, &sec, &y, &n) == 7 &&
      static_cast<std::size_t>(n) == s.size())
    return from_civil(y, month_index(mon), d, h, mi, sec);
  return std::nullopt;
}

}  // namespace netlib::http
