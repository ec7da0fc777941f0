#pragma once
// One packet read from (or written to) a capture file, and the interfaces it can come from.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "netlib/core/bytes.hpp"
#include "netlib/core/clock.hpp"
#include "netlib/packet/link_type.hpp"

namespace netlib::capture {

enum class capture_format { pcap, pcapng };

// A capture file could not be opened, read or written: the message is one line naming the file
// and what is wrong ("x.pcap: bad magic 0x12345678 (not a pcap or pcapng file)").
class capture_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// An interface of a pcapng section (pcap files have exactly one).
struct interface_info {
  packet::link_type link = packet::link_type::ethernet;
  std::uint32_t snaplen = 0;
  std::string name;                            // if_name option, empty when absent
  std::uint64_t ticks_per_second = 1'000'000;  // from if_tsresol (pcapng) or the magic (pcap)
  std::int64_t offset_seconds = 0;             // if_tsoffset
};

struct packet_record {
  time_point ts;                   // capture time, nanoseconds since the Unix epoch
  std::uint32_t interface_id = 0;  // pcapng interface id within its section; 0 for pcap
  packet::link_type link = packet::link_type::ethernet;
  byte_view data;              // captured bytes; valid until the reader's next call to next()
  std::uint32_t orig_len = 0;  // length on the wire (> data.size() when cut by the snaplen)
};

}  // namespace netlib::capture
