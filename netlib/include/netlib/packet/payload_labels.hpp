#pragma once
// Labels for TCP payloads in ladder diagrams ("GET /index.html HTTP/1.1", "220 ready", "USER
// anonymous"). Protocol areas add a labeller that recognises their first line; until one
// matches, a payload is labelled by its size ("512 B").
//
//   registry.add("http", [](netlib::byte_view payload, const netlib::packet::label_context& c)
//       -> std::optional<std::string> { ... return "GET / HTTP/1.1"; });
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "netlib/core/bytes.hpp"
#include "netlib/packet/tcp_conversation.hpp"

namespace netlib::packet {

struct label_context {
  tcp_direction direction = tcp_direction::client_to_server;
  std::uint16_t server_port = 0;
  std::uint64_t stream_offset = 0;  // offset of the payload in its direction's stream
};

using payload_labeller = std::function<std::optional<std::string>(byte_view payload, const label_context&)>;

class label_registry {
 public:
  void add(std::string name, payload_labeller labeller);
  // The first registered labeller's answer, else "N B".
  [[nodiscard]] std::string label(byte_view payload, const label_context& context) const;
  [[nodiscard]] std::vector<std::string> names() const;

  // The registry the tools use; protocol areas add their labellers to it at start-up.
  static label_registry& global();

 private:
  std::vector<std::pair<std::string, payload_labeller>> labellers_;
};

// The first line of a payload (up to CRLF or LF, at most `max` characters), if it is printable
// text: a helper for labellers.
std::optional<std::string> printable_first_line(byte_view payload, std::size_t max = 60);

// For the line protocols' labellers (SMTP, POP3, FTP): the printable first line of a payload
// whose server port is one of `ports`, with the argument of a client command `secret_verb`
// (case-insensitive; none when empty) replaced: "PASS <hidden>".
std::optional<std::string> line_protocol_label(byte_view payload, const label_context& c,
                                               std::initializer_list<std::uint16_t> ports,
                                               std::string_view secret_verb = "PASS");

}  // namespace netlib::packet
