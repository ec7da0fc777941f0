#pragma once
// Builders for the frames the switch lab sends around: Ethernet II with an optional 802.1Q tag,
// ARP requests and replies (RFC 826), ICMP echo over IPv4 (RFC 792, RFC 791). Used by scenario
// tests, the capture generator and fuzz seeds. Frames are padded to the 60-byte minimum (no FCS),
// as netlib::packet::encode_ethernet does.
#include "netlib/l2/frame_header.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace netlib::l2 {

using ipv4_address = std::array<std::uint8_t, 4>;

inline constexpr std::uint16_t ethertype_ipv4 = 0x0800;
inline constexpr std::uint16_t ethertype_arp = 0x0806;

std::vector<std::byte> build_ethernet(mac_address dst, mac_address src, std::uint16_t ethertype,
                                      std::span<const std::byte> payload, std::optional<std::uint16_t> vid = {});
// ARP request "who has target_ip? tell sender_ip", to the broadcast address.
std::vector<std::byte> build_arp_request(mac_address sender, ipv4_address sender_ip, ipv4_address target_ip,
                                         std::optional<std::uint16_t> vid = {});
// ARP reply "sender_ip is at sender", unicast to the asker.
std::vector<std::byte> build_arp_reply(mac_address sender, ipv4_address sender_ip, mac_address target,
                                       ipv4_address target_ip, std::optional<std::uint16_t> vid = {});
// ICMP echo request (reply = false) or echo reply, with 32 bytes of data.
std::vector<std::byte> build_icmp_echo(mac_address src, mac_address dst, ipv4_address src_ip, ipv4_address dst_ip,
                                       std::uint16_t id, std::uint16_t seq, bool reply,
                                       std::optional<std::uint16_t> vid = {});

// RFC 1071 Internet checksum of `data`.
std::uint16_t internet_checksum(std::span<const std::byte> data) noexcept;

}  // namespace netlib::l2
