#pragma once
// CRLF line framing with a maximum line length, shared by the FTP, SMTP and POP3 cores.
#include <cstddef>
#include <string_view>

#include "netlib/core/bytes.hpp"

namespace netlib {

enum class line_status {
  line,       // a complete line is in `text` (without its terminator); `consumed` covers it
  need_more,  // no terminator yet; feed more bytes (nothing consumed, except the swallowed
              // bytes of an over-long line already reported as too_long)
  too_long,   // the line exceeds max_length; `consumed` skips it up to and including its
              // terminator when that was seen, or is 0 while the over-long line goes on
  bare_lf,    // (strict mode) a LF without CR ended the line; `consumed` covers it
  bare_cr,    // (strict mode) a CR not followed by LF inside the line; `consumed` covers the line
};

struct line_result {
  line_status status = line_status::need_more;
  std::string_view text;     // valid while the input bytes are
  std::size_t consumed = 0;  // bytes of the input this result accounts for
};

struct line_framer_options {
  std::size_t max_length = 512;  // bytes, terminator included (RFC 5321 §4.5.3.1.4 for commands)
  bool strict = false;           // reject bare LF and bare CR instead of accepting LF alone
};

// Stateless apart from its options and a discard flag: call next() on the unconsumed input; it
// reports what it consumed and the caller keeps the rest (docs/architecture.md, "Protocol cores never do I/O").
class line_framer {
 public:
  explicit line_framer(line_framer_options options = {}) noexcept : options_(options) {}
  [[nodiscard]] line_result next(byte_view input) noexcept;
  [[nodiscard]] const line_framer_options& options() const noexcept { return options_; }

 private:
  line_framer_options options_;
  bool discarding_ = false;  // inside an over-long line whose end has not arrived yet
};

}  // namespace netlib
