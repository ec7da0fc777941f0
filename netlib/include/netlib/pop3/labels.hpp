#pragma once
// Ladder-diagram labels for POP3 (netlab-ladder): the first line of each payload on port 110,
// with the PASS argument hidden. Register with
//   netlib::pop3::register_labels(netlib::packet::label_registry::global());
// (the caller links netlib::packet).
#include <optional>
#include <string>

#include "netlib/packet/payload_labels.hpp"

namespace netlib::pop3 {

inline std::optional<std::string> pop3_label(byte_view payload, const packet::label_context& c) {
  if (c.server_port != 110 && c.server_port != 1110) return std::nullopt;
  auto line = packet::printable_first_line(payload);
  if (!line) return std::nullopt;
  if (c.direction == packet::tcp_direction::client_to_server && (line->rfind("PASS ", 0) == 0 || line->rfind("pass ", 0) == 0))
    return std::string("PASS <hidden>");
  return line;
}

inline void register_labels(packet::label_registry& registry) { registry.add("pop3", pop3_label); }

}  // namespace netlib::pop3
