#pragma once
// Ladder-diagram labels for SMTP (netlab-ladder): the first line of each payload on the usual
// SMTP ports, e.g. "EHLO client.example" or "250-mx.example.org". Register with
//   netlib::smtp::register_labels(netlib::packet::label_registry::global());
// (the caller links netlib::packet).
#include <optional>
#include <string>

#include "netlib/packet/payload_labels.hpp"

namespace netlib::smtp {

inline bool is_smtp_port(std::uint16_t port) noexcept {
  return port == 25 || port == 587 || port == 2525;
}

inline std::optional<std::string> smtp_label(byte_view payload, const packet::label_context& c) {
  auto line = packet::line_protocol_label(payload, c, {25, 587, 2525}, {});  // is_smtp_port
  if (line && c.direction == packet::tcp_direction::client_to_server && line->rfind("AUTH ", 0) == 0)
    return line->substr(0, line->find(' ', 5)) + " <credentials>";
  return line;
}

inline void register_labels(packet::label_registry& registry) {
  registry.add("smtp", smtp_label);
}

}  // namespace netlib::smtp
