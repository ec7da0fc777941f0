#pragma once
// The time-sequence graph of one TCP conversation (the "Stevens" graph Wireshark draws under
// Statistics > TCP Stream Graphs, after tcptrace): the data segments of one direction as vertical
// bars from their first to their last sequence number against the time they passed the capture
// point, retransmissions in red, the other side's acknowledgement number and the edge of its
// receive window (ACK + window) as step lines, and the first retransmission and the end of its
// recovery marked (where slow start ends and congestion avoidance begins). Sequence numbers are
// relative to the ISN; time is seconds since the capture's first packet, as Wireshark shows it.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

#include "netlib/packet/tcp_trace.hpp"

namespace netlab::ladder {

struct stevens_graph {
  std::string file;
  netlib::time_point capture_start{};
  netlib::packet::tcp_trace trace;
  netlib::packet::tcp_direction direction{};  // whose data is drawn
};

inline constexpr std::size_t stevens_max_segments = 50000;  // drawn; later ones are counted

// Reads conversation `id` of the capture (one pass; throws capture_error). nullopt when the
// capture has no such conversation. `direction`: whose data to draw; default the side that sent
// more payload.
std::optional<stevens_graph> read_stevens(const std::filesystem::path& file, std::uint64_t id,
                                          std::optional<netlib::packet::tcp_direction> direction = std::nullopt);

// The SVG document.
std::string render_stevens_svg(const stevens_graph& g);

}  // namespace netlab::ladder
