#pragma once
// Byte spans and a growable input buffer shared by every core and driver.
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace netlib {

using byte_view = std::span<const std::byte>;

inline byte_view as_bytes(std::string_view s) noexcept {
  return {reinterpret_cast<const std::byte*>(s.data()), s.size()};
}
inline std::string_view as_chars(byte_view b) noexcept {
  return {reinterpret_cast<const char*>(b.data()), b.size()};
}
inline std::string to_string(byte_view b) {
  return std::string(as_chars(b));
}

// Bytes a driver has read but a core has not consumed yet. Drivers append what they read, hand
// `data()` to the core, and `consume()` what the core reports; the rest stays for the next read,
// so pipelined input is never lost.
class input_buffer {
 public:
  void append(byte_view b) { bytes_.insert(bytes_.end(), b.begin(), b.end()); }
  void append(std::string_view s) { append(as_bytes(s)); }
  [[nodiscard]] byte_view data() const noexcept { return {bytes_.data() + head_, bytes_.size() - head_}; }
  [[nodiscard]] std::size_t size() const noexcept { return bytes_.size() - head_; }
  [[nodiscard]] bool empty() const noexcept { return size() == 0; }
  void consume(std::size_t n);
  void clear() noexcept {
    bytes_.clear();
    head_ = 0;
  }

 private:
  std::vector<std::byte> bytes_;
  std::size_t head_ = 0;
};

}  // namespace netlib
