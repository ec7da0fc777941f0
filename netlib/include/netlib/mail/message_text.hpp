#pragma once
// Message text helpers shared by SMTP and POP3: CRLF line ends, dot-stuffing (RFC 5321 §4.5.2,
// RFC 1939 §3), RFC 5322 dates.
#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

namespace netlib::mail {

// Converts bare LF and bare CR line ends to CRLF; the result ends with CRLF unless empty.
std::string to_crlf(std::string_view text);
// Size of to_crlf(text), without building it.
std::size_t crlf_size(std::string_view text) noexcept;
// Doubles a leading '.' on every line of CRLF text (which must end in CRLF or be empty).
std::string dot_stuff(std::string_view crlf_text);
// RFC 5322 §3.3 date-time in UTC: "Mon, 30 Nov 2026 08:55:04 +0000".
std::string rfc5322_date(std::chrono::sys_seconds t);

}  // namespace netlib::mail
