#include "netlib/l2/mac_address.hpp"

namespace netlib::l2 {

mac_address mac_address::from_bytes(std::span<const std::byte> bytes) noexcept {
  std::array<std::uint8_t, 6> o{};
  for (std::size_t i = 0; i < 6; ++i) o[i] = std::to_integer<std::uint8_t>(bytes[i]);
  return mac_address(o);
}

namespace {
int hex_value(char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
}  // namespace

std::optional<mac_address> mac_address::parse(std::string_view text) noexcept {
  if (text.size() != 17) return std::nullopt;
  const char sep = text[2];
  if (sep != ':' && sep != '-') return std::nullopt;
  std::array<std::uint8_t, 6> o{};
  for (std::size_t i = 0; i < 6; ++i) {
    const int hi = hex_value(text[i * 3]);
    const int lo = hex_value(text[i * 3 + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    if (i < 5 && text[i * 3 + 2] != sep) return std::nullopt;
    o[i] = static_cast<std::uint8_t>(hi * 16 + lo);
  }
  return mac_address(o);
}

std::string mac_address::to_string() const {
  return fmt::format("{:02x}:{:02x}:{:02x}:{:02x}:{:02x}:{:02x}", octets_[0], octets_[1], octets_[2], octets_[3],
                     octets_[4], octets_[5]);
}

}  // namespace netlib::l2
