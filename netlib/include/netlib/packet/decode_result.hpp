#pragma once
// The result of decoding one layer of a packet: the decoded header, or why it could not be
// decoded (truncated, bad version, bad length...). Decoders never read past the bytes they got.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include <fmt/format.h>

namespace netlib::packet {

// Why a layer could not be decoded. Both views refer to string literals.
struct decode_error {
  std::string_view layer;   // "ethernet", "ipv4", "tcp"...
  std::string_view reason;  // "truncated header", "bad version"...
  [[nodiscard]] std::string message() const { return fmt::format("{}: {}", layer, reason); }
};

template <class T>
class decoded {
 public:
  decoded(T value) : v_(std::move(value)) {}  // NOLINT(google-explicit-constructor)
  decoded(decode_error error) : v_(error) {}  // NOLINT(google-explicit-constructor)
  [[nodiscard]] bool ok() const noexcept { return v_.index() == 0; }
  explicit operator bool() const noexcept { return ok(); }
  [[nodiscard]] const T& value() const& { return std::get<0>(v_); }
  [[nodiscard]] T&& value() && { return std::get<0>(std::move(v_)); }  // moves the header out
  [[nodiscard]] const T& operator*() const { return value(); }
  [[nodiscard]] const T* operator->() const { return &value(); }
  [[nodiscard]] const decode_error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, decode_error> v_;
};

}  // namespace netlib::packet
