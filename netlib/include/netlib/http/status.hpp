#pragma once
// Status codes and their reason phrases (RFC 9110 §15), printable with fmt.
#include <fmt/format.h>

#include <string_view>

namespace netlib::http {

// The RFC 9110 (or RFC 6585) reason phrase of a status code ("Not Found"), or empty for a code
// neither defines.
std::string_view reason_phrase(int code) noexcept;

// RFC 9110 §15: 1xx interim; 204 and 304 never carry content (RFC 9112 §6.3 rule 1).
inline bool is_interim(int code) noexcept {
  return code >= 100 && code < 200;
}
inline bool status_has_no_body(int code) noexcept {
  return is_interim(code) || code == 204 || code == 304;
}

struct status {
  int code = 200;
};

}  // namespace netlib::http

template <>
struct fmt::formatter<netlib::http::status> : fmt::formatter<std::string_view> {
  template <class Ctx>
  auto format(netlib::http::status s, Ctx& ctx) const {
    const auto phrase = netlib::http::reason_phrase(s.code);
    if (phrase.empty()) return fmt::format_to(ctx.out(), "{}", s.code);
    return fmt::format_to(ctx.out(), "{} {}", s.code, phrase);
  }
};
