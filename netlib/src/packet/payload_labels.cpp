#include "netlib/packet/payload_labels.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "netlib/core/ascii.hpp"

namespace netlib::packet {

void label_registry::add(std::string name, payload_labeller labeller) {
  labellers_.emplace_back(std::move(name), std::move(labeller));
}

std::string label_registry::label(byte_view payload, const label_context& context) const {
  for (const auto& [name, labeller] : labellers_) {
    if (auto l = labeller(payload, context)) return *l;
  }
  return fmt::format("{} B", payload.size());
}

std::vector<std::string> label_registry::names() const {
  std::vector<std::string> out;
  for (const auto& entry : labellers_) out.push_back(entry.first);
  return out;
}

label_registry& label_registry::global() {
  static label_registry registry;
  return registry;
}

std::optional<std::string> printable_first_line(byte_view payload, std::size_t max) {
  std::string line;
  for (auto b : payload) {
    const auto c = static_cast<unsigned char>(b);
    if (c == '\r' || c == '\n') break;
    if (c < 0x20 || c > 0x7e) return std::nullopt;
    if (line.size() == max) {
      line += "...";
      break;
    }
    line += static_cast<char>(c);
  }
  if (line.empty()) return std::nullopt;
  return line;
}

std::optional<std::string> line_protocol_label(byte_view payload, const label_context& c,
                                               std::initializer_list<std::uint16_t> ports,
                                               std::string_view secret_verb) {
  if (std::find(ports.begin(), ports.end(), c.server_port) == ports.end()) return std::nullopt;
  auto line = printable_first_line(payload);
  if (!line || secret_verb.empty() || c.direction != tcp_direction::client_to_server) return line;
  if (line->size() > secret_verb.size() && (*line)[secret_verb.size()] == ' ' &&
      ascii::istarts_with(*line, secret_verb))
    return std::string(secret_verb) + " <hidden>";
  return line;
}

}  // namespace netlib::packet
