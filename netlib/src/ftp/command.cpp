// Theory of operation: a command line is split at its first space into a verb and an argument
// (RFC 959 §5.3.1, "<SP>" separates them). Verbs are alphabetic, 3 or 4 letters (RFC 959 §5.3.1;
// RFC 2428 and RFC 3659 verbs are 4 letters too) and are upper-cased, since verbs are
// case-insensitive (RFC 959 §5.3.1). The argument is kept as sent, spaces included, so path names
// with spaces survive. Line framing is netlib::line_framer's and the split netlib::split_command_line's;
// this file only adds the FTP rules.
#include "netlib/ftp/command.hpp"

#include <utility>

#include "netlib/core/ascii.hpp"

namespace netlib::ftp {

std::string serialize(const command& c) {
  return c.argument.empty() ? c.verb + "\r\n" : c.verb + " " + c.argument + "\r\n";
}

command_result parse_command_line(std::string_view line) {
  command_result r;
  r.status = command_status::bad_line;
  // RFC 959 §4.1.3: ABOR may be preceded by Telnet IP (IAC IP) and Synch (IAC DM); skip them.
  while (!line.empty() && static_cast<unsigned char>(line[0]) >= 0xF0) line.remove_prefix(1);
  if (line.find('\0') != std::string_view::npos) {
    r.error = "NUL in command line";
    return r;
  }
  // RFC 959 §5.3.1: a command line ends with <CRLF>; a CR elsewhere is no part of a name (RFC 854
  // sends a lone CR as CR NUL). Kept in a path, it would make names that ls and clients show as
  // something else.
  if (line.find('\r') != std::string_view::npos) {
    r.error = "CR inside the command line";
    return r;
  }
  command c = split_command_line(line);
  if (c.verb.size() < 3 || c.verb.size() > 4) {
    r.error = c.verb.empty() ? "empty command line" : "command verb must be 3 or 4 letters";
    return r;
  }
  for (char ch : c.verb) {
    if (!ascii::is_alpha(ch)) {
      r.error = "command verb must be letters only";
      return r;
    }
  }
  r.value = std::move(c);
  r.status = command_status::complete;
  return r;
}

command_result command_parser::next(byte_view input) {
  const line_result line = framer_.next(input);
  if (line.status == line_status::need_more) return {command_status::need_more, line.consumed, {}, {}};
  if (line.status == line_status::too_long)
    return {command_status::bad_line, line.consumed, {}, "command line too long"};
  command_result parsed = parse_command_line(line.text);
  parsed.consumed = line.consumed;
  return parsed;
}

}  // namespace netlib::ftp
