#pragma once
// SHA-256 (FIPS 180-4), incremental, without OpenSSL so that cores and capture tools can hash
// streams (netlab-ladder's client_sha256/server_sha256).
//
//   netlib::sha256 h;
//   h.update(as_bytes("abc"));
//   std::string hex = h.hex_digest();  // "ba7816bf..."
#include <array>
#include <cstdint>
#include <string>

#include "netlib/core/bytes.hpp"

namespace netlib {

class sha256 {
 public:
  using digest = std::array<std::uint8_t, 32>;

  void update(byte_view data) noexcept;
  void update(std::string_view data) noexcept { update(as_bytes(data)); }
  // The digest of everything updated so far; the object can keep being updated afterwards.
  [[nodiscard]] digest finish() const noexcept;
  [[nodiscard]] std::string hex_digest() const;
  [[nodiscard]] std::uint64_t size() const noexcept { return length_; }

  static std::string hex(byte_view data);

 private:
  void compress(const std::uint8_t* block) noexcept;

  std::array<std::uint32_t, 8> state_{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                      0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  std::array<std::uint8_t, 64> block_{};
  std::size_t used_ = 0;
  std::uint64_t length_ = 0;
};

}  // namespace netlib
