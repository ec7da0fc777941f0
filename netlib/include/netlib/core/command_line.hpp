#pragma once
// Command lines of the line protocols (SMTP RFC 5321 §4.1, POP3 RFC 1939 §3, FTP RFC 959 §5.3):
// a verb, then after one space an argument. Verbs are case-insensitive, so they are upper-cased.
//
//   split_command_line("mail FROM:<a@b>  ", {.trim_argument = true})  -> {"MAIL", "FROM:<a@b>"}
//
// command_reader frames the lines too (netlib::line_framer) for a core or an analyzer that reads
// commands from a byte stream.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "netlib/core/bytes.hpp"
#include "netlib/core/line_framer.hpp"

namespace netlib {

struct command_line {
  std::string verb;      // upper case
  std::string argument;  // after the first space; as sent unless trim_argument
  friend bool operator==(const command_line&, const command_line&) = default;
};

struct command_syntax {
  bool trim_argument = false;  // drop trailing spaces of the argument (SMTP, as most servers do)
};

// Splits at the first space. A line without a space is all verb.
command_line split_command_line(std::string_view line, command_syntax syntax = {});

// A command where it stands in a recorded client stream (a capture's reassembled bytes): [begin,
// end) covers the line and its line end.
struct recorded_command {
  std::size_t begin = 0;
  std::size_t end = 0;
  command_line command;
};

// Every LF-ended line of a recorded client stream, its CR dropped, split as split_command_line
// does; at most `limit` of them. A last line without its LF is left out (the recording ended in
// it). Replay reads what it sends this way.
std::vector<recorded_command> recorded_commands(std::string_view client, command_syntax syntax = {},
                                                std::size_t limit = 100000);

enum class read_status {
  command,       // `value` holds the line's command; `consumed` covers the line
  need_more,     // no complete line yet (nothing consumed, except an over-long line being skipped)
  too_long,      // a line over the limit: report it once; it is skipped up to its end
  bad_line_end,  // strict framing only: a bare LF or CR ended or split the line; `consumed` covers it
};

struct command_read {
  read_status status = read_status::need_more;
  command_line value;
  std::size_t consumed = 0;
};

struct command_reader_options {
  std::size_t max_length = 512;  // terminator included
  bool strict = false;           // CRLF only (see line_framer_options)
  command_syntax syntax;
};

class command_reader {
 public:
  explicit command_reader(command_reader_options options = {}) noexcept
      : options_(options), framer_({.max_length = options.max_length, .strict = options.strict}) {}
  [[nodiscard]] command_read next(byte_view input);
  // Forgets a partly skipped over-long line (after a TLS switch, the stream starts over).
  void reset() noexcept { framer_ = line_framer({.max_length = options_.max_length, .strict = options_.strict}); }

 private:
  command_reader_options options_;
  line_framer framer_;
};

}  // namespace netlib
