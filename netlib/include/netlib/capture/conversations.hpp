#pragma once
// Every TCP and UDP conversation of a capture with its frames and bytes in each direction, as
// `tshark -q -z conv,tcp` and `-z conv,udp` count them: bytes are whole frames as sent (the
// record's original length), side A is the source of the conversation's first packet. A TCP
// conversation ends at its address/port pair's next SYN without ACK after a FIN or RST, so a
// reused port starts a new conversation, as tcp.stream numbers them. Only headers are read:
// nothing is reassembled, and memory grows with the number of conversations, which is limited.
//
//   auto reader = netlib::capture::capture_reader::open("x.pcapng");
//   for (const auto& c : netlib::capture::list_conversations(reader)) { ... c.a, c.b, c.bytes_ab ... }
#include <cstdint>
#include <vector>

#include "netlib/capture/capture_reader.hpp"
#include "netlib/packet/ip_address.hpp"

namespace netlib::capture {

struct conversation_counts {
  std::uint8_t protocol = 0;  // 6 TCP, 17 UDP
  packet::endpoint a;         // sent the first packet
  packet::endpoint b;
  std::uint64_t frames_ab = 0, bytes_ab = 0;
  std::uint64_t frames_ba = 0, bytes_ba = 0;
  time_point first_ts{};
  time_point last_ts{};
};

struct conversation_list_stats {
  std::uint64_t packets = 0;
  std::uint64_t decode_errors = 0;
  std::uint64_t truncated_records = 0;
  std::uint64_t ip_fragments = 0;  // later fragments carry no ports and are counted nowhere
  time_point first_ts{};           // of the capture's first packet
  std::string first_decode_error;
};

struct conversation_limits {
  std::size_t max_conversations = 2'000'000;
};

// In order of each conversation's first packet. Throws capture_error on a corrupt file or when
// the capture holds more conversations than the limit.
std::vector<conversation_counts> list_conversations(capture_reader& reader, conversation_list_stats* stats = nullptr,
                                                    const conversation_limits& limits = {});

}  // namespace netlib::capture
