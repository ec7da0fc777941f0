#pragma once
// The command side of a line-based protocol's dialogue (FTP, SMTP, POP3) as a client produced it
// through the relay: each command line as sent. The dialogue (which reply answers which line) is
// read by the protocol's analyzer in netlib (ftp::control_analyzer, smtp::session_analyzer,
// pop3::session_analyzer), as lab-<protocol> analyze reads a capture.
#include <string>
#include <vector>

namespace netlab::grade {

struct client_command {
  std::string raw;   // the line as sent, with its line end
  std::string verb;  // upper-cased first word
  std::string arg;   // the rest, without the line end
};

client_command parse_command(const std::string& raw);

// True when the line ends with CRLF (RFC 959 §4.1, RFC 5321 §2.3.8, RFC 1939 §3).
bool ends_with_crlf(const std::string& line);

// "VERB arg" of a command for a report, without its line end.
std::string shown(const client_command& c);

// The commands (each with its line end), one per line, for a report.
std::string command_list(const std::vector<client_command>& commands);

}  // namespace netlab::grade
