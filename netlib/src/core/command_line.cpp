// Theory of operation: split_command_line cuts a line at its first space (RFC 5321 §4.1.1, RFC
// 1939 §3 and RFC 959 §5.3.1 all separate verb and argument by one SP) and upper-cases the verb
// with the ASCII mapping (verbs are case-insensitive; the locale plays no part). The argument is
// kept byte for byte, so FTP path names with spaces survive; SMTP asks for trailing spaces to be
// dropped. command_reader = line_framer + split_command_line; it consumes exactly what the framer
// reports, so a split at any offset gives the same commands (tests/unit/base/command_line_test).
#include "netlib/core/command_line.hpp"

#include "netlib/core/ascii.hpp"

namespace netlib {

command_line split_command_line(std::string_view line, command_syntax syntax) {
  const std::size_t sp = line.find(' ');
  command_line c;
  c.verb = ascii::to_upper(line.substr(0, sp));
  if (sp != std::string_view::npos) {
    const std::string_view arg = line.substr(sp + 1);
    c.argument = std::string(syntax.trim_argument ? ascii::trim_right(arg, " ") : arg);
  }
  return c;
}

std::vector<recorded_command> recorded_commands(std::string_view client, command_syntax syntax, std::size_t limit) {
  std::vector<recorded_command> out;
  std::size_t at = 0;
  while (at < client.size() && out.size() < limit) {
    const auto lf = client.find('\n', at);
    if (lf == std::string_view::npos) break;
    std::string_view line = client.substr(at, lf - at);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    out.push_back(recorded_command{at, lf + 1, split_command_line(line, syntax)});
    at = lf + 1;
  }
  return out;
}

command_read command_reader::next(byte_view input) {
  const line_result line = framer_.next(input);
  command_read r;
  r.consumed = line.consumed;
  switch (line.status) {
    case line_status::need_more:
      r.status = read_status::need_more;
      break;
    case line_status::too_long:
      r.status = read_status::too_long;
      break;
    case line_status::bare_lf:
    case line_status::bare_cr:
      r.status = read_status::bad_line_end;
      break;
    case line_status::line:
      r.status = read_status::command;
      r.value = split_command_line(line.text, options_.syntax);
      break;
  }
  return r;
}

}  // namespace netlib
