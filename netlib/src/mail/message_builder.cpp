// Theory of operation: header fields first (RFC 5322 §3.6), then either the body alone or a
// multipart/mixed body (RFC 2046 §5.1) whose first part is the text and whose other parts are the
// attachments in base64, wrapped at 76 characters (RFC 2045 §6.8). Everything uses CRLF.
#include "netlib/mail/message_builder.hpp"

#include <fmt/format.h>

#include "netlib/mail/base64.hpp"
#include "netlib/mail/message_text.hpp"

namespace netlib::mail {
namespace {

bool has_8bit(std::string_view s) noexcept {
  for (char c : s)
    if (static_cast<unsigned char>(c) >= 0x80) return true;
  return false;
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : ", ") + i;
  return out;
}

std::string wrapped_base64(std::string_view bytes) {
  const std::string b64 = base64_encode(bytes);
  std::string out;
  for (std::size_t i = 0; i < b64.size(); i += 76) out += b64.substr(i, 76) + "\r\n";
  return out;
}

std::string text_part_headers(std::string_view body) {
  return fmt::format("Content-Type: text/plain; charset={}\r\nContent-Transfer-Encoding: {}\r\n",
                     has_8bit(body) ? "utf-8" : "us-ascii", has_8bit(body) ? "8bit" : "7bit");
}

}  // namespace

std::string build_message(const message_fields& f, std::string_view body, const std::vector<attachment>& attachments) {
  std::string m;
  m += "From: " + f.from + "\r\n";
  m += "To: " + join(f.to) + "\r\n";
  if (!f.subject.empty()) m += "Subject: " + f.subject + "\r\n";
  m += "Date: " + rfc5322_date(f.date) + "\r\n";
  m += "Message-ID: <" + f.message_id + ">\r\n";
  m += "MIME-Version: 1.0\r\n";
  const std::string text = to_crlf(body);
  if (attachments.empty()) {
    m += text_part_headers(body) + "\r\n" + text;
    return m;
  }
  m += "Content-Type: multipart/mixed; boundary=\"" + f.boundary + "\"\r\n\r\n";
  m += "This is a multi-part message in MIME format.\r\n";
  m += "--" + f.boundary + "\r\n" + text_part_headers(body) + "\r\n" + text;
  for (const auto& a : attachments) {
    m += "--" + f.boundary + "\r\n";
    m += "Content-Type: " + a.content_type + "; name=\"" + a.file_name + "\"\r\n";
    m += "Content-Disposition: attachment; filename=\"" + a.file_name + "\"\r\n";
    m += "Content-Transfer-Encoding: base64\r\n\r\n";
    m += wrapped_base64(a.bytes);
  }
  m += "--" + f.boundary + "--\r\n";
  return m;
}

}  // namespace netlib::mail
