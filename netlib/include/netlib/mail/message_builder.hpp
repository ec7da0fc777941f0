#pragma once
// Builds an Internet message (RFC 5322) from a body and header fields, with MIME multipart/mixed
// (RFC 2045/2046) when files are attached. Pure: the date, Message-ID and boundary are inputs.
#include <chrono>
#include <string>
#include <vector>

namespace netlib::mail {

struct attachment {
  std::string file_name;  // name only, no folder
  std::string content_type = "application/octet-stream";
  std::string bytes;
};

struct message_fields {
  std::string from;
  std::vector<std::string> to;
  std::string subject;
  std::chrono::sys_seconds date{};
  std::string message_id;  // without angle brackets: "123.456@host"
  std::string boundary;    // for multipart; must not occur in any part
};

// Returns the message with CRLF line ends. The body's line ends are normalized to CRLF; a body
// with bytes >= 0x80 is declared 8bit (RFC 6152), otherwise 7bit.
std::string build_message(const message_fields& fields, std::string_view body,
                          const std::vector<attachment>& attachments);

}  // namespace netlib::mail
