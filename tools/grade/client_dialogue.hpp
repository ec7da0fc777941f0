#pragma once
// The command/reply dialogue of a line-based protocol (FTP, SMTP, POP3) as a client produced it
// through the relay: the client's lines split into commands, the server's bytes into replies.
#include <string>
#include <vector>

namespace netlab::grade {

struct client_command {
  std::string raw;   // the line as sent, with its line end
  std::string verb;  // upper-cased first word
  std::string arg;   // the rest, without the line end
};

// A reply with a three-digit code (FTP RFC 959 §4.2, SMTP RFC 5321 §4.2): multi-line replies
// ("250-..." up to "250 ...") are one reply.
struct coded_reply {
  int code = 0;
  std::string text;  // every line of the reply, as received
};

client_command parse_command(const std::string& raw);
std::vector<coded_reply> parse_coded_replies(const std::string& server_bytes);

// True when the line ends with CRLF (RFC 959 §4.1, RFC 5321 §2.3.8, RFC 1939 §3).
bool ends_with_crlf(const std::string& line);

// "VERB arg" of a command for a report, without its line end.
std::string shown(const client_command& c);

// The commands (each with its line end), one per line, for a report.
std::string command_list(const std::vector<client_command>& commands);

}  // namespace netlab::grade
