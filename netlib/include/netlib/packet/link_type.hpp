#pragma once
// Link-layer header types of capture files (the tcpdump.org LINKTYPE_ registry).
#include <cstdint>
#include <string_view>

namespace netlib::packet {

// Values as stored in pcap and pcapng files; other values are kept as they are and reported as
// unsupported by the decoder.
enum class link_type : std::uint32_t {
  null_bsd = 0,      // BSD loopback: 4-byte address family in host byte order
  ethernet = 1,      // Ethernet II / 802.3
  raw = 101,         // raw IPv4 or IPv6, version from the first nibble
  loop = 108,        // OpenBSD loopback: 4-byte address family in network byte order
  linux_sll = 113,   // Linux cooked capture v1 (16-byte header)
  ipv4 = 228,        // raw IPv4
  ipv6 = 229,        // raw IPv6
  linux_sll2 = 276,  // Linux cooked capture v2 (20-byte header)
};

// "ethernet", "null", "raw", "loop", "linux_sll", "linux_sll2", "ipv4", "ipv6" or "linktype N"
// for unknown values (the returned view of an unknown value is "unknown").
std::string_view link_type_name(link_type t) noexcept;

}  // namespace netlib::packet
