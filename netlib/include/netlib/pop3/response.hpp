#pragma once
// POP3 responses (RFC 1939 §3): "+OK text" or "-ERR text", and for multi-line responses the
// byte-stuffed lines up to "." (dot-unstuffed here). For the client and capture analysis.
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

#include "netlib/core/bytes.hpp"
#include "netlib/core/line_framer.hpp"
#include "netlib/core/parse_result.hpp"

namespace netlib::pop3 {

struct response {
  bool ok = false;
  std::string text;  // after "+OK " / "-ERR "
  std::string body;  // multi-line only: the lines unstuffed, each ending CRLF, without the "." line
};

// Whether a +OK to this command is followed by lines up to "." (RFC 1939 §5: RETR, TOP, LIST and
// UIDL without an argument; RFC 2449 §5: CAPA; RFC 5034 §4: AUTH without a mechanism lists them).
// `verb` upper-cased. The one rule of the POP3 client, the capture analyzer, replay and grader.
[[nodiscard]] bool multiline_response(std::string_view verb, std::string_view argument) noexcept;

enum class response_status { response, need_more, malformed };
using response_result = parse_result<response_status, response>;

// Parses one response; `multiline` says whether a +OK to the command is followed by lines
// (RETR, TOP, LIST and UIDL without argument, CAPA). Limits: 512-byte status line, 64 KiB body
// lines, `max_body` bytes of body.
class response_parser {
 public:
  explicit response_parser(std::size_t max_body = 64 * 1024 * 1024) noexcept : max_body_(max_body) {}
  [[nodiscard]] response_result next(byte_view input, bool multiline);

 private:
  std::size_t max_body_;
  bool failed_ = false;
  bool in_body_ = false;  // the status line of a multi-line response was absorbed
  response partial_;
  line_framer status_framer_{{.max_length = 512, .strict = false}};
  line_framer body_framer_{{.max_length = 65536, .strict = false}};
};

}  // namespace netlib::pop3
