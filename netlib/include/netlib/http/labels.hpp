#pragma once
// Ladder-diagram labels for HTTP (netlab-ladder): a request line ("GET /index.html HTTP/1.1") or
// a status line ("HTTP/1.1 304 Not Modified") at the start of a payload, on any port. Segments
// in the middle of a body get no HTTP label (the registry then labels them by size). Register with
//   netlib::http::register_labels(netlib::packet::label_registry::global());
// (the caller links netlib::packet).
#include <optional>
#include <string>

#include "netlib/http/head_syntax.hpp"
#include "netlib/packet/payload_labels.hpp"

namespace netlib::http {

inline bool looks_like_request_line(std::string_view line) {
  const std::size_t sp = line.find(' ');
  if (sp == std::string_view::npos || !is_token(line.substr(0, sp))) return false;
  const std::size_t v = line.rfind(" HTTP/1.");
  return v != std::string_view::npos && v > sp && v + 9 == line.size();
}

inline bool looks_like_status_line(std::string_view line) {
  return line.size() >= 12 && line.substr(0, 7) == "HTTP/1.";
}

inline std::optional<std::string> http_label(byte_view payload, const packet::label_context& c) {
  auto line = packet::printable_first_line(payload, 80);
  if (!line) return std::nullopt;
  const bool to_server = c.direction == packet::tcp_direction::client_to_server;
  if (to_server ? looks_like_request_line(*line) : looks_like_status_line(*line)) return line;
  return std::nullopt;
}

inline void register_labels(packet::label_registry& registry) {
  registry.add("http", http_label);
}

}  // namespace netlib::http
