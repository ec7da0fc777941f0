#pragma once
// Ladder-diagram labels for FTP (netlab-ladder): on a control connection (server port 21, or 2121
// as in captures/ftp) the first line of each payload, with the PASS argument hidden; a command
// line is recognised only when it parses as an FTP command, a reply only with a reply code.
// Data connections keep the size label ("1448 B"). Register with
//   netlib::ftp::register_labels(netlib::packet::label_registry::global());
// (the caller links netlib::packet and netlib::ftp).
#include <cctype>
#include <optional>
#include <string>

#include "netlib/ftp/command.hpp"
#include "netlib/packet/payload_labels.hpp"

namespace netlib::ftp {

inline std::optional<std::string> ftp_label(byte_view payload, const packet::label_context& c) {
  auto line = packet::line_protocol_label(payload, c, {21, 2121}, "PASS");
  if (!line) return std::nullopt;
  if (c.direction == packet::tcp_direction::client_to_server)
    return parse_command_line(*line).status == command_status::complete ? line : std::nullopt;
  const bool reply = line->size() >= 3 && std::isdigit(static_cast<unsigned char>((*line)[0])) &&
                     std::isdigit(static_cast<unsigned char>((*line)[1])) &&
                     std::isdigit(static_cast<unsigned char>((*line)[2]));
  return reply ? line : std::nullopt;
}

inline void register_labels(packet::label_registry& registry) {
  registry.add("ftp", ftp_label);
}

}  // namespace netlib::ftp
