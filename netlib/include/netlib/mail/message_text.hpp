#pragma once
// Message text helpers shared by SMTP and POP3: CRLF line ends on the wire, LF line ends in a
// Maildir, dot-stuffing (RFC 5321 §4.5.2, RFC 1939 §3), the trace fields of final delivery
// (RFC 5321 §4.4), RFC 5322 dates.
#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

namespace netlib::mail {

// Converts bare LF and bare CR line ends to CRLF; the result ends with CRLF unless empty.
std::string to_crlf(std::string_view text);
// Size of to_crlf(text), without building it.
std::size_t crlf_size(std::string_view text) noexcept;
// Converts CRLF line ends to LF (the Maildir convention of qmail, Dovecot and mutt); bare CR and
// bare LF stay as they are. to_crlf(to_lf(t)) == t for CRLF text without a bare CR.
std::string to_lf(std::string_view crlf_text);
// The copy of `message` kept at final delivery (RFC 5321 §4.4): a Return-Path field with the
// envelope sender (`<>` for the null path) and a Delivered-To field naming the local mailbox's
// address (the convention of qmail, Postfix and Dovecot), then the message. CRLF line ends.
std::string final_delivery_copy(std::string_view sender, std::string_view recipient, std::string_view message);
// Doubles a leading '.' on every line of CRLF text (which must end in CRLF or be empty).
std::string dot_stuff(std::string_view crlf_text);
// RFC 5322 §3.3 date-time in UTC: "Mon, 30 Nov 2026 08:55:04 +0000".
std::string rfc5322_date(std::chrono::sys_seconds t);

}  // namespace netlib::mail
