#pragma once
// IPv4 and IPv6 addresses and transport endpoints, printed the canonical way: dotted quad, IPv6 in
// RFC 5952 form, endpoints as "ip:port" or "[v6]:port" (RFC 5952 §6).
#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace netlib::packet {

struct ip_address {
  std::array<std::uint8_t, 16> octets{};  // IPv4 uses the first 4
  bool v6 = false;

  static ip_address v4_from_bytes(const std::byte* p) noexcept {  // inline: two per packet
    ip_address a;
    std::memcpy(a.octets.data(), p, 4);
    return a;
  }
  static ip_address v6_from_bytes(const std::byte* p) noexcept {
    ip_address a;
    a.v6 = true;
    std::memcpy(a.octets.data(), p, 16);
    return a;
  }
  // Dotted quad or any RFC 4291 §2.2 text form; nullopt otherwise.
  static std::optional<ip_address> parse(std::string_view text);

  [[nodiscard]] std::string to_string() const;
  friend auto operator<=>(const ip_address&, const ip_address&) = default;
};

struct endpoint {
  ip_address address;
  std::uint16_t port = 0;
  [[nodiscard]] std::string to_string() const;  // "10.0.0.1:80", "[2001:db8::1]:80"
  friend auto operator<=>(const endpoint&, const endpoint&) = default;
};

}  // namespace netlib::packet

template <>
struct fmt::formatter<netlib::packet::ip_address> : fmt::formatter<std::string_view> {
  template <class Context>
  auto format(const netlib::packet::ip_address& a, Context& ctx) const {
    return fmt::formatter<std::string_view>::format(a.to_string(), ctx);
  }
};
template <>
struct fmt::formatter<netlib::packet::endpoint> : fmt::formatter<std::string_view> {
  template <class Context>
  auto format(const netlib::packet::endpoint& e, Context& ctx) const {
    return fmt::formatter<std::string_view>::format(e.to_string(), ctx);
  }
};

template <>
struct std::hash<netlib::packet::endpoint> {
  std::size_t operator()(const netlib::packet::endpoint& e) const noexcept {
    std::size_t h = e.address.v6 ? 0x9e3779b97f4a7c15ULL : 0;
    for (auto o : e.address.octets) h = h * 131 + o;
    return h * 65599 + e.port;
  }
};
