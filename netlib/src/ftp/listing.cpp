// Theory of operation: pure formatting of file_info values. Civil dates come from the C++20
// calendar types, in UTC, so the output depends on the inputs only.
#include "netlib/ftp/listing.hpp"

#include <chrono>

#include <fmt/format.h>

namespace netlib::ftp {

namespace {
struct civil {
  int year;
  unsigned month, day, hour, minute, second;
};

civil to_civil(std::chrono::sys_seconds t) {
  using namespace std::chrono;
  const sys_days d = floor<days>(t);
  const year_month_day ymd{d};
  const hh_mm_ss hms{t - d};
  return {static_cast<int>(ymd.year()),
          static_cast<unsigned>(ymd.month()),
          static_cast<unsigned>(ymd.day()),
          static_cast<unsigned>(hms.hours().count()),
          static_cast<unsigned>(hms.minutes().count()),
          static_cast<unsigned>(hms.seconds().count())};
}

constexpr const char* month_names[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                       "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
}  // namespace

std::string format_time_val(std::chrono::sys_seconds t) {
  const civil c = to_civil(t);
  return fmt::format("{:04}{:02}{:02}{:02}{:02}{:02}", c.year, c.month, c.day, c.hour, c.minute, c.second);
}

std::string format_list_line(const file_info& e, std::chrono::sys_seconds now) {
  const civil c = to_civil(e.modified);
  constexpr std::chrono::seconds six_months{183LL * 24 * 3600};
  const bool recent = e.modified <= now + std::chrono::hours(1) && now - e.modified < six_months;
  const std::string when = recent ? fmt::format("{:02}:{:02}", c.hour, c.minute) : fmt::format(" {:04}", c.year);
  return fmt::format("{} 1 ftp ftp {:>12} {} {:>2} {:>5} {}\r\n", e.is_directory ? "drwxr-xr-x" : "-rw-r--r--", e.size,
                     month_names[(c.month + 11) % 12], c.day, when, e.name);
}

bool listable(const file_info& e) {
  return e.name.find_first_of("\r\n") == std::string::npos;
}

std::string format_list(const std::vector<file_info>& entries, std::chrono::sys_seconds now) {
  std::string out;
  for (const auto& e : entries)
    if (listable(e)) out += format_list_line(e, now);
  return out;
}

std::string format_nlst(const std::vector<file_info>& entries) {
  std::string out;
  for (const auto& e : entries)
    if (listable(e)) out += e.name + "\r\n";
  return out;
}

}  // namespace netlib::ftp
