#pragma once
// The recorded side of a replay: each TCP conversation of a capture as its two reassembled byte
// streams, with the capture time of every client chunk (for --pace) and the order in which the
// two directions' pieces were captured (for the protocol analyzers that pair them).
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "netlib/capture/tcp_replay.hpp"
#include "netlib/core/bytes.hpp"
#include "netlib/core/clock.hpp"

namespace netlab::replay {

struct client_chunk {
  std::size_t offset = 0;  // where the chunk starts in `client`
  double time_s = 0;       // capture time, seconds since the conversation's first packet
};

// One piece of either stream, in capture order: the bytes [offset, offset + size) of `client` or
// `server`, or (gap) that many bytes the capture lacks, which the stream does not hold. A
// protocol's analyzer, fed these in order, reads the dialogue as `lab-<protocol> analyze` does.
struct recorded_piece {
  bool from_client = true;
  bool gap = false;
  std::size_t offset = 0;
  std::size_t size = 0;
  double time_s = 0;  // capture time, seconds since the conversation's first packet
};

struct recorded_conversation {
  std::uint64_t id = 0;
  std::string client_endpoint;  // "127.0.0.1:40000"
  std::string server_endpoint;
  std::string client;  // client -> server bytes
  std::string server;  // server -> client bytes
  std::vector<client_chunk> chunks;
  std::vector<recorded_piece> pieces;  // both directions, in capture order
  // Capture time of the client byte at `offset`.
  [[nodiscard]] double time_at(std::size_t offset) const;
};

// Feeds a conversation to a protocol's dialogue analyzer (client_bytes, server_bytes, with the
// capture time when it takes one, and gap) in capture order.
template <class Analyzer>
void feed_pieces(const recorded_conversation& c, Analyzer& analyzer) {
  for (const auto& p : c.pieces) {
    if (p.gap) {
      analyzer.gap(p.from_client, p.size);
      continue;
    }
    const auto bytes = netlib::as_bytes(std::string_view(p.from_client ? c.client : c.server).substr(p.offset, p.size));
    if constexpr (requires { analyzer.client_bytes(bytes, netlib::time_point{}); }) {
      const auto ts = netlib::from_nanoseconds(static_cast<std::int64_t>(std::llround(p.time_s * 1e9)));
      p.from_client ? analyzer.client_bytes(bytes, ts) : analyzer.server_bytes(bytes, ts);
    } else {
      p.from_client ? analyzer.client_bytes(bytes) : analyzer.server_bytes(bytes);
    }
  }
}

// Throws netlib::capture::capture_error for an unreadable file. `stats` receives the capture's
// counts (truncated records, missing bytes...).
std::vector<recorded_conversation> load_conversations(const std::string& path,
                                                      netlib::capture::replay_stats* stats = nullptr);

}  // namespace netlab::replay
