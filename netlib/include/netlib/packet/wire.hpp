#pragma once
// Loads and stores of fixed-size integers at a byte position. Callers check bounds first: these
// helpers take a pointer so that every length check is visible at the call site.
#include <cstddef>
#include <cstdint>

namespace netlib::packet::wire {

inline std::uint8_t u8(const std::byte* p) noexcept { return static_cast<std::uint8_t>(p[0]); }
inline std::uint16_t be16(const std::byte* p) noexcept {
  return static_cast<std::uint16_t>((u8(p) << 8) | u8(p + 1));
}
inline std::uint32_t be32(const std::byte* p) noexcept {
  return (std::uint32_t{be16(p)} << 16) | be16(p + 2);
}
inline std::uint16_t le16(const std::byte* p) noexcept {
  return static_cast<std::uint16_t>(u8(p) | (u8(p + 1) << 8));
}
inline std::uint32_t le32(const std::byte* p) noexcept {
  return std::uint32_t{le16(p)} | (std::uint32_t{le16(p + 2)} << 16);
}
inline std::uint64_t le64(const std::byte* p) noexcept {
  return std::uint64_t{le32(p)} | (std::uint64_t{le32(p + 4)} << 32);
}
inline std::uint64_t be64(const std::byte* p) noexcept {
  return (std::uint64_t{be32(p)} << 32) | be32(p + 4);
}

inline void put_be16(std::byte* p, std::uint16_t v) noexcept {
  p[0] = std::byte(v >> 8);
  p[1] = std::byte(v & 0xff);
}
inline void put_le16(std::byte* p, std::uint16_t v) noexcept {
  p[0] = std::byte(v & 0xff);
  p[1] = std::byte(v >> 8);
}
inline void put_le32(std::byte* p, std::uint32_t v) noexcept {
  put_le16(p, static_cast<std::uint16_t>(v & 0xffff));
  put_le16(p + 2, static_cast<std::uint16_t>(v >> 16));
}

}  // namespace netlib::packet::wire
