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
  return packet::line_protocol_label(payload, c, {110, 1110}, "PASS");
}

inline void register_labels(packet::label_registry& registry) {
  registry.add("pop3", pop3_label);
}

}  // namespace netlib::pop3
