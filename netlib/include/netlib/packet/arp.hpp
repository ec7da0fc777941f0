#pragma once
// ARP over Ethernet for IPv4 (RFC 826).
#include <cstdint>

#include "netlib/core/bytes.hpp"
#include "netlib/packet/decode_result.hpp"
#include "netlib/packet/ethernet.hpp"
#include "netlib/packet/ip_address.hpp"

namespace netlib::packet {

struct arp_packet {
  std::uint16_t hardware_type = 1;  // 1 = Ethernet
  std::uint16_t protocol_type = 0x0800;
  std::uint16_t operation = 0;  // 1 request, 2 reply
  mac_address sender_mac;
  ip_address sender_ip;
  mac_address target_mac;
  ip_address target_ip;
};

// Errors: "truncated header", "unsupported address sizes" (only 6-byte MAC / 4-byte IPv4).
decoded<arp_packet> decode_arp(byte_view bytes);

}  // namespace netlib::packet
