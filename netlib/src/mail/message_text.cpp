// Theory of operation: line ends are found one byte at a time: CRLF stays, a LF alone or a CR
// alone becomes CRLF (to_crlf); only a CR directly before a LF is dropped (to_lf), so text that
// went through the SMTP core (which refuses bare CR and LF, RFC 5321 §2.3.8) comes back unchanged.
// Dot-stuffing works on CRLF text, so a line start is the text start or the byte after a LF.
#include "netlib/mail/message_text.hpp"

#include <fmt/format.h>

namespace netlib::mail {

std::string to_crlf(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 32 + 2);
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\r') {
      out += "\r\n";
      if (i + 1 < text.size() && text[i + 1] == '\n') ++i;
    } else if (c == '\n') {
      out += "\r\n";
    } else {
      out += c;
    }
  }
  if (!out.empty() && out.back() != '\n') out += "\r\n";
  return out;
}

std::size_t crlf_size(std::string_view text) noexcept {
  std::size_t n = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\r') {
      n += 2;
      if (i + 1 < text.size() && text[i + 1] == '\n') ++i;
    } else if (c == '\n') {
      n += 2;
    } else {
      ++n;
    }
  }
  const char last = text.empty() ? '\n' : text.back();
  if (last != '\n' && last != '\r') n += 2;
  return n;
}

std::string to_lf(std::string_view crlf_text) {
  std::string out;
  out.reserve(crlf_text.size());
  for (std::size_t i = 0; i < crlf_text.size(); ++i) {
    const char c = crlf_text[i];
    if (c == '\r' && i + 1 < crlf_text.size() && crlf_text[i + 1] == '\n') continue;
    out += c;
  }
  return out;
}

std::string final_delivery_copy(std::string_view sender, std::string_view recipient, std::string_view message) {
  std::string out = fmt::format("Return-Path: <{}>\r\nDelivered-To: {}\r\n", sender, recipient);
  out.append(message);
  return out;
}

std::string dot_stuff(std::string_view crlf_text) {
  std::string out;
  out.reserve(crlf_text.size() + 16);
  bool line_start = true;
  for (char c : crlf_text) {
    if (line_start && c == '.') out += '.';  // RFC 5321 §4.5.2, RFC 1939 §3
    out += c;
    line_start = c == '\n';
  }
  return out;
}

std::string rfc5322_date(std::chrono::sys_seconds t) {
  using namespace std::chrono;
  static constexpr const char* days[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static constexpr const char* months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                           "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  const sys_days day = floor<std::chrono::days>(t);
  const year_month_day ymd(day);
  const hh_mm_ss hms(t - day);
  const weekday wd(day);
  return fmt::format("{}, {:02} {} {:04} {:02}:{:02}:{:02} +0000", days[wd.c_encoding()],
                     static_cast<unsigned>(ymd.day()), months[static_cast<unsigned>(ymd.month()) - 1],
                     static_cast<int>(ymd.year()), hms.hours().count(), hms.minutes().count(), hms.seconds().count());
}

}  // namespace netlib::mail
