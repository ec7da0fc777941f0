#pragma once
// The recorded side of a replay: each TCP conversation of a capture as its two reassembled byte
// streams, with the capture time of every client chunk (for --pace).
#include <cstdint>
#include <string>
#include <vector>

#include "netlib/capture/tcp_replay.hpp"

namespace netlab::replay {

struct client_chunk {
  std::size_t offset = 0;  // where the chunk starts in `client`
  double time_s = 0;       // capture time, seconds since the conversation's first packet
};

struct recorded_conversation {
  std::uint64_t id = 0;
  std::string client_endpoint;  // "127.0.0.1:40000"
  std::string server_endpoint;
  std::string client;  // client -> server bytes
  std::string server;  // server -> client bytes
  std::vector<client_chunk> chunks;
  // Capture time of the client byte at `offset`.
  [[nodiscard]] double time_at(std::size_t offset) const;
};

// Throws netlib::capture::capture_error for an unreadable file. `stats` receives the capture's
// counts (truncated records, missing bytes...).
std::vector<recorded_conversation> load_conversations(const std::string& path,
                                                      netlib::capture::replay_stats* stats = nullptr);

}  // namespace netlab::replay
