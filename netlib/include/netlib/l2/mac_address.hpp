#pragma once
// A 48-bit IEEE 802 MAC address (IEEE 802-2014 §8.2), printable with fmt as aa:bb:cc:dd:ee:ff.
#include <fmt/format.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace netlib::l2 {

class mac_address {
 public:
  constexpr mac_address() noexcept = default;
  constexpr explicit mac_address(std::array<std::uint8_t, 6> octets) noexcept : octets_(octets) {}
  // The first six bytes of `bytes` (which must hold at least six).
  static mac_address from_bytes(std::span<const std::byte> bytes) noexcept;
  // Parses aa:bb:cc:dd:ee:ff or aa-bb-cc-dd-ee-ff (any case); nullopt when malformed.
  static std::optional<mac_address> parse(std::string_view text) noexcept;
  static constexpr mac_address broadcast() noexcept { return mac_address({0xff, 0xff, 0xff, 0xff, 0xff, 0xff}); }

  [[nodiscard]] constexpr const std::array<std::uint8_t, 6>& octets() const noexcept { return octets_; }
  // I/G bit: the least significant bit of the first octet (IEEE 802-2014 §8.2.2).
  [[nodiscard]] constexpr bool is_multicast() const noexcept { return (octets_[0] & 0x01U) != 0; }
  [[nodiscard]] constexpr bool is_broadcast() const noexcept { return *this == broadcast(); }
  [[nodiscard]] constexpr bool is_zero() const noexcept { return *this == mac_address{}; }
  [[nodiscard]] constexpr bool is_unicast() const noexcept { return !is_multicast(); }
  // The 48 bits as an integer, most significant octet first (for hashing and ordering).
  [[nodiscard]] constexpr std::uint64_t to_u64() const noexcept {
    std::uint64_t v = 0;
    for (auto o : octets_) v = (v << 8U) | o;
    return v;
  }
  static constexpr mac_address from_u64(std::uint64_t v) noexcept {
    std::array<std::uint8_t, 6> o{};
    for (int i = 5; i >= 0; --i, v >>= 8U) o[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(v & 0xffU);
    return mac_address(o);
  }
  [[nodiscard]] std::string to_string() const;

  friend constexpr bool operator==(const mac_address&, const mac_address&) noexcept = default;
  friend constexpr auto operator<=>(const mac_address&, const mac_address&) noexcept = default;

 private:
  std::array<std::uint8_t, 6> octets_{};
};

}  // namespace netlib::l2

template <>
struct fmt::formatter<netlib::l2::mac_address> : fmt::formatter<std::string_view> {
  template <typename Context>
  auto format(const netlib::l2::mac_address& mac, Context& ctx) const {
    return fmt::formatter<std::string_view>::format(mac.to_string(), ctx);
  }
};
