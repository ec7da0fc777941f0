#pragma once
// FTP commands (RFC 959 §4.1, §5.3): a verb of three or four letters, case-insensitive, then an
// optional argument after one space, terminated by CRLF.
#include <cstddef>
#include <string>
#include <string_view>

#include "netlib/core/bytes.hpp"
#include "netlib/core/command_line.hpp"
#include "netlib/core/line_framer.hpp"

namespace netlib::ftp {

// The verb upper case; the argument as sent, after the single separating space.
using command = command_line;

// The command as it goes on the wire: "VERB arg\r\n" (or "VERB\r\n").
std::string serialize(const command& c);

enum class command_status {
  complete,   // `value` holds a command; `consumed` covers its line
  need_more,  // no complete line yet
  bad_line,   // the line was not a command (empty, bad verb, NUL, too long): reply 500, go on
};

struct command_result {
  command_status status = command_status::need_more;
  std::size_t consumed = 0;
  command value;
  std::string error;  // why a bad_line was bad
};

// Parses one command line (without its terminator). Telnet IAC sequences before the verb (IP and
// Synch sent with ABOR, RFC 959 §4.1.3) are skipped.
command_result parse_command_line(std::string_view line);

// Incremental parser over the unconsumed input. Lines longer than max_line (terminator included)
// are reported once as bad_line and skipped. Bare LF is accepted, as most servers do.
class command_parser {
 public:
  static constexpr std::size_t default_max_line = 2048;
  explicit command_parser(std::size_t max_line = default_max_line)
      : framer_(line_framer_options{.max_length = max_line, .strict = false}) {}
  [[nodiscard]] command_result next(byte_view input);

 private:
  line_framer framer_;
};

}  // namespace netlib::ftp
