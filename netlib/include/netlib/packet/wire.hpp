#pragma once
// Loads and stores of fixed-size integers at a byte position. Callers check bounds first: these
// helpers take a pointer so that every length check is visible at the call site.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace netlib::packet::wire {

// Loads are one memory access and, where the host's byte order differs, one byte swap (the
// byte-by-byte form is not always combined by the compiler, and these run several times per
// packet); the portable composition remains for hosts of mixed byte order.
namespace detail {
template <class T>
inline T load(const std::byte* p) noexcept {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline std::uint16_t swap(std::uint16_t v) noexcept {
  return __builtin_bswap16(v);
}
inline std::uint32_t swap(std::uint32_t v) noexcept {
  return __builtin_bswap32(v);
}
inline std::uint64_t swap(std::uint64_t v) noexcept {
  return __builtin_bswap64(v);
}
template <class T>
inline T big(const std::byte* p) noexcept {
  if constexpr (std::endian::native == std::endian::big) return load<T>(p);
  if constexpr (std::endian::native == std::endian::little) return swap(load<T>(p));
  T v = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i) v = static_cast<T>((v << 8U) | static_cast<std::uint8_t>(p[i]));
  return v;
}
template <class T>
inline T little(const std::byte* p) noexcept {
  if constexpr (std::endian::native == std::endian::little) return load<T>(p);
  if constexpr (std::endian::native == std::endian::big) return swap(load<T>(p));
  T v = 0;
  for (std::size_t i = sizeof(T); i-- > 0;) v = static_cast<T>((v << 8U) | static_cast<std::uint8_t>(p[i]));
  return v;
}
}  // namespace detail

inline std::uint8_t u8(const std::byte* p) noexcept {
  return static_cast<std::uint8_t>(p[0]);
}
inline std::uint16_t be16(const std::byte* p) noexcept {
  return detail::big<std::uint16_t>(p);
}
inline std::uint32_t be32(const std::byte* p) noexcept {
  return detail::big<std::uint32_t>(p);
}
inline std::uint16_t le16(const std::byte* p) noexcept {
  return detail::little<std::uint16_t>(p);
}
inline std::uint32_t le32(const std::byte* p) noexcept {
  return detail::little<std::uint32_t>(p);
}
inline std::uint64_t le64(const std::byte* p) noexcept {
  return detail::little<std::uint64_t>(p);
}
inline std::uint64_t be64(const std::byte* p) noexcept {
  return detail::big<std::uint64_t>(p);
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
