#pragma once
// What is known about one TCP conversation: who is client and server, the handshake/teardown
// state, and per-direction counters.
#include <cstdint>
#include <string_view>

#include "netlib/core/clock.hpp"
#include "netlib/packet/ip_address.hpp"

namespace netlib::packet {

enum class tcp_direction : std::uint8_t { client_to_server, server_to_client };

// The connection as seen on the wire (RFC 9293 §3.3.2, from an observer's point of view).
enum class tcp_conversation_state : std::uint8_t {
  syn_sent,      // SYN seen
  syn_received,  // SYN-ACK seen
  established,   // handshake completed, or data seen without a captured handshake
  closing,       // one side sent FIN
  closed,        // both sides sent FIN
  reset,         // a RST was seen
};

std::string_view state_name(tcp_conversation_state s) noexcept;

struct tcp_direction_stats {
  std::uint64_t packets = 0;
  std::uint64_t payload_bytes = 0;  // delivered in order (no retransmissions)
  std::uint64_t gap_bytes = 0;
  std::uint64_t gaps = 0;
  std::uint64_t retransmitted_bytes = 0;
  bool syn = false;
  bool fin = false;
  bool rst = false;
};

struct tcp_conversation {
  std::uint64_t id = 0;  // order of the first packet, from 0 (like tshark's tcp.stream)
  endpoint client;
  endpoint server;
  bool handshake_seen = false;  // the client's SYN was captured
  tcp_conversation_state state = tcp_conversation_state::established;
  time_point first_ts;
  time_point last_ts;
  std::uint64_t packets = 0;
  tcp_direction_stats to_server;  // client -> server
  tcp_direction_stats to_client;  // server -> client

  [[nodiscard]] const tcp_direction_stats& stats(tcp_direction d) const noexcept {
    return d == tcp_direction::client_to_server ? to_server : to_client;
  }
};

}  // namespace netlib::packet
