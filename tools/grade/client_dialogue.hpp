#pragma once
// The command side of a line-based protocol's dialogue (FTP, SMTP, POP3) as a client produced it
// through the relay: each command line as sent. The dialogue (which reply answers which line) is
// read by the protocol's analyzer in netlib (ftp::control_analyzer, smtp::session_analyzer,
// pop3::session_analyzer), as lab-<protocol> analyze reads a capture.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "netlib/core/bytes.hpp"
#include "netlib/core/clock.hpp"
#include "wire_relay.hpp"

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

// Feeds a relayed conversation to a protocol's dialogue analyzer, chunk by chunk in arrival order
// (with the arrival number as the time, for an analyzer that takes one); returns the client's
// bytes, which the analyzer's command ranges index.
template <class Analyzer>
std::string feed_relayed(const conversation& conv, Analyzer& analyzer) {
  std::string client;
  std::int64_t order = 0;
  for (const auto& chunk : conv.chunks) {
    const auto bytes = netlib::as_bytes(chunk.bytes);
    if (chunk.from_client) client += chunk.bytes;
    if constexpr (requires { analyzer.client_bytes(bytes, netlib::time_point{}); }) {
      const auto ts = netlib::from_nanoseconds(++order);
      chunk.from_client ? analyzer.client_bytes(bytes, ts) : analyzer.server_bytes(bytes, ts);
    } else {
      chunk.from_client ? analyzer.client_bytes(bytes) : analyzer.server_bytes(bytes);
    }
  }
  return client;
}

// The client's lines from `read` on (after the last command the analyzer read): a last line
// without its line end, which no reply answered; the checks still see it.
std::vector<client_command> unread_lines(const std::string& client, std::size_t read);

}  // namespace netlab::grade
